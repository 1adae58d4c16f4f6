// The Burrows–Wheeler transform of a block: its cyclic rotations sorted, by
// prefix doubling with counting sorts (rank pairs of length k → 2k) until
// every rank is distinct or k covers the block. Returns, for each sorted
// rotation, where it starts.

export function sortRotations(block: Uint8Array, n: number): Int32Array {
  const sa = new Int32Array(n);
  const rank = new Int32Array(n);
  const tmp = new Int32Array(n);
  const cnt = new Int32Array(Math.max(257, n + 1));
  // First key: the byte.
  for (let i = 0; i < n; i++) cnt[block[i] + 1]++;
  for (let i = 1; i < 257; i++) cnt[i] += cnt[i - 1];
  for (let i = 0; i < n; i++) sa[cnt[block[i]]++] = i;
  let classes = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && block[sa[i]] !== block[sa[i - 1]]) classes++;
    rank[sa[i]] = classes;
  }
  classes++;
  for (let k = 1; k < n && classes < n; k <<= 1) {
    // Order by the second half: rotation i - k, in the order of rotation i.
    for (let i = 0; i < n; i++) {
      let j = sa[i] - k;
      if (j < 0) j += n;
      tmp[i] = j;
    }
    // Stable counting sort by the first half's rank.
    cnt.fill(0, 0, classes + 1);
    for (let i = 0; i < n; i++) cnt[rank[tmp[i]] + 1]++;
    for (let i = 1; i <= classes; i++) cnt[i] += cnt[i - 1];
    for (let i = 0; i < n; i++) sa[cnt[rank[tmp[i]]]++] = tmp[i];
    // New ranks from (rank[i], rank[i + k]).
    tmp[sa[0]] = 0;
    classes = 1;
    for (let i = 1; i < n; i++) {
      const a = sa[i];
      const b = sa[i - 1];
      let a2 = a + k;
      if (a2 >= n) a2 -= n;
      let b2 = b + k;
      if (b2 >= n) b2 -= n;
      if (rank[a] !== rank[b] || rank[a2] !== rank[b2]) classes++;
      tmp[a] = classes - 1;
    }
    rank.set(tmp);
  }
  if (classes < n) {
    // A periodic block: equal rotations in descending order of where they start, so the
    // original comes last among its equals, where libbzip2's sort leaves it (origPtr).
    cnt.fill(0, 0, classes + 1);
    for (let i = 0; i < n; i++) cnt[rank[i] + 1]++;
    for (let i = 1; i <= classes; i++) cnt[i] += cnt[i - 1];
    for (let i = n - 1; i >= 0; i--) sa[cnt[rank[i]]++] = i;
  }
  return sa;
}

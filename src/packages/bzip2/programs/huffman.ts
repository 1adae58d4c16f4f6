// Huffman code lengths and codes exactly as libbzip2 makes them
// (BZ2_hbMakeCodeLengths / BZ2_hbAssignCodes): a binary heap of weights
// whose low byte is the subtree depth (so ties go to shallower trees), and
// weights halved until no code is longer than the limit.

export function makeCodeLengths(len: Uint8Array, freq: Int32Array, alphaSize: number, maxLen: number): void {
  const heap = new Int32Array(alphaSize + 2);
  const weight = new Int32Array(alphaSize * 2);
  const parent = new Int32Array(alphaSize * 2);
  for (let i = 0; i < alphaSize; i++) weight[i + 1] = (freq[i] === 0 ? 1 : freq[i]) << 8;
  for (;;) {
    let nNodes = alphaSize;
    let nHeap = 0;
    heap[0] = 0;
    weight[0] = 0;
    parent[0] = -2;
    const up = (z: number) => {
      const tmp = heap[z];
      while (weight[tmp] < weight[heap[z >> 1]]) {
        heap[z] = heap[z >> 1];
        z >>= 1;
      }
      heap[z] = tmp;
    };
    const down = (z: number) => {
      const tmp = heap[z];
      for (;;) {
        let yy = z << 1;
        if (yy > nHeap) break;
        if (yy < nHeap && weight[heap[yy + 1]] < weight[heap[yy]]) yy++;
        if (weight[tmp] < weight[heap[yy]]) break;
        heap[z] = heap[yy];
        z = yy;
      }
      heap[z] = tmp;
    };
    for (let i = 1; i <= alphaSize; i++) {
      parent[i] = -1;
      heap[++nHeap] = i;
      up(nHeap);
    }
    while (nHeap > 1) {
      const n1 = heap[1];
      heap[1] = heap[nHeap--];
      down(1);
      const n2 = heap[1];
      heap[1] = heap[nHeap--];
      down(1);
      nNodes++;
      parent[n1] = parent[n2] = nNodes;
      const w1 = weight[n1];
      const w2 = weight[n2];
      weight[nNodes] = ((w1 & 0xffffff00) + (w2 & 0xffffff00)) | (1 + Math.max(w1 & 0xff, w2 & 0xff));
      parent[nNodes] = -1;
      heap[++nHeap] = nNodes;
      up(nHeap);
    }
    let tooLong = false;
    for (let i = 1; i <= alphaSize; i++) {
      let j = 0;
      let k = i;
      while (parent[k] >= 0) {
        k = parent[k];
        j++;
      }
      len[i - 1] = j;
      if (j > maxLen) tooLong = true;
    }
    if (!tooLong) return;
    for (let i = 1; i <= alphaSize; i++) {
      const j = 1 + ((weight[i] >> 8) >> 1);
      weight[i] = j << 8;
    }
  }
}

/** Canonical codes: by length, then by symbol. */
export function assignCodes(code: Int32Array, len: Uint8Array, minLen: number, maxLen: number, alphaSize: number): void {
  let vec = 0;
  for (let n = minLen; n <= maxLen; n++) {
    for (let i = 0; i < alphaSize; i++) if (len[i] === n) code[i] = vec++;
    vec <<= 1;
  }
}

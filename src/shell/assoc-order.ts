// The order bash lists an associative array in: its hash table's. bash keeps
// the entries in 1024 buckets chosen by the FNV-1 hash of the key's bytes
// (each byte a signed char), newest first within a bucket, and walks the
// buckets in order. Scripts print `${!A[@]}` and `declare -p A` and compare
// the text, so the listing order is part of the behaviour.

const BUCKETS = 1024;
const encoder = new TextEncoder();

function bucketOf(key: string): number {
  let h = 2166136261 | 0;
  for (const byte of encoder.encode(key)) {
    h = Math.imul(h, 16777619);
    h ^= (byte << 24) >> 24;
  }
  return h & (BUCKETS - 1);
}

/** The entries of an insertion-ordered map in bash's listing order. */
export function assocEntries(map: Map<string, string>): [string, string][] {
  const rows = [...map].map((entry, seq) => ({ entry, seq, bucket: bucketOf(entry[0]) }));
  rows.sort((a, b) => a.bucket - b.bucket || b.seq - a.seq);
  return rows.map((r) => r.entry);
}

// writer TOTAL CHUNK: write TOTAL bytes to stdout in CHUNK-byte write() calls (benchmark).
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  const total = Number(os.argv[1] ?? 1 << 20);
  const chunk = new Uint8Array(Number(os.argv[2] ?? 65536)).fill(97);
  for (let left = total; left > 0; ) {
    const n = Math.min(left, chunk.byteLength);
    os.sys.writeAll(1, n === chunk.byteLength ? chunk : chunk.subarray(0, n));
    left -= n;
  }
}

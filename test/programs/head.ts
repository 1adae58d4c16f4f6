// head -c N | -n N: copy the first N bytes or lines of stdin, then exit (closing the pipe).
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  const [flag, nstr] = os.argv.slice(1);
  let left = Number(nstr ?? 10);
  while (left > 0) {
    const b = os.sys.read(0, 65536);
    if (!b.byteLength) break;
    let take = b.byteLength;
    if (flag === '-n') {
      for (let i = 0; i < b.byteLength; i++) {
        if (b[i] === 10 && --left === 0) {
          take = i + 1;
          break;
        }
      }
    } else {
      take = Math.min(take, left);
      left -= take;
    }
    os.sys.writeAll(1, b.subarray(0, take));
  }
}

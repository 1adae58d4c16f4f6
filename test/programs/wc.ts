// wc -c: count stdin bytes.
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  let n = 0;
  for (let b = os.sys.read(0); b.byteLength; b = os.sys.read(0)) n += b.byteLength;
  os.print(`${n}\n`);
}

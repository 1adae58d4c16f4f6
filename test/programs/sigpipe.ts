// sigpipe [ignore]: write to stdout until the reader is gone. With "ignore", SIGPIPE is
// ignored and the EPIPE error is reported instead of dying from the signal.
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  if (os.argv[1] === 'ignore') os.signal(13, 1);
  const block = new Uint8Array(4096).fill(120);
  try {
    for (;;) os.sys.writeAll(1, block);
  } catch (e) {
    if (!(e instanceof os.SysError)) throw e;
    os.eprint(`write: ${e.code}\n`);
    os.exit(3);
  }
}

// writefile PATH TEXT: open PATH for writing (a FIFO blocks until a reader comes) and write TEXT.
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  const [path, text] = os.argv.slice(1);
  const fd = os.sys.open(path, 0o1 | 0o100 /* O_WRONLY|O_CREAT */, 0o644);
  os.sys.writeAll(fd, text);
  os.sys.close(fd);
}

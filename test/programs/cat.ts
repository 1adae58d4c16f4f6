// cat [FILE...]: copy files (or stdin) to stdout, chunk by chunk (streams, never slurps).
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  const files = os.argv.slice(1);
  let status = 0;
  for (const name of files.length ? files : ['-']) {
    let fd = 0;
    try {
      if (name !== '-') fd = os.sys.open(name);
      for (let b = os.sys.read(fd, 65536); b.byteLength; b = os.sys.read(fd, 65536)) os.sys.writeAll(1, b);
      if (fd) os.sys.close(fd);
    } catch (e) {
      if (!(e instanceof os.SysError)) throw e;
      os.eprint(`cat: ${name}: ${e.message}\n`);
      status = 1;
    }
  }
  os.exit(status);
}

// execer PROGRAM [ARGS...]: print our pid to stderr, then execve PROGRAM (which keeps the pid).
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  const [prog, ...rest] = os.argv.slice(1);
  os.eprint(`pid ${os.pid}\n`);
  const env = Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
  try {
    os.sys.execve(prog, [prog, ...rest], env);
  } catch (e) {
    if (!(e instanceof os.SysError)) throw e;
    os.eprint(`execve: ${e.code}\n`);
    os.exit(126);
  }
}

// spawn MODE PROGRAM [ARGS...]: start PROGRAM as a child, inheriting our fds.
//   wait    wait for it and print "status N"
//   orphan  print the child's pid and exit at once, leaving it to init
//   nohang  print waitpid(WNOHANG) while it runs, then wait
//   nochild print what waitpid gives with no children
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  const [mode, prog, ...rest] = os.argv.slice(1);
  if (mode === 'nochild') {
    try {
      os.sys.waitpid(-1, 0);
      os.print('waited?\n');
    } catch (e) {
      os.print(`${(e as InstanceType<typeof os.SysError>).code}\n`);
    }
    return;
  }
  const env = Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
  // An orphan gets no fds, so it does not hold our caller's pipes open.
  const fds: [number, number][] | undefined = mode === 'orphan' ? [] : undefined;
  const pid = os.sys.spawn({ path: prog, argv: [prog, ...rest], env, fds });
  if (mode === 'orphan') {
    os.print(`${pid}\n`);
    return;
  }
  if (mode === 'nohang') os.print(`nohang ${os.sys.waitpid(pid, 1).join(' ')}\n`);
  const [got, status] = os.sys.waitpid(pid, 0);
  os.print(`status ${got === pid ? status : -1}\n`);
}

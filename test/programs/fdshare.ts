// fdshare FILE: show fd inheritance rules. Opens FILE (shared offset) and /dev/null at fds 21 and
// 20 (O_CLOEXEC), then spawns `probe` inheriting everything and `echo child` writing
// into FILE through the same open file description. Prints the fds it opened.
import type { AgentosApi } from '../../src/runtimes/js/api.js';

const O_WRONLY = 0o1, O_CREAT = 0o100, O_TRUNC = 0o1000, O_CLOEXEC = 0o2000000;

export default function main(os: AgentosApi): void {
  const s = os.sys;
  const file = s.open(os.argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0o644);
  // High numbers, so the child's own opens cannot land on them by chance.
  const keep = s.dup2(s.open('/dev/null', 0), 21);
  const drop = s.dup2(s.open('/dev/null', 0), 20, O_CLOEXEC);
  os.print(JSON.stringify({ keep, drop }) + '\n');
  const env = Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
  const wait = (pid: number) => s.waitpid(pid, 0)[1];
  wait(s.spawn({ path: '/usr/local/bin/probe', argv: ['probe'], env }));
  os.print('\n');
  s.writeAll(file, 'parent1\n');
  wait(s.spawn({ path: '/usr/local/bin/echo', argv: ['echo', 'child'], env, fds: [[1, file], [2, 2]] }));
  s.writeAll(file, 'parent2\n');
}

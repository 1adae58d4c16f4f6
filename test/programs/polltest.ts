// polltest: exercise poll() on pipes and print what it reports, one JSON line.
import type { AgentosApi } from '../../src/runtimes/js/api.js';

const POLLIN = 1, POLLOUT = 4;

export default function main(os: AgentosApi): void {
  const s = os.sys;
  const [r, w] = s.pipe();
  const t0 = performance.now();
  const empty = s.poll([[r, POLLIN]], 50);
  const waited = performance.now() - t0;
  const writable = s.poll([[w, POLLOUT]], 0);
  // Another process writes; poll(-1) sleeps until then.
  const env = Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
  const pid = s.spawn({ path: '/usr/local/bin/echo', argv: ['echo', 'x'], env, fds: [[1, w], [2, 2]] });
  const readable = s.poll([[r, POLLIN]], -1);
  s.waitpid(pid, 0);
  s.close(w);
  s.read(r, 10);
  const hangup = s.poll([[r, POLLIN]], -1);
  const invalid = s.poll([[99, POLLIN]], 0);
  os.print(JSON.stringify({ empty, waited: waited >= 45, writable, readable, hangup, invalid }));
}

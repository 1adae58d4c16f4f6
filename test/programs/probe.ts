// probe: report what a process sees of itself, as JSON, for the kernel suite.
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  const s = os.sys;
  const text = (p: string) => new TextDecoder().decode(s.readFile(p));
  const attempt = <T>(f: () => T): T | string => {
    try {
      return f();
    } catch (e) {
      return e instanceof os.SysError ? e.code : String(e);
    }
  };
  const out = {
    pid: s.getpid(),
    ppid: s.getppid(),
    pgid: s.getpgid(),
    self: attempt(() => s.readlink('/proc/self')),
    cmdline: attempt(() => text('/proc/self/cmdline')),
    status: attempt(() => text(`/proc/${s.getpid()}/status`)),
    fds: attempt(() => s.readdir('/proc/self/fd').map((e) => e.name).filter((n) => n[0] !== '.')),
    fd1: attempt(() => s.readlink('/proc/self/fd/1')),
    cwd: s.getcwd(),
    procCwd: attempt(() => s.readlink('/proc/self/cwd')),
    uptime: attempt(() => text('/proc/uptime')),
    meminfo: attempt(() => text('/proc/meminfo').split('\n')[0]),
    zero: attempt(() => {
      const fd = s.open('/dev/zero');
      const b = s.read(fd, 16);
      s.close(fd);
      return Array.from(b).join(',');
    }),
    urandom: attempt(() => {
      const fd = s.open('/dev/urandom');
      const b = s.read(fd, 32);
      s.close(fd);
      return b.byteLength;
    }),
    nullRead: attempt(() => s.readFile('/dev/null').byteLength),
    env: os.env.PROBE ?? null,
    uname: s.uname().sysname,
  };
  s.writeAll(1, JSON.stringify(out));
  // Writing via /dev/stdout reopens fd 1 through /proc/self/fd/1: same pipe.
  attempt(() => s.writeFile('/dev/stdout', '\n--via /dev/stdout'));
}

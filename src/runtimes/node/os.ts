// The `os` module, from uname(2), the environment and the process's user.

import type { Rt } from './rt.js';
import { signalFromName } from '../../abi/signal.js';
import { onlineCpus } from '../../libc/cpus.js';

const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGILL', 'SIGTRAP', 'SIGABRT', 'SIGBUS', 'SIGFPE', 'SIGKILL', 'SIGUSR1', 'SIGSEGV',
  'SIGUSR2', 'SIGPIPE', 'SIGALRM', 'SIGTERM', 'SIGCHLD', 'SIGCONT', 'SIGSTOP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU', 'SIGURG', 'SIGXCPU',
  'SIGXFSZ', 'SIGVTALRM', 'SIGPROF', 'SIGWINCH', 'SIGIO', 'SIGSYS'];

export function makeOs(rt: Rt) {
  const un = () => rt.sys.uname();
  const env = () => rt.process.env;
  const signals: Record<string, number> = {};
  for (const s of SIGNALS) signals[s] = signalFromName(s)!;
  const cpu = { model: 'agentOS virtual CPU', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } };
  return {
    EOL: '\n',
    devNull: '/dev/null',
    hostname: () => un().nodename,
    type: () => un().sysname,
    platform: () => 'linux',
    release: () => un().release,
    version: () => un().version ?? '#1 SMP',
    machine: () => un().machine ?? 'x86_64',
    arch: () => 'x64',
    endianness: () => 'LE',
    homedir: () => env().HOME ?? '/root',
    tmpdir: () => (env().TMPDIR ?? '/tmp').replace(/(.)\/$/, '$1'),
    uptime: () => Math.floor(performance.now() / 1000),
    loadavg: () => [0, 0, 0],
    totalmem: () => 2 ** 31,
    freemem: () => 2 ** 30,
    availableParallelism: () => onlineCpus(rt.sys),
    cpus: () => Array.from({ length: onlineCpus(rt.sys) }, () => ({ ...cpu })),
    networkInterfaces: () => ({}),
    userInfo: () => {
      const uid = rt.sys.getuid();
      return { uid, gid: rt.sys.getgid(), username: env().USER ?? env().LOGNAME ?? (uid === 0 ? 'root' : 'user'), homedir: env().HOME ?? '/', shell: env().SHELL ?? '/bin/sh' };
    },
    getPriority: () => 0,
    setPriority: () => {},
    constants: { signals, errno: {}, priority: {} },
  };
}

// The root of /proc: system-wide files, `self`, and a directory per process.

import { Errno, SysError } from '../../../abi/errno.js';
import { parseDecimal, type DirSpec, type Entry, type FileEntry } from './entry.js';
import { pidBase } from './ino.js';
import { PID_DIR } from './pid.js';
import {
  OS_RELEASE, cpuinfoText, loadavgText, meminfoText, statText, uptimeText, versionText,
} from './text.js';

const file = (name: string, read: FileEntry['read']): Entry => ({ name, type: 'file', perm: 0o444, read });

const dir = (name: string, children: Entry[]): DirSpec => ({ name, type: 'dir', perm: 0o555, children });

const sysKernel = dir('kernel', [
  file('hostname', (c) => `${c.src.hostname}\n`),
  file('ostype', () => 'Linux\n'),
  file('osrelease', () => `${OS_RELEASE}\n`),
]);

const entries: Entry[] = [
  file('cpuinfo', (c) => cpuinfoText(c.src)),
  file('loadavg', (c) => loadavgText(c.src)),
  file('meminfo', (c) => meminfoText(c.src)),
  file('stat', (c) => statText(c.src)),
  file('uptime', (c) => uptimeText(c.src)),
  file('version', versionText),
  // Linux made /proc/mounts a link when mount namespaces arrived.
  { name: 'mounts', type: 'link', perm: 0o777, target: () => 'self/mounts' },
  dir('sys', [sysKernel]),
  dir('net', (['tcp', 'tcp6', 'udp', 'udp6', 'unix'] as const).map((n) => file(n, (c) => c.src.net?.(n) ?? ''))),
  // agentOS's own: the audit trail (issue 9), read-only for everyone.
  dir('agentos', [file('audit', (c) => c.src.audit?.() ?? '')]),
  {
    name: 'self',
    type: 'link',
    perm: 0o777,
    target: (c) => {
      if (!c.src.get(c.cred.pid)) throw new SysError(Errno.ENOENT, 'caller has no pid');
      return String(c.cred.pid);
    },
  },
];

export const ROOT_DIR: DirSpec = {
  name: '/',
  type: 'dir',
  perm: 0o555,
  children: entries,
  dynamic: {
    names: (c) => c.src.procs().map((p) => String(p.pid)),
    child: (c, name) => {
      const pid = parseDecimal(name);
      if (pid === null || !c.src.get(pid)) return null;
      return { entry: PID_DIR, pid, fd: -1, ino: pidBase(pid) };
    },
  },
  // Like proc_root_getattr: every process directory links back with its "..".
  extraLinks: (c) => c.src.procs().length,
};

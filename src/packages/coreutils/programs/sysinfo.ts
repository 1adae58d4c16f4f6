// uname, hostname, whoami, id, nproc: facts about the system and the user.

import { command, groupName, groups, quote, userName } from '../../../userland/lib/index.js';
import { onlineCpus } from '../../../libc/cpus.js';

const UNAME_USAGE = `Usage: uname [OPTION]...
Print certain system information.  With no OPTION, same as -s.

  -a, --all                print all information, in the following order,
                             except omit -p and -i if unknown:
  -s, --kernel-name        print the kernel name
  -n, --nodename           print the network node hostname
  -r, --kernel-release     print the kernel release
  -v, --kernel-version     print the kernel version
  -m, --machine            print the machine hardware name
  -p, --processor          print the processor type (non-portable)
  -i, --hardware-platform  print the hardware platform (non-portable)
  -o, --operating-system   print the operating system
      --help     display this help and exit
      --version  output version information and exit
`;

export const uname = command(
  {
    name: 'uname',
    usage: UNAME_USAGE,
    short: 'asnrvmpio',
    long: {
      all: ['a', 'none'], 'kernel-name': ['s', 'none'], nodename: ['n', 'none'], 'kernel-release': ['r', 'none'],
      'kernel-version': ['v', 'none'], machine: ['m', 'none'], processor: ['p', 'none'],
      'hardware-platform': ['i', 'none'], 'operating-system': ['o', 'none'],
    },
  },
  (c) => {
    if (c.operands.length) c.usage(`extra operand ${quote(c.operands[0])}`);
    const u = c.sys.uname();
    const all = c.has('a');
    const want = (k: string) => all || c.has(k);
    const fields: string[] = [];
    const none = !'snrvmpio'.split('').some((k) => c.has(k)) && !all;
    if (none || want('s')) fields.push(u.sysname);
    if (want('n')) fields.push(u.nodename);
    if (want('r')) fields.push(u.release);
    if (want('v')) fields.push(u.version);
    if (want('m')) fields.push(u.machine);
    if (c.has('p')) fields.push('unknown');
    if (c.has('i')) fields.push('unknown');
    if (want('o')) fields.push(u.sysname === 'Linux' ? 'GNU/Linux' : (u.sysname ?? 'agentOS'));
    c.out.write(fields.join(' ') + '\n');
  },
);

export const hostname = command(
  { name: 'hostname', usage: 'Usage: hostname\nShow the system\'s host name.\n' },
  (c) => {
    c.out.write(c.sys.uname().nodename + '\n');
  },
);

export const whoami = command(
  { name: 'whoami', usage: 'Usage: whoami [OPTION]...\nPrint the user name associated with the current effective user ID.\n' },
  (c) => {
    if (c.operands.length) c.usage(`extra operand ${quote(c.operands[0])}`);
    const uid = c.sys.getuid();
    const n = userName(c.sys, uid);
    if (n === undefined) {
      c.error(`cannot find name for user ID ${uid}`);
      return;
    }
    c.out.write(n + '\n');
  },
);

const ID_USAGE = `Usage: id [OPTION]... [USER]...
Print user and group information for each specified USER,
or (when USER omitted) for the current process.

  -g, --group    print only the effective group ID
  -G, --groups   print all group IDs
  -n, --name     print a name instead of a number, for -ugG
  -u, --user     print only the effective user ID
      --help     display this help and exit
      --version  output version information and exit
`;

export const id = command(
  {
    name: 'id',
    usage: ID_USAGE,
    short: 'gGnru',
    long: { group: ['g', 'none'], groups: ['G', 'none'], name: ['n', 'none'], real: ['r', 'none'], user: ['u', 'none'] },
  },
  (c) => {
    const uid = c.sys.getuid();
    const gid = c.sys.getgid();
    const uname = userName(c.sys, uid) ?? '';
    // Supplementary groups come from /etc/group membership (no getgroups syscall yet).
    const sup = groups(c.sys).filter((g) => g.members.includes(uname) && g.id !== gid).map((g) => g.id);
    const all = [gid, ...sup];
    const nm = (isUser: boolean, n: number) => (c.has('n') ? ((isUser ? userName(c.sys, n) : groupName(c.sys, n)) ?? String(n)) : String(n));
    if (c.has('u')) return c.out.write(nm(true, uid) + '\n');
    if (c.has('g')) return c.out.write(nm(false, gid) + '\n');
    if (c.has('G')) return c.out.write(all.map((g) => nm(false, g)).join(' ') + '\n');
    const named = (n: number, name: string | undefined) => (name === undefined ? `${n}` : `${n}(${name})`);
    c.out.write(
      `uid=${named(uid, userName(c.sys, uid))} gid=${named(gid, groupName(c.sys, gid))} groups=${all.map((g) => named(g, groupName(c.sys, g))).join(',')}\n`,
    );
  },
);

const NPROC_USAGE = `Usage: nproc [OPTION]...
Print the number of processing units available to the current process,
which may be less than the number of online processors

      --all      print the number of installed processors
      --ignore=N  if possible, exclude N processing units
      --help     display this help and exit
      --version  output version information and exit
`;

/** OMP_NUM_THREADS / OMP_THREAD_LIMIT as GNU nproc reads them: the first number of a list, 0 or junk ignored. */
function ompValue(v: string | undefined): number {
  const m = /^\s*\+?(\d+)\s*(,|$)/.exec(v ?? '');
  return m ? Number(m[1]) : 0;
}

export const nproc = command(
  { name: 'nproc', usage: NPROC_USAGE, long: { all: ['all', 'none'], ignore: ['ignore', 'required'] } },
  (c) => {
    if (c.operands.length) return c.usage(`extra operand ${quote(c.operands[0])}`);
    const ignoreArg = c.get('ignore');
    let ignore = 0;
    if (ignoreArg !== undefined) {
      if (!/^\s*\+?\d+$/.test(ignoreArg)) return c.fail(`invalid number: ${quote(ignoreArg)}`);
      ignore = Number(ignoreArg);
    }
    let n = onlineCpus(c.sys);
    if (!c.has('all')) {
      const omp = ompValue(c.os.env.OMP_NUM_THREADS);
      if (omp > 0) n = omp;
      const limit = ompValue(c.os.env.OMP_THREAD_LIMIT);
      if (limit > 0) n = Math.min(n, limit);
    }
    c.out.write(`${Math.max(1, n - ignore)}\n`);
  },
);

// du [-abchs] [-d N] [--apparent-size] [FILE]...: summarise disk usage.
// Sizes are st_blocks * 512 (the kernel counts whole 4 KiB pages for regular files and
// nothing for directories, symlinks and devices) or, with --apparent-size / -b, st_size.
// Hard links are counted once. Entries come in directory order, as GNU's fts gives them.

import { isDir, type Stat } from '../../../abi/stat.js';
import { command, humanSize, joinPath, quote, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: du [OPTION]... [FILE]...
Summarize device usage of the set of FILEs, recursively for directories.

  -a, --all             write counts for all files, not just directories
      --apparent-size   print apparent sizes rather than device usage
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -d, --max-depth=N     print the total for a directory (or file, with --all)
                          only if it is N or fewer levels below the command
                          line argument;  --max-depth=0 is the same as
                          --summarize
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
  -k                    like --block-size=1K
  -m                    like --block-size=1M
  -s, --summarize       display only a total for each argument
      --help        display this help and exit
      --version     output version information and exit

agentOS: device usage is st_blocks (whole 4 KiB pages for regular files, none
for directories); use --apparent-size or -b for byte counts.
`;

interface Opts {
  apparent: boolean;
  unit: number; // 0 = human
  all: boolean;
  maxDepth: number;
}

export const du = command(
  {
    name: 'du',
    usage: USAGE,
    short: 'abcd:hkms',
    long: {
      all: ['a', 'none'], 'apparent-size': ['A', 'none'], bytes: ['b', 'none'], total: ['c', 'none'],
      'max-depth': ['d', 'required'], 'human-readable': ['h', 'none'], summarize: ['s', 'none'],
    },
  },
  (c) => {
    const o: Opts = { apparent: c.has('A') || c.has('b'), unit: 1024, all: c.has('a'), maxDepth: Infinity };
    for (const [k] of c.all) {
      if (k === 'b') o.unit = 1;
      else if (k === 'k') o.unit = 1024;
      else if (k === 'm') o.unit = 1024 * 1024;
      else if (k === 'h') o.unit = 0;
    }
    if (c.has('d')) {
      const v = c.get('d')!;
      if (!/^\d+$/.test(v)) c.usage(`invalid maximum depth ${quote(v)}`);
      o.maxDepth = Number(v);
    }
    if (c.has('s')) {
      if (c.has('d') && o.maxDepth !== 0) {
        c.warn('cannot both summarize and show all entries');
        c.tryHelp();
      }
      if (c.has('a')) c.usage('cannot both summarize and show all entries');
      o.maxDepth = 0;
    }
    const seen = new Set<string>();
    let total = 0;
    for (const f of c.operands.length ? c.operands : ['.']) total += walk(c, o, f, 0, seen, true);
    if (c.has('c')) c.out.write(`${show(o, total)}\ttotal\n`);
  },
);

const show = (o: Opts, bytes: number): string => (o.unit === 0 ? humanSize(bytes) : String(Math.ceil(bytes / o.unit)));

function sizeOf(o: Opts, st: Stat): number {
  return o.apparent ? st.size : st.blocks * 512;
}

function walk(c: Cmd, o: Opts, path: string, depth: number, seen: Set<string>, top: boolean): number {
  let st: Stat;
  try {
    st = c.sys.lstat(path);
  } catch (e) {
    c.cannot('access', path, e);
    return 0;
  }
  const id = `${st.dev}:${st.ino}`;
  if (seen.has(id)) return 0;
  if (st.nlink > 1 || isDir(st.mode)) seen.add(id);
  let size = sizeOf(o, st);
  if (isDir(st.mode)) {
    let names: string[] = [];
    try {
      names = c.sys.readdir(path).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
    } catch (e) {
      c.cannot('read directory', path, e);
    }
    for (const n of names) size += walk(c, o, joinPath(path, n), depth + 1, seen, false);
  }
  if (depth <= o.maxDepth && (isDir(st.mode) || o.all || top)) c.out.write(`${show(o, size)}\t${path}\n`);
  return size;
}

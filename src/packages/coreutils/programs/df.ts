// df [-hkTa] [FILE]...: file system usage from statfs(2), one line per mount
// (/proc/self/mounts) or per file system holding each FILE. Columns are GNU's.

import { type StatFs } from '../../../abi/stat.js';
import { command, humanSize, quotef, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: df [OPTION]... [FILE]...
Show information about the file system on which each FILE resides,
or all file systems by default.

  -a, --all             include pseudo, duplicate, inaccessible file systems
  -h, --human-readable  print sizes in powers of 1024 (e.g., 1023M)
  -k                    like --block-size=1K
  -T, --print-type      print file system type
      --total           elide all entries insignificant to available space,
                          and produce a grand total
      --help        display this help and exit
      --version     output version information and exit
`;

interface Mount {
  source: string;
  target: string;
  type: string;
}

const unmangle = (s: string): string => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

function mounts(c: Cmd): Mount[] {
  let text = '';
  try {
    text = new TextDecoder().decode(c.sys.readFile('/proc/self/mounts'));
  } catch {
    return [{ source: 'rootfs', target: '/', type: 'rootfs' }];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' '))
    .map(([source, target, type]) => ({ source: unmangle(source), target: unmangle(target), type }));
}

/** The mount holding `path`: the longest mount point that prefixes its real path. */
function mountOf(all: Mount[], real: string): Mount | undefined {
  let best: Mount | undefined;
  for (const m of all) {
    const under = m.target === '/' || real === m.target || real.startsWith(`${m.target}/`);
    if (under && (!best || m.target.length >= best.target.length)) best = m;
  }
  return best;
}

export const df = command(
  {
    name: 'df',
    usage: USAGE,
    short: 'ahkT',
    long: { all: ['a', 'none'], 'human-readable': ['h', 'none'], 'print-type': ['T', 'none'], total: ['total', 'none'] },
  },
  (c) => {
    const human = [...c.all].reverse().find(([k]) => k === 'h' || k === 'k')?.[0] === 'h';
    const all = mounts(c);
    const rows: [Mount, StatFs][] = [];
    if (c.operands.length === 0) {
      for (const m of all) {
        try {
          const s = c.sys.statfs(m.target);
          if (s.blocks > 0 || c.has('a')) rows.push([m, s]);
        } catch {
          // Unreachable mount point: skipped as GNU does without -a.
        }
      }
    }
    for (const f of c.operands) {
      try {
        const s = c.sys.statfs(f);
        const m = mountOf(all, c.sys.realpath(f)) ?? { source: '-', target: '/', type: s.type };
        rows.push([m, s]);
      } catch (e) {
        c.sysError(quotef(f), e);
      }
    }
    if (rows.length === 0) {
      if (c.status === 0) c.fail('no file systems processed');
      return;
    }
    const table: string[][] = [['Filesystem', ...(c.has('T') ? ['Type'] : []), human ? 'Size' : '1K-blocks', 'Used', human ? 'Avail' : 'Available', 'Use%', 'Mounted on']];
    const fmt = (blocks: number, bsize: number) => (human ? humanSize(blocks * bsize) : String(Math.ceil((blocks * bsize) / 1024)));
    const sum = [0, 0, 0];
    for (const [m, s] of rows) {
      const used = s.blocks - s.bfree;
      const pct = used + s.bavail > 0 ? `${Math.ceil((used * 100) / (used + s.bavail))}%` : '-';
      sum[0] += s.blocks * s.bsize;
      sum[1] += used * s.bsize;
      sum[2] += s.bavail * s.bsize;
      table.push([m.source, ...(c.has('T') ? [m.type] : []), fmt(s.blocks, s.bsize), fmt(used, s.bsize), fmt(s.bavail, s.bsize), pct, m.target]);
    }
    if (c.has('total')) {
      const pct = sum[1] + sum[2] > 0 ? `${Math.ceil((sum[1] * 100) / (sum[1] + sum[2]))}%` : '-';
      table.push(['total', ...(c.has('T') ? ['-'] : []), fmt(sum[0], 1), fmt(sum[1], 1), fmt(sum[2], 1), pct, '-']);
    }
    print(c, table);
  },
);

/** GNU's layout: text columns left-aligned (Filesystem at least 14 wide), numbers right-aligned. */
function print(c: Cmd, table: string[][]): void {
  const n = table[0].length;
  const left = (i: number) => i === 0 || i === n - 1 || (n === 7 && i === 1);
  const min = (i: number) => (i === 0 ? 14 : i === n - 1 ? 0 : i === n - 2 || (n === 7 && i === 1) ? 4 : 5);
  const widths = table[0].map((_, i) => Math.max(min(i), ...table.map((r) => r[i].length)));
  for (const r of table) {
    const cells = r.map((v, i) => (i === n - 1 ? v : left(i) ? v.padEnd(widths[i]) : v.padStart(widths[i])));
    c.out.write(`${cells.join(' ')}\n`);
  }
}

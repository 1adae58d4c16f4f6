// truncate -s [+-<>/%]SIZE | -r RFILE [-c] [-o] FILE...: set file sizes (creating files unless -c).

import { Errno } from '../../../abi/errno.js';
import { O_CREAT, O_WRONLY } from '../../../abi/fcntl.js';
import { isDir } from '../../../abi/stat.js';
import { command, errnoOf, quote, quoteaf, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: truncate OPTION... FILE...
Shrink or extend the size of each FILE to the specified size

A FILE argument that does not exist is created.

If a FILE is larger than the specified size, the extra data is lost.
If a FILE is shorter, it is extended and the sparse extended part (hole)
reads as zero bytes.

Mandatory arguments to long options are mandatory for short options too.
  -c, --no-create        do not create any files
  -o, --io-blocks        treat SIZE as number of IO blocks instead of bytes
  -r, --reference=RFILE  base size on RFILE
  -s, --size=SIZE        set or adjust the file size by SIZE bytes
      --help        display this help and exit
      --version     output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

SIZE may also be prefixed by one of the following modifying characters:
'+' extend by, '-' reduce by, '<' at most, '>' at least,
'/' round down to multiple of, '%' round up to multiple of.
`;

/** GNU size suffixes: K = k = KiB = 1024, KB = 1000, and so on up to Y. */
export function parseSize(s: string): number | null {
  const m = /^(\d+)(?:([KMGTPEZYkgmt])(iB|B)?)?$/.exec(s);
  if (!m) return null;
  if (!m[2]) return Number(m[1]);
  const pow = 'KMGTPEZY'.indexOf(m[2].toUpperCase()) + 1;
  return Number(m[1]) * (m[3] === 'B' ? 1000 : 1024) ** pow;
}

function adjust(c: Cmd, op: string, n: number, cur: number): number {
  switch (op) {
    case '+': return cur + n;
    case '-': return Math.max(0, cur - n);
    case '<': return Math.min(cur, n);
    case '>': return Math.max(cur, n);
    case '/': return n === 0 ? c.fail('division by zero') : Math.floor(cur / n) * n;
    case '%': return n === 0 ? c.fail('division by zero') : Math.ceil(cur / n) * n;
    default: return n;
  }
}

export const truncate = command(
  {
    name: 'truncate',
    usage: USAGE,
    short: 'cor:s:',
    long: { 'no-create': ['c', 'none'], 'io-blocks': ['o', 'none'], reference: ['r', 'required'], size: ['s', 'required'] },
  },
  (c) => {
    const sizeArg = c.get('s');
    if (sizeArg === undefined && !c.has('r')) c.usage(`you must specify either ${quote('--size')} or ${quote('--reference')}`);
    let op = '';
    let n = 0;
    if (sizeArg !== undefined) {
      const m = /^\s*([-+<>/%]?)\s*(.*)$/.exec(sizeArg)!;
      op = m[1];
      const v = parseSize(m[2]);
      if (v === null) c.fail(`Invalid number: ${quote(sizeArg)}`);
      n = v!;
      if (c.has('r') && !op) c.usage(`you must specify a relative ${quote('--size')} with ${quote('--reference')}`);
    }
    if (c.has('o') && sizeArg === undefined) c.usage(`${quote('--io-blocks')} was specified but ${quote('--size')} was not`);
    let ref: number | null = null;
    if (c.has('r')) {
      try {
        ref = c.sys.stat(c.get('r')!).size;
      } catch (e) {
        c.cannot('stat', c.get('r')!, e);
        return 1;
      }
    }
    if (c.operands.length === 0) c.usage('missing file operand');
    for (const f of c.operands) {
      let fd: number;
      try {
        fd = c.sys.open(f, O_WRONLY | (c.has('c') ? 0 : O_CREAT), 0o666);
      } catch (e) {
        if (c.has('c') && errnoOf(e) === Errno.ENOENT) continue;
        c.sysError(`cannot open ${quoteaf(f)} for writing`, e);
        continue;
      }
      try {
        const st = c.sys.fstat(fd);
        const unit = c.has('o') ? st.blksize : 1;
        const cur = ref ?? st.size;
        const size = sizeArg === undefined ? cur : adjust(c, op, n * unit, cur);
        if (!isDir(st.mode)) c.sys.ftruncate(fd, size);
      } catch (e) {
        c.sysError(`failed to truncate ${quoteaf(f)}`, e);
      } finally {
        c.sys.close(fd);
      }
    }
  },
);

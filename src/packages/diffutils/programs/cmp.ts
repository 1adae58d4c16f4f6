// cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]: compare two files byte by
// byte, streaming (GNU diffutils 3.8 is the specification).

import { O_RDONLY, SEEK_CUR } from '../../../abi/fcntl.js';
import { isReg, type Stat } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).

Mandatory arguments to long options are mandatory for short options too.
  -b, --print-bytes          print differing bytes
  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs
  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and
                                      first SKIP2 bytes of FILE2
  -l, --verbose              output byte numbers and differing byte values
  -n, --bytes=LIMIT          compare at most LIMIT bytes
  -s, --quiet, --silent      suppress all normal output
      --help                 display this help and exit
  -v, --version              output version information and exit

SKIP values may be followed by the following multiplicative suffixes:
kB 1000, K 1024, MB 1,000,000, M 1,048,576,
GB 1,000,000,000, G 1,073,741,824, and so on for T, P, E, Z, Y.

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
`;

const CHUNK = 64 * 1024;

export default function main(os: AgentosApi): void {
  os.exit(cmp(os, os.argv.slice(1)));
}

/** First difference only, every difference (-l), status only (-s), or output discarded. */
type Mode = 'first' | 'all' | 'status' | 'no-stdout';

const cmp = command(
  {
    name: 'cmp',
    usage: USAGE,
    failStatus: 2,
    prefixTry: true,
    short: 'bi:ln:sv',
    long: {
      'print-bytes': ['b', 'none'], 'ignore-initial': ['i', 'required'], verbose: ['l', 'none'],
      bytes: ['n', 'required'], quiet: ['s', 'none'], silent: ['s', 'none'],
    },
  },
  (c) => {
    if (c.has('v')) {
      c.out.write('cmp (agentOS diffutils) 3.8\n');
      return 0;
    }
    let mode: Mode = 'first';
    const skip = [0, 0];
    let limit = Infinity;
    for (const [k, v] of c.all) {
      if (k === 'l') mode = 'all';
      else if (k === 's') mode = 'status';
      else if (k === 'n') limit = size(c, v as string, '--bytes');
      else if (k === 'i') {
        const [a, b] = (v as string).split(/:(.*)/s);
        skip[0] = size(c, a, '--ignore-initial', v);
        skip[1] = b === undefined ? skip[0] : size(c, b, '--ignore-initial', v);
      }
    }
    const ops = c.operands;
    if (ops.length === 0) c.usage(`missing operand after 'cmp'`);
    if (ops.length > 4) c.usage(`extra operand '${ops[4]}'`);
    for (let f = 0; f < 2; f++) if (ops[2 + f] !== undefined) skip[f] = size(c, ops[2 + f], '--ignore-initial');
    const names = [ops[0], ops[1] ?? '-'];
    const fds: number[] = [];
    const stats: Stat[] = [];
    for (let f = 0; f < 2; f++) {
      try {
        fds[f] = f === 1 && names[1] === names[0] && names[0] === '-' ? 0 : names[f] === '-' ? 0 : c.sys.open(names[f], O_RDONLY);
        stats[f] = c.sys.fstat(fds[f]);
      } catch (e) {
        c.sysError(names[f], e, 2);
        return 2;
      }
    }
    if (mode !== 'status' && isDevNull(c)) mode = 'no-stdout';
    const pos = [0, 1].map((f) => position(c, fds[f], skip[f]));
    if (stats[0].ino === stats[1].ino && stats[0].dev === stats[1].dev && pos[0] === pos[1] && pos[0] >= 0) return 0;
    if (mode === 'status' && isReg(stats[0].mode) && isReg(stats[1].mode)) {
      const s0 = Math.max(0, stats[0].size - pos[0]);
      const s1 = Math.max(0, stats[1].size - pos[1]);
      if (s0 !== s1 && Math.min(s0, s1) < limit) return 1;
    }
    let width = 1;
    if (mode === 'all') {
      let max = Math.min(limit, Number.MAX_SAFE_INTEGER);
      for (let f = 0; f < 2; f++) if (isReg(stats[f].mode)) max = Math.min(max, stats[f].size - pos[f]);
      for (let m = Math.floor(max / 10); m !== 0; m = Math.floor(m / 10)) width++;
    }
    for (let f = 0; f < 2; f++) if (pos[f] < 0) discard(c, fds[f], skip[f], names[f]);
    return compare(c, fds, names, mode, limit, width, c.has('b'));
  },
);

/** Skip by seeking (the new offset), or -1 when the input cannot seek (read and drop later). */
function position(c: Cmd, fd: number, skip: number): number {
  try {
    return c.sys.lseek(fd, skip, SEEK_CUR);
  } catch {
    return -1;
  }
}

function discard(c: Cmd, fd: number, skip: number, name: string): void {
  let left = skip;
  try {
    while (left > 0) {
      const b = c.sys.read(fd, Math.min(left, CHUNK));
      if (b.length === 0) break;
      left -= b.length;
    }
  } catch (e) {
    c.sysError(name, e, 2);
    c.exit(2);
  }
}

function isDevNull(c: Cmd): boolean {
  try {
    const out = c.sys.fstat(1);
    const nul = c.sys.stat('/dev/null');
    return out.ino === nul.ino && out.dev === nul.dev && out.rdev === nul.rdev;
  } catch {
    return false;
  }
}

/** Buffered reading of one input that hands out exactly the bytes asked for (fewer at EOF). */
class Input {
  private buf = new Uint8Array(0);
  private off = 0;
  private eof = false;

  constructor(
    private readonly c: Cmd,
    private readonly fd: number,
    private readonly name: string,
  ) {}

  take(n: number): Uint8Array {
    while (this.buf.length - this.off < n && !this.eof) {
      let b: Uint8Array;
      try {
        b = this.c.sys.read(this.fd, CHUNK);
      } catch (e) {
        this.c.sysError(this.name, e, 2);
        return this.c.exit(2);
      }
      if (b.length === 0) this.eof = true;
      else {
        const rest = this.buf.subarray(this.off);
        const joined = new Uint8Array(rest.length + b.length);
        joined.set(rest);
        joined.set(b, rest.length);
        this.buf = joined;
        this.off = 0;
      }
    }
    const out = this.buf.subarray(this.off, this.off + n);
    this.off += out.length;
    return out;
  }
}

function compare(c: Cmd, fds: number[], names: string[], mode: Mode, limit: number, width: number, bytes: boolean): number {
  const inputs = [0, 1].map((f) => new Input(c, fds[f], names[f]));
  let byte = 1;
  let line = 1;
  let remaining = limit;
  let differing = false;
  let lastNewline = true;
  for (;;) {
    const want = Math.min(CHUNK, remaining);
    if (want <= 0) break;
    remaining -= want;
    const b0 = inputs[0].take(want);
    const b1 = inputs[1].take(want);
    const smaller = Math.min(b0.length, b1.length);
    for (let i = 0; i < smaller; i++, byte++) {
      const x = b0[i];
      const y = b1[i];
      if (x === y) {
        if (x === 10) line++;
        continue;
      }
      if (mode === 'status') return 1;
      if (mode === 'no-stdout') return 1;
      if (mode === 'first') {
        const tail = bytes ? ` is ${oct(x)} ${printc(x)} ${oct(y)} ${printc(y)}` : '';
        // POSIX's wording in the C locale, "byte" elsewhere (as GNU decides it).
        const unit = bytes || hardLocale(c) ? 'byte' : 'char';
        c.out.write(`${names[0]} ${names[1]} differ: ${unit} ${byte}, line ${line}${tail}\n`);
        return 1;
      }
      differing = true;
      const num = String(byte).padStart(width);
      c.out.write(bytes ? `${num} ${oct(x)} ${printc(x).padEnd(4)} ${oct(y)} ${printc(y)}\n` : `${num} ${oct(x)} ${oct(y)}\n`);
    }
    if (smaller > 0) lastNewline = b0[smaller - 1] === 10;
    if (b0.length !== b1.length) {
      if (mode !== 'status') {
        const short = names[b1.length < b0.length ? 1 : 0];
        const n = byte - 1;
        let msg: string;
        if (n === 0) msg = `EOF on ${short} which is empty`;
        else if (mode !== 'first') msg = `EOF on ${short} after byte ${n}`;
        else msg = `EOF on ${short} after byte ${n}, ${lastNewline ? `line ${line - 1}` : `in line ${line}`}`;
        c.warn(msg);
      }
      return 1;
    }
    if (b0.length < want) break;
  }
  return differing ? 1 : 0;
}

function hardLocale(c: Cmd): boolean {
  const env = c.os.env;
  const loc = env.LC_ALL || env.LC_MESSAGES || env.LANG || 'C';
  return loc !== 'C' && loc !== 'POSIX';
}

const oct = (n: number): string => n.toString(8).padStart(3);

/** A byte made visible the way cat -t does: ^X, M-x, M-^X. */
function printc(n: number): string {
  let s = '';
  let v = n;
  if (!(v >= 32 && v < 127)) {
    if (v >= 128) {
      s += 'M-';
      v -= 128;
    }
    if (v < 32) {
      s += '^';
      v += 64;
    } else if (v === 127) {
      s += '^';
      v = 63;
    }
  }
  return s + String.fromCharCode(v);
}

const POWER: Record<string, number> = { k: 1, K: 1, M: 2, G: 3, T: 4, P: 5, E: 6, Z: 7, Y: 8 };

/** xstrtoumax with cmp's suffixes: 0x/0 prefixes, kB (1000) / K and KiB (1024) ... */
function size(c: Cmd, s: string, what: string, shown = s): number {
  const m = /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([kKMGTPEZY](?:B|iB)?|[bc]?)$/.exec(s);
  if (!m) return c.usage(`invalid ${what} value '${shown}'`);
  let n = Number(m[1].startsWith('0x') || m[1].startsWith('0X') ? m[1] : m[1].length > 1 && m[1][0] === '0' ? parseInt(m[1], 8) : m[1]);
  const suf = m[2];
  if (suf === 'b') n *= 512;
  else if (suf !== '' && suf !== 'c') n *= (suf.length === 2 ? 1000 : 1024) ** POWER[suf[0]];
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}

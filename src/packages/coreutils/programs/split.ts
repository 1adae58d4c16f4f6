// split [OPTION]... [FILE [PREFIX]]: split a file into pieces by lines (-l),
// bytes (-b), whole lines up to a size (-C) or into N chunks (-n); streams.

import { O_CREAT, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { S_IFMT, S_IFREG } from '../../../abi/stat.js';
import { chunks, command, lines, quote, quoteaf, quotef, tryStat, Writer, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: split [OPTION]... [FILE [PREFIX]]
Output pieces of FILE to PREFIXaa, PREFIXab, ...;
default size is 1000 lines, and default PREFIX is 'x'.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --suffix-length=N   generate suffixes of length N (default 2)
      --additional-suffix=SUFFIX  append an additional SUFFIX to file names
  -b, --bytes=SIZE        put SIZE bytes per output file
  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file
  -d                      use numeric suffixes starting at 0, not alphabetic
      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value
  -x                      use hex suffixes starting at 0, not alphabetic
      --hex-suffixes[=FROM]  same as -x, but allow setting the start value
  -e, --elide-empty-files  do not generate empty output files with '-n'
  -l, --lines=NUMBER      put NUMBER lines/records per output file
  -n, --number=CHUNKS     generate CHUNKS output files; see explanation below
  -t, --separator=SEP     use SEP instead of newline as the record separator;
                            '\\0' (zero) specifies the NUL character
  -u, --unbuffered        immediately copy input to output with '-n r/...'
      --verbose           print a diagnostic just before each
                            output file is opened
      --help     display this help and exit
      --version  output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

CHUNKS may be:
  N       split into N files based on size of input
  K/N     output Kth of N to stdout
  l/N     split into N files without splitting lines/records
  l/K/N   output Kth of N to stdout without splitting lines/records
  r/N     like 'l' but use round robin distribution
  r/K/N   likewise but only output Kth of N to stdout
`;

const POWERS = 'KMGTPEZY';

/** A SIZE with GNU's multipliers (b=512, K=1024, KB=1000, KiB=1024, ...). */
function size(s: string): number | null {
  const m = /^(\d+)(b|[kKMGTPEZY](?:B|iB)?|[mM])?$/.exec(s);
  if (!m) return null;
  const u = m[2] ?? '';
  if (u === '') return Number(m[1]);
  if (u === 'b') return Number(m[1]) * 512;
  const power = POWERS.indexOf(u[0].toUpperCase()) + 1;
  return Number(m[1]) * (u.endsWith('B') && !u.endsWith('iB') ? 1000 : 1024) ** power;
}

type Mode =
  | { kind: 'lines' | 'bytes' | 'linebytes'; n: number }
  | { kind: 'chunks' | 'linechunks' | 'roundrobin'; n: number; k: number };

/** Output file names: PREFIX + suffix + additional suffix; suffixes widen (xyz, xzaaa) unless fixed. */
class Names {
  private digits: number[];
  private mid = '';
  private started = false;

  constructor(
    private readonly c: Cmd,
    private readonly prefix: string,
    private readonly alphabet: string,
    length: number,
    start: number,
    private readonly auto: boolean,
    private readonly extra: string,
  ) {
    this.digits = new Array<number>(length).fill(0);
    for (let i = length - 1; i >= 0 && start > 0; i--) {
      this.digits[i] = start % alphabet.length;
      start = Math.floor(start / alphabet.length);
    }
  }

  next(): string {
    if (this.started) this.increment();
    this.started = true;
    return this.prefix + this.mid + this.digits.map((d) => this.alphabet[d]).join('') + this.extra;
  }

  private increment(): void {
    const base = this.alphabet.length;
    let i = this.digits.length - 1;
    for (; i >= 0; i--) {
      if (++this.digits[i] < base) break;
      this.digits[i] = 0;
    }
    if (i < 0) this.c.fail('output file suffixes exhausted');
    if (this.auto && this.digits[0] === base - 1) {
      this.mid += this.alphabet[base - 1];
      this.digits = new Array<number>(this.digits.length + 1).fill(0);
    }
  }
}

/** The output side: one file open at a time, created on first need, written through a buffer. */
class Output {
  private file: Writer | null = null;
  private readonly inputIno: number | null;

  constructor(
    private readonly c: Cmd,
    private readonly names: Names,
    inputFd: number,
  ) {
    const st = c.sys.fstat(inputFd);
    this.inputIno = (st.mode & S_IFMT) === S_IFREG ? st.ino : null;
  }

  /** Close the current file and create the next one. */
  open(): void {
    this.close();
    this.file = new Writer(this.c.sys, this.create());
  }

  /** Create the next file; the caller owns the descriptor. */
  create(): number {
    const name = this.names.next();
    if (this.c.has('V')) this.c.out.write(`creating file ${quoteaf(name)}\n`);
    const st = tryStat(this.c.sys, name);
    if (st && this.inputIno !== null && st.ino === this.inputIno) this.c.fail(`${quoteaf(name)} would overwrite input; aborting`);
    try {
      return this.c.sys.open(name, O_WRONLY | O_CREAT | O_TRUNC, 0o666);
    } catch (e) {
      this.c.sysError(quotef(name), e);
      return this.c.exit(1);
    }
  }

  write(b: Uint8Array): void {
    if (!this.file) this.open();
    this.file!.write(b);
  }

  close(): void {
    if (!this.file) return;
    this.file.flush();
    this.c.sys.close(this.file.fd);
    this.file = null;
  }
}

export const split = command(
  {
    name: 'split',
    usage: USAGE,
    short: 'a:b:C:del:n:t:ux',
    long: {
      'suffix-length': ['a', 'required'], 'additional-suffix': ['A', 'required'], bytes: ['b', 'required'],
      'line-bytes': ['C', 'required'], 'numeric-suffixes': ['D', 'optional'], 'hex-suffixes': ['X', 'optional'],
      'elide-empty-files': ['e', 'none'], lines: ['l', 'required'], number: ['n', 'required'], separator: ['t', 'required'],
      unbuffered: ['u', 'none'], verbose: ['V', 'none'],
    },
  },
  (c) => {
    const mode = parseMode(c);
    const ops = c.operands;
    if (ops.length > 2) c.usage(`extra operand ${quote(ops[2])}`);
    const extra = c.get('A') ?? '';
    if (extra.includes('/')) c.usage(`invalid suffix ${quote(extra)}, contains directory separator`);
    let alphabet = 'abcdefghijklmnopqrstuvwxyz';
    let start = 0;
    let fromGiven = false;
    for (const [k, v] of c.all) {
      if (k === 'd' || k === 'D') alphabet = '0123456789';
      else if (k === 'x' || k === 'X') alphabet = '0123456789abcdef';
      else continue;
      if (v !== undefined) {
        if (!/^\d+$/.test(v)) c.usage(`${quote(v)}: invalid start value for numerical suffix`);
        start = Number(v);
        fromGiven = true;
      }
    }
    const a = c.get('a');
    let length = 2;
    if (a !== undefined) {
      if (!/^\d+$/.test(a)) c.fail(`invalid suffix length: ${quote(a)}`);
      length = Number(a) || 2;
    }
    let auto = a === undefined || Number(a) === 0;
    if (fromGiven) auto = false;
    if (mode.kind === 'chunks' || mode.kind === 'linechunks' || mode.kind === 'roundrobin') {
      let needed = 0;
      for (let last = mode.n - 1 + start; ; last = Math.floor(last / alphabet.length)) {
        needed++;
        if (last < alphabet.length) break;
      }
      if (needed > length) {
        if (a !== undefined && Number(a) !== 0) c.fail(`the suffix length needs to be at least ${needed}`);
        length = needed;
      }
      auto = false;
    }
    const sep = separator(c);
    const file = ops[0] ?? '-';
    let fd = 0;
    if (file !== '-') {
      try {
        fd = c.sys.open(file);
      } catch (e) {
        c.sysError(`cannot open ${quoteaf(file)} for reading`, e);
        c.exit(1);
      }
    }
    const names = new Names(c, ops[1] ?? 'x', alphabet, length, start, auto, extra);
    const out = new Output(c, names, fd);
    try {
      run(c, mode, fd, file, out, sep);
    } finally {
      out.close();
    }
  },
);

function parseMode(c: Cmd): Mode {
  let mode: Mode | null = null;
  const set = (m: Mode) => {
    if (mode && mode.kind !== m.kind) c.usage('cannot split in more than one way');
    mode = m;
  };
  const range = (what: string, v: string, n: number | null): number => {
    if (n === null) return c.fail(`invalid ${what}: ${quote(v)}`);
    if (n === 0) return c.fail(`invalid ${what}: ${quote(v)}: Numerical result out of range`);
    return n;
  };
  for (const [k, v] of c.all) {
    if (k === 'l') set({ kind: 'lines', n: range('number of lines', v!, /^\d+$/.test(v!) ? Number(v) : null) });
    else if (k === 'b') set({ kind: 'bytes', n: range('number of bytes', v!, size(v!)) });
    else if (k === 'C') set({ kind: 'linebytes', n: range('number of bytes', v!, size(v!)) });
    else if (k === 'n') set(parseChunks(c, v!, range));
  }
  return mode ?? { kind: 'lines', n: 1000 };
}

function parseChunks(c: Cmd, v: string, range: (what: string, v: string, n: number | null) => number): Mode {
  const m = /^(?:([lr])\/)?(?:([^/]*)\/)?([^/]*)$/.exec(v);
  const num = (s: string) => (/^\d+$/.test(s) ? Number(s) : null);
  if (!m) return c.fail(`invalid number of chunks: ${quote(v)}`);
  const n = range('number of chunks', m[3], num(m[3]));
  let k = 0;
  if (m[2] !== undefined) {
    k = range('chunk number', m[2], num(m[2]));
    if (k > n) c.fail(`invalid chunk number: ${quote(m[2])}: Numerical result out of range`);
  }
  const kind = m[1] === 'l' ? 'linechunks' : m[1] === 'r' ? 'roundrobin' : 'chunks';
  return { kind, n, k };
}

function separator(c: Cmd): number {
  const t = c.get('t');
  if (t === undefined) return 10;
  if (t === '\\0') return 0;
  if (t.length !== 1) c.fail(t === '' ? 'empty record separator' : `multi-character separator ${quote(t)}`);
  return t.charCodeAt(0);
}

function run(c: Cmd, mode: Mode, fd: number, file: string, out: Output, sep: number): void {
  switch (mode.kind) {
    case 'lines': {
      let left = 0;
      for (const l of lines(c.sys, fd, sep)) {
        if (left === 0) {
          out.open();
          left = mode.n;
        }
        out.write(l);
        left--;
      }
      return;
    }
    case 'bytes': {
      let left = 0;
      for (const b of chunks(c.sys, fd)) {
        for (let off = 0; off < b.byteLength; ) {
          if (left === 0) {
            out.open();
            left = mode.n;
          }
          const piece = b.subarray(off, off + left);
          out.write(piece);
          off += piece.byteLength;
          left -= piece.byteLength;
        }
      }
      return;
    }
    case 'linebytes':
      return lineBytes(c, mode.n, fd, out, sep);
    case 'roundrobin':
      return roundRobin(c, mode.n, mode.k, fd, out, sep);
    default:
      return sizedChunks(c, mode, fd, file, out, sep);
  }
}

/** -C: whole records while they fit; a record longer than SIZE fills files of its own, its tail starts the next. */
function lineBytes(c: Cmd, max: number, fd: number, out: Output, sep: number): void {
  let used = 0;
  let opened = false;
  for (let l of lines(c.sys, fd, sep)) {
    if (!opened || (used + l.byteLength > max && used > 0)) {
      out.open();
      opened = true;
      used = 0;
    }
    while (l.byteLength > max) {
      out.write(l.subarray(0, max));
      l = l.subarray(max);
      out.open();
    }
    out.write(l);
    used += l.byteLength;
  }
}

/** -n r/N and r/K/N: record i goes to file i mod N (all N files exist, unless -e). */
function roundRobin(c: Cmd, n: number, k: number, fd: number, out: Output, sep: number): void {
  if (k) {
    let i = 0;
    for (const l of lines(c.sys, fd, sep)) if (i++ % n === k - 1) c.out.write(l);
    return;
  }
  const elide = c.has('e');
  const files: Writer[] = [];
  // Every file stays open; with -e one is created when its first record comes.
  const fileFor = (i: number): Writer => (files[i] ??= new Writer(c.sys, out.create()));
  if (!elide) for (let i = 0; i < n; i++) fileFor(i);
  let i = 0;
  try {
    for (const l of lines(c.sys, fd, sep)) {
      fileFor(i % n).write(l);
      i++;
    }
  } finally {
    for (const f of files) {
      if (f === undefined) continue;
      f.flush();
      c.sys.close(f.fd);
    }
  }
}

/** -n N, K/N, l/N, l/K/N: chunk boundaries from the input's size. */
function sizedChunks(c: Cmd, mode: Extract<Mode, { k: number }>, fd: number, file: string, out: Output, sep: number): void {
  const st = c.sys.fstat(fd);
  if ((st.mode & S_IFMT) !== S_IFREG) c.fail(`${file}: cannot determine file size`);
  const offset = fd === 0 ? c.sys.lseek(0, 0, 1) : 0;
  const total = Math.max(0, st.size - offset);
  const { n, k } = mode;
  const chunk = Math.max(1, Math.floor(total / n));
  const elide = c.has('e');
  /** Last byte offset of chunk i (1-based). */
  const endOf = (i: number) => (i >= n ? total - 1 : i * chunk - 1);
  let current = 1;
  let made = 0;
  /** Create files up to chunk i (empty ones too, unless -e). */
  const reach = (i: number, data: boolean) => {
    while (made < i) {
      made++;
      if (!elide || (made === i && data)) out.open();
    }
  };
  if (mode.kind === 'chunks') {
    let pos = 0;
    for (const b of chunks(c.sys, fd)) {
      for (let off = 0; off < b.byteLength && pos < total; ) {
        const end = Math.min(current >= n ? total : current * chunk, total);
        if (pos >= end) {
          current++;
          continue;
        }
        const piece = b.subarray(off, off + Math.min(end - pos, b.byteLength - off));
        if (k === 0) {
          reach(current, true);
          out.write(piece);
        } else if (current === k) c.out.write(piece);
        pos += piece.byteLength;
        off += piece.byteLength;
      }
      if (pos >= total || (k && current > k)) break;
    }
  } else {
    let pos = 0;
    for (const l of lines(c.sys, fd, sep)) {
      if (pos >= total) break;
      if (k === 0) {
        reach(current, true);
        out.write(l);
      } else if (current === k) c.out.write(l);
      pos += l.byteLength;
      while (current < n && pos - 1 >= endOf(current)) current++;
      if (k && current > k) break;
    }
  }
  if (k === 0 && !elide) reach(n, false);
}

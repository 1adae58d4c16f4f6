// shuf [-r] [-n COUNT] [-o FILE] [--random-source=FILE] [-z] [FILE | -e ARG... | -i LO-HI]:
// random permutations. Random numbers are drawn from the source bytes exactly
// as GNU shuf draws them (gnulib's randint and randperm, reservoir sampling
// for -n over a stream), so a given --random-source gives GNU's output.

import { O_CREAT, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { S_IFMT, S_IFREG } from '../../../abi/stat.js';
import { chunks, command, lines, quote, quotef, Writer, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: shuf [OPTION]... [FILE]
  or:  shuf -e [OPTION]... [ARG]...
  or:  shuf -i LO-HI [OPTION]...
Write a random permutation of the input lines to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -e, --echo                treat each ARG as an input line
  -i, --input-range=LO-HI   treat each number LO through HI as an input line
  -n, --head-count=COUNT    output at most COUNT lines
  -o, --output=FILE         write result to FILE instead of standard output
      --random-source=FILE  get random bytes from FILE
  -r, --repeat              output lines can be repeated
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
`;

const U64 = (1n << 64n) - 1n;
/** Regular files up to this size are read whole; bigger ones and streams are sampled (GNU's threshold). */
const RESERVOIR_MIN_INPUT = 8192 * 1024;
const enc = new TextEncoder();
/** Past this many outputs a full permutation is refused, as GNU's allocation fails (the limit is ours). */
const MAX_PERMUTATION = 1 << 26;

/** Random bytes from a file (the default is /dev/urandom); running out is an error, as in GNU. */
class ByteSource {
  private buf: Uint8Array = new Uint8Array(0);
  private pos = 0;

  constructor(
    private readonly c: Cmd,
    private readonly fd: number,
    private readonly name: string,
  ) {}

  take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (this.pos >= this.buf.byteLength) {
        this.buf = this.c.sys.read(this.fd, 4096);
        this.pos = 0;
        if (this.buf.byteLength === 0) this.c.fail(`${quote(this.name)}: end of file`);
      }
      out[i] = this.buf[this.pos++];
    }
    return out;
  }
}

/**
 * gnulib randint: uniform integers from source bytes, keeping unused
 * randomness between calls. The state is 64-bit; it is kept in numbers while
 * it fits 53 bits (any bound below 2^44 keeps it there) and in bigints else.
 */
class RandInt {
  private num = 0;
  private max = 0;
  private bigNum = 0n;
  private bigMax = 0n;
  private big = false;

  constructor(private readonly src: ByteSource) {}

  /** A uniform integer in [0, choices), choices below 2^44. */
  choose(choices: number): number {
    if (this.big) {
      if (this.bigMax >= 1n << 53n) return Number(this.chooseBig(BigInt(choices)));
      this.num = Number(this.bigNum);
      this.max = Number(this.bigMax);
      this.big = false;
    }
    const genmax = choices - 1;
    for (;;) {
      if (this.max < genmax) {
        let need = 0;
        for (let rmax = this.max; rmax < genmax; need++) rmax = rmax * 256 + 255;
        const bytes = this.src.take(need);
        for (let i = 0; this.max < genmax; i++) {
          this.num = this.num * 256 + bytes[i];
          this.max = this.max * 256 + 255;
        }
      }
      if (this.max === genmax) {
        const r = this.num;
        this.num = this.max = 0;
        return r;
      }
      const excess = this.max - genmax;
      const unusable = excess % choices;
      const reduced = this.num % choices;
      if (this.num <= this.max - unusable) {
        this.num = Math.floor(this.num / choices);
        this.max = Math.floor(excess / choices);
        return reduced;
      }
      // Retry, keeping the randomness of having landed in the unusable tail.
      this.num = reduced;
      this.max = unusable - 1;
    }
  }

  /** The same over the full 64-bit range. */
  chooseBig(choices: bigint): bigint {
    if (!this.big) {
      this.bigNum = BigInt(this.num);
      this.bigMax = BigInt(this.max);
      this.big = true;
    }
    const genmax = choices - 1n;
    const shift = (x: bigint) => (x << 8n) & U64;
    for (;;) {
      if (this.bigMax < genmax) {
        let need = 0;
        let rmax = this.bigMax;
        do {
          rmax = shift(rmax) + 255n;
          need++;
        } while (rmax < genmax);
        const bytes = this.src.take(need);
        let i = 0;
        do {
          this.bigNum = shift(this.bigNum) + BigInt(bytes[i]);
          this.bigMax = shift(this.bigMax) + 255n;
          i++;
        } while (this.bigMax < genmax);
      }
      if (this.bigMax === genmax) {
        const r = this.bigNum;
        this.bigNum = this.bigMax = 0n;
        return r;
      }
      const excess = this.bigMax - genmax;
      const unusable = excess % choices;
      const reduced = this.bigNum % choices;
      if (this.bigNum <= this.bigMax - unusable) {
        this.bigNum /= choices;
        this.bigMax = excess / choices;
        return reduced;
      }
      this.bigNum = reduced;
      this.bigMax = unusable - 1n;
    }
  }

  /** choose() for any count. */
  any(choices: bigint): bigint {
    return choices < SMALL ? BigInt(this.choose(Number(choices))) : this.chooseBig(choices);
  }
}

const SMALL = 1n << 44n;
const DENSE = 1 << 26;

/**
 * gnulib randperm: the first h entries of a random permutation of [0, n),
 * all drawn before any is written (a short random source fails with no output).
 */
function randperm(r: RandInt, h: number, n: bigint): ArrayLike<number> | bigint[] {
  if (n < SMALL) {
    const count = Number(n);
    const out = new Float64Array(h);
    if (count <= DENSE) {
      const v = new Float64Array(count);
      for (let i = 0; i < count; i++) v[i] = i;
      for (let i = 0; i < h; i++) {
        const j = r.choose(count - i) + i;
        out[i] = v[j];
        v[j] = v[i];
      }
      return out;
    }
    // Sparse: only swapped positions are stored (the sequence is the same).
    const v = new Map<number, number>();
    for (let i = 0; i < h; i++) {
      const j = r.choose(count - i) + i;
      out[i] = v.get(j) ?? j;
      v.set(j, v.get(i) ?? i);
    }
    return out;
  }
  const v = new Map<bigint, bigint>();
  const out: bigint[] = [];
  for (let i = 0n; i < BigInt(h); i++) {
    const j = r.chooseBig(n - i) + i;
    out.push(v.get(j) ?? j);
    v.set(j, v.get(i) ?? i);
  }
  return out;
}

export const shuf = command(
  {
    name: 'shuf',
    usage: USAGE,
    short: 'ei:n:o:rz',
    long: {
      echo: ['e', 'none'], 'input-range': ['i', 'required'], 'head-count': ['n', 'required'], output: ['o', 'required'],
      'random-source': ['R', 'required'], repeat: ['r', 'none'], 'zero-terminated': ['z', 'none'],
    },
  },
  (c) => {
    const eol = c.has('z') ? 0 : 10;
    let head = Infinity;
    for (const [k, v] of c.all) {
      if (k !== 'n') continue;
      if (!/^\d+$/.test(v!)) c.fail(`invalid line count: ${quote(v!)}`);
      head = Math.min(head, Number(v));
    }
    const range = c.has('i') ? parseRange(c, c.get('i')!) : null;
    if (range && c.has('e')) c.usage('cannot combine -e and -i options');
    if (range && c.operands.length) c.usage(`extra operand ${quote(c.operands[0])}`);
    if (!range && !c.has('e') && c.operands.length > 1) c.usage(`extra operand ${quote(c.operands[1])}`);
    const repeat = c.has('r');
    if (head === 0 && !repeat) return 0;
    const opened: { r?: RandInt } = {};
    const random = () => (opened.r ??= new RandInt(source(c)));

    let items: Uint8Array[] | null = null;
    let sampled = false;
    if (c.has('e')) items = c.operands.map((a) => withEol(enc.encode(a), eol));
    else if (!range) {
      const name = c.operands[0] ?? '-';
      const fd = name === '-' ? 0 : openOrFail(c, name);
      if (repeat || head === Infinity || !isBig(c, fd)) items = readAll(c, fd, eol);
      else {
        items = reservoir(c, fd, eol, head, random());
        sampled = true;
      }
    }
    const count: bigint = range ? range[1] - range[0] + 1n : BigInt(items!.length);
    const line = (i: number | bigint) => (range ? enc.encode(`${range[0] + BigInt(i)}${String.fromCharCode(eol)}`) : items![Number(i)]);
    if (repeat) {
      const r = random();
      const out = output(c);
      if (head === 0) return 0;
      if (count === 0n) c.fail('no lines to repeat');
      for (let i = 0; i < head; i++) out.write(line(r.any(count)));
      out.flush();
      return 0;
    }
    const h = sampled || BigInt(Math.min(head, Number.MAX_SAFE_INTEGER)) >= count ? Number(count) : head;
    // GNU allocates the whole permutation up front and fails on a huge one.
    if (h > MAX_PERMUTATION) c.fail('memory exhausted');
    // Like GNU, the source is not even opened when no random bytes can be needed.
    const perm = h === 0 ? [] : randperm(random(), h, count);
    const out = output(c);
    for (let i = 0; i < perm.length; i++) out.write(line(perm[i]));
    out.flush();
  },
);

function parseRange(c: Cmd, v: string): [bigint, bigint] {
  const m = /^(\d+)-(\d+)$/.exec(v);
  const lo = m ? BigInt(m[1]) : 0n;
  const hi = m ? BigInt(m[2]) : 0n;
  // An empty range (HI = LO-1) is allowed; the count must fit in 64 bits.
  if (!m || hi + 1n < lo || hi > U64 || hi - lo >= U64) return c.fail(`invalid input range: ${quote(v)}`);
  return [lo, hi];
}

function openOrFail(c: Cmd, name: string): number {
  try {
    return c.sys.open(name);
  } catch (e) {
    c.sysError(quotef(name), e);
    return c.exit(1);
  }
}

function source(c: Cmd): ByteSource {
  const name = c.get('R');
  return new ByteSource(c, openOrFail(c, name ?? '/dev/urandom'), name ?? '/dev/urandom');
}

/** Streams and big files are sampled instead of read whole. */
function isBig(c: Cmd, fd: number): boolean {
  const st = c.sys.fstat(fd);
  if ((st.mode & S_IFMT) !== S_IFREG) return true;
  let pos = 0;
  try {
    pos = c.sys.lseek(fd, 0, 1);
  } catch {
    // not seekable: counts from the start
  }
  return st.size - pos > RESERVOIR_MIN_INPUT;
}

function withEol(b: Uint8Array, eol: number): Uint8Array {
  const out = new Uint8Array(b.byteLength + 1);
  out.set(b);
  out[b.byteLength] = eol;
  return out;
}

/** Every record, each ending with the delimiter (a missing last one is added): views into one buffer. */
function readAll(c: Cmd, fd: number, eol: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (const b of chunks(c.sys, fd)) {
      parts.push(b);
      size += b.byteLength;
    }
  } catch (e) {
    c.sysError(quotef(c.operands[0] ?? '-'), e);
    c.exit(1);
  }
  const last = parts.length ? parts[parts.length - 1] : null;
  const open = last !== null && last[last.byteLength - 1] !== eol;
  const data = new Uint8Array(size + (open ? 1 : 0));
  let off = 0;
  for (const p of parts) {
    data.set(p, off);
    off += p.byteLength;
  }
  if (open) data[size] = eol;
  const out: Uint8Array[] = [];
  for (let start = 0; start < data.byteLength; ) {
    const end = data.indexOf(eol, start) + 1;
    out.push(data.subarray(start, end));
    start = end;
  }
  return out;
}

/** Reservoir sampling of k records; a random draw precedes each read after the first k (GNU's order). */
function reservoir(c: Cmd, fd: number, eol: number, k: number, r: RandInt): Uint8Array[] {
  const it = lines(c.sys, fd, eol);
  const keep: Uint8Array[] = [];
  const read = (): Uint8Array | null => {
    const n = it.next();
    if (n.done) return null;
    const l = n.value;
    return l[l.byteLength - 1] === eol ? l.slice() : withEol(l, eol);
  };
  while (keep.length < k) {
    const l = read();
    if (!l) return keep;
    keep.push(l);
  }
  for (let seen = k; ; seen++) {
    const j = r.choose(seen + 1);
    const l = read();
    if (!l) return keep;
    if (j < k) keep[j] = l;
  }
}

/** stdout, or the -o file (opened only now, so the input may be the same file). */
function output(c: Cmd): Writer {
  const name = c.get('o');
  if (name === undefined) return c.out;
  try {
    return new Writer(c.sys, c.sys.open(name, O_WRONLY | O_CREAT | O_TRUNC, 0o666));
  } catch (e) {
    c.sysError(quotef(name), e);
    return c.exit(1);
  }
}

// hexdump [options] <file>...: display file contents in hexadecimal, decimal,
// octal or ASCII. Debian's hexdump (util-linux 2.38, bsdextrautils) is the
// specification: its canned formats, -e format strings, "*" for repeated
// blocks, and the final offset line. Streams its input.

import { concatBytes } from '../../../abi/bytes.js';
import { strerror } from '../../../abi/errno.js';
import { O_RDONLY, SEEK_SET } from '../../../abi/fcntl.js';
import { isReg } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, errnoOf, latin1, type Cmd } from '../../../userland/lib/index.js';
import { blockSize, FormatError, formatBlock, formatEnd, parseFormat, rewrite, type FormatString } from './hexfmt.js';

const USAGE = `
Usage:
 hexdump [options] <file>...

Display file contents in hexadecimal, decimal, octal, or ascii.

Options:
 -b, --one-byte-octal      one-byte octal display
 -c, --one-byte-char       one-byte character display
 -C, --canonical           canonical hex+ASCII display
 -d, --two-bytes-decimal   two-byte decimal display
 -o, --two-bytes-octal     two-byte octal display
 -x, --two-bytes-hex       two-byte hexadecimal display
 -e, --format <format>     format string to be used for displaying data
 -f, --format-file <file>  file that contains format strings
 -n, --length <length>     interpret only length bytes of input
 -s, --skip <offset>       skip offset bytes from the beginning
 -v, --no-squeezing        output identical lines

 -h, --help                display this help
 -V, --version             display version

Arguments:
 <length> and <offset> arguments may be followed by the suffixes for
   GiB, TiB, PiB, EiB, ZiB, and YiB (the "iB" is optional)

For more details see hexdump(1).
`;

const CANNED: Record<string, string[]> = {
  b: ['"%07.7_Ax\\n"', '"%07.7_ax " 16/1 "%03o " "\\n"'],
  c: ['"%07.7_Ax\\n"', '"%07.7_ax " 16/1 "%3_c " "\\n"'],
  C: ['"%08.8_Ax\\n"', '"%08.8_ax  " 8/1 "%02x " "  " 8/1 "%02x " ', '"  |" 16/1 "%_p" "|\\n"'],
  d: ['"%07.7_Ax\\n"', '"%07.7_ax " 8/2 "  %05u " "\\n"'],
  o: ['"%07.7_Ax\\n"', '"%07.7_ax " 8/2 " %06o " "\\n"'],
  x: ['"%07.7_Ax\\n"', '"%07.7_ax " 8/2 "   %04x " "\\n"'],
};
const DEFAULT = ['"%07.7_Ax\\n"', '"%07.7_ax " 8/2 "%04x " "\\n"'];

export default function main(os: AgentosApi): void {
  os.exit(hexdump(os, os.argv.slice(1)));
}

const hexdump = command(
  {
    name: 'hexdump',
    usage: USAGE,
    short: 'bcCde:f:hL::n:os:vxV',
    long: {
      'one-byte-octal': ['b', 'none'], 'one-byte-char': ['c', 'none'], canonical: ['C', 'none'], 'two-bytes-decimal': ['d', 'none'],
      'two-bytes-octal': ['o', 'none'], 'two-bytes-hex': ['x', 'none'], format: ['e', 'required'], 'format-file': ['f', 'required'],
      length: ['n', 'required'], skip: ['s', 'required'], 'no-squeezing': ['v', 'none'], color: ['L', 'optional'],
      help: ['h', 'none'], version: ['V', 'none'],
    },
  },
  (c) => {
    if (c.has('h')) {
      c.out.write(USAGE);
      return 0;
    }
    if (c.has('V')) {
      c.out.write('hexdump from util-linux 2.38.1 (agentOS)\n');
      return 0;
    }
    const formats: string[] = [];
    let length = -1;
    let skip = 0;
    for (const [k, v] of c.all) {
      if (k in CANNED) formats.push(...CANNED[k]);
      else if (k === 'e') formats.push(v as string);
      else if (k === 'f') formats.push(...formatFile(c, v as string));
      else if (k === 'n') length = size(c, v as string, 'length');
      else if (k === 's') skip = size(c, v as string, 'offset');
    }
    let fss: FormatString[];
    let block: number;
    try {
      fss = (formats.length ? formats : DEFAULT).map(parseFormat);
      block = Math.max(0, ...fss.map(blockSize));
      for (const fs of fss) rewrite(fs, block);
    } catch (e) {
      if (e instanceof FormatError) return c.fail(e.message);
      throw e;
    }
    return new Dumper(c, fss, block, length, skip, !c.has('v')).run(c.operands);
  },
);

function formatFile(c: Cmd, name: string): string[] {
  try {
    const text = latin1(c.sys.readFile(name));
    return text.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  } catch (e) {
    return c.fail(`${name}: ${strerror(errnoOf(e))}`);
  }
}

/** util-linux's strtosize: a number with K/M/G... (1024) or KB/MB... (1000) suffixes. */
function size(c: Cmd, s: string, what: string): number {
  const m = /^(0[xX][0-9a-fA-F]+|\d+)([KMGTPEZY](?:iB|B)?|)$/.exec(s);
  if (!m) return c.fail(`failed to parse ${what}: '${s}': Invalid argument`);
  const n = Number(m[1]);
  if (!m[2]) return n;
  const power = 'KMGTPEZY'.indexOf(m[2][0]) + 1;
  return n * (m[2].length === 2 && m[2][1] === 'B' ? 1000 : 1024) ** power;
}

/** The input stream (files one after another), cut into blocks, squeezed, formatted. */
class Dumper {
  private names: string[] = [];
  private current: { fd: number; name: string } | null = null;
  private address = 0;
  private eaddress: number | null = null;
  private prev: Uint8Array | null = null;
  /** GNU's vflag: FIRST, then WAIT (printing), DUP (inside a run of repeats); ALL with -v. */
  private vflag: 'all' | 'first' | 'wait' | 'dup';
  private anyOk = false;
  private pending = new Uint8Array(0);

  constructor(
    private readonly c: Cmd,
    private readonly fss: FormatString[],
    private readonly block: number,
    private length: number,
    private skip: number,
    squeeze: boolean,
  ) {
    this.vflag = squeeze ? 'first' : 'all';
  }

  run(operands: string[]): number {
    this.names = operands.length ? [...operands] : ['-'];
    this.stdinOnly = operands.length === 0;
    // Format output is bytes: one char per byte (%c of 0xff is the byte 0xff). Collected, then written in batches.
    let pending: string[] = [];
    let size = 0;
    const flush = () => {
      const s = pending.join('');
      const bytes = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
      this.c.out.write(bytes);
      pending = [];
      size = 0;
    };
    const put = (s: string) => {
      pending.push(s);
      size += s.length;
      if (size > 65536) flush();
    };
    this.star = () => put('*\n');
    // A format that reads no data prints nothing but its end (GNU: a zero block size ends at once).
    if (this.block > 0) for (let b = this.get(); b; b = this.get()) put(formatBlock(this.fss, b, this.address, this.eaddress));
    const end = this.eaddress ?? (this.address ? this.address : null);
    if (end !== null) put(formatEnd(this.fss, end));
    flush();
    if (!this.stdinOnly && !this.anyOk) this.c.fail('all input file arguments failed');
    return this.c.status;
  }

  private stdinOnly = false;
  /** Prints the "*" line in order with the batched output. */
  private star: () => void = () => undefined;

  /** Open the next input (skipping what -s asks past whole files); false when none is left. */
  private next(): boolean {
    while (this.names.length) {
      const name = this.names.shift() as string;
      let fd = 0;
      if (!this.stdinOnly) {
        try {
          fd = this.c.sys.open(name, O_RDONLY);
        } catch (e) {
          this.c.error(`${name}: ${strerror(errnoOf(e))}`);
          continue;
        }
      }
      this.anyOk = true;
      const label = this.stdinOnly ? 'stdin' : name;
      if (this.skip) {
        const st = this.c.sys.fstat(fd);
        if (isReg(st.mode) && this.skip >= st.size) {
          this.skip -= st.size;
          this.address += st.size;
          if (fd !== 0) this.c.sys.close(fd);
          continue;
        }
        try {
          this.c.sys.lseek(fd, this.skip, SEEK_SET);
        } catch (e) {
          this.c.fail(`${label}: ${strerror(errnoOf(e))}`);
        }
        this.address += this.skip;
        this.skip = 0;
      }
      this.current = { fd, name: label };
      return true;
    }
    return false;
  }

  /** Up to `n` bytes from the inputs; fewer only at the very end. */
  private read(n: number): Uint8Array {
    const parts: Uint8Array[] = [];
    let have = 0;
    if (this.pending.length) {
      const take = this.pending.subarray(0, n);
      this.pending = this.pending.subarray(take.length);
      parts.push(take);
      have = take.length;
    }
    while (have < n) {
      if (this.length === 0) break;
      if (!this.current && !this.next()) break;
      const cur = this.current as { fd: number; name: string };
      let want = Math.max(n - have, 65536);
      if (this.length > 0) want = Math.min(want, this.length);
      let b: Uint8Array;
      try {
        b = this.c.sys.read(cur.fd, want);
      } catch (e) {
        this.c.error(`${cur.name}: ${strerror(errnoOf(e))}`);
        b = new Uint8Array(0);
      }
      if (b.length === 0) {
        if (cur.fd !== 0) this.c.sys.close(cur.fd);
        this.current = null;
        continue;
      }
      if (this.length > 0) this.length -= b.length;
      const use = b.subarray(0, n - have);
      if (use.length < b.length) this.pending = b.slice(use.length);
      parts.push(use);
      have += use.length;
    }
    return concatBytes(parts);
  }

  /** The next block to print (GNU's get): repeats squeezed to one "*", the last block zero-filled. */
  private get(): Uint8Array | null {
    if (this.prev) this.address += this.block;
    for (;;) {
      const data = this.read(this.block);
      if (data.length === 0) return null;
      if (data.length < this.block) {
        const b = new Uint8Array(this.block);
        b.set(data);
        this.eaddress = this.address + data.length;
        this.prev = b;
        return b;
      }
      if (this.vflag === 'all' || this.vflag === 'first' || !this.prev || !equal(data, this.prev)) {
        if (this.vflag === 'dup' || this.vflag === 'first') this.vflag = 'wait';
        this.prev = data;
        return data;
      }
      if (this.vflag === 'wait') this.star();
      this.vflag = 'dup';
      this.address += this.block;
    }
  }
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

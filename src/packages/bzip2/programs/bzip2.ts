// bzip2 [flags and input files in any order]   A block-sorting file
// compressor (bzip2 1.0.8 compatible): bunzip2 is -d, bzcat is -dc, chosen by
// basename(argv[0]). The codec is our own (encode.ts, decode.ts) and writes
// the same bytes as libbzip2. Exit status: 0, 1 for environmental problems,
// 2 for corrupt input, 3 for internal errors.

import { strerror } from '../../../abi/errno.js';
import { isDir, isReg } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { CHUNK, openInput, writeOutputFile } from '../../../userland/lib/compressor-cli.js';
import { baseName, tryLstat } from '../../../userland/lib/fs.js';
import { Bz2Error, Bzip2Decoder } from './decode.js';
import { Bzip2Encoder } from './encode.js';

const USAGE = (prog: string) => `bzip2, a block-sorting file compressor.  Version 1.0.8 (agentOS).

   usage: ${prog} [flags and input files in any order]

   -h --help           print this message
   -d --decompress     force decompression
   -z --compress       force compression
   -k --keep           keep (don't delete) input files
   -f --force          overwrite existing output files
   -t --test           test compressed file integrity
   -c --stdout         output to standard out
   -q --quiet          suppress noncritical error messages
   -v --verbose        be verbose (a 2nd -v gives more)
   -L --license        display software version & license
   -V --version        display software version & license
   -s --small          use less memory (at most 2500k)
   -1 .. -9            set block size to 100k .. 900k
   --fast              alias for -1
   --best              alias for -9

   If invoked as \`bzip2', default action is to compress.
              as \`bunzip2',  default action is to decompress.
              as \`bzcat', default action is to decompress to stdout.

   If no file names are given, bzip2 compresses or decompresses
   from standard input to standard output.  You can combine
   short flags, so \`-v -4' means the same as -v4 or -4v, &c.

`;

const VERSION = `bzip2, a block-sorting file compressor.  Version 1.0.8 (agentOS).

   This is agentOS's own implementation of the bzip2 format.
   It writes the same bytes as libbzip2 1.0.8 and reads its files.

`;

const RECOVER = "\nYou can use the `bzip2recover' program to attempt to recover\ndata from undamaged sections of corrupted files.\n\n";
const CORRUPT = `\nIt is possible that the compressed file(s) have become corrupted.\nYou can use the -tvv option to test integrity of such files.\n${RECOVER}`;
const SUFFIXES: [string, string][] = [['.bz2', ''], ['.bz', ''], ['.tbz2', '.tar'], ['.tbz', '.tar']];

type Mode = 'compress' | 'decompress' | 'test';

interface Opts {
  mode: Mode;
  stdout: boolean;
  keep: boolean;
  force: boolean;
  quiet: boolean;
  verbose: number;
  level: number;
}

class Bz {
  status = 0;
  /** The name messages carry: bzip2, bunzip2 or bzcat, as invoked. */
  prog = 'bzip2';
  /** The longest operand (verbose output lines up on it). */
  width = 0;
  constructor(
    readonly os: AgentosApi,
    readonly o: Opts,
  ) {}

  err(text: string): void {
    this.os.eprint(text);
  }

  fail(status: number): void {
    this.status = Math.max(this.status, status);
  }
}

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const prog = baseName(os.argv[0] ?? 'bzip2');
  const o: Opts = {
    mode: prog === 'bunzip2' || prog === 'bzcat' ? 'decompress' : 'compress', stdout: prog === 'bzcat', keep: false,
    force: false, quiet: false, verbose: 0, level: 9,
  };
  const files: string[] = [];
  let dashes = false;
  for (const a of os.argv.slice(1)) {
    if (dashes || a === '-' || !a.startsWith('-')) {
      files.push(a);
      continue;
    }
    if (a === '--') {
      dashes = true;
      continue;
    }
    if (a.startsWith('--')) {
      const long: Record<string, string> = {
        '--stdout': 'c', '--decompress': 'd', '--compress': 'z', '--keep': 'k', '--force': 'f', '--test': 't', '--quiet': 'q',
        '--verbose': 'v', '--small': 's', '--license': 'L', '--version': 'V', '--help': 'h', '--fast': '1', '--best': '9',
        '--repetitive-fast': 'x', '--repetitive-best': 'x', '--exponential': 'x',
      };
      const k = long[a];
      if (!k) {
        os.eprint(`${prog}: Bad flag \`${a}'\n${USAGE(prog)}`);
        return 1;
      }
      if (k === 'x') continue;
      const r = flag(os, o, k, prog);
      if (r !== null) return r;
      continue;
    }
    for (const ch of a.slice(1)) {
      const r = flag(os, o, ch, prog);
      if (r !== null) return r;
    }
  }
  const x = new Bz(os, o);
  x.prog = prog;
  if (o.mode === 'test') o.stdout = false;
  if (files.length === 0) files.push('-');
  x.width = Math.max(7, ...files.map((f) => f.length));
  for (const f of files) {
    if (f === '-') treatStdin(x);
    else treatFile(x, f);
  }
  return x.status;
}

/** One short flag; a status to exit with, or null to go on. */
function flag(os: AgentosApi, o: Opts, ch: string, prog: string): number | null {
  switch (ch) {
    case 'c': o.stdout = true; break;
    case 'd': o.mode = 'decompress'; break;
    case 'z': o.mode = 'compress'; break;
    case 'k': o.keep = true; break;
    case 'f': o.force = true; break;
    case 't': o.mode = 'test'; break;
    case 'q': o.quiet = true; break;
    case 'v': o.verbose++; break;
    case 's': break;
    case 'L': case 'V': os.eprint(VERSION); return 0;
    case 'h': os.eprint(USAGE(prog)); return 0;
    default:
      if (/^[1-9]$/.test(ch)) o.level = Number(ch);
      else {
        os.eprint(`${prog}: Bad flag \`-${ch}'\n${USAGE(prog)}`);
        return 1;
      }
  }
  return null;
}

function reader(os: AgentosApi, fd: number, first: Uint8Array | null = null): () => Uint8Array {
  let pending = first;
  return () => {
    if (pending) {
      const p = pending;
      pending = null;
      return p;
    }
    return os.sys.read(fd, CHUNK);
  };
}

/** Compress fd into out; returns bytes in and out. */
function compress(x: Bz, fd: number, out: (b: Uint8Array) => void): [number, number] {
  const enc = new Bzip2Encoder(x.o.level);
  let bytesIn = 0;
  let bytesOut = 0;
  const put = (b: Uint8Array) => {
    if (b.length) out(b);
    bytesOut += b.length;
  };
  for (;;) {
    const b = x.os.sys.read(fd, CHUNK);
    if (b.length === 0) break;
    bytesIn += b.length;
    put(enc.write(b));
  }
  put(enc.end());
  return [bytesIn, bytesOut];
}

function verboseRatio(x: Bz, inn: number, out: number): void {
  if (inn === 0) {
    x.err(' no data compressed.\n');
    return;
  }
  x.err(`${(inn / out).toFixed(3).padStart(6)}:1, ${((8 * out) / inn).toFixed(3).padStart(6)} bits/byte, ${(100 * (1 - out / inn)).toFixed(2).padStart(5)}% saved, ${inn} in, ${out} out.\n`);
}

/** Decompress; on failure the bzip2-style report is printed and false returned. */
function decompress(x: Bz, fd: number, inName: string, outName: string, out: ((b: Uint8Array) => void) | null, removeOut: string | null): boolean {
  const d = new Bzip2Decoder(reader(x.os, fd), out ?? (() => undefined));
  try {
    d.run();
    return true;
  } catch (e) {
    if (!(e instanceof Bz2Error)) throw e;
    const test = x.o.mode === 'test';
    switch (e.kind) {
      case 'garbage':
        if (!x.o.quiet) x.err(test ? `${x.prog}: ${inName}: trailing garbage after EOF ignored\n` : `\n${x.prog}: ${inName}: trailing garbage after EOF ignored\n`);
        return true;
      case 'magic':
        if (test) x.err(`${x.o.verbose ? '' : `${x.prog}: ${inName}: `}bad magic number (file not created by bzip2)\n${RECOVER}`);
        else x.err(`${x.prog}: ${inName} is not a bzip2 file.\n`);
        x.fail(2);
        return false;
      case 'eof':
        if (test) x.err(`${x.o.verbose ? '' : `${x.prog}: ${inName}: `}file ends unexpectedly\n${RECOVER}`);
        else {
          x.err(`\n${x.prog}: Compressed file ends unexpectedly;\n\tperhaps it is corrupted?  *Possible* reason follows.\n${x.prog}: ${removeOut ? 'No such file or directory' : 'Success'}\n\tInput file = ${inName}, output file = ${outName}\n${CORRUPT}`);
          if (removeOut) x.err(`${x.prog}: Deleting output file ${removeOut}, if it exists.\n`);
        }
        x.fail(2);
        return false;
      default:
        if (test) x.err(`${x.o.verbose ? '' : `${x.prog}: ${inName}: `}data integrity (CRC) error in data\n${RECOVER}`);
        else {
          x.err(`\n${x.prog}: Data integrity error when decompressing.\n\tInput file = ${inName}, output file = ${outName}\n${CORRUPT}`);
          if (removeOut) x.err(`${x.prog}: Deleting output file ${removeOut}, if it exists.\n`);
        }
        x.fail(2);
        return false;
    }
  }
}

function treatStdin(x: Bz): void {
  const o = x.o;
  const sys = x.os.sys;
  if (o.mode === 'compress' && sys.isatty(1)) {
    x.err(`${x.prog}: I won't write compressed data to a terminal.\n${x.prog}: For help, type: \`${x.prog} --help'.\n`);
    x.fail(1);
    return;
  }
  if (o.mode !== 'compress' && sys.isatty(0)) {
    x.err(`${x.prog}: I won't read compressed data from a terminal.\n${x.prog}: For help, type: \`${x.prog} --help'.\n`);
    x.fail(1);
    return;
  }
  if (o.verbose) x.err(`  (stdin): `);
  if (o.mode === 'compress') {
    const [i, n] = compress(x, 0, (b) => sys.writeAll(1, b));
    if (o.verbose) verboseRatio(x, i, n);
    return;
  }
  const ok = decompress(x, 0, '(stdin)', '(stdout)', o.mode === 'test' ? null : (b) => sys.writeAll(1, b), null);
  if (ok && o.verbose) x.err(o.mode === 'test' ? 'ok\n' : 'done\n');
}

function treatFile(x: Bz, name: string): void {
  const o = x.o;
  const sys = x.os.sys;
  const input = openInput(sys, name, 0, (e) => {
    x.err(`${x.prog}: Can't open input file ${name}: ${strerror(e.errno)}.\n`);
    x.fail(1);
  });
  if (!input) return;
  const { fd, st } = input;
  try {
    if (isDir(st.mode)) {
      x.err(`${x.prog}: Input file ${name} is a directory.\n`);
      x.fail(1);
      return;
    }
    if (o.mode === 'compress' && !o.stdout) {
      const sfx = SUFFIXES.find(([s]) => name.endsWith(s));
      if (sfx) {
        if (!o.quiet) x.err(`${x.prog}: Input file ${name} already has ${sfx[0]} suffix.\n`);
        x.fail(1);
        return;
      }
    }
    if (!isReg(st.mode) && !o.stdout && o.mode !== 'test') {
      x.err(`${x.prog}: Input file ${name} is not a normal file.\n`);
      x.fail(1);
      return;
    }
    const pad = ' '.repeat(Math.max(0, x.width - name.length));
    if (o.mode === 'test') {
      if (o.verbose) x.err(`  ${name}: ${pad}`);
      const ok = decompress(x, fd, name, '(none)', null, null);
      if (ok && o.verbose) x.err('ok\n');
      return;
    }
    if (o.stdout) {
      if (o.verbose) x.err(`  ${name}: ${pad}`);
      if (o.mode === 'compress') {
        const [i, n] = compress(x, fd, (b) => sys.writeAll(1, b));
        if (o.verbose) verboseRatio(x, i, n);
      } else if (decompress(x, fd, name, '(stdout)', (b) => sys.writeAll(1, b), null) && o.verbose) x.err('done\n');
      return;
    }
    let outName: string;
    if (o.mode === 'compress') outName = `${name}.bz2`;
    else {
      const sfx = SUFFIXES.find(([s]) => name.endsWith(s) && name.length > s.length);
      if (sfx) outName = name.slice(0, name.length - sfx[0].length) + sfx[1];
      else {
        outName = `${name}.out`;
        if (!o.quiet) x.err(`${x.prog}: Can't guess original name for ${name} -- using ${outName}\n`);
      }
    }
    if (tryLstat(sys, outName)) {
      if (!o.force) {
        x.err(`${x.prog}: Output file ${outName} already exists.\n`);
        x.fail(1);
        return;
      }
      sys.unlink(outName);
    }
    if (st.nlink > 1 && !o.force) {
      x.err(`${x.prog}: Input file ${name} has ${st.nlink - 1} other link${st.nlink > 2 ? 's' : ''}.\n`);
      x.fail(1);
      return;
    }
    const fill = (out: number): boolean => {
      if (o.verbose) x.err(`  ${name}: ${pad}`);
      if (o.mode === 'compress') {
        const [i, n] = compress(x, fd, (b) => sys.writeAll(out, b));
        if (o.verbose) verboseRatio(x, i, n);
        return true;
      }
      const ok = decompress(x, fd, name, outName, (b) => sys.writeAll(out, b), outName);
      if (ok && o.verbose) x.err('done\n');
      return ok;
    };
    const written = writeOutputFile(sys, outName, st, fill, (e) => {
      x.err(`${x.prog}: Can't create output file ${outName}: ${strerror(e.errno)}.\n`);
      x.fail(1);
    });
    if (written && !o.keep) sys.unlink(name);
  } finally {
    sys.close(fd);
  }
}

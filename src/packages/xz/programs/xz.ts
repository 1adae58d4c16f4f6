// xz [OPTION]... [FILE]...   Compress or decompress FILEs in the .xz format
// (XZ Utils 5.4 compatible). One program for xz, unxz (xz -d) and xzcat
// (xz -dc), chosen by basename(argv[0]). The coding is liblzma's own
// (WebAssembly); files are streamed in 64 KiB pieces. Exit status: 0, 1 for
// errors, 2 for warnings (files skipped).

import { Errno, strerror } from '../../../abi/errno.js';
import { O_NOFOLLOW } from '../../../abi/fcntl.js';
import { isDir, isReg, type Stat } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { parseArgs, UsageError, type OptSpec } from '../../../userland/lib/args.js';
import { CHUNK, openInput, writeOutputFile } from '../../../userland/lib/compressor-cli.js';
import { baseName, tryLstat } from '../../../userland/lib/fs.js';
import {
  CHECKS, Coder, LZMA_BUF_ERROR, LZMA_DATA_ERROR, LZMA_FORMAT_ERROR, LZMA_MEM_ERROR, LZMA_MEMLIMIT_ERROR, LZMA_OPTIONS_ERROR,
  LZMA_PRESET_EXTREME, LzmaError, loadLiblzma, versionString,
} from './liblzma.js';
import { checkName, ListError, ratioText, readStreams, sizeText, type StreamInfo } from './list.js';

const USAGE = `Usage: xz [OPTION]... [FILE]...
Compress or decompress FILEs in the .xz format.

  -z, --compress      force compression
  -d, --decompress    force decompression
  -t, --test          test compressed file integrity
  -l, --list          list information about .xz files
  -k, --keep          keep (don't delete) input files
  -f, --force         force overwrite of output file and (de)compress links
  -c, --stdout        write to standard output and don't delete input files
  -0 ... -9           compression preset; default is 6; take compressor *and*
                      decompressor memory usage into account before using 7-9!
  -e, --extreme       try to improve compression ratio by using more CPU time;
                      does not affect decompressor memory requirements
  -T, --threads=NUM   use at most NUM threads; the default is 1; set to 0
                      to use as many threads as there are processor cores
  -q, --quiet         suppress warnings; specify twice to suppress errors too
  -v, --verbose       be verbose; specify twice for even more verbose
  -h, --help          display this short help and exit
  -H, --long-help     display the long help (lists also the advanced options)
  -V, --version       display the version number and exit

With no FILE, or when FILE is -, read standard input.

This is agentOS xz: XZ Utils' liblzma compiled to WebAssembly.
`;

const SPEC: OptSpec = {
  short: 'zdtlkfc0123456789eT:qvhHVS:F:C:M:Q',
  long: {
    compress: ['z', 'none'], decompress: ['d', 'none'], uncompress: ['d', 'none'], test: ['t', 'none'], list: ['l', 'none'],
    keep: ['k', 'none'], force: ['f', 'none'], stdout: ['c', 'none'], 'to-stdout': ['c', 'none'], extreme: ['e', 'none'],
    fast: ['0', 'none'], best: ['9', 'none'], threads: ['T', 'required'], quiet: ['q', 'none'], verbose: ['v', 'none'],
    help: ['h', 'none'], 'long-help': ['H', 'none'], version: ['V', 'none'], suffix: ['S', 'required'], format: ['F', 'required'],
    check: ['C', 'required'], memlimit: ['M', 'required'], memory: ['M', 'required'], 'no-warn': ['Q', 'none'],
    'single-stream': ['single-stream', 'none'], 'no-sparse': ['no-sparse', 'none'], 'ignore-check': ['ignore-check', 'none'],
  },
};

type Mode = 'compress' | 'decompress' | 'test' | 'list';

interface Opts {
  mode: Mode;
  keep: boolean;
  force: boolean;
  stdout: boolean;
  preset: number;
  extreme: boolean;
  quiet: number;
  verbose: number;
  noWarn: boolean;
  suffix: string;
  check: number;
  format: string;
}

const XZ_MAGIC = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00];
/** The decoder's memory limit: what the WebAssembly module can hold. */
const MEMLIMIT = 200n * 1024n * 1024n;

class Xz {
  status = 0;
  /** The dictionary-size note was printed (once per run, as xz does). */
  noted = false;
  constructor(
    readonly os: AgentosApi,
    readonly o: Opts,
    readonly wasm: string,
  ) {}

  get sys() {
    return this.os.sys;
  }

  error(msg: string): void {
    if (this.o.quiet < 2) this.os.eprint(`xz: ${msg}\n`);
    this.status = 1;
  }

  warn(msg: string): void {
    if (this.o.quiet < 1) this.os.eprint(`xz: ${msg}\n`);
    if (!this.o.noWarn && this.status === 0) this.status = 2;
  }

  lib() {
    return loadLiblzma(this.sys, this.wasm);
  }
}

/** Where the wasm is: share/xz/ of the package this program belongs to. */
function wasmPath(os: AgentosApi): string {
  try {
    const self = os.sys.realpath(os.argv[0]);
    const root = self.slice(0, self.lastIndexOf('/libexec/'));
    if (root && tryLstat(os.sys, `${root}/share/xz/liblzma.wasm`)) return `${root}/share/xz/liblzma.wasm`;
  } catch {
    // invoked by a bare name: the installed package
  }
  return '/opt/agentos/xz/current/share/xz/liblzma.wasm';
}

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const prog = baseName(os.argv[0] ?? 'xz');
  let parsed;
  try {
    parsed = parseArgs(os.argv.slice(1), SPEC, 'POSIXLY_CORRECT' in os.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    os.eprint(`xz: ${e.message}\nxz: Try \`xz --help' for more information.\n`);
    return 1;
  }
  const o: Opts = {
    mode: prog === 'unxz' || prog === 'xzcat' ? 'decompress' : 'compress', keep: false, force: false, stdout: prog === 'xzcat',
    preset: 6, extreme: false, quiet: 0, verbose: 0, noWarn: false, suffix: '.xz', check: CHECKS.crc64, format: 'auto',
  };
  for (const [k, v] of parsed.list) {
    switch (k) {
      case 'z': o.mode = 'compress'; break;
      case 'd': o.mode = 'decompress'; break;
      case 't': o.mode = 'test'; break;
      case 'l': o.mode = 'list'; break;
      case 'k': o.keep = true; break;
      case 'f': o.force = true; break;
      case 'c': o.stdout = true; break;
      case 'e': o.extreme = true; break;
      case 'q': o.quiet++; break;
      case 'v': o.verbose++; break;
      case 'Q': o.noWarn = true; break;
      case 'S': {
        if (v === '' || v!.includes('/')) {
          os.eprint(`xz: ${v}: Invalid filename suffix\n`);
          return 1;
        }
        o.suffix = v!.startsWith('.') ? v! : `.${v}`;
        break;
      }
      case 'F': {
        if (v === 'lzip') {
          os.eprint('xz: Compression of lzip files (.lz) is not supported\n');
          return 1;
        }
        if (!['auto', 'xz', 'lzma', 'alone', 'raw'].includes(v!)) {
          os.eprint(`xz: ${v}: Unknown file format type\n`);
          return 1;
        }
        o.format = v!;
        break;
      }
      case 'C': {
        const c = (CHECKS as Record<string, number>)[v!];
        if (c === undefined) {
          os.eprint(`xz: ${v}: Unsupported integrity check type\n`);
          return 1;
        }
        o.check = c;
        break;
      }
      case 'T': case 'M': case 'single-stream': case 'no-sparse': case 'ignore-check': break;
      case 'h': case 'H': os.print(USAGE); return 0;
      case 'V': {
        let lib = '5.8';
        try {
          lib = versionString(loadLiblzma(os.sys, wasmPath(os)));
        } catch {
          // the version line still says what this is
        }
        os.print(`xz (agentOS XZ Utils) 5.4.1\nliblzma ${lib}\n`);
        return 0;
      }
      default: if (/^\d$/.test(k)) o.preset = Number(k);
    }
  }
  if (o.mode === 'compress' && o.format !== 'auto' && o.format !== 'xz') {
    os.eprint(`xz: ${o.format}: agentOS xz writes only the .xz format\n`);
    return 1;
  }
  if (o.format === 'raw') {
    os.eprint('xz: raw streams (--format=raw) are not supported by agentOS xz\n');
    return 1;
  }
  if (o.mode === 'list' && parsed.operands.length === 0) {
    os.eprint(`xz: --list does not support reading from standard input\n`);
    return 1;
  }
  const x = new Xz(os, o, wasmPath(os));
  const files = parsed.operands.length ? parsed.operands : ['-'];
  const totals: StreamInfo[] = [];
  let listed = 0;
  for (const f of files) {
    if (o.mode === 'list') {
      if (listFile(x, f, listed === 0, totals, files.indexOf(f) + 1, files.length)) listed++;
      continue;
    }
    if (f === '-') treatStdin(x);
    else treatFile(x, f);
  }
  if (o.mode === 'list' && listed > 1) printTotals(x, totals, listed);
  return x.status;
}

// --- coding ---------------------------------------------------------------

function describe(code: number): string {
  switch (code) {
    case LZMA_FORMAT_ERROR: return 'File format not recognized';
    case LZMA_DATA_ERROR: return 'Compressed data is corrupt';
    case LZMA_BUF_ERROR: return 'Unexpected end of input';
    case LZMA_MEM_ERROR: return 'Cannot allocate memory';
    case LZMA_MEMLIMIT_ERROR: return 'Memory usage limit reached';
    case LZMA_OPTIONS_ERROR: return 'Unsupported options';
    default: return 'Internal error (bug)';
  }
}

/** Stream `first` then the rest of `fd` through the coder into `out`; false (reported) on failure. */
function pump(x: Xz, name: string, fd: number, first: Uint8Array, out: ((b: Uint8Array) => void) | null): boolean {
  const o = x.o;
  let coder: Coder;
  try {
    const lib = x.lib();
    const preset = o.preset | (o.extreme ? LZMA_PRESET_EXTREME : 0);
    coder = o.mode === 'compress' ? encoder(x, lib, preset) : Coder.decoder(lib, MEMLIMIT, o.format !== 'xz');
  } catch (e) {
    if (!(e instanceof LzmaError)) throw e;
    x.error(`${name}: ${describe(e.code)}`);
    return false;
  }
  const sink = out ?? (() => undefined);
  try {
    let done = first.length ? coder.code(first, false, sink) : false;
    while (!done) {
      const b = x.sys.read(fd, CHUNK);
      if (b.length === 0) {
        coder.code(new Uint8Array(0), true, sink);
        break;
      }
      done = coder.code(b, false, sink);
    }
    if (done && o.mode !== 'compress') {
      // After the last stream only zero padding may follow.
      for (;;) {
        const b = x.sys.read(fd, CHUNK);
        if (b.length === 0) break;
        if (b.some((v) => v !== 0)) throw new LzmaError(LZMA_DATA_ERROR);
      }
    }
    return true;
  } catch (e) {
    if (e instanceof LzmaError) {
      x.error(`${name}: ${describe(e.code)}`);
      return false;
    }
    if (e instanceof x.os.SysError) {
      x.error(`${name}: ${strerror(e.errno)}`);
      return false;
    }
    throw e;
  } finally {
    coder.close();
  }
}

/** Dictionary size of presets 6 to 9 (the rest of their settings are the same). */
const DICT_MIB: Record<number, number> = { 6: 8, 7: 16, 8: 32, 9: 64 };

/**
 * An encoder for the preset. Presets 7-9 may not fit the WebAssembly module's
 * 256 MiB; then, as xz does under a memory limit, the dictionary shrinks
 * (preset 7 or 6 is preset 9 with a smaller dictionary) and a note says so.
 */
function encoder(x: Xz, lib: ReturnType<Xz['lib']>, preset: number): Coder {
  const level = preset & 0xff;
  for (let l = level; ; l--) {
    try {
      const c = Coder.encoder(lib, (preset & ~0xff) | l, x.o.check);
      if (l !== level && !x.noted) {
        x.noted = true;
        if (x.o.quiet < 1) x.os.eprint(`xz: Adjusted LZMA2 dictionary size from ${DICT_MIB[level]} MiB to ${DICT_MIB[l]} MiB to not exceed the memory usage limit of 256 MiB\n`);
      }
      return c;
    } catch (e) {
      if (!(e instanceof LzmaError) || e.code !== LZMA_MEM_ERROR || l <= 6) throw e;
    }
  }
}

/**
 * A .lzma (LZMA_Alone) header as xz recognises one: valid lc/lp/pb, a
 * dictionary size of 2^n or 2^n + 2^(n-1) (or unset), a known size below 2^38 or none.
 */
function isLzmaAlone(b: Uint8Array): boolean {
  if (b.length < 13 || b[0] > 224) return false;
  const dict = new DataView(b.buffer, b.byteOffset).getUint32(1, true);
  if (dict !== 0xffffffff) {
    let d = dict - 1;
    d |= d >>> 2;
    d |= d >>> 3;
    d |= d >>> 4;
    d |= d >>> 8;
    d |= d >>> 16;
    if (((d + 1) >>> 0) !== dict) return false;
  }
  const size = b.subarray(5, 13);
  return size.every((v) => v === 0xff) || size[4] < 0x40 && size.subarray(5).every((v) => v === 0);
}

/** The first bytes of a file to decompress: null (reported) when it is neither .xz nor (with -F auto/lzma) .lzma. */
function sniff(x: Xz, name: string, fd: number): Uint8Array | null {
  const b = x.sys.read(fd, CHUNK);
  const xzMagic = b.length >= 6 && XZ_MAGIC.every((m, i) => b[i] === m);
  const ok = x.o.format === 'lzma' || x.o.format === 'alone' ? isLzmaAlone(b) : x.o.format === 'xz' ? xzMagic : xzMagic || isLzmaAlone(b);
  if (!ok) {
    x.error(`${name}: File format not recognized`);
    return null;
  }
  return b;
}

function treatStdin(x: Xz): void {
  const o = x.o;
  const toStdout = o.mode === 'compress' || o.mode === 'decompress';
  if (toStdout && o.mode === 'compress' && !o.force && x.sys.isatty(1)) {
    x.os.eprint(`xz: Compressed data cannot be written to a terminal\nxz: Try \`xz --help' for more information.\n`);
    x.status = 1;
    return;
  }
  if (o.mode !== 'compress' && !o.force && x.sys.isatty(0)) {
    x.os.eprint(`xz: Compressed data cannot be read from a terminal\nxz: Try \`xz --help' for more information.\n`);
    x.status = 1;
    return;
  }
  const out = o.mode === 'test' ? null : (b: Uint8Array) => x.sys.writeAll(1, b);
  if (o.mode === 'compress') {
    pump(x, '(stdin)', 0, new Uint8Array(0), out);
    return;
  }
  const first = sniff(x, '(stdin)', 0);
  if (first) pump(x, '(stdin)', 0, first, out);
}

function outputName(x: Xz, name: string): string | null {
  const o = x.o;
  const base = baseName(name);
  if (o.mode === 'compress') {
    if (base.endsWith(o.suffix) || base.endsWith('.xz') || base.endsWith('.txz')) {
      const sfx = base.endsWith(o.suffix) ? o.suffix : base.endsWith('.xz') ? '.xz' : '.txz';
      x.warn(`${name}: File already has \`${sfx}' suffix, skipping`);
      return null;
    }
    return name + o.suffix;
  }
  for (const [sfx, rep] of [[o.suffix, ''], ['.xz', ''], ['.txz', '.tar'], ['.lzma', ''], ['.tlz', '.tar']] as const) {
    if (base.length > sfx.length && base.endsWith(sfx)) return name.slice(0, name.length - sfx.length) + rep;
  }
  x.warn(`${name}: Filename has an unknown suffix, skipping`);
  return null;
}

function treatFile(x: Xz, name: string): void {
  const o = x.o;
  const sys = x.sys;
  let st: Stat;
  try {
    st = sys.lstat(name);
  } catch (e) {
    if (!(e instanceof x.os.SysError)) throw e;
    x.error(`${name}: ${strerror(e.errno)}`);
    return;
  }
  if ((st.mode & 0o170000) === 0o120000 && !o.force && !o.stdout) {
    x.warn(`${name}: Is a symbolic link, skipping`);
    return;
  }
  const input = openInput(sys, name, o.force || o.stdout ? 0 : O_NOFOLLOW, (e) => x.error(`${name}: ${strerror(e.errno)}`));
  if (!input) return;
  const { fd } = input;
  st = input.st;
  try {
    if (isDir(st.mode)) return x.warn(`${name}: Is a directory, skipping`);
    if (!isReg(st.mode) && !o.stdout && o.mode !== 'test') return x.warn(`${name}: Not a regular file, skipping`);
    if (o.mode === 'test') {
      const first = sniff(x, name, fd);
      if (first) pump(x, name, fd, first, null);
      return;
    }
    let first: Uint8Array = new Uint8Array(0);
    if (o.mode === 'decompress') {
      const s = sniff(x, name, fd);
      if (!s) return;
      first = s;
    }
    if (o.stdout) {
      pump(x, name, fd, first, (b) => sys.writeAll(1, b));
      return;
    }
    const outName = outputName(x, name);
    if (outName === null) return;
    if (tryLstat(sys, outName)) {
      if (!o.force) return x.error(`${outName}: File exists`);
      sys.unlink(outName);
    }
    const fill = (out: number) => pump(x, name, fd, first, (b) => sys.writeAll(out, b));
    if (!writeOutputFile(sys, outName, st, fill, (e) => x.error(`${outName}: ${strerror(e.errno)}`))) return;
    // The output took the input's permissions and times; now the input goes.
    if (!o.keep) {
      try {
        sys.unlink(name);
      } catch (e) {
        if (e instanceof x.os.SysError && e.errno !== Errno.ENOENT) x.error(`${name}: ${strerror(e.errno)}`);
      }
    }
  } finally {
    sys.close(fd);
  }
}

// --- listing --------------------------------------------------------------

const HEAD = 'Strms  Blocks   Compressed Uncompressed  Ratio  Check   Filename';

function row(strms: string, blocks: string, comp: string, uncomp: string, ratio: string, check: string, name: string): string {
  return `${strms.padStart(5)} ${blocks.padStart(7)} ${comp.padStart(12)} ${uncomp.padStart(12)}  ${ratio.padStart(5)}  ${check.padEnd(7)} ${name}`;
}

function listFile(x: Xz, name: string, first: boolean, totals: StreamInfo[], index: number, count: number): boolean {
  const sys = x.sys;
  const input = openInput(sys, name, 0, (e) => x.error(`${name}: ${strerror(e.errno)}`));
  if (!input) return false;
  const { fd, st } = input;
  try {
    if (isDir(st.mode)) {
      x.warn(`${name}: Is a directory, skipping`);
      return false;
    }
    if (!isReg(st.mode)) {
      x.warn(`${name}: Not a regular file, skipping`);
      return false;
    }
    if (st.size < 24) {
      x.error(`${name}: Too small to be a valid .xz file`);
      return false;
    }
    let streams: StreamInfo[];
    try {
      const magic = sys.pread(fd, 6, 0);
      if (magic.length < 6 || XZ_MAGIC.some((m, i) => magic[i] !== m)) throw new ListError('format');
      streams = readStreams(sys, fd, st.size);
    } catch (e) {
      if (!(e instanceof ListError)) throw e;
      x.error(`${name}: ${e.message === 'format' ? 'File format not recognized' : 'Compressed data is corrupt'}`);
      return false;
    }
    totals.push(...streams);
    const blocks = streams.reduce((a, s) => a + s.blocks, 0);
    const comp = st.size;
    const uncomp = streams.reduce((a, s) => a + s.uncompressed, 0);
    const checks = checkList(streams, ',');
    const ratio = ratioText(comp, uncomp);
    if (x.o.verbose === 0) {
      if (first) x.os.print(`${HEAD}\n`);
      x.os.print(`${row(String(streams.length), String(blocks), sizeText(comp), sizeText(uncomp), ratio, checks, name)}\n`);
      return true;
    }
    const padding = streams.reduce((a, s) => a + s.padding, 0);
    x.os.print(`${first ? '' : '\n'}${name} (${index}/${count})\n${summary(streams.length, blocks, comp, uncomp, ratio, checkList(streams, ', '), padding)}${detail(streams)}`);
    return true;
  } finally {
    sys.close(fd);
  }
}

function printTotals(x: Xz, totals: StreamInfo[], files: number): void {
  const blocks = totals.reduce((a, s) => a + s.blocks, 0);
  const comp = totals.reduce((a, s) => a + s.compressed + s.padding, 0);
  const uncomp = totals.reduce((a, s) => a + s.uncompressed, 0);
  const checks = checkList(totals, ',');
  const ratio = ratioText(comp, uncomp);
  if (x.o.verbose > 0) {
    const padding = totals.reduce((a, s) => a + s.padding, 0);
    x.os.print(`\nTotals:\n  Number of files:   ${files}\n${summary(totals.length, blocks, comp, uncomp, ratio, checkList(totals, ', '), padding)}`);
    return;
  }
  x.os.print(`${'-'.repeat(79)}\n${row(String(totals.length), String(blocks), sizeText(comp), sizeText(uncomp), ratio, checks, `${files} files`)}\n`);
}

/** The checks used, in the order of their ids (as xz lists them). */
function checkList(streams: StreamInfo[], sep: string): string {
  return [...new Set(streams.map((s) => s.check))].sort((a, b) => a - b).map(checkName).join(sep);
}

function summary(streams: number, blocks: number, comp: number, uncomp: number, ratio: string, checks: string, padding: number): string {
  return `  Streams:           ${streams}\n  Blocks:            ${blocks}\n  Compressed size:   ${sizeText(comp, true)}\n  Uncompressed size: ${sizeText(uncomp, true)}\n  Ratio:             ${ratio}\n  Check:             ${checks}\n  Stream Padding:    ${sizeText(padding, true)}\n`;
}

/** xz -lv's per-stream and per-block tables. */
function detail(streams: StreamInfo[]): string {
  const n = (v: number | string, w: number) => String(v).padStart(w);
  let out = '  Streams:\n    Stream    Blocks      CompOffset    UncompOffset        CompSize      UncompSize  Ratio  Check      Padding\n';
  let blocksOut = '  Blocks:\n    Stream     Block      CompOffset    UncompOffset       TotalSize      UncompSize  Ratio  Check\n';
  let comp = 0;
  let uncomp = 0;
  streams.forEach((s, i) => {
    const check = checkName(s.check);
    out += `${n(i + 1, 10)}${n(s.blocks, 10)}${n(comp, 16)}${n(uncomp, 16)}${n(s.compressed, 16)}${n(s.uncompressed, 16)}  ${n(ratioText(s.compressed, s.uncompressed), 5)}  ${check.padEnd(10)}${n(s.padding, 8)}\n`;
    let bc = comp + 12;
    let bu = uncomp;
    s.blockList.forEach((b, k) => {
      blocksOut += `${n(i + 1, 10)}${n(k + 1, 10)}${n(bc, 16)}${n(bu, 16)}${n(b.total, 16)}${n(b.uncompressed, 16)}  ${n(ratioText(b.total, b.uncompressed), 5)}  ${check}\n`;
      bc += b.total;
      bu += b.uncompressed;
    });
    comp += s.compressed + s.padding;
    uncomp += s.uncompressed;
  });
  return streams.some((s) => s.blocks > 0) ? out + blocksOut : out;
}

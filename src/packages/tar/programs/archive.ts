// Opening the archive: stdin/stdout for "-", a file otherwise; compression
// chosen by -z, by -a and the suffix, or (reading a file) by its magic
// number, as GNU tar does. gzip runs in-process through fflate, but its
// failures are reported the way GNU tar reports its gzip child.

import { strerror, SysError } from '../../../abi/errno.js';
import { O_CREAT, O_RDONLY, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { isReg } from '../../../abi/stat.js';
import type { Tar } from './context.js';
import { BLOCK, checksumOk } from './header.js';
import { quoteColon } from './quote.js';
import { BlockReader, FdSink, FdSource, GunzipSource, GzipSink, PrefixSource, type Sink } from './stream.js';

const MAGICS: [string, number[], string][] = [
  ['gzip', [0x1f, 0x8b], '-z'],
  ['bzip2', [0x42, 0x5a, 0x68], '-j'],
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], '-J'],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd], '--zstd'],
  ['lzip', [0x4c, 0x5a, 0x49, 0x50], '--lzip'],
  ['compress', [0x1f, 0x9d], '-Z'],
];

const SUFFIXES: [RegExp, string][] = [
  [/\.(gz|tgz|taz)$/, 'gzip'], [/\.(bz2|tbz2?|tz2)$/, 'bzip2'], [/\.(xz|txz)$/, 'xz'], [/\.(zst|tzst)$/, 'zstd'],
  [/\.lz$/, 'lzip'], [/\.(Z|taZ)$/, 'compress'], [/\.(lzma|tlz)$/, 'lzma'],
];

const bySuffix = (name: string): string | null => SUFFIXES.find(([re]) => re.test(name))?.[1] ?? null;

/** A compressor agentOS does not have fails as GNU tar's child does when the program is missing. */
function missingProgram(t: Tar, program: string): never {
  t.flush();
  t.sys.writeAll(2, `tar (child): ${program}: Cannot exec: No such file or directory\ntar (child): Error is not recoverable: exiting now\n`);
  t.say('Child returned status 2');
  t.fatal(null);
}

/** The child could not open the archive (-z): its two lines, then tar's. */
function childCannotOpen(t: Tar, e: unknown): never {
  if (!(e instanceof SysError)) throw e;
  const name = quoteColon(t.opts.archive);
  t.flush();
  t.sys.writeAll(2, `tar (child): ${name}: Cannot open: ${strerror(e.errno)}\ntar (child): Error is not recoverable: exiting now\n`);
  t.say('Child returned status 2');
  t.fatal(null);
}

export interface ReadArchive {
  fd: number;
  br: BlockReader;
  gunzip: GunzipSource | null;
}

export function openForRead(t: Tar): ReadArchive {
  const o = t.opts;
  const stdin = o.archive === '-';
  if (o.compress && o.compress !== 'gzip') missingProgram(t, o.compress);
  let fd = 0;
  if (stdin) {
    if (t.sys.isatty(0)) t.fatal('Refusing to read archive contents from terminal (missing -f option?)');
  } else {
    try {
      fd = t.sys.open(o.archive, O_RDONLY);
    } catch (e) {
      if (o.compress) childCannotOpen(t, e);
      t.sysError(o.archive, 'Cannot open', e);
      t.fatal(null);
    }
  }
  const src = new FdSource(t.sys, fd);
  const prefix = sniff(t, src);
  let gzip = o.compress === 'gzip';
  if (!gzip) {
    const short = prefix.byteLength < BLOCK;
    const isTar = !short && checksumOk(prefix);
    const magic = isTar ? undefined : MAGICS.find(([, m]) => m.every((x, i) => prefix[i] === x));
    if (magic) {
      if (stdin) t.fatal(`Archive is compressed. Use ${magic[2]} option`);
      if (magic[0] !== 'gzip') missingProgram(t, magic[0]);
      gzip = true;
    } else if (!isTar) {
      if (short) t.error('This does not look like a tar archive');
      const bySuf = stdin ? null : bySuffix(o.archive);
      if (bySuf && bySuf !== 'gzip') missingProgram(t, bySuf);
      gzip = bySuf === 'gzip';
    }
  }
  const raw = new PrefixSource(prefix, src);
  const gunzip = gzip ? new GunzipSource(raw, (trouble) => {
    t.flush();
    t.sys.writeAll(2, `${trouble.message}\n`);
  }) : null;
  return { fd, br: new BlockReader(gunzip ?? raw), gunzip };
}

/** The first block (fewer bytes if the archive is shorter), read whole even from a pipe. */
function sniff(t: Tar, src: FdSource): Uint8Array {
  const out = new Uint8Array(BLOCK);
  let n = 0;
  try {
    while (n < BLOCK) {
      const b = src.read();
      if (!b) break;
      if (n + b.byteLength > BLOCK) {
        // Keep the whole chunk: the reader replays it.
        const all = new Uint8Array(n + b.byteLength);
        all.set(out.subarray(0, n));
        all.set(b, n);
        return all;
      }
      out.set(b, n);
      n += b.byteLength;
    }
  } catch (e) {
    t.sysError(t.opts.archive, 'Cannot read', e);
    t.say('At beginning of tape, quitting now');
    t.fatal(null);
  }
  return out.subarray(0, n);
}

/** After reading: what gunzip reported makes tar fail with its child's status. */
export function checkChild(t: Tar, a: ReadArchive): void {
  if (!a.gunzip) return;
  a.br.drain();
  const trouble = a.gunzip.trouble;
  if (trouble) {
    t.say(`Child returned status ${trouble.status}`);
    t.fatal(null);
  }
}

export interface WriteArchive {
  fd: number;
  sink: Sink;
  /** dev:ino when the archive is a regular file (tar leaves it out of itself). */
  id: string | null;
}

export function openForWrite(t: Tar): WriteArchive {
  const o = t.opts;
  const program = o.compress ?? (o.autoCompress && o.archive !== '-' ? bySuffix(o.archive) : null);
  if (program && program !== 'gzip') missingProgram(t, program);
  let fd = 1;
  if (o.archive === '-') {
    if (t.sys.isatty(1)) t.fatal('Refusing to write archive contents to terminal (missing -f option?)');
    t.useStderrForListing();
  } else {
    try {
      fd = t.sys.open(o.archive, O_WRONLY | O_CREAT | O_TRUNC, 0o666);
    } catch (e) {
      if (program) childCannotOpen(t, e);
      t.sysError(o.archive, 'Cannot open', e);
      t.fatal(null);
    }
  }
  const st = t.sys.fstat(fd);
  const id = isReg(st.mode) ? `${st.dev}:${st.ino}` : null;
  const fdSink = new FdSink(t.sys, fd);
  return { fd, sink: program === 'gzip' ? new GzipSink(fdSink) : fdSink, id };
}

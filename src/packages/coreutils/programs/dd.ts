// dd [OPERAND]...: copy a file block by block, converting as it goes.
// Operands: if= of= bs= ibs= obs= count= skip= seek= conv= iflag= oflag=
// status=none|noxfer|progress. The summary on stderr, the partial-read warning
// and the progress line are GNU's.

import {
  O_APPEND, O_CREAT, O_DIRECTORY, O_EXCL, O_NOCTTY, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_TRUNC, O_WRONLY, SEEK_CUR,
} from '../../../abi/fcntl.js';
import { command, quote, quoteaf, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: dd [OPERAND]...
  or:  dd OPTION
Copy a file, converting and formatting according to the operands.

  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);
                  overrides ibs and obs
  conv=CONVS      convert the file as per the comma separated symbol list
  count=N         copy only N input blocks
  ibs=BYTES       read up to BYTES bytes at a time (default: 512)
  if=FILE         read from FILE instead of stdin
  iflag=FLAGS     read as per the comma separated symbol list
  obs=BYTES       write BYTES bytes at a time (default: 512)
  of=FILE         write to FILE instead of stdout
  oflag=FLAGS     write as per the comma separated symbol list
  seek=N          skip N obs-sized output blocks
  skip=N          skip N ibs-sized input blocks
  status=LEVEL    The LEVEL of information to print to stderr;
                  'none' suppresses everything but error messages,
                  'noxfer' suppresses the final transfer statistics,
                  'progress' shows periodic transfer statistics

N and BYTES may be followed by the multiplicative suffixes: c=1, w=2, b=512,
kB=1000, K=1024, MB=1000*1000, M=1024*1024, GB, G and so on; BYTES may be a
product like 2x512.

Each CONV symbol may be:
  lcase     change upper case to lower case
  ucase     change lower case to upper case
  swab      swap every pair of input bytes
  sync      pad every input block with NULs to ibs-size
  excl      fail if the output file already exists
  nocreat   do not create the output file
  notrunc   do not truncate the output file
  noerror   continue after read errors
  fdatasync  physically write output file data before finishing
  fsync     likewise, but also write metadata

Each FLAG symbol may be:
  append    append mode (makes sense only for output; conv=notrunc suggested)
  direct    use direct I/O for data (accepted; agentOS has no page cache)
  directory  fail unless a directory
  dsync     use synchronized I/O for data
  sync      likewise, but also for metadata
  fullblock  accumulate full blocks of input (iflag only)
  nonblock  use non-blocking I/O
  noatime   do not update access time
  nocache   Request to drop cache
  noctty    do not assign controlling terminal from file
  nofollow  do not follow symlinks
  count_bytes  treat 'count=N' as a byte count (iflag only)
  skip_bytes  treat 'skip=N' as a byte count (iflag only)
  seek_bytes  treat 'seek=N' as a byte count (oflag only)
`;

const CONVS = ['notrunc', 'ucase', 'lcase', 'swab', 'sync', 'excl', 'nocreat', 'noerror', 'fsync', 'fdatasync'];
/** Flags and the open(2) flag each adds (0: behaviour only). */
const FLAGS: Record<string, number> = {
  append: O_APPEND, direct: 0, directory: O_DIRECTORY, dsync: 0, sync: 0, fullblock: 0, nonblock: O_NONBLOCK,
  noatime: 0, nocache: 0, noctty: O_NOCTTY, nofollow: O_NOFOLLOW, count_bytes: 0, skip_bytes: 0, seek_bytes: 0,
};

const MULT: Record<string, number> = { '': 1, c: 1, w: 2, b: 512, kB: 1e3, K: 1024, KiB: 1024, MB: 1e6, M: 1024 ** 2, MiB: 1024 ** 2, GB: 1e9, G: 1024 ** 3, GiB: 1024 ** 3 };

function number(c: Cmd, s: string): number {
  let v = 1;
  for (const part of s.split('x')) {
    const m = /^(\d+)([a-zA-Z]*)$/.exec(part);
    if (!m || !(m[2] in MULT)) c.fail(`invalid number: ${quote(s)}`);
    v *= Number(m[1]) * MULT[m[2]];
  }
  return v;
}

/** GNU's autoscaled sizes in the summary: nearest, one decimal below 10. */
function human(n: number, base: number, units: string[]): string {
  let u = -1;
  let v = n;
  while (v >= base && u < units.length - 1) {
    v /= base;
    u++;
  }
  if (u < 0) return `${Math.round(v)} B`;
  return `${v < 10 ? v.toFixed(1) : String(Math.round(v))} ${units[u]}`;
}

interface Stats {
  fullIn: number;
  partIn: number;
  fullOut: number;
  partOut: number;
  bytes: number;
}

function flagSet(c: Cmd, list: string | undefined, which: 'input' | 'output'): Set<string> {
  const set = new Set((list ?? '').split(',').filter(Boolean));
  for (const f of set) {
    if (!(f in FLAGS) || (f === 'fullblock' && which === 'output')) c.usage(`invalid ${which} flag: ${quote(f)}`);
  }
  return set;
}

const openFlags = (set: Set<string>): number => [...set].reduce((acc, f) => acc | FLAGS[f], 0);

export const dd = command({ name: 'dd', usage: USAGE }, (c) => {
  const ops: Record<string, string> = {};
  for (const a of c.operands) {
    const eq = a.indexOf('=');
    const key = a.slice(0, eq);
    if (eq < 0 || !['if', 'of', 'bs', 'ibs', 'obs', 'count', 'skip', 'seek', 'conv', 'iflag', 'oflag', 'status'].includes(key)) c.usage(`unrecognized operand ${quote(a)}`);
    ops[key] = a.slice(eq + 1);
  }
  const conv = new Set((ops.conv ?? '').split(',').filter(Boolean));
  for (const v of conv) if (!CONVS.includes(v)) c.usage(`invalid conversion: ${quote(v)}`);
  const iflag = flagSet(c, ops.iflag, 'input');
  const oflag = flagSet(c, ops.oflag, 'output');
  const status = ops.status ?? '';
  if (status && !['none', 'noxfer', 'progress'].includes(status)) c.usage(`invalid status level: ${quote(status)}`);
  const bs = ops.bs !== undefined ? number(c, ops.bs) : 0;
  const ibs = bs || (ops.ibs !== undefined ? number(c, ops.ibs) : 512);
  const obs = bs || (ops.obs !== undefined ? number(c, ops.obs) : 512);
  if (ibs === 0 || obs === 0) c.fail(`invalid number: ${quote(ops.bs ?? ops.ibs ?? ops.obs)}`);
  const count = ops.count !== undefined ? number(c, ops.count) : Infinity;
  const skip = ops.skip !== undefined ? number(c, ops.skip) * (iflag.has('skip_bytes') ? 1 : ibs) : 0;
  const seek = ops.seek !== undefined ? number(c, ops.seek) * (oflag.has('seek_bytes') ? 1 : obs) : 0;
  const countBytes = iflag.has('count_bytes');
  if ((iflag.has('direct') && iflag.has('nocache')) || (oflag.has('direct') && oflag.has('nocache'))) c.fail('cannot combine direct and nocache');
  if (oflag.has('append') && !conv.has('notrunc')) c.warn('you probably want conv=notrunc with oflag=append');
  let inFd = 0;
  let outFd = 1;
  if (ops.if !== undefined) {
    try {
      inFd = c.sys.open(ops.if, O_RDONLY | openFlags(iflag));
    } catch (e) {
      c.sysError(`failed to open ${quoteaf(ops.if)}`, e);
      return 1;
    }
  }
  if (ops.of !== undefined) {
    const flags = O_WRONLY | openFlags(oflag) | (conv.has('nocreat') ? 0 : O_CREAT) | (conv.has('excl') ? O_EXCL : 0) | (conv.has('notrunc') || seek ? 0 : O_TRUNC);
    try {
      outFd = c.sys.open(ops.of, flags, 0o666);
      if (seek && !conv.has('notrunc')) c.sys.ftruncate(outFd, seek);
    } catch (e) {
      c.sysError(`failed to open ${quoteaf(ops.of)}`, e);
      return 1;
    }
  }
  const inName = quoteaf(ops.if ?? 'standard input');
  const outName = quoteaf(ops.of ?? 'standard output');
  const start = Date.now();
  const stats: Stats = { fullIn: 0, partIn: 0, fullOut: 0, partOut: 0, bytes: 0 };
  const progress = new Progress(c, stats, start, status === 'progress');
  const sync = oflag.has('sync') || oflag.has('dsync');
  const write = (b: Uint8Array, full: boolean) => {
    try {
      c.sys.writeAll(outFd, b);
    } catch (e) {
      throw new Failed(`error writing ${outName}`, e);
    }
    // oflag=sync/dsync: each block durable before the next (what cannot be synced, a pipe, just goes on).
    if (sync) {
      try {
        c.sys.fsync(outFd);
      } catch {
        /* not a file */
      }
    }
    if (full) stats.fullOut++;
    else stats.partOut++;
    stats.bytes += b.byteLength;
    progress.tick();
  };
  // GNU warns once when a read comes back short and then another brings more (with bs= and a count or skip).
  let warnPartial = bs > 0 && !iflag.has('fullblock') && (skip > 0 || count !== Infinity) && status !== 'none';
  let lastRead = 0;
  const readSome = (want: number): Uint8Array => {
    try {
      return c.sys.read(inFd, want);
    } catch (e) {
      throw new Failed(`error reading ${inName}`, e);
    }
  };
  const read = (want: number): Uint8Array => {
    if (!iflag.has('fullblock')) {
      const b = readSome(want);
      if (warnPartial && b.byteLength > 0 && lastRead > 0 && lastRead < want) {
        c.warn(`warning: partial read (${lastRead} byte${lastRead === 1 ? '' : 's'}); suggest iflag=fullblock`);
        warnPartial = false;
      }
      lastRead = b.byteLength;
      return b;
    }
    const parts: Uint8Array[] = [];
    let got = 0;
    while (got < want) {
      const b = readSome(want - got);
      if (b.byteLength === 0) break;
      parts.push(b);
      got += b.byteLength;
    }
    return parts.length === 1 ? parts[0] : concat(parts, got);
  };
  let pending: Uint8Array = new Uint8Array(0);
  let ok = true;
  try {
    if (skip) skipInput(c, inFd, skip);
    if (seek) c.sys.lseek(outFd, seek, SEEK_CUR);
    let left = count;
    while (left > 0) {
      let b = read(countBytes ? Math.min(ibs, left) : ibs);
      if (b.byteLength === 0) break;
      left -= countBytes ? b.byteLength : 1;
      if (b.byteLength === ibs) stats.fullIn++;
      else stats.partIn++;
      if (conv.has('sync') && b.byteLength < ibs) {
        const padded = new Uint8Array(ibs);
        padded.set(b);
        b = padded;
      }
      b = convert(b, conv);
      // With bs=, every input block is written as it was read.
      if (bs) {
        write(b, b.byteLength === obs);
        continue;
      }
      pending = concat([pending, b], pending.byteLength + b.byteLength);
      for (; pending.byteLength >= obs; pending = pending.subarray(obs)) write(pending.subarray(0, obs), true);
    }
    if (pending.byteLength) write(pending, false);
  } catch (e) {
    ok = false;
    if (e instanceof Failed) c.sysError(e.what, e.cause);
    else c.sysError('error', e);
  }
  if (ok && (conv.has('fsync') || conv.has('fdatasync'))) {
    try {
      c.sys.fsync(outFd);
    } catch (e) {
      c.sysError(`${conv.has('fsync') ? 'fsync' : 'fdatasync'} failed for ${outName}`, e);
    }
  }
  progress.end();
  if (status !== 'none') summary(c, stats, status, (Date.now() - start) / 1000);
});

/** A read or write that failed, with what to call it. */
class Failed {
  constructor(readonly what: string, readonly cause: unknown) {}
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** status=progress: the transfer line on stderr, rewritten in place at most once a second. */
class Progress {
  private last: number;
  private width = 0;

  constructor(private readonly c: Cmd, private readonly stats: Stats, private readonly start: number, private readonly on: boolean) {
    this.last = start;
  }

  tick(): void {
    if (!this.on) return;
    const now = Date.now();
    if (now - this.last < 1000) return;
    this.last = now;
    const line = transferLine(this.stats.bytes, (now - this.start) / 1000);
    this.c.out.flush();
    this.c.sys.writeAll(2, `\r${line.padEnd(this.width)}`);
    this.width = line.length;
  }

  /** A progress line is ended before the summary. */
  end(): void {
    if (this.width) this.c.sys.writeAll(2, '\n');
  }
}

function skipInput(c: Cmd, fd: number, n: number): void {
  try {
    c.sys.lseek(fd, n, SEEK_CUR);
    return;
  } catch {
    // Not seekable (a pipe): read and drop.
  }
  let left = n;
  while (left > 0) {
    const b = c.sys.read(fd, Math.min(left, 65536));
    if (b.byteLength === 0) break;
    left -= b.byteLength;
  }
}

function convert(b: Uint8Array, conv: Set<string>): Uint8Array {
  if (!conv.has('ucase') && !conv.has('lcase') && !conv.has('swab')) return b;
  const out = new Uint8Array(b);
  // swab: each pair of bytes swapped; an odd last byte stays.
  if (conv.has('swab')) for (let i = 0; i + 1 < out.length; i += 2) [out[i], out[i + 1]] = [out[i + 1], out[i]];
  for (let i = 0; i < out.length; i++) {
    const ch = out[i];
    if (conv.has('ucase') && ch >= 97 && ch <= 122) out[i] = ch - 32;
    else if (conv.has('lcase') && ch >= 65 && ch <= 90) out[i] = ch + 32;
  }
  return out;
}

function transferLine(n: number, secs: number): string {
  const si = human(n, 1000, ['kB', 'MB', 'GB', 'TB']);
  const sizes = n >= 1024 ? ` (${si}, ${human(n, 1024, ['KiB', 'MiB', 'GiB', 'TiB'])})` : n >= 1000 ? ` (${si})` : '';
  const t = Math.max(secs, 1e-6);
  const rate = `${human(n / t, 1000, ['kB', 'MB', 'GB', 'TB'])}/s`;
  return `${n} byte${n === 1 ? '' : 's'}${sizes} copied, ${Number(t.toPrecision(6))} s, ${rate}`;
}

function summary(c: Cmd, s: Stats, status: string, secs: number): void {
  let text = `${s.fullIn}+${s.partIn} records in\n${s.fullOut}+${s.partOut} records out\n`;
  if (status !== 'noxfer') text += `${transferLine(s.bytes, secs)}\n`;
  c.out.flush();
  c.sys.writeAll(2, text);
}

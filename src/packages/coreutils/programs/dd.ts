// dd [OPERAND]...: copy a file block by block, converting as it goes.
// Operands: if= of= bs= ibs= obs= count= skip= seek= conv=notrunc,ucase,lcase,sync,
// excl,nocreat status=none|noxfer. The summary on stderr is GNU's.

import { O_CREAT, O_EXCL, O_RDONLY, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { SEEK_CUR } from '../../../abi/fcntl.js';
import { command, quote, quoteaf, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: dd [OPERAND]...
  or:  dd OPTION
Copy a file, converting and formatting according to the operands.

  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);
                  overrides ibs and obs
  count=N         copy only N input blocks
  ibs=BYTES       read up to BYTES bytes at a time (default: 512)
  if=FILE         read from FILE instead of stdin
  obs=BYTES       write BYTES bytes at a time (default: 512)
  of=FILE         write to FILE instead of stdout
  seek=N          skip N obs-sized output blocks
  skip=N          skip N ibs-sized input blocks
  status=LEVEL    'none' suppresses everything but error messages,
                  'noxfer' suppresses the final transfer statistics

N and BYTES may be followed by the multiplicative suffixes: c=1, w=2, b=512,
kB=1000, K=1024, MB=1000*1000, M=1024*1024, GB, G and so on; BYTES may be a
product like 2x512.

Each CONV symbol may be:
  lcase     change upper case to lower case
  ucase     change lower case to upper case
  sync      pad every input block with NULs to ibs-size
  excl      fail if the output file already exists
  nocreat   do not create the output file
  notrunc   do not truncate the output file
`;

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

export const dd = command({ name: 'dd', usage: USAGE }, (c) => {
  const ops: Record<string, string> = {};
  for (const a of c.operands) {
    const eq = a.indexOf('=');
    const key = a.slice(0, eq);
    if (eq < 0 || !['if', 'of', 'bs', 'ibs', 'obs', 'count', 'skip', 'seek', 'conv', 'status'].includes(key)) c.usage(`unrecognized operand ${quote(a)}`);
    ops[key] = a.slice(eq + 1);
  }
  const conv = new Set((ops.conv ?? '').split(',').filter(Boolean));
  for (const v of conv) if (!['notrunc', 'ucase', 'lcase', 'sync', 'excl', 'nocreat', 'noerror', 'fsync', 'fdatasync'].includes(v)) c.usage(`invalid conversion: ${quote(v)}`);
  const status = ops.status ?? '';
  if (status && !['none', 'noxfer', 'progress'].includes(status)) c.usage(`invalid status level: ${quote(status)}`);
  const bs = ops.bs !== undefined ? number(c, ops.bs) : 0;
  const ibs = bs || (ops.ibs !== undefined ? number(c, ops.ibs) : 512);
  const obs = bs || (ops.obs !== undefined ? number(c, ops.obs) : 512);
  if (ibs === 0 || obs === 0) c.fail(`invalid number: ${quote(ops.bs ?? ops.ibs ?? ops.obs)}`);
  const count = ops.count !== undefined ? number(c, ops.count) : Infinity;
  const skip = ops.skip !== undefined ? number(c, ops.skip) : 0;
  const seek = ops.seek !== undefined ? number(c, ops.seek) : 0;
  let inFd = 0;
  let outFd = 1;
  if (ops.if !== undefined) {
    try {
      inFd = c.sys.open(ops.if, O_RDONLY);
    } catch (e) {
      c.sysError(`failed to open ${quoteaf(ops.if)}`, e);
      return 1;
    }
  }
  if (ops.of !== undefined) {
    const flags = O_WRONLY | (conv.has('nocreat') ? 0 : O_CREAT) | (conv.has('excl') ? O_EXCL : 0) | (conv.has('notrunc') || seek ? 0 : O_TRUNC);
    try {
      outFd = c.sys.open(ops.of, flags, 0o666);
      if (seek && !conv.has('notrunc')) c.sys.ftruncate(outFd, seek * obs);
    } catch (e) {
      c.sysError(`failed to open ${quoteaf(ops.of)}`, e);
      return 1;
    }
  }
  const start = Date.now();
  if (skip) skipInput(c, inFd, skip * ibs);
  if (seek) c.sys.lseek(outFd, seek * obs, SEEK_CUR);
  const stats = { fullIn: 0, partIn: 0, fullOut: 0, partOut: 0, bytes: 0 };
  let pending = new Uint8Array(0);
  const flushOut = (all: boolean) => {
    while (pending.byteLength >= obs || (all && pending.byteLength > 0)) {
      const n = Math.min(obs, pending.byteLength);
      c.sys.writeAll(outFd, pending.subarray(0, n));
      if (n === obs) stats.fullOut++;
      else stats.partOut++;
      stats.bytes += n;
      pending = pending.subarray(n);
    }
  };
  try {
    for (let blocks = 0; blocks < count; blocks++) {
      let b = c.sys.read(inFd, ibs);
      if (b.byteLength === 0) break;
      if (b.byteLength === ibs) stats.fullIn++;
      else stats.partIn++;
      if (conv.has('sync') && b.byteLength < ibs) {
        const padded = new Uint8Array(ibs);
        padded.set(b);
        b = padded;
      }
      b = convert(b, conv);
      const joined = new Uint8Array(pending.byteLength + b.byteLength);
      joined.set(pending);
      joined.set(b, pending.byteLength);
      pending = joined;
      // With bs=, every input block is written as it was read.
      if (bs) {
        c.sys.writeAll(outFd, pending);
        if (pending.byteLength === obs) stats.fullOut++;
        else stats.partOut++;
        stats.bytes += pending.byteLength;
        pending = new Uint8Array(0);
      } else flushOut(false);
    }
    flushOut(true);
  } catch (e) {
    c.sysError(ops.of !== undefined ? `error writing ${quoteaf(ops.of)}` : 'error', e);
  }
  if (status !== 'none') summary(c, stats, status, (Date.now() - start) / 1000);
});

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
  if (!conv.has('ucase') && !conv.has('lcase')) return b;
  const out = new Uint8Array(b);
  for (let i = 0; i < out.length; i++) {
    const ch = out[i];
    if (conv.has('ucase') && ch >= 97 && ch <= 122) out[i] = ch - 32;
    else if (conv.has('lcase') && ch >= 65 && ch <= 90) out[i] = ch + 32;
  }
  return out;
}

function summary(c: Cmd, s: { fullIn: number; partIn: number; fullOut: number; partOut: number; bytes: number }, status: string, secs: number): void {
  let text = `${s.fullIn}+${s.partIn} records in\n${s.fullOut}+${s.partOut} records out\n`;
  if (status !== 'noxfer') {
    const n = s.bytes;
    const si = human(n, 1000, ['kB', 'MB', 'GB', 'TB']);
    const sizes = n >= 1024 ? ` (${si}, ${human(n, 1024, ['KiB', 'MiB', 'GiB', 'TiB'])})` : n >= 1000 ? ` (${si})` : '';
    const t = Math.max(secs, 1e-6);
    const rate = `${human(n / t, 1000, ['kB', 'MB', 'GB', 'TB'])}/s`;
    text += `${n} byte${n === 1 ? '' : 's'}${sizes} copied, ${Number(t.toPrecision(6))} s, ${rate}\n`;
  }
  c.out.flush();
  c.sys.writeAll(2, text);
}

// unzip -l, -v and -t: UnZip's listing formats (dates as YYYY-MM-DD HH:MM
// from the DOS time), its compression ratios and its test report.

import { isDirEntry, type Entry } from './format.js';
import { readEntry } from './data.js';
import type { Unzip } from './unzip.js';

const pad2 = (n: number): string => String(n).padStart(2, '0');

function dosStamp(e: Entry): string {
  const d = e.dosDate;
  const t = e.dosTime;
  return `${1980 + (d >> 9)}-${pad2((d >> 5) & 15)}-${pad2(d & 31)} ${pad2(t >> 11)}:${pad2((t >> 5) & 63)}`;
}

/** UnZip's ratio(): per mille saved, rounded, shown as a percentage rounded again. */
function ratio(usize: number, csize: number): string {
  if (usize === 0) return '  0%';
  const permille = usize >= csize
    ? Math.floor((1000 * (usize - csize) + Math.floor(usize / 2)) / usize)
    : -Math.floor((1000 * (csize - usize) + Math.floor(usize / 2)) / usize);
  const pct = Math.sign(permille) * Math.floor((Math.abs(permille) + 5) / 10);
  return `${pct < 0 ? '-' : ' '}${String(Math.abs(pct)).padStart(2)}%`;
}

const METHODS: Record<number, string> = { 0: 'Stored', 1: 'Shrunk', 6: 'Implode', 8: 'Defl:', 9: 'Def64', 12: 'BZip2', 14: 'LZMA' };

function methodName(e: Entry): string {
  if (e.method !== 8) return METHODS[e.method] ?? `Unk:${String(e.method).padStart(3, '0')}`;
  return `Defl:${'NXFS'[(e.flags >> 1) & 3]}`;
}

const files = (n: number): string => `${n} file${n === 1 ? '' : 's'}`;

export function listEntries(u: Unzip, entries: Entry[]): void {
  const { out, o } = u;
  const verbose = o.mode === 'verbose';
  const head = o.quiet < 2;
  let usize = 0;
  let csize = 0;
  if (head) {
    out.write(verbose
      ? ' Length   Method    Size  Cmpr    Date    Time   CRC-32   Name\n--------  ------  ------- ---- ---------- ----- --------  ----\n'
      : '  Length      Date    Time    Name\n---------  ---------- -----   ----\n');
  }
  for (const e of entries) {
    usize += e.usize;
    csize += e.csize;
    if (verbose) {
      const crc = e.crc.toString(16).padStart(8, '0');
      out.write(`${String(e.usize).padStart(8)}  ${methodName(e).padEnd(6)} ${String(e.csize).padStart(8)} ${ratio(e.usize, e.csize)} ${dosStamp(e)} ${crc}  ${e.name}\n`);
    } else out.write(`${String(e.usize).padStart(9)}  ${dosStamp(e)}   ${e.name}\n`);
  }
  if (!head) return;
  if (verbose) {
    out.write('--------          -------  ---                            -------\n');
    out.write(`${String(usize).padStart(8)}         ${String(csize).padStart(8)} ${ratio(usize, csize)}                            ${files(entries.length)}\n`);
  } else {
    out.write('---------                     -------\n');
    out.write(`${String(usize).padStart(9)}                     ${files(entries.length)}\n`);
  }
}

export function testEntries(u: Unzip, entries: Entry[], unmatched: string[]): void {
  const { out, o } = u;
  let bad = false;
  for (const e of entries) {
    const r = isDirEntry(e) && e.usize === 0 ? { ok: true as const } : readEntry(u, e, null);
    if (o.quiet === 0) out.write(`    testing: ${e.name.padEnd(22)}   `);
    if (r.ok) {
      if (o.quiet === 0) out.write('OK\n');
      continue;
    }
    bad = true;
    if (o.quiet > 0) out.write(`    testing: ${e.name.padEnd(22)}   `);
    if ('crc' in r) out.write(`bad CRC ${hex(r.crc)}  (should be ${hex(e.crc)})\n`);
    else out.write(`\n  error:  ${r.error}\n`);
  }
  // Here the caution goes to stdout, with the report.
  for (const p of unmatched) out.write(`caution: filename not matched:  ${p}\n`);
  if (bad) u.status = 2;
  if (o.quiet >= 2 && !bad && !unmatched.length) return;
  out.write(bad || unmatched.length ? `At least one error was detected in ${u.zipName}.\n` : `No errors detected in compressed data of ${u.zipName}.\n`);
}

export function cautionUnmatched(u: Unzip, names: string[]): void {
  u.out.flush();
  for (const p of names) u.os.sys.writeAll(2, `caution: filename not matched:  ${p}\n`);
}

const hex = (n: number): string => n.toString(16).padStart(8, '0');

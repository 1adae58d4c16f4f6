// GNU tar's verbose listing line (print_header): type and mode letters,
// owner/group and size right-aligned in a column that only widens, the
// modification time, the name, and " -> target" / " link to target".

import { modeString } from '../../../userland/lib/fs.js';
import type { Tar } from './context.js';
import { BLK, CHR, DIR, FIFO, LNK, SYM, CONT, type Header } from './header.js';
import { quoteName } from './quote.js';

const TYPE_LETTER: Record<string, string> = {
  [LNK]: 'h', [SYM]: 'l', [DIR]: 'd', [CHR]: 'c', [BLK]: 'b', [FIFO]: 'p', [CONT]: 'C', L: 'L', K: 'K', V: 'V', M: 'M', S: 'S', D: 'd',
};

function typeLetter(h: Header): string {
  if (h.type === '0' || h.type === '\0') return h.type === '\0' && h.name.endsWith('/') ? 'd' : '-';
  return TYPE_LETTER[h.type] ?? '?';
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** tartime: "YYYY-MM-DD HH:MM" in local time (agentOS: UTC), seconds with --full-time. */
export function tarTime(secs: number, full: boolean): string {
  const d = new Date(Math.floor(secs) * 1000);
  if (Number.isNaN(d.getTime())) return String(secs);
  const date = `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
  return full ? `${date}:${pad2(d.getUTCSeconds())}` : date;
}

export function longLine(t: Tar, h: Header, name: string): string {
  const o = t.opts;
  const modes = typeLetter(h) + modeString(0o100000 | h.mode).slice(1);
  const user = h.uname && o.format !== 'v7' && !o.numericOwner ? h.uname : String(h.uid);
  const group = h.gname && o.format !== 'v7' && !o.numericOwner ? h.gname : String(h.gid);
  const size = h.type === CHR || h.type === BLK ? `${h.devmajor},${h.devminor}` : String(h.size);
  const pad = user.length + 1 + group.length + 1 + size.length;
  if (pad > t.ugsWidth) t.ugsWidth = pad;
  const time = tarTime(h.mtime, o.fullTime);
  if (time.length > t.dateWidth) t.dateWidth = time.length;
  let line = `${modes} ${user}/${group} ${size.padStart(t.ugsWidth - pad + size.length)} ${time.padEnd(t.dateWidth)} ${quoteName(name)}`;
  if (h.type === SYM) line += ` -> ${quoteName(h.linkname)}`;
  else if (h.type === LNK) line += ` link to ${quoteName(h.linkname)}`;
  else if (!(h.type in TYPE_LETTER) && h.type !== '0' && h.type !== '\0') line += ` unknown file type '${quoteName(h.type)}'`;
  return `${line}\n`;
}

/** One verbose line for a member: the name (-v) or the long form (-vv, and -tv). */
export function verboseLine(t: Tar, h: Header, name: string, long: boolean): void {
  t.listing.write(long ? longLine(t, h, name) : `${quoteName(name)}\n`);
}

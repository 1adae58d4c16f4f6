// ls output formats: the long (-l) lines with GNU's column alignment and date
// style, and GNU's multi-column (-C, -x) and comma (-m) layouts.

import { isDir, isLnk, isFifo, S_IFMT, S_IFSOCK, type Stat } from '../../../abi/stat.js';
import { groupName, humanSize, modeString, userName, type Cmd } from '../../../userland/lib/index.js';
import { encode, strWidth } from '../../../userland/lib/utf8.js';
import type { LsOpts } from './ls.js';
import { strftime } from '../../../userland/lib/strftime.js';
import { zoneFor, type Zone } from '../../../userland/lib/tz.js';

export interface Item {
  name: string;
  path: string;
  st: Stat;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SIX_MONTHS = (365.2425 / 2) * 86400e3;

/** GNU's default --time-style=locale in the C locale, in TZ's zone: recent files show the time, others the year. */
export function lsDate(ms: number, now: number, zone: Zone): string {
  const d = new Date(ms + zone.at(ms).offset * 1000);
  const day = String(d.getUTCDate()).padStart(2);
  const recent = ms <= now + 60e3 && now - ms < SIX_MONTHS;
  const tail = recent
    ? `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`
    : ` ${d.getUTCFullYear()}`;
  return `${MONTHS[d.getUTCMonth()]} ${day} ${tail}`;
}

export function indicator(st: Stat): string {
  if (isDir(st.mode)) return '/';
  if (isLnk(st.mode)) return '@';
  if (isFifo(st.mode)) return '|';
  if ((st.mode & S_IFMT) === S_IFSOCK) return '=';
  return st.mode & 0o111 ? '*' : '';
}

export function longLines(c: Cmd, o: LsOpts, items: Item[], isDirListing: boolean): string[] {
  const now = Date.now();
  const zone = zoneFor(c.os.env.TZ);
  const owner = (st: Stat) => (o.numeric ? String(st.uid) : (userName(c.sys, st.uid) ?? String(st.uid)));
  const group = (st: Stat) => (o.numeric ? String(st.gid) : (groupName(c.sys, st.gid) ?? String(st.gid)));
  const size = (st: Stat) => (o.human ? humanSize(st.size) : String(st.size));
  const rows = items.map((it) => ({
    ino: String(it.st.ino),
    mode: modeString(it.st.mode),
    nlink: String(it.st.nlink),
    owner: owner(it.st),
    group: group(it.st),
    size: size(it.st),
    date: o.fullTime ? strftime('%Y-%m-%d %H:%M:%S.%N %z', it.st.mtimeMs, zone) : lsDate(it.st.mtimeMs, now, zone),
    name: encode(it.name) + nameTail(c, o, it),
  }));
  const w = (k: keyof (typeof rows)[number]) => Math.max(0, ...rows.map((r) => r[k].length));
  const [wi, wl, wo, wg, ws] = [w('ino'), w('nlink'), w('owner'), w('group'), w('size')];
  const out: string[] = [];
  if (isDirListing) {
    const kib = items.reduce((n, it) => n + Math.ceil(it.st.blocks / 2), 0);
    out.push(`total ${o.human ? humanSize(kib * 1024) : kib}`);
  }
  for (const r of rows) {
    let line = o.inode ? `${r.ino.padStart(wi)} ` : '';
    line += `${r.mode} ${r.nlink.padStart(wl)} `;
    if (o.showOwner) line += `${r.owner.padEnd(wo)} `;
    if (o.showGroup) line += `${r.group.padEnd(wg)} `;
    line += `${r.size.padStart(ws)} ${r.date} ${r.name}`;
    out.push(line);
  }
  return out;
}

function nameTail(c: Cmd, o: LsOpts, it: Item): string {
  if (isLnk(it.st.mode)) {
    let target = '';
    try {
      target = c.sys.readlink(it.path);
    } catch {
      // unreadable link: GNU prints nothing after the arrow either
    }
    let ind = '';
    if (o.classify) {
      try {
        ind = indicator(c.sys.stat(it.path));
      } catch {
        // dangling
      }
    }
    return ` -> ${encode(target)}${ind}`;
  }
  return o.classify ? indicator(it.st) : '';
}

/**
 * Columns a name takes (a byte string): in the C locale its printable ASCII
 * bytes; in UTF-8 its characters' widths, an invalid byte counting one and a
 * control character none (GNU's mbsnwidth).
 */
export function nameWidth(name: string, utf8: boolean): number {
  if (!utf8) {
    let w = 0;
    for (let i = 0; i < name.length; i++) {
      const b = name.charCodeAt(i);
      if (b >= 0x20 && b < 0x7f) w++;
    }
    return w;
  }
  return strWidth(name, 1, 0);
}

const MIN_COLUMN_WIDTH = 3;
const TAB = 8;

/** Padding from column `from` to `to`: tabs where a tab stop lies within, as GNU ls does. */
function indent(from: number, to: number): string {
  let s = '';
  while (from < to) {
    if (Math.floor(to / TAB) > Math.floor((from + 1) / TAB)) {
      s += '\t';
      from += TAB - (from % TAB);
    } else {
      s += ' ';
      from++;
    }
  }
  return s;
}

/**
 * GNU's choice of columns: the most that fit in `width`, each column as wide
 * as its widest name plus 2 (at least 3), filled top to bottom or left to right.
 */
function layout(widths: number[], width: number, byCols: boolean): number[] {
  const n = widths.length;
  const maxCols = Math.max(1, Math.min(width > 0 ? Math.floor(width / MIN_COLUMN_WIDTH) : n, n));
  const fmt = Array.from({ length: maxCols }, (_, i) => ({ valid: true, lineLen: (i + 1) * MIN_COLUMN_WIDTH, cols: new Array<number>(i + 1).fill(MIN_COLUMN_WIDTH) }));
  for (let f = 0; f < n; f++) {
    for (let i = 0; i < maxCols; i++) {
      const c = fmt[i];
      if (!c.valid) continue;
      const idx = byCols ? Math.floor(f / Math.floor((n + i) / (i + 1))) : f % (i + 1);
      const real = widths[f] + (idx === i ? 0 : 2);
      if (c.cols[idx] < real) {
        c.lineLen += real - c.cols[idx];
        c.cols[idx] = real;
        c.valid = width === 0 || c.lineLen < width;
      }
    }
  }
  let cols = maxCols;
  while (cols > 1 && !fmt[cols - 1].valid) cols--;
  return fmt[cols - 1].cols;
}

/** -C: names down the columns. */
export function byColumns(names: string[], widths: number[], width: number): string {
  if (names.length === 0) return '';
  const colw = layout(widths, width, true);
  const rows = Math.ceil(names.length / colw.length);
  let out = '';
  for (let r = 0; r < rows; r++) {
    let pos = 0;
    for (let col = 0, f = r; ; col++) {
      out += names[f];
      if (f + rows >= names.length) break;
      out += indent(pos + widths[f], pos + colw[col]);
      pos += colw[col];
      f += rows;
    }
    out += '\n';
  }
  return out;
}

/** -x: names across the rows. */
export function byRows(names: string[], widths: number[], width: number): string {
  if (names.length === 0) return '';
  const colw = layout(widths, width, false);
  let out = names[0];
  let pos = 0;
  for (let f = 1; f < names.length; f++) {
    const col = f % colw.length;
    if (col === 0) {
      out += '\n';
      pos = 0;
    } else {
      out += indent(pos + widths[f - 1], pos + colw[col - 1]);
      pos += colw[col - 1];
    }
    out += names[f];
  }
  return `${out}\n`;
}

/** -m: names separated by ", ", a line broken before a name that would reach `width`. */
export function withCommas(names: string[], widths: number[], width: number): string {
  if (names.length === 0) return '';
  let out = names[0];
  let pos = widths[0];
  for (let f = 1; f < names.length; f++) {
    const len = width ? widths[f] : 0;
    if (!width || pos + len + 2 < width) {
      out += ', ';
      pos += 2;
    } else {
      out += ',\n';
      pos = 0;
    }
    out += names[f];
    pos += len;
  }
  return `${out}\n`;
}

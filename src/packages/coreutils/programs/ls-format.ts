// ls output formats: the long (-l) lines with GNU's column alignment and date
// style, and the multi-column layout used on terminals.

import { isDir, isLnk, isFifo, S_IFMT, S_IFSOCK, type Stat } from '../../../abi/stat.js';
import { groupName, humanSize, modeString, userName, type Cmd } from '../../../userland/lib/index.js';
import type { LsOpts } from './ls.js';
import { strftime } from './strftime.js';
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
    name: it.name + nameTail(c, o, it),
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
    return ` -> ${target}${ind}`;
  }
  return o.classify ? indicator(it.st) : '';
}

/** GNU's vertical column layout: as many columns as fit in WIDTH, filled top to bottom. */
export function columns(names: string[], width: number): string[] {
  if (names.length === 0) return [];
  for (let cols = names.length; cols >= 1; cols--) {
    const rows = Math.ceil(names.length / cols);
    const used = Math.ceil(names.length / rows);
    if (used !== cols) continue;
    const widths: number[] = [];
    for (let col = 0; col < cols; col++) {
      const slice = names.slice(col * rows, (col + 1) * rows);
      widths.push(Math.max(...slice.map((n) => n.length)) + (col === cols - 1 ? 0 : 2));
    }
    if (widths.reduce((a, b) => a + b, 0) > width && cols > 1) continue;
    const out: string[] = [];
    for (let r = 0; r < rows; r++) {
      let line = '';
      for (let col = 0; col < cols; col++) {
        const n = names[col * rows + r];
        if (n === undefined) continue;
        const last = col === cols - 1 || names[(col + 1) * rows + r] === undefined;
        line += last ? n : n.padEnd(widths[col]);
      }
      out.push(line);
    }
    return out;
  }
  return names;
}

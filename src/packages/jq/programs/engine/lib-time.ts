// Date builtins: "broken down time" arrays [year, month0, mday, hours,
// minutes, seconds, wday, yday] as jq uses them, converted with UTC
// (gmtime/mktime) or the local zone (localtime/strflocaltime), formatted by
// strftime and read by strptime (the C library's common directives).

import { describe } from './ops.js';
import { err, isNum, num, type Json } from './value.js';
import type { Table } from './natives.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

interface Tm {
  year: number;
  mon: number;
  mday: number;
  hour: number;
  min: number;
  sec: number;
  wday: number;
  yday: number;
  /** Offset east of UTC in minutes and zone name (for %z %Z). */
  gmtoff: number;
  zone: string;
}

const dayOfYear = (y: number, m: number, d: number): number => Math.round((Date.UTC(y, m, d) - Date.UTC(y, 0, 1)) / 86400000);

function fromDate(t: number, local: boolean): Tm {
  const d = new Date(Math.floor(t) * 1000);
  const sec = (local ? d.getSeconds() : d.getUTCSeconds()) + (t - Math.floor(t));
  if (local) {
    const off = -d.getTimezoneOffset();
    return {
      year: d.getFullYear(),
      mon: d.getMonth(),
      mday: d.getDate(),
      hour: d.getHours(),
      min: d.getMinutes(),
      sec,
      wday: d.getDay(),
      yday: dayOfYear(d.getFullYear(), d.getMonth(), d.getDate()),
      gmtoff: off,
      zone: zoneName(d, off),
    };
  }
  return {
    year: d.getUTCFullYear(),
    mon: d.getUTCMonth(),
    mday: d.getUTCDate(),
    hour: d.getUTCHours(),
    min: d.getUTCMinutes(),
    sec,
    wday: d.getUTCDay(),
    yday: dayOfYear(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()),
    gmtoff: 0,
    zone: 'UTC',
  };
}

function zoneName(d: Date, off: number): string {
  const m = /\(([^)]+)\)/.exec(d.toString());
  if (m && /^[A-Z]{2,5}$/.test(m[1])) return m[1];
  if (off === 0) return 'UTC';
  const a = Math.abs(off);
  return `${off < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}${a % 60 ? String(a % 60).padStart(2, '0') : ''}`;
}

const toArray = (tm: Tm): Json[] => [tm.year, tm.mon, tm.mday, tm.hour, tm.min, tm.sec, tm.wday, tm.yday];

function fromArray(v: Json, what: string): Tm {
  if (!Array.isArray(v) || v.length < 6 || !v.slice(0, 6).every(isNum)) throw err(`${what} requires array of 6 numbers`);
  const n = v.map((x) => (isNum(x) ? num(x) : 0));
  const ms = Date.UTC(n[0], n[1], n[2], n[3], n[4], Math.floor(n[5]));
  const d = new Date(ms);
  return {
    year: n[0],
    mon: n[1],
    mday: n[2],
    hour: n[3],
    min: n[4],
    sec: n[5],
    wday: v.length > 6 ? n[6] : d.getUTCDay(),
    yday: v.length > 7 ? n[7] : dayOfYear(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()),
    gmtoff: 0,
    zone: 'UTC',
  };
}

const timegm = (tm: Tm): number => Math.floor(Date.UTC(tm.year, tm.mon, tm.mday, tm.hour, tm.min, Math.floor(tm.sec)) / 1000);

const pad = (n: number, w = 2, c = '0'): string => String(Math.trunc(n)).padStart(w, c);

const daysIn = (y: number): number => dayOfYear(y, 11, 31) + 1;

/** ISO 8601 week-based year and week number: the week holding this week's Thursday. */
function isoWeek(tm: Tm): [number, number] {
  let year = tm.year;
  let yday = tm.yday - ((tm.wday + 6) % 7) + 3;
  if (yday < 0) {
    year--;
    yday += daysIn(year);
  } else if (yday >= daysIn(year)) {
    yday -= daysIn(year);
    year++;
  }
  return [year, Math.floor(yday / 7) + 1];
}

export function strftime(tm: Tm, fmt: string): string {
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i];
    if (c !== '%' || i + 1 >= fmt.length) {
      out += c;
      continue;
    }
    const d = fmt[++i];
    const h12 = tm.hour % 12 === 0 ? 12 : tm.hour % 12;
    switch (d) {
      case 'a': out += DAYS[tm.wday]?.slice(0, 3) ?? '?'; break;
      case 'A': out += DAYS[tm.wday] ?? '?'; break;
      case 'b': case 'h': out += MONTHS[tm.mon]?.slice(0, 3) ?? '?'; break;
      case 'B': out += MONTHS[tm.mon] ?? '?'; break;
      case 'c': out += strftime(tm, '%a %b %e %H:%M:%S %Y'); break;
      case 'C': out += pad(Math.floor(tm.year / 100)); break;
      case 'd': out += pad(tm.mday); break;
      case 'D': out += strftime(tm, '%m/%d/%y'); break;
      case 'e': out += pad(tm.mday, 2, ' '); break;
      case 'F': out += strftime(tm, '%Y-%m-%d'); break;
      case 'g': out += pad(isoWeek(tm)[0] % 100); break;
      case 'G': out += String(isoWeek(tm)[0]); break;
      case 'H': out += pad(tm.hour); break;
      case 'I': out += pad(h12); break;
      case 'j': out += pad(tm.yday + 1, 3); break;
      case 'k': out += pad(tm.hour, 2, ' '); break;
      case 'l': out += pad(h12, 2, ' '); break;
      case 'm': out += pad(tm.mon + 1); break;
      case 'M': out += pad(tm.min); break;
      case 'n': out += '\n'; break;
      case 'p': out += tm.hour < 12 ? 'AM' : 'PM'; break;
      case 'P': out += tm.hour < 12 ? 'am' : 'pm'; break;
      case 'r': out += strftime(tm, '%I:%M:%S %p'); break;
      case 'R': out += strftime(tm, '%H:%M'); break;
      case 's': out += String(timegm(tm) - tm.gmtoff * 60); break;
      case 'S': out += pad(tm.sec); break;
      case 't': out += '\t'; break;
      case 'T': out += strftime(tm, '%H:%M:%S'); break;
      case 'u': out += String(tm.wday === 0 ? 7 : tm.wday); break;
      case 'U': out += pad(Math.floor((tm.yday + 7 - tm.wday) / 7)); break;
      case 'V': out += pad(isoWeek(tm)[1]); break;
      case 'w': out += String(tm.wday); break;
      case 'W': out += pad(Math.floor((tm.yday + 7 - ((tm.wday + 6) % 7)) / 7)); break;
      case 'x': out += strftime(tm, '%m/%d/%y'); break;
      case 'X': out += strftime(tm, '%H:%M:%S'); break;
      case 'y': out += pad(tm.year % 100); break;
      case 'Y': out += String(tm.year); break;
      case 'z': {
        const a = Math.abs(tm.gmtoff);
        out += `${tm.gmtoff < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}${pad(a % 60)}`;
        break;
      }
      case 'Z': out += tm.zone; break;
      case '%': out += '%'; break;
      default: out += '%' + d;
    }
  }
  return out;
}

/** strptime: null when the text does not match the format. */
function strptime(s: string, format: string): Tm | null {
  const fmt = format.replace(/%([TDFR])/g, (_m, d: string) => ({ T: '%H:%M:%S', D: '%m/%d/%y', F: '%Y-%m-%d', R: '%H:%M' })[d]!);
  const tm: Tm = { year: 1900, mon: 0, mday: 0, hour: 0, min: 0, sec: 0, wday: 0, yday: 0, gmtoff: 0, zone: 'UTC' };
  let pm: boolean | null = null;
  let epoch: number | null = null;
  let i = 0;
  const num = (max: number): number | null => {
    const m = new RegExp(`^[+-]?\\d{1,${max}}`).exec(s.slice(i));
    if (!m) return null;
    i += m[0].length;
    return Number(m[0]);
  };
  const word = (names: string[]): number | null => {
    for (let k = 0; k < names.length; k++) {
      for (const cand of [names[k], names[k].slice(0, 3)]) {
        if (s.slice(i, i + cand.length).toLowerCase() === cand.toLowerCase()) {
          i += cand.length;
          return k;
        }
      }
    }
    return null;
  };
  for (let f = 0; f < fmt.length; f++) {
    const c = fmt[f];
    if (/\s/.test(c)) {
      while (i < s.length && /\s/.test(s[i])) i++;
      continue;
    }
    if (c !== '%') {
      if (s[i] !== c) return null;
      i++;
      continue;
    }
    const d = fmt[++f];
    let v: number | null;
    switch (d) {
      case 'Y': if ((v = num(4)) === null) return null; tm.year = v; break;
      case 'm': if ((v = num(2)) === null) return null; tm.mon = v - 1; break;
      case 'd': case 'e': while (s[i] === ' ') i++; if ((v = num(2)) === null) return null; tm.mday = v; break;
      case 'H': case 'k': if ((v = num(2)) === null) return null; tm.hour = v; break;
      case 'I': case 'l': if ((v = num(2)) === null) return null; tm.hour = v % 12; break;
      case 'M': if ((v = num(2)) === null) return null; tm.min = v; break;
      case 'S': if ((v = num(2)) === null) return null; tm.sec = v; break;
      case 'j': if ((v = num(3)) === null) return null; tm.yday = v - 1; break;
      case 'y': if ((v = num(2)) === null) return null; tm.year = v < 69 ? 2000 + v : 1900 + v; break;
      case 'C': if ((v = num(2)) === null) return null; tm.year = v * 100 + (tm.year % 100); break;
      case 'a': case 'A': if ((v = word(DAYS)) === null) return null; tm.wday = v; break;
      case 'b': case 'B': case 'h': if ((v = word(MONTHS)) === null) return null; tm.mon = v; break;
      case 'p': {
        const t = s.slice(i, i + 2).toUpperCase();
        if (t !== 'AM' && t !== 'PM') return null;
        pm = t === 'PM';
        i += 2;
        break;
      }
      case 's': if ((v = num(20)) === null) return null; epoch = v; break;
      case 'z': {
        const m = /^(Z|[+-]\d{2}:?\d{2})/.exec(s.slice(i));
        if (!m) return null;
        i += m[0].length;
        break;
      }
      case 'Z': {
        const m = /^[A-Za-z]+/.exec(s.slice(i));
        if (m) i += m[0].length;
        break;
      }
      case 'n': case 't': while (i < s.length && /\s/.test(s[i])) i++; break;
      case '%': if (s[i] !== '%') return null; i++; break;
      default: return null;
    }
  }
  if (i !== s.length) return null;
  if (pm !== null) tm.hour = (tm.hour % 12) + (pm ? 12 : 0);
  if (epoch !== null) return fromDate(epoch, false);
  // Normalise the derived fields the way timegm would.
  if (tm.mday > 0) {
    const d = new Date(Date.UTC(tm.year, tm.mon, tm.mday));
    tm.wday = d.getUTCDay();
    tm.yday = dayOfYear(tm.year, tm.mon, tm.mday);
  }
  return tm;
}

const timeOf = (v: Json, what: string, local: boolean): Tm => {
  if (isNum(v)) return fromDate(num(v), local);
  if (Array.isArray(v)) return fromArray(v, what);
  throw err(`${what} requires parsed datetime inputs`);
};

export const TIME: Table = {
  'now/0': { fn: () => Date.now() / 1000 },
  'mktime/0': {
    fn: (v) => {
      if (!Array.isArray(v)) throw err('mktime requires array of 6 numbers');
      return timegm(fromArray(v, 'mktime'));
    },
  },
  'gmtime/0': {
    fn: (v) => {
      if (!isNum(v)) throw err('gmtime() requires numeric inputs');
      return toArray(fromDate(num(v), false));
    },
  },
  'localtime/0': {
    fn: (v) => {
      if (!isNum(v)) throw err('localtime() requires numeric inputs');
      return toArray(fromDate(num(v), true));
    },
  },
  'strftime/1': {
    fn: (v, [f]) => {
      if (typeof f !== 'string') throw err('strftime/1 requires a string format');
      return strftime(timeOf(v, 'strftime/1', false), f);
    },
  },
  'strflocaltime/1': {
    fn: (v, [f]) => {
      if (typeof f !== 'string') throw err('strflocaltime/1 requires a string format');
      return strftime(timeOf(v, 'strflocaltime/1', true), f);
    },
  },
  'strptime/1': {
    fn: (v, [f]) => {
      if (typeof v !== 'string' || typeof f !== 'string') throw err('strptime/1 requires string inputs and arguments');
      const tm = strptime(v, f);
      if (!tm) throw err(`date "${v}" does not match format "${f}"`);
      return toArray(tm);
    },
  },
  'dateadd/2': { fn: (v, [, n]) => num(need(v)) + num(need(n)) },
  'datesub/2': { fn: (v, [, n]) => num(need(v)) - num(need(n)) },
};

function need(v: Json): Json {
  if (!isNum(v)) throw err(`${describe(v)} number required`);
  return v;
}

// Date strings for date -d and touch -d / -t (a practical subset of GNU's parser), in a time zone.
// Accepted: @SECONDS, or an optional YYYY-MM-DD[ T]HH:MM[:SS[.frac]] [Z|UTC|+HH:MM] followed by
// "now", "today", "yesterday", "tomorrow" and relative items ("3 days ago", "+2 weeks", "next month").

import { UTC, type Zone } from '../../../userland/lib/tz.js';

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ t](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(z|utc|[+-]\d{2}:?\d{2})?(?=\s|$)/;
const REL = /^(?:(next|last|this|[+-]?\s*\d+)\s*)?(sec|second|min|minute|hour|day|week|fortnight|month|year)s?\b(\s+ago\b)?/;
const UNIT_SECS: Record<string, number> = { sec: 1, second: 1, min: 60, minute: 60, hour: 3600, day: 86400, week: 604800, fortnight: 1209600 };
const WORDS: Record<string, number> = { now: 0, today: 0, yesterday: -1, tomorrow: 1 };

/** Milliseconds since the epoch, or null when the string is not understood. */
export function parseDate(s: string, now = Date.now(), zone: Zone = UTC): number | null {
  let t = s.trim().toLowerCase();
  if (/^@-?\d+(\.\d+)?$/.test(t)) return Number(t.slice(1)) * 1000;
  let base = now;
  const m = ISO.exec(t);
  if (m) {
    const b = isoBase(m, zone);
    if (b === null) return null;
    base = b;
    t = t.slice(m[0].length).trim();
  }
  let months = 0;
  let days = 0;
  let secs = 0;
  while (t) {
    const w = /^[a-z]+/.exec(t)?.[0] ?? '';
    const r = REL.exec(t);
    if (w in WORDS) {
      days += WORDS[w];
      t = t.slice(w.length);
    } else if (r) {
      const n = r[1] === undefined || r[1] === 'next' || r[1] === 'this' ? (r[1] === 'this' ? 0 : 1) : r[1] === 'last' ? -1 : Number(r[1].replace(/\s/g, ''));
      const k = r[3] ? -n : n;
      if (r[2] === 'month') months += k;
      else if (r[2] === 'year') months += 12 * k;
      else if (r[2] === 'day') days += k;
      else secs += k * UNIT_SECS[r[2]];
      t = t.slice(r[0].length);
    } else return null;
    t = t.trim();
  }
  const d = new Date(base);
  d.setUTCFullYear(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate() + days);
  return d.getTime() + secs * 1000;
}

function isoBase(m: RegExpExecArray, zone: Zone): number | null {
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return null;
  let ms = Date.UTC(y, mo - 1, d, h, mi, sec) + (m[7] ? Number(m[7]) * 1000 : 0);
  const z = m[8];
  if (!z) return zone.fromLocal(ms);
  if (/^[+-]/.test(z)) {
    const zz = z.replace(':', '');
    const off = (Number(zz.slice(1, 3)) * 60 + Number(zz.slice(3, 5))) * 60e3;
    ms -= z[0] === '+' ? off : -off;
  }
  return ms;
}

/** touch -t [[CC]YY]MMDDhhmm[.ss]. */
export function parseStamp(s: string, zone: Zone = UTC): number | null {
  const m = /^(\d{8}|\d{10}|\d{12})(?:\.(\d{2}))?$/.exec(s);
  if (!m) return null;
  let digits = m[1];
  let year = new Date().getUTCFullYear();
  if (digits.length === 12) {
    year = Number(digits.slice(0, 4));
    digits = digits.slice(4);
  } else if (digits.length === 10) {
    const yy = Number(digits.slice(0, 2));
    year = yy < 69 ? 2000 + yy : 1900 + yy;
    digits = digits.slice(2);
  }
  const [mo, d, h, mi] = [0, 2, 4, 6].map((i) => Number(digits.slice(i, i + 2)));
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  return zone.fromLocal(Date.UTC(year, mo - 1, d, h, mi, Number(m[2] ?? 0)));
}

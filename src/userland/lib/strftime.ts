// strftime(3) for date +FORMAT in the C locale, in a time zone (tz.ts): GNU's
// flags (- _ 0 ^ #), field widths and %:z. The fields are read from the local
// wall-clock time held as a UTC Date.

import { UTC, type Zone, type ZoneInfo } from './tz.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Whole days since the epoch → ISO 8601 week-based year and week. */
function isoWeek(d: Date): [number, number] {
  const wday = (d.getUTCDay() + 6) % 7; // Monday = 0
  const thursday = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - wday + 3));
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86400e3));
  return [year, week];
}

type Field = [value: string | number, width: number, pad: '0' | ' '];

function field(d: Date, ms: number, c: string, z: ZoneInfo, zone: Zone): Field | string | null {
  const yday = Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400e3);
  const wday = d.getUTCDay();
  const h = d.getUTCHours();
  switch (c) {
    case 'a': return DAYS[wday].slice(0, 3);
    case 'A': return DAYS[wday];
    case 'b': case 'h': return MONTHS[d.getUTCMonth()].slice(0, 3);
    case 'B': return MONTHS[d.getUTCMonth()];
    case 'c': return strftime('%a %b %e %H:%M:%S %Y', ms, zone);
    case 'C': return [Math.floor(d.getUTCFullYear() / 100), 2, '0'];
    case 'd': return [d.getUTCDate(), 2, '0'];
    case 'D': case 'x': return strftime('%m/%d/%y', ms, zone);
    case 'e': return [d.getUTCDate(), 2, ' '];
    case 'F': return strftime('%Y-%m-%d', ms, zone);
    case 'g': return [isoWeek(d)[0] % 100, 2, '0'];
    case 'G': return [isoWeek(d)[0], 1, '0'];
    case 'H': return [h, 2, '0'];
    case 'I': return [h % 12 || 12, 2, '0'];
    case 'j': return [yday + 1, 3, '0'];
    case 'k': return [h, 2, ' '];
    case 'l': return [h % 12 || 12, 2, ' '];
    case 'm': return [d.getUTCMonth() + 1, 2, '0'];
    case 'M': return [d.getUTCMinutes(), 2, '0'];
    case 'n': return '\n';
    case 'N': return [String(((ms % 1000) + 1000) % 1000).padStart(3, '0') + '000000', 9, '0'];
    case 'p': return h < 12 ? 'AM' : 'PM';
    case 'P': return h < 12 ? 'am' : 'pm';
    case 'r': return strftime('%I:%M:%S %p', ms, zone);
    case 'R': return strftime('%H:%M', ms, zone);
    case 's': return [Math.floor(ms / 1000), 1, '0'];
    case 'S': return [d.getUTCSeconds(), 2, '0'];
    case 't': return '\t';
    case 'T': case 'X': return strftime('%H:%M:%S', ms, zone);
    case 'u': return [wday || 7, 1, '0'];
    case 'U': return [Math.floor((yday + 7 - wday) / 7), 2, '0'];
    case 'V': return [isoWeek(d)[1], 2, '0'];
    case 'w': return [wday, 1, '0'];
    case 'W': return [Math.floor((yday + 7 - ((wday + 6) % 7)) / 7), 2, '0'];
    case 'y': return [d.getUTCFullYear() % 100, 2, '0'];
    case 'Y': return [d.getUTCFullYear(), 1, '0'];
    case 'z': return offset(z.offset, 0);
    case 'Z': return z.abbr;
    case '%': return '%';
    default: return null;
  }
}

/** +hhmm, and with colons +hh:mm, +hh:mm:ss, or +hh[:mm[:ss]] as precise as needed (%:::z). */
function offset(secs: number, colons: number): string {
  const a = Math.abs(secs);
  const parts = [Math.floor(a / 3600), Math.floor((a % 3600) / 60), a % 60].map((n) => String(n).padStart(2, '0'));
  const sign = secs < 0 ? '-' : '+';
  if (colons === 0) return sign + parts[0] + parts[1];
  if (colons === 1) return sign + parts.slice(0, 2).join(':');
  if (colons === 2) return sign + parts.join(':');
  return sign + parts.slice(0, parts[2] !== '00' ? 3 : parts[1] !== '00' ? 2 : 1).join(':');
}

/** Format `ms` (milliseconds since the epoch) in `zone`. */
export function strftime(fmt: string, ms: number, zone: Zone = UTC): string {
  const z = zone.at(ms);
  const d = new Date(ms + z.offset * 1000);
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    if (fmt[i] !== '%') {
      out += fmt[i];
      continue;
    }
    const m = /^([-_0^#]*)(\d*)(:{0,3})([a-zA-Z%+])/.exec(fmt.slice(i + 1));
    if (!m) {
      out += '%';
      continue;
    }
    const [all, flags, width, colons, conv] = m;
    let f: Field | string | null = colons ? (conv === 'z' ? offset(z.offset, colons.length) : null) : field(d, ms, conv, z, zone);
    if (conv === '+' && !colons) f = strftime('%a %b %e %H:%M:%S %Z %Y', ms, zone);
    if (f === null) {
      out += '%' + all;
      i += all.length;
      continue;
    }
    out += applyFlags(f, flags, width);
    i += all.length;
  }
  return out;
}

function applyFlags(f: Field | string, flags: string, width: string): string {
  let s: string;
  let pad: string;
  let w = Number(width || 0);
  if (typeof f === 'string') {
    s = f;
    pad = flags.includes('0') ? '0' : ' ';
  } else {
    s = String(f[0]);
    pad = flags.includes('_') ? ' ' : flags.includes('0') ? '0' : f[2];
    if (!width && !flags.includes('-')) w = f[1];
    if (flags.includes('-')) w = 0;
    const neg = s.startsWith('-');
    if (neg) s = s.slice(1);
    if (s.length + (neg ? 1 : 0) < w) {
      s = pad === '0' ? (neg ? '-' : '') + s.padStart(w - (neg ? 1 : 0), '0') : ((neg ? '-' : '') + s).padStart(w, ' ');
    } else if (neg) s = '-' + s;
    return caseFlags(s, flags);
  }
  return caseFlags(s.padStart(w, pad), flags);
}

function caseFlags(s: string, flags: string): string {
  if (flags.includes('^')) return s.toUpperCase();
  if (flags.includes('#')) return s === s.toUpperCase() ? s.toLowerCase() : s.toUpperCase();
  return s;
}

// Dates as git reads them (GIT_AUTHOR_DATE and friends: `@<unix> <tz>`,
// `<unix> <tz>`, ISO 8601, RFC 2822) and writes them (--date=default, iso,
// iso-strict, rfc, short, raw, unix, relative, format:...).

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const FULL_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const FULL_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `+hhmm` → minutes east of UTC. */
function tzMinutes(tz: string): number {
  const m = /^([+-])(\d\d)(\d\d)$/.exec(tz);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

function tzString(minutes: number): string {
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}${String(a % 60).padStart(2, '0')}`;
}

/** The local zone's offset at a time, as `+hhmm`. */
export function localTz(time: number): string {
  return tzString(-new Date(time * 1000).getTimezoneOffset());
}

export interface When {
  time: number;
  tz: string;
}

function parseZone(s: string): number | null {
  if (/^(Z|UTC|GMT)$/i.test(s)) return 0;
  const m = /^([+-])(\d\d):?(\d\d)$/.exec(s) ?? /^([+-])(\d\d)()$/.exec(s);
  if (!m) return null;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] || 0));
}

/** Parse a date the way git's ident code accepts it; null when it cannot. */
export function parseDate(input: string): When | null {
  const s = input.trim();
  let m = /^@?(\d+)(?:\s+([+-]\d{4}))?$/.exec(s);
  if (m && (s.startsWith('@') || m[2] !== undefined || m[1].length >= 9)) {
    const time = Number(m[1]);
    return { time, tz: m[2] ?? localTz(time) };
  }
  // ISO 8601: 2005-04-07T22:13:13[.frac][ ]?(Z|±hh[:]mm)?
  m = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d))?(?:\.\d+)?)?\s*(Z|[+-]\d\d:?\d\d|[+-]\d\d)?$/i.exec(s);
  if (m) return fromParts(+m[1], +m[2], +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), m[7] === undefined ? null : parseZone(m[7]));
  // RFC 2822: [Thu, ]07 Apr 2005 22:13:13 +0200
  m = /^(?:[A-Za-z]{3},?\s+)?(\d{1,2})\s+([A-Za-z]{3})[a-z]*\s+(\d{4})\s+(\d\d):(\d\d)(?::(\d\d))?\s*([+-]\d{4}|Z|UTC|GMT)?$/.exec(s);
  if (m) {
    const mon = MONTHS.findIndex((x) => x.toLowerCase() === m![2].toLowerCase());
    if (mon >= 0) return fromParts(+m[3], mon + 1, +m[1], +m[4], +m[5], +(m[6] ?? 0), m[7] === undefined ? null : parseZone(m[7]));
  }
  // git's default format: Thu Apr 7 22:13:13 2005 +0200
  m = /^[A-Za-z]{3}\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d\d):(\d\d):(\d\d)\s+(\d{4})(?:\s+([+-]\d{4}))?$/.exec(s);
  if (m) {
    const mon = MONTHS.findIndex((x) => x.toLowerCase() === m![1].toLowerCase());
    if (mon >= 0) return fromParts(+m[6], mon + 1, +m[2], +m[3], +m[4], +m[5], m[7] === undefined ? null : parseZone(m[7]));
  }
  return null;
}

function fromParts(y: number, mo: number, d: number, h: number, mi: number, se: number, zone: number | null): When | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return null;
  const utc = Date.UTC(y, mo - 1, d, h, mi, se) / 1000;
  if (zone !== null) return { time: utc - zone * 60, tz: tzString(zone) };
  // no zone: local time
  const guess = utc + new Date(utc * 1000).getTimezoneOffset() * 60;
  return { time: guess, tz: localTz(guess) };
}

/** The broken-down time in the given zone. */
function parts(time: number, tz: string) {
  const d = new Date((time + tzMinutes(tz) * 60) * 1000);
  return { y: d.getUTCFullYear(), mo: d.getUTCMonth(), d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds(), wd: d.getUTCDay() };
}

const p2 = (n: number) => String(n).padStart(2, '0');

export type DateMode = 'default' | 'iso' | 'iso-strict' | 'rfc' | 'short' | 'raw' | 'unix' | 'relative' | 'local' | `format:${string}`;

export function parseDateMode(s: string): DateMode | null {
  if (s.startsWith('format:')) return s as DateMode;
  const map: Record<string, DateMode> = {
    default: 'default', iso: 'iso', iso8601: 'iso', 'iso-strict': 'iso-strict', 'iso8601-strict': 'iso-strict', rfc: 'rfc', rfc2822: 'rfc',
    short: 'short', raw: 'raw', unix: 'unix', relative: 'relative', local: 'local',
  };
  return map[s] ?? null;
}

export function formatDate(time: number, tz: string, mode: DateMode = 'default', now = Date.now() / 1000): string {
  if (mode === 'local') {
    tz = localTz(time);
  }
  const t = parts(time, tz);
  switch (mode) {
    case 'iso':
      return `${t.y}-${p2(t.mo + 1)}-${p2(t.d)} ${p2(t.h)}:${p2(t.mi)}:${p2(t.s)} ${tz}`;
    case 'iso-strict':
      return `${t.y}-${p2(t.mo + 1)}-${p2(t.d)}T${p2(t.h)}:${p2(t.mi)}:${p2(t.s)}${tz.slice(0, 3)}:${tz.slice(3)}`;
    case 'rfc':
      return `${DAYS[t.wd]}, ${t.d} ${MONTHS[t.mo]} ${t.y} ${p2(t.h)}:${p2(t.mi)}:${p2(t.s)} ${tz}`;
    case 'short':
      return `${t.y}-${p2(t.mo + 1)}-${p2(t.d)}`;
    case 'raw':
      return `${time} ${tz}`;
    case 'unix':
      return String(time);
    case 'relative':
      return relativeDate(time, now);
    case 'local':
      return `${DAYS[t.wd]} ${MONTHS[t.mo]} ${t.d} ${p2(t.h)}:${p2(t.mi)}:${p2(t.s)} ${t.y}`;
    case 'default':
      return `${DAYS[t.wd]} ${MONTHS[t.mo]} ${t.d} ${p2(t.h)}:${p2(t.mi)}:${p2(t.s)} ${t.y} ${tz}`;
    default:
      return strftime(mode.slice(7), time, tz);
  }
}

function strftime(fmt: string, time: number, tz: string): string {
  const t = parts(time, tz);
  return fmt.replace(/%([a-zA-Z%])/g, (_, c: string) => {
    switch (c) {
      case 'Y': return String(t.y);
      case 'y': return p2(t.y % 100);
      case 'm': return p2(t.mo + 1);
      case 'd': return p2(t.d);
      case 'e': return String(t.d).padStart(2, ' ');
      case 'H': return p2(t.h);
      case 'I': return p2(t.h % 12 || 12);
      case 'M': return p2(t.mi);
      case 'S': return p2(t.s);
      case 'p': return t.h < 12 ? 'AM' : 'PM';
      case 'a': return DAYS[t.wd];
      case 'A': return FULL_DAYS[t.wd];
      case 'b': case 'h': return MONTHS[t.mo];
      case 'B': return FULL_MONTHS[t.mo];
      case 'z': return tz;
      case 'Z': return '';
      case 's': return String(time);
      case 'j': return String(Math.floor((Date.UTC(t.y, t.mo, t.d) - Date.UTC(t.y, 0, 1)) / 86400000) + 1).padStart(3, '0');
      case 'F': return `${t.y}-${p2(t.mo + 1)}-${p2(t.d)}`;
      case 'T': return `${p2(t.h)}:${p2(t.mi)}:${p2(t.s)}`;
      case 'R': return `${p2(t.h)}:${p2(t.mi)}`;
      case 'D': return `${p2(t.mo + 1)}/${p2(t.d)}/${p2(t.y % 100)}`;
      case 'n': return '\n';
      case 't': return '\t';
      case '%': return '%';
      default: return `%${c}`;
    }
  });
}

/** git's "N units ago". */
function relativeDate(time: number, now: number): string {
  let diff = Math.floor(now) - time;
  if (diff < 0) return 'in the future';
  const ago = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (diff < 90) return ago(diff, 'second');
  diff = Math.floor((diff + 30) / 60);
  if (diff < 90) return ago(diff, 'minute');
  diff = Math.floor((diff + 30) / 60);
  if (diff < 36) return ago(diff, 'hour');
  diff = Math.floor((diff + 12) / 24);
  if (diff < 14) return ago(diff, 'day');
  if (diff < 70) return ago(Math.floor((diff + 3) / 7), 'week');
  if (diff < 365) return ago(Math.floor((diff + 15) / 30), 'month');
  if (diff < 1825) {
    const totalMonths = Math.floor((diff * 12 * 2 + 365) / (365 * 2));
    const years = Math.floor(totalMonths / 12);
    const months = totalMonths % 12;
    if (months) return `${years} year${years === 1 ? '' : 's'}, ${months} month${months === 1 ? '' : 's'} ago`;
    return ago(years, 'year');
  }
  return ago(Math.floor((diff + 183) / 365), 'year');
}

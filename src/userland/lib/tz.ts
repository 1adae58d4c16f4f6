// Time zones from TZ, as glibc reads it, without a zoneinfo directory: an IANA
// name ("America/New_York", ":Europe/Berlin") comes from the host's Intl data
// (every offset and DST rule it knows, history included); anything else is a
// POSIX TZ string ("EST5EDT,M3.2.0,M11.1.0", "UTC0", "<+0330>-3:30"). Unset or
// empty is UTC, the VM's /etc/localtime.

/** The zone's state at one instant. `offset` is seconds east of UTC. */
export interface ZoneInfo {
  offset: number;
  abbr: string;
  dst: boolean;
}

export interface Zone {
  at(ms: number): ZoneInfo;
  /**
   * The instant a wall-clock time names (given as if it were UTC). An ambiguous
   * time (clocks set back) is the DST one unless `dst` is 0; a skipped one is
   * read with the offset before the change, as glibc's mktime does.
   */
  fromLocal(wallMs: number, dst?: number): number;
}

const HOUR = 3600;

export const UTC: Zone = fixed(0, 'UTC');

/** The zone TZ names (the process's environment variable). */
export function zoneFor(tz: string | undefined): Zone {
  if (!tz) return UTC;
  const cached = zones.get(tz);
  if (cached) return cached;
  const z = intlZone(tz.startsWith(':') ? tz.slice(1) : tz) ?? posixZone(tz) ?? fixed(0, /^:?([A-Za-z]{3,})/.exec(tz)?.[1] ?? 'UTC');
  if (zones.size >= 64) zones.clear(); // long-lived users (a shell, the reentrant coreutils bundle) meet any number of TZs
  zones.set(tz, z);
  return z;
}

/** By TZ string: a zone is a pure function of it, so the cache may outlive a process. */
const zones = new Map<string, Zone>();

function fixed(offset: number, abbr: string): Zone {
  const info = { offset, abbr, dst: false };
  return { at: () => info, fromLocal: (wall) => wall - offset * 1000 };
}

/**
 * Wall-clock → instant for any zone given its at(). Without a DST flag, glibc's
 * search: guess UTC, correct by the offset found there, once more; where that
 * settles is the answer (which of two ambiguous times it reaches depends on the
 * zone, as in glibc). Otherwise (a DST flag, or a skipped time), the offsets in
 * force half a day either side are tried.
 */
function fromLocalBy(at: (ms: number) => ZoneInfo) {
  return (wall: number, dst = -1): number => {
    if (dst < 0) {
      const o1 = at(wall).offset;
      const o2 = at(wall - o1 * 1000).offset;
      if (o2 === o1 || at(wall - o2 * 1000).offset === o2) return wall - o2 * 1000;
    }
    const near = [at(wall - 43200e3), at(wall + 43200e3)];
    const fits = near.filter((z) => at(wall - z.offset * 1000).offset === z.offset);
    const pick = fits.find((z) => dst < 0 || z.dst === dst > 0) ?? fits.sort((a, b) => b.offset - a.offset)[0] ?? near[0];
    return wall - pick.offset * 1000;
  };
}

// ---- IANA names through Intl ----

/** Locales whose short zone names give the abbreviations tzdata uses (EST, CET, BST, IST, AEDT, JST...). */
const ABBR_LOCALES = ['en-US', 'en-GB', 'en-IN', 'en-AU', 'en-NZ', 'ja-JP'];

function intlZone(name: string): Zone | null {
  let wall: Intl.DateTimeFormat;
  try {
    wall = new Intl.DateTimeFormat('en-US', {
      timeZone: name, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch {
    return null;
  }
  // Made when an abbreviation is first asked for: node's Date and most of Python never ask.
  let names: Intl.DateTimeFormat[] | null = null;
  const abbrAt = (ms: number, offset: number) =>
    abbrOf((names ??= ABBR_LOCALES.map((l) => new Intl.DateTimeFormat(l, { timeZone: name, timeZoneName: 'short' }))), ms, offset);
  const offsetAt = (ms: number): number => {
    const p: Record<string, string> = {};
    for (const { type, value } of wall.formatToParts(ms)) p[type] = value;
    const year = p.era === 'BC' || p.era === 'B' ? 1 - Number(p.year) : Number(p.year);
    const d = new Date(0);
    d.setUTCFullYear(year, Number(p.month) - 1, Number(p.day));
    d.setUTCHours(Number(p.hour), Number(p.minute), Number(p.second));
    return Math.round((d.getTime() - Math.floor(ms / 1000) * 1000) / 1000);
  };
  const cache = new Map<number, ZoneInfo>();
  const at = (ms: number): ZoneInfo => {
    // Offsets change on the hour or half hour at most: one answer per quarter hour.
    const key = Math.floor(ms / 900e3);
    let info = cache.get(key);
    if (!info) {
      const offset = offsetAt(ms);
      const year = new Date(ms).getUTCFullYear();
      const std = Math.min(offsetAt(Date.UTC(year, 0, 1)), offsetAt(Date.UTC(year, 6, 1)));
      let abbr: string | undefined;
      info = { offset, get abbr() { return (abbr ??= abbrAt(ms, offset)); }, dst: offset > std };
      if (cache.size > 4096) cache.clear();
      cache.set(key, info);
    }
    return info;
  };
  return { at, fromLocal: fromLocalBy(at) };
}

function abbrOf(names: Intl.DateTimeFormat[], ms: number, offset: number): string {
  for (const f of names) {
    const n = f.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? '';
    if (/^[A-Z]{2,5}$/.test(n) && (n !== 'GMT' || offset === 0)) return n;
  }
  return numeric(offset);
}

/** tzdata's name for a zone without an abbreviation: +09, -03, +0530. */
function numeric(offset: number): string {
  const a = Math.abs(offset);
  const h = String(Math.floor(a / HOUR)).padStart(2, '0');
  const m = Math.floor((a % HOUR) / 60);
  return (offset < 0 ? '-' : '+') + h + (m ? String(m).padStart(2, '0') : '');
}

// ---- POSIX TZ strings ----

interface Rule {
  kind: 'J' | 'n' | 'M';
  a: number;
  b: number;
  c: number;
  /** Seconds after local midnight. */
  time: number;
}

/** With a DST name but no rule, glibc uses the US rule (its posixrules default). */
const DEFAULT_RULES = 'M3.2.0,M11.1.0';

function posixZone(tz: string): Zone | null {
  const s = { t: tz, i: 0 };
  const std = zname(s);
  if (!std) return null;
  const stdOff = offsetOf(s);
  if (stdOff === null) return null;
  if (s.i === tz.length) return fixed(-stdOff, std);
  const dstName = zname(s);
  if (!dstName) return null;
  const dstOff = s.t[s.i] === ',' || s.i === tz.length ? stdOff - HOUR : offsetOf(s);
  if (dstOff === null) return null;
  const rules = s.i === tz.length ? `,${DEFAULT_RULES}` : tz.slice(s.i);
  const m = /^,([^,]+),([^,]+)$/.exec(rules);
  const start = m && rule(m[1]);
  const end = m && rule(m[2]);
  if (!start || !end) return null;
  const stdInfo = { offset: -stdOff, abbr: std, dst: false };
  const dstInfo = { offset: -dstOff, abbr: dstName, dst: true };
  const at = (ms: number): ZoneInfo => {
    const year = new Date(ms - stdOff * 1000).getUTCFullYear();
    // Start is given in standard time, end in daylight time.
    const on = ruleDay(start, year) + (start.time + stdOff) * 1000;
    const off = ruleDay(end, year) + (end.time + dstOff) * 1000;
    const inDst = on < off ? ms >= on && ms < off : !(ms >= off && ms < on);
    return inDst ? dstInfo : stdInfo;
  };
  return { at, fromLocal: fromLocalBy(at) };
}

function zname(s: { t: string; i: number }): string | null {
  const m = /^(?:<([A-Za-z0-9+-]{3,})>|([A-Za-z]{3,}))/.exec(s.t.slice(s.i));
  if (!m) return null;
  s.i += m[0].length;
  return m[1] ?? m[2];
}

/** [+-]hh[:mm[:ss]] west of UTC, in seconds. */
function offsetOf(s: { t: string; i: number }): number | null {
  const m = /^([+-]?)(\d{1,2})(?::(\d{1,2})(?::(\d{1,2}))?)?/.exec(s.t.slice(s.i));
  if (!m) return null;
  s.i += m[0].length;
  const v = Number(m[2]) * HOUR + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -v : v;
}

function rule(text: string): Rule | null {
  const m = /^(?:J(\d{1,3})|(\d{1,3})|M(\d{1,2})\.(\d)\.(\d))(?:\/([+-]?\d{1,3}(?::\d{1,2}(?::\d{1,2})?)?))?$/.exec(text);
  if (!m) return null;
  let time = 2 * HOUR;
  if (m[6] !== undefined) {
    const t = offsetOf({ t: m[6], i: 0 });
    if (t === null) return null;
    time = t;
  }
  if (m[1] !== undefined) return { kind: 'J', a: Number(m[1]), b: 0, c: 0, time };
  if (m[2] !== undefined) return { kind: 'n', a: Number(m[2]), b: 0, c: 0, time };
  return { kind: 'M', a: Number(m[3]), b: Number(m[4]), c: Number(m[5]), time };
}

/** Midnight (as UTC ms) of the day a rule picks in `year`. */
function ruleDay(r: Rule, year: number): number {
  const jan1 = Date.UTC(year, 0, 1);
  if (r.kind === 'n') return jan1 + r.a * 86400e3;
  if (r.kind === 'J') {
    // Julian day 1-365, never counting February 29.
    const leap = new Date(Date.UTC(year, 1, 29)).getUTCMonth() === 1;
    return jan1 + (r.a - 1 + (leap && r.a > 59 ? 1 : 0)) * 86400e3;
  }
  // Mm.w.d: day d (0 = Sunday) of week w (5 = last) of month m.
  const first = Date.UTC(year, r.a - 1, 1);
  let day = 1 + ((r.c - new Date(first).getUTCDay() + 7) % 7) + (r.b - 1) * 7;
  const days = new Date(Date.UTC(year, r.a, 0)).getUTCDate();
  while (day > days) day -= 7;
  return Date.UTC(year, r.a - 1, day);
}

// Local time in the process's TZ for a node process. The worker's `Date` and
// `Intl` use the host's zone (a browser's, or the Node host's); a guest must
// see the zone its TZ names (unset: UTC, the VM's /etc/localtime), as node
// reads TZ at start-up. So, while the process runs: `Date` constructs from
// local fields and parses local strings in that zone, the local getters,
// setters and toString family of Date.prototype answer in it, and
// Intl.DateTimeFormat (and toLocale*String) default to it. Offsets come from
// the userland's zone reader (the same as date's and Python's).

import { zoneFor, type Zone } from '../../userland/lib/tz.js';

type Fn = (this: Date, ...a: unknown[]) => unknown;
type DateCtor = DateConstructor;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86400e3;
const FIELDS = ['FullYear', 'Month', 'Date', 'Day', 'Hours', 'Minutes', 'Seconds', 'Milliseconds'];

/** An ISO date without a time is UTC; a string naming its zone or offset is that zone's; anything else is local. */
const ISO_DATE_ONLY = /^\s*[+-]?\d{4,6}(?:-\d\d(?:-\d\d)?)?\s*$/;
const HAS_ZONE = /(?:\dZ|\b(?:GMT|UTC|UT|[ECMP][SD]T)\b|[+-]\d\d:?\d\d)\s*(?:\(.*\))?\s*$/i;

/** Install for one process; returns the function that puts the worker's own Date and Intl back. */
export function installLocalTime(tz: string | undefined): () => void {
  const g = globalThis as unknown as { Date: DateCtor; Intl: typeof Intl };
  const HostDate = g.Date;
  const proto = HostDate.prototype as unknown as Record<string, Fn>;
  const HostDTF = g.Intl.DateTimeFormat;
  const saved: [object, string, PropertyDescriptor][] = [];
  /** The host's own local getters (parse reads the host's reading of a string through them). */
  const host = Object.fromEntries(FIELDS.map((f) => [`get${f}`, proto[`get${f}`]]));
  const patch = (obj: object, name: string, value: unknown) => {
    saved.push([obj, name, Object.getOwnPropertyDescriptor(obj, name)!]);
    Object.defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });
  };

  // The zone is made on first use: `node -e 0` builds no Intl formatter.
  let z: Zone | null = null;
  const zone = () => (z ??= zoneFor(tz));
  let intl: { name: string; known: boolean } | null = null;
  const intlZone = () => (intl ??= timeZoneForIntl(HostDTF, tz, zone));
  let longNames: Intl.DateTimeFormat | null = null;

  const time = (d: Date) => HostDate.prototype.getTime.call(d);
  const offsetMs = (t: number) => zone().at(t).offset * 1000;
  /** Wall-clock time as if it were UTC. */
  const wall = (t: number) => new HostDate(t + offsetMs(t));
  const fromWall = (w: number) => (Number.isFinite(w) ? fromLocal(zone(), w) : NaN);

  const getter = (utc: string) => function (this: Date) {
    const t = time(this);
    return Number.isNaN(t) ? NaN : proto[utc].call(wall(t));
  };
  const setter = (utc: string) => function (this: Date, ...args: unknown[]) {
    const t = time(this);
    // setFullYear on an invalid date starts from +0, the others stay invalid.
    const w = new HostDate(Number.isNaN(t) ? (utc === 'setUTCFullYear' ? 0 : NaN) : t + offsetMs(t));
    proto[utc].apply(w, args);
    return HostDate.prototype.setTime.call(this, fromWall(time(w)));
  };
  for (const f of FIELDS) {
    patch(proto, `get${f}`, getter(`getUTC${f}`));
    if (f !== 'Day') patch(proto, `set${f}`, setter(`setUTC${f}`));
  }
  patch(proto, 'getYear', function (this: Date) {
    return this.getFullYear() - 1900;
  });
  patch(proto, 'setYear', function (this: Date, y: unknown) {
    const n = Math.trunc(Number(y));
    return this.setFullYear(n >= 0 && n <= 99 ? 1900 + n : Number(y));
  });
  patch(proto, 'getTimezoneOffset', function (this: Date) {
    const t = time(this);
    return Number.isNaN(t) ? NaN : -offsetMs(t) / 60000;
  });

  const zoneName = (t: number): string => {
    if (!intlZone().known) return gmt(offsetMs(t) / 60000, ':');
    longNames ??= new HostDTF('en-US', { timeZone: intlZone().name, timeZoneName: 'long' });
    return longNames.formatToParts(t).find((p) => p.type === 'timeZoneName')?.value ?? gmt(offsetMs(t) / 60000, ':');
  };
  const dateString = (w: Date) =>
    `${DAYS[w.getUTCDay()]} ${MONTHS[w.getUTCMonth()]} ${pad(w.getUTCDate(), 2)} ${year(w.getUTCFullYear())}`;
  const timeString = (w: Date, t: number) =>
    `${pad(w.getUTCHours(), 2)}:${pad(w.getUTCMinutes(), 2)}:${pad(w.getUTCSeconds(), 2)} ${gmt(offsetMs(t) / 60000, '')} (${zoneName(t)})`;
  const text = (f: (t: number) => string) => function (this: Date) {
    const t = time(this);
    return Number.isNaN(t) ? 'Invalid Date' : f(t);
  };
  patch(proto, 'toString', text((t) => `${dateString(wall(t))} ${timeString(wall(t), t)}`));
  patch(proto, 'toDateString', text((t) => dateString(wall(t))));
  patch(proto, 'toTimeString', text((t) => timeString(wall(t), t)));

  // Intl and toLocale*String: the process's zone unless the caller names one.
  const withZone = (options: unknown) => {
    if (options === undefined) return { timeZone: intlZone().name };
    if (options === null || typeof options !== 'object' || (options as { timeZone?: unknown }).timeZone !== undefined) return options;
    return Object.assign(Object.create(options) as object, { timeZone: intlZone().name });
  };
  for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) {
    const host = proto[name];
    patch(proto, name, function (this: Date, locales?: unknown, options?: unknown) {
      return host.call(this, locales, withZone(options));
    });
  }
  const DTF = new Proxy(HostDTF, {
    construct: (target, [locales, options], newTarget) => Reflect.construct(target, [locales, withZone(options)], newTarget) as object,
    apply: (target, self, [locales, options]) => Reflect.apply(target, self, [locales, withZone(options)]) as unknown,
  });
  patch(g.Intl, 'DateTimeFormat', DTF);
  patch(HostDTF.prototype, 'constructor', DTF);

  /** The instant of local fields (month and the rest may overflow, as in Date's constructor). */
  const fromFields = (y: number, mo: number, d = 1, h = 0, mi = 0, sec = 0, ms = 0) => {
    const w = new HostDate(0);
    HostDate.prototype.setUTCFullYear.call(w, y, mo, d);
    HostDate.prototype.setUTCHours.call(w, h, mi, sec, ms);
    return fromWall(time(w));
  };
  const parse = (s: string): number => {
    const t = HostDate.parse(s);
    if (Number.isNaN(t) || ISO_DATE_ONLY.test(s) || HAS_ZONE.test(s)) return t;
    // The host read the fields as its own local time: read them back and place them in this zone.
    const h = new HostDate(t);
    const get = (f: string) => host[f].call(h) as number;
    return fromFields(get('getFullYear'), get('getMonth'), get('getDate'), get('getHours'), get('getMinutes'), get('getSeconds'), get('getMilliseconds'));
  };
  const LocalDate = new Proxy(HostDate, {
    construct(target, args, newTarget) {
      let value: unknown[] = args;
      if (args.length === 1 && typeof args[0] === 'string') value = [parse(args[0])];
      else if (args.length >= 2) {
        const [y, ...rest] = args.map(Number);
        const year = Number.isFinite(y) && Math.trunc(y) >= 0 && Math.trunc(y) <= 99 ? 1900 + Math.trunc(y) : y;
        value = [fromFields(year, ...(rest as [number]))];
      }
      return Reflect.construct(target, value, newTarget) as object;
    },
    apply: () => new LocalDate().toString(),
    get: (target, key, receiver) => (key === 'parse' ? (s: unknown) => parse(String(s)) : Reflect.get(target, key, receiver) as unknown),
  });
  patch(proto, 'constructor', LocalDate);
  patch(g, 'Date', LocalDate);

  return () => {
    for (const [obj, name, d] of saved.reverse()) Object.defineProperty(obj, name, d);
  };
}

/**
 * Wall-clock time to instant as ECMAScript defines it: an ambiguous time (clocks
 * set back) is the earlier instant; a skipped one is read with the offset before
 * the change (so 02:30 on a spring-forward day is 03:30).
 */
export function fromLocal(z: Zone, w: number): number {
  const before = z.at(w - DAY_MS).offset;
  const after = z.at(w + DAY_MS).offset;
  if (before === after) return w - before * 1000;
  const fits = [before, after].filter((o) => z.at(w - o * 1000).offset === o);
  return w - (fits.length ? Math.max(...fits) : before) * 1000;
}

/**
 * The name Intl gets as the default zone, and whether Intl knows the zone TZ
 * names. One it does not know (a POSIX TZ string, a bad name) is named by its
 * offset, as node does, and Intl gets the fixed zone of the offset it has now.
 */
function timeZoneForIntl(DTF: typeof Intl.DateTimeFormat, tz: string | undefined, zone: () => Zone): { name: string; known: boolean } {
  if (tz === undefined) return { name: 'UTC', known: true };
  const name = tz.startsWith(':') ? tz.slice(1) : tz;
  try {
    if (name) {
      new DTF('en-US', { timeZone: name });
      return { name, known: true };
    }
  } catch {
    // not an IANA name: below
  }
  const hours = zone().at(Date.now()).offset / 3600;
  // Etc/GMT+5 is five hours west.
  return { name: Number.isInteger(hours) && hours !== 0 ? `Etc/GMT${hours < 0 ? '+' : '-'}${Math.abs(hours)}` : 'UTC', known: false };
}

/** GMT-0500 (toString's offset), or GMT-05:00 (node's name for a zone ICU does not know). */
function gmt(minutesEast: number, sep: string): string {
  const a = Math.abs(minutesEast);
  return `GMT${minutesEast < 0 ? '-' : '+'}${pad(Math.floor(a / 60), 2)}${sep}${pad(a % 60, 2)}`;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function year(y: number): string {
  return y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
}

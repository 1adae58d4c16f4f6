// gawk's time functions: strftime() with the C library's directives (not
// date's: %N, %:z and %+ are left as written), and mktime()'s "YYYY MM DD HH
// MM SS [DST]" read as sscanf reads it. Local time is TZ's zone (tz.ts), as
// for date, so date and awk agree.

import { strftime } from '../../../userland/lib/strftime.js';
import { UTC, type Zone } from '../../../userland/lib/tz.js';

/** The conversions glibc's strftime knows (E and O may precede some). */
const LIBC = new Set('aAbBcCdDeFgGhHIjklmMnpPrRsStTuUVwWxXyYzZ%');
const E_OK = new Set('cCxXyY');
const O_OK = new Set('deHImMSuUVwWy');

/** The default format, gawk's PROCINFO["strftime"]. */
export const DEFAULT_FORMAT = '%a %b %e %H:%M:%S %Z %Y';

function pad(s: string, width: string, flags: string): string {
  let t = s;
  if (flags.includes('^')) t = t.toUpperCase();
  else if (flags.includes('#')) t = t.toLowerCase();
  return t.padStart(Number(width || 0), flags.includes('0') ? '0' : ' ');
}

/** strftime(format, seconds, utc) in `zone` (UTC, called GMT, with utc): "" when the time is out of range. */
export function awkStrftime(fmt: string, secs: number, utc: boolean, zone: Zone): string {
  const t = Math.trunc(secs);
  if (!Number.isFinite(t) || Math.abs(t) > 8.64e12) return '';
  let out = '';
  const re = /%([-_0^#]*)(\d*)([EO]?)([^]?)/y;
  for (let i = 0; i < fmt.length; ) {
    if (fmt[i] !== '%') {
      out += fmt[i++];
      continue;
    }
    re.lastIndex = i;
    const m = re.exec(fmt)!;
    i += m[0].length;
    const [all, , width, mod, conv] = m;
    let flags = m[1];
    if (!LIBC.has(conv) || (mod === 'E' && !E_OK.has(conv)) || (mod === 'O' && !O_OK.has(conv))) {
      // Unknown: copied as written (padded to the width, as glibc does).
      out += pad(all, width, '').replace(/%/g, '%%');
      continue;
    }
    if (conv === 'Z' && utc) {
      out += pad('GMT', width, flags).replace(/%/g, '%%');
      continue;
    }
    // glibc's `-` with a width still pads, with spaces.
    if (flags.includes('-') && width) flags = flags.replace(/-/g, '') + '_';
    out += `%${flags}${width}${conv}`;
  }
  return strftime(out, t * 1000, utc ? UTC : zone);
}

/** sscanf's %d: blanks, a sign, digits; null when there are no digits. */
function scanInt(s: string, at: { i: number }): number | null {
  const m = /^[ \t\n\r\f\v]*([-+]?\d+)/.exec(s.slice(at.i));
  if (!m) return null;
  at.i += m[0].length;
  return Number(m[1]);
}

/** mktime("YYYY MM DD HH MM SS [DST]"): seconds since the epoch, -1 if it cannot be read. */
export function awkMktime(spec: string, utc: boolean, zone: Zone): number {
  const at = { i: 0 };
  const v: number[] = [];
  for (let k = 0; k < 7; k++) {
    const n = scanInt(spec, at);
    if (n === null) break;
    v.push(n);
  }
  if (v.length < 6) return -1;
  const [year, month, day, hour, minute, second] = v;
  const dst = v.length > 6 ? v[6] : -1;
  const d = new Date(0);
  // setUTCFullYear, not Date.UTC: years 0-99 are not 19xx. Out-of-range fields carry, as in C.
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second);
  const wall = d.getTime();
  if (Number.isNaN(wall)) return -1;
  if (utc) return Math.floor(wall / 1000);
  const ms = zone.fromLocal(wall, dst);
  // A DST flag that disagrees with the zone moves the time by an hour, as glibc's mktime does.
  const inDst = zone.at(ms).dst;
  return Math.floor(ms / 1000) + (dst > 0 && !inDst ? -3600 : dst === 0 && inDst ? 3600 : 0);
}

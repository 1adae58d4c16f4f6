// date [-u] [-d STRING | -r FILE] [-R | -I[FMT] | +FORMAT]: print the time.
// Times are in TZ's zone (IANA names from the host's Intl data, or POSIX TZ strings: tz.ts).
// The system clock cannot be set (-s and MMDDhhmm operands fail with EPERM).

import { strerror, SysError } from '../../../abi/errno.js';
import { command, quote } from '../../../userland/lib/index.js';
import { UTC, zoneFor } from '../../../userland/lib/tz.js';
import { parseDate } from './date-parse.js';
import { strftime } from '../../../userland/lib/strftime.js';

const USAGE = `Usage: date [OPTION]... [+FORMAT]
Display the current time in the given FORMAT.

  -d, --date=STRING          display time described by STRING, not 'now'
  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.
                               FMT='date' for date only (the default),
                               'hours', 'minutes', 'seconds', or 'ns'
  -r, --reference=FILE       display the last modification time of FILE
  -R, --rfc-email            output date and time in RFC 5322 format.
      --rfc-3339=FMT         output date/time in RFC 3339 format.
                               FMT='date', 'seconds', or 'ns'
  -u, --utc, --universal     print Coordinated Universal Time (UTC)

STRING: @SECONDS, YYYY-MM-DD[ HH:MM[:SS]], now, today, yesterday, tomorrow,
and relative items such as '3 days ago', '+2 weeks', 'next month'.
FORMAT: the strftime directives (%Y %m %d %H %M %S %s %a %b %j %Z %z %:z ...),
with the flags - _ 0 ^ # and a field width.
TZ names the zone: an IANA name (America/New_York) or a POSIX TZ string (EST5EDT).
`;

const ISO: Record<string, string> = {
  date: '%Y-%m-%d',
  hours: '%Y-%m-%dT%H%:z',
  minutes: '%Y-%m-%dT%H:%M%:z',
  seconds: '%Y-%m-%dT%H:%M:%S%:z',
  ns: '%Y-%m-%dT%H:%M:%S,%N%:z',
};
const RFC3339: Record<string, string> = { date: '%Y-%m-%d', seconds: '%Y-%m-%d %H:%M:%S%:z', ns: '%Y-%m-%d %H:%M:%S.%N%:z' };

export const date = command(
  {
    name: 'date',
    usage: USAGE,
    short: 'd:I::r:Rus:',
    long: {
      date: ['d', 'required'], 'iso-8601': ['I', 'optional'], reference: ['r', 'required'], 'rfc-email': ['R', 'none'],
      'rfc-3339': ['rfc', 'required'], utc: ['u', 'none'], universal: ['u', 'none'], set: ['s', 'required'],
    },
  },
  (c) => {
    const formats: string[] = [];
    const pick = (table: Record<string, string>, arg: string, opt: string): string => {
      const hits = Object.keys(table).filter((k) => k.startsWith(arg));
      if (hits.length !== 1 && !(arg in table)) {
        c.warn(`invalid argument ${quote(arg)} for ${quote(opt)}`);
        c.sys.writeAll(2, `Valid arguments are:\n${Object.keys(table).map((k) => `  - ${quote(k)}\n`).join('')}`);
        c.tryHelp();
      }
      return table[arg in table ? arg : hits[0]];
    };
    for (const [k, v] of c.all) {
      if (k === 'R') formats.push('%a, %d %b %Y %H:%M:%S %z');
      else if (k === 'I') formats.push(pick(ISO, v ?? 'date', '--iso-8601'));
      else if (k === 'rfc') formats.push(pick(RFC3339, v ?? '', '--rfc-3339'));
    }
    const ops = c.operands;
    if (ops.length > 1) c.usage(`extra operand ${quote(ops[1])}`);
    if (ops.length === 1 && ops[0].startsWith('+')) formats.push(ops[0].slice(1));
    if (formats.length > 1) c.fail('multiple output formats specified');
    if (c.has('d') && c.has('r')) c.usage('the options to specify dates for printing are mutually exclusive');
    if (c.has('s') || (ops.length === 1 && !ops[0].startsWith('+'))) {
      const s = c.get('s') ?? ops[0];
      if ((c.has('s') ? parseDate(s) : /^\d{8}(\d{2}|\d{4})?(\.\d{2})?$/.test(s) ? 0 : null) === null) c.fail(`invalid date ${quote(s)}`);
      c.fail('cannot set date: Operation not permitted');
    }
    const zone = c.has('u') ? UTC : zoneFor(c.os.env.TZ);
    let ms = Date.now();
    if (c.has('d')) {
      const t = parseDate(c.get('d')!, ms, zone);
      if (t === null || Number.isNaN(t)) c.fail(`invalid date ${quote(c.get('d')!)}`);
      ms = t!;
    } else if (c.has('r')) {
      try {
        ms = c.sys.stat(c.get('r')!).mtimeMs;
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
        c.fail(`${c.get('r')!}: ${strerror(e.errno)}`);
      }
    }
    c.out.write(strftime(formats[0] ?? '%a %b %e %H:%M:%S %Z %Y', ms, zone) + '\n');
  },
);

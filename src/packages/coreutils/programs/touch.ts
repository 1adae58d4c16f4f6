// touch [-acm] [-d DATE] [-r FILE] [-t STAMP] FILE...: change file timestamps, creating files.

import { Errno } from '../../../abi/errno.js';
import { O_CREAT, O_WRONLY } from '../../../abi/fcntl.js';
import { command, quote, quoteaf } from '../../../userland/lib/index.js';
import { zoneFor } from '../../../userland/lib/tz.js';
import { parseDate, parseStamp } from './date-parse.js';

const USAGE = `Usage: touch [OPTION]... FILE...
Update the access and modification times of each FILE to the current time.

A FILE argument that does not exist is created empty, unless -c or -h
is supplied.

Mandatory arguments to long options are mandatory for short options too.
  -a                     change only the access time
  -c, --no-create        do not create any files
  -d, --date=STRING      parse STRING and use it instead of current time
  -m                     change only the modification time
  -r, --reference=FILE   use this file's times instead of current time
  -t STAMP               use [[CC]YY]MMDDhhmm[.ss] instead of current time
      --help     display this help and exit
      --version  output version information and exit
`;

export const touch = command(
  {
    name: 'touch',
    usage: USAGE,
    short: 'acd:mr:t:f',
    long: { 'no-create': ['c', 'none'], date: ['d', 'required'], reference: ['r', 'required'] },
  },
  (c) => {
    if (c.operands.length === 0) c.usage('missing file operand');
    let atime: number | null = Date.now();
    let mtime: number | null = atime;
    if (c.has('r')) {
      try {
        const st = c.sys.stat(c.get('r')!);
        [atime, mtime] = [st.atimeMs, st.mtimeMs];
      } catch (e) {
        c.sysError(`failed to get attributes of ${quoteaf(c.get('r')!)}`, e);
        c.exit(1);
      }
    }
    if (c.has('d')) {
      const t = parseDate(c.get('d')!, Date.now(), zoneFor(c.os.env.TZ));
      if (t === null) c.fail(`invalid date format ${quote(c.get('d')!)}`);
      atime = mtime = t;
    }
    if (c.has('t')) {
      const t = parseStamp(c.get('t')!, zoneFor(c.os.env.TZ));
      if (t === null) c.fail(`invalid date format ${quote(c.get('t')!)}`);
      atime = mtime = t;
    }
    // -a alone keeps mtime, -m alone keeps atime (null = leave unchanged).
    if (c.has('a') && !c.has('m')) mtime = null;
    if (c.has('m') && !c.has('a')) atime = null;
    for (const f of c.operands) {
      try {
        if (f === '-') continue;
        try {
          c.sys.utimes(f, atime, mtime);
        } catch (e) {
          if (c.has('c') && e instanceof c.os.SysError && e.errno === Errno.ENOENT) continue;
          if (!(e instanceof c.os.SysError) || e.errno !== 2) throw e;
          c.sys.close(c.sys.open(f, O_WRONLY | O_CREAT, 0o666));
          c.sys.utimes(f, atime, mtime);
        }
      } catch (e) {
        c.cannot('touch', f, e);
      }
    }
  },
);

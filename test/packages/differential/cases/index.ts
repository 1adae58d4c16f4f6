// Every family of the userland differential suite, in run order.
import type { Family } from '../types.js';
import { cat, echo, tee } from './text.js';
import { names } from './names.js';
import { head, seq, sleep, tail, wc } from './numbers.js';
import { cp, ln, mkdirRmdir, mv, rm, touch } from './files.js';
import { chmod, ls, stat } from './listing.js';
import { options, pipes, system } from './misc.js';
import { comm, sort, uniq } from './sorting.js';
import { cut, paste, tr } from './fields.js';
import { nl, rev, tac } from './lines.js';
import { base64, mktemp, sums } from './encode.js';
import { expand, fold, od } from './dump.js';
import { date, expr } from './dates.js';
import { nohup, pwd, timeout, tty, which } from './procs.js';
import { dd, df, du, truncate } from './space.js';
import { cmp, diff, diff3, diffPairs } from './compare.js';
import { patch, patchDrifted, patchRoundTrips } from './patching.js';
import { hexdump, iconv, strings, xxd } from './bytes.js';
import { fmt, join, shuf, split, unexpand } from './extras-text.js';
import { chown, groups, install, stty, tailFollow } from './extras-admin.js';
import { clear, column, file, tput, tree } from './extras-pkgs.js';
import { gzip, tar, zip } from './archives.js';
import { mkfifo, sync } from './syncing.js';
import { fastpaths } from './fastpaths.js';
import { chars } from './chars.js';

export const FAMILIES: Family[] = [
  cat, echo, tee, names, seq, sleep, wc, head, tail, mkdirRmdir, rm, touch, cp, mv, ln, ls, stat, chmod, options, pipes, system,
  sort, uniq, comm, cut, paste, tr, tac, rev, nl, base64, sums, mktemp, od, fold, expand,
  date, expr, timeout, nohup, which, tty, pwd, du, df, truncate, dd, tar, gzip, zip,
  diff, diffPairs, cmp, diff3, patch, patchRoundTrips, patchDrifted, xxd, hexdump, strings, iconv,
  join, fmt, unexpand, split, shuf, chown, install, groups, stty, tailFollow, column, tree, file, tput, clear,
  mkfifo, sync, fastpaths, chars,
];

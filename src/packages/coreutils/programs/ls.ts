// ls [-1aACdFhlmrRStnx] [FILE]...: list directory contents. One name per line
// unless stdout is a terminal (then columns); names sort in byte order (the C
// locale's, and C.UTF-8's code point order) and take their display width in
// the column layouts (characters' widths in a UTF-8 locale).

import { isDir, isLnk, type Stat } from '../../../abi/stat.js';
import { command, joinPath, latin1Bytes, quote, type Cmd } from '../../../userland/lib/index.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { encode } from '../../../userland/lib/utf8.js';
import { byColumns, byRows, longLines, indicator, nameWidth, withCommas, type Item } from './ls-format.js';

const USAGE = `Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -C                         list entries by columns
  -d, --directory            list directories themselves, not their contents
  -F, --classify             append indicator (one of */=>@|) to entries
  -g                         like -l, but do not list owner
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G etc.
  -i, --inode                print the index number of each file
      --full-time            like -l --time-style=full-iso
  -l                         use a long listing format
  -m                         fill width with a comma separated list of entries
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -o                         like -l, but do not list group information
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -S                         sort by file size, largest first
  -t                         sort by time, newest first
  -U                         do not sort; list entries in directory order
  -w, --width=COLS           set output width to COLS.  0 means no limit
  -x                         list entries by lines instead of by columns
  -1                         list one file per line
      --help     display this help and exit
      --version  output version information and exit

Exit status:
 0  if OK,
 1  if minor problems (e.g., cannot access subdirectory),
 2  if serious trouble (e.g., cannot access command-line argument).
`;

export interface LsOpts {
  all: boolean;
  almostAll: boolean;
  dirsAsFiles: boolean;
  classify: boolean;
  long: boolean;
  showOwner: boolean;
  showGroup: boolean;
  numeric: boolean;
  human: boolean;
  inode: boolean;
  recursive: boolean;
  sort: 'name' | 'size' | 'time' | 'none';
  reverse: boolean;
  format: 'one' | 'columns' | 'rows' | 'commas';
  /** Output width for the multi-column formats (0: no limit). */
  width: number;
  utf8: boolean;
  /** --full-time: the whole time to the nanosecond, with the zone's offset. */
  fullTime: boolean;
}

export const ls = command(
  {
    name: 'ls',
    usage: USAGE,
    failStatus: 2,
    short: 'aACdFghilmnoRrStUw:x1',
    long: {
      all: ['a', 'none'], 'almost-all': ['A', 'none'], directory: ['d', 'none'], classify: ['F', 'none'],
      'human-readable': ['h', 'none'], inode: ['i', 'none'], 'numeric-uid-gid': ['n', 'none'],
      reverse: ['r', 'none'], recursive: ['R', 'none'], author: ['author', 'none'], width: ['w', 'required'],
      'full-time': ['full-time', 'none'],
    },
  },
  (c) => {
    const h = (k: string) => c.has(k);
    let tty = false;
    try {
      tty = c.sys.isatty(1);
    } catch {
      // not a terminal
    }
    // The last of -1, -C, -x, -m, -l-like options decides the layout, as in GNU.
    let long = false;
    let format: LsOpts['format'] = tty ? 'columns' : 'one';
    for (const [k] of c.all) {
      if ('lgno'.includes(k) || k === 'full-time') [long, format] = [true, 'one'];
      else if (k === '1') [long, format] = [false, 'one'];
      else if (k === 'C') [long, format] = [false, 'columns'];
      else if (k === 'x') [long, format] = [false, 'rows'];
      else if (k === 'm') [long, format] = [false, 'commas'];
    }
    let width = 80;
    const env = Number(c.os.env.COLUMNS);
    if (/^\d+$/.test(c.os.env.COLUMNS ?? '') && env > 0) width = env;
    const w = c.opts.get('w');
    if (w !== undefined) {
      if (!/^\d+$/.test(w)) c.fail(`invalid line width: ${quote(w)}`);
      width = Number(w);
    }
    let sort: LsOpts['sort'] = 'name';
    for (const [k] of c.all) {
      if (k === 'S') sort = 'size';
      else if (k === 't') sort = 'time';
      else if (k === 'U') sort = 'none';
    }
    const o: LsOpts = {
      all: h('a'), almostAll: h('A'), dirsAsFiles: h('d'), classify: h('F'), long,
      showOwner: !h('g'), showGroup: !h('o'), numeric: h('n'), human: h('h'), inode: h('i'),
      recursive: h('R') && !h('d'), sort, reverse: h('r'), format, width, utf8: isUtf8Locale(c.os.env),
      fullTime: h('full-time'),
    };
    list(c, o, c.operands);
  },
);

function list(c: Cmd, o: LsOpts, operands: string[]): void {
  const names = operands.length ? operands : ['.'];
  const files: Item[] = [];
  const dirs: Item[] = [];
  for (const name of names) {
    let st: Stat;
    try {
      st = c.sys.lstat(name);
      // Command-line symlinks to directories are followed unless -l/-d/-F would show the link itself.
      if (isLnk(st.mode) && !o.dirsAsFiles && !o.long && !o.classify) st = c.sys.stat(name);
      else if (isLnk(st.mode) && !o.dirsAsFiles && o.long === false && o.classify) {
        // -F keeps the link (ls -F shows "name@").
      }
    } catch (e) {
      c.cannot('access', name, e, 2);
      continue;
    }
    const item: Item = { name, path: name, st };
    if (isDir(st.mode) && !o.dirsAsFiles) dirs.push(item);
    else files.push(item);
  }
  let first = true;
  if (files.length) {
    print(c, o, sortItems(files, o), false);
    first = false;
  }
  const header = names.length > 1 || o.recursive;
  for (const d of sortItems(dirs, o)) {
    listDir(c, o, d.path, header, first);
    first = false;
  }
}

function listDir(c: Cmd, o: LsOpts, path: string, header: boolean, first: boolean): void {
  if (header) c.out.write(`${first ? '' : '\n'}${path}:\n`);
  let entries: string[];
  try {
    entries = c.sys.readdir(path).map((e) => e.name);
  } catch (e) {
    c.cannot('open directory', path, e, header && !first ? 1 : 2);
    return;
  }
  const items: Item[] = [];
  for (const n of entries) {
    if (n.startsWith('.') && !o.all && !(o.almostAll && n !== '.' && n !== '..')) continue;
    const p = joinPath(path, n);
    try {
      items.push({ name: n, path: p, st: c.sys.lstat(p) });
    } catch (e) {
      c.cannot('access', p, e, 1);
    }
  }
  if (o.all && !entries.includes('.')) {
    // The VFS may not list . and ..; GNU shows them with -a.
    for (const n of ['.', '..']) items.push({ name: n, path: joinPath(path, n), st: c.sys.stat(joinPath(path, n)) });
  }
  const sorted = sortItems(items, o);
  print(c, o, sorted, true);
  if (o.recursive) {
    for (const it of sorted) {
      if (isDir(it.st.mode) && it.name !== '.' && it.name !== '..') listDir(c, o, it.path, true, false);
    }
  }
}

/** Byte order of the names (JS strings compare UTF-16 units, which differs past U+FFFF). */
const byName = (a: Item, b: Item) => {
  const [x, y] = [encode(a.name), encode(b.name)];
  return x < y ? -1 : x > y ? 1 : 0;
};

function sortItems(items: Item[], o: LsOpts): Item[] {
  if (o.sort === 'none') return items;
  const cmp =
    o.sort === 'size'
      ? (a: Item, b: Item) => b.st.size - a.st.size || byName(a, b)
      : o.sort === 'time'
        ? (a: Item, b: Item) => b.st.mtimeMs - a.st.mtimeMs || byName(a, b)
        : byName;
  const s = [...items].sort(cmp);
  return o.reverse ? s.reverse() : s;
}

function print(c: Cmd, o: LsOpts, items: Item[], isDirListing: boolean): void {
  if (o.long) {
    for (const l of longLines(c, o, items, isDirListing)) c.out.write(latin1Bytes(l + '\n'));
    return;
  }
  // Byte strings, so names with bytes that are not UTF-8 come out as they are.
  const names = items.map((it) => (o.inode ? `${it.st.ino} ` : '') + encode(it.name) + (o.classify ? indicator(it.st) : ''));
  const widths = names.map((n) => nameWidth(n, o.utf8));
  const text =
    o.format === 'columns' ? byColumns(names, widths, o.width)
    : o.format === 'rows' ? byRows(names, widths, o.width)
    : o.format === 'commas' ? withCommas(names, widths, o.width)
    : names.map((n) => `${n}\n`).join('');
  c.out.write(latin1Bytes(text));
}

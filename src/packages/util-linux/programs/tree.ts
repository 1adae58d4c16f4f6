// tree [-adfilpqsughxFNQU] [-L LEVEL] [-P PATTERN] [-I PATTERN] [--noreport]
// [--dirsfirst|--filesfirst] [--sort=name|size|mtime] [-r] [--prune] [DIR]...:
// list directories as a tree (tree 2.x output; ASCII lines unless the locale
// is UTF-8).

import { isDir, isLnk, type Stat } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { groupName, joinPath, modeString, userName, type Cmd, command } from '../../../userland/lib/index.js';

const USAGE_LINE = `usage: tree [-acdfghilnpqrstuvxACDFJQNSUX] [-L level [-R]] [-H  baseHREF]
\t[-T title] [-o filename] [-P pattern] [-I pattern] [--gitignore]
\t[--gitfile[=]file] [--matchdirs] [--metafirst] [--ignore-case]
\t[--nolinks] [--hintro[=]file] [--houtro[=]file] [--inodes] [--device]
\t[--sort[=]<name>] [--dirsfirst] [--filesfirst] [--filelimit #] [--si]
\t[--du] [--prune] [--charset[=]X] [--timefmt[=]format] [--fromfile]
\t[--fflinks] [--info] [--infofile[=]file] [--noreport] [--version]
\t[--help] [--] [directory ...]
`;

const USAGE = `${USAGE_LINE}  ------- Listing options -------
  -a            All files are listed.
  -d            List directories only.
  -l            Follow symbolic links like directories.
  -f            Print the full path prefix for each file.
  -x            Stay on current filesystem only.
  -L level      Descend only level directories deep.
  -P pattern    List only those files that match the pattern given.
  -I pattern    Do not list files that match the given pattern.
  --ignore-case Ignore case when pattern matching.
  --prune       Prune empty directories from the output.
  --noreport    Turn off file/directory count at end of tree listing.
  --charset X   Use charset X for terminal/HTML and indentation line output.
  ------- File options -------
  -q            Print non-printable characters as '?'.
  -N            Print non-printable characters as is.
  -Q            Quote filenames with double quotes.
  -p            Print the protections for each file.
  -u            Displays file owner or UID number.
  -g            Displays file group owner or GID number.
  -s            Print the size in bytes of each file.
  -h            Print the size in a more human readable way.
  --si          Like -h, but use in SI units (powers of 1000).
  -F            Appends '/', '=', '*', '@', '|' or '>' as per ls -F.
  ------- Sorting options -------
  -t            Sort files by last modification time.
  -U            Leave files unsorted.
  -r            Reverse the order of the sort.
  --dirsfirst   List directories before files (-U disables).
  --filesfirst  List files before directories (-U disables).
  --sort X      Select sort: name,size,mtime.
  ------- Graphics options -------
  -i            Don't print indentation lines.
  -n            Turn colorization off always.
  ------- Miscellaneous options -------
  --version     Print version and exit.
  --help        Print usage and this help message and exit.
  --            Options processing terminator.
`;

interface Opts {
  all: boolean;
  dirsOnly: boolean;
  follow: boolean;
  fullPath: boolean;
  level: number;
  include: RegExp | null;
  exclude: RegExp | null;
  prune: boolean;
  report: boolean;
  unicode: boolean;
  raw: boolean;
  qmark: boolean;
  quote: boolean;
  perms: boolean;
  user: boolean;
  group: boolean;
  size: 'bytes' | 'human' | 'si' | null;
  classify: boolean;
  sort: 'name' | 'size' | 'mtime' | 'none';
  reverse: boolean;
  dirs: 'first' | 'last' | null;
  indent: boolean;
}

interface Entry {
  name: string;
  path: string;
  lst: Stat;
  /** The symlink's target's stat (null when broken), or the entry's own. */
  st: Stat | null;
  target: string | null;
}

/** tree counts a directory shown below a root, and the root itself once it lists anything. */
interface Counts {
  dirs: number;
  files: number;
}

const enc = new TextEncoder();

/** A tree pattern ('*', '?', '[...]', alternatives split by '|') as an anchored RegExp. */
function pattern(p: string, ignoreCase: boolean): RegExp {
  const alt = p.split('|').map((one) => {
    let re = '';
    for (let i = 0; i < one.length; i++) {
      const ch = one[i];
      if (ch === '*') re += '.*';
      else if (ch === '?') re += '.';
      else if (ch === '[') {
        const end = one.indexOf(']', i + 2);
        if (end < 0) re += '\\[';
        else {
          const body = one.slice(i + 1, end);
          re += `[${body[0] === '!' || body[0] === '^' ? `^${body.slice(1)}` : body}]`;
          i = end;
        }
      } else if (ch === '\\' && i + 1 < one.length) re += `\\${one[++i]}`;
      else re += ch.replace(/[.+^${}()|\\/]/g, '\\$&');
    }
    return re;
  });
  return new RegExp(`^(?:${alt.join('|')})$`, ignoreCase ? 'is' : 's');
}

function parse(c: Cmd): { o: Opts; roots: string[] } | number {
  const o: Opts = {
    all: false, dirsOnly: false, follow: false, fullPath: false, level: Infinity, include: null, exclude: null,
    prune: false, report: true, unicode: false, raw: false, qmark: false, quote: false, perms: false, user: false, group: false,
    size: null, classify: false, sort: 'name', reverse: false, dirs: null, indent: true,
  };
  const env = c.os.env;
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  o.unicode = /utf-?8/i.test(locale);
  const roots: string[] = [];
  let include: string | null = null;
  let exclude: string | null = null;
  let ignoreCase = false;
  const args = c.operands;
  const bad = (msg: string, usage = false): number => {
    c.out.flush();
    c.sys.writeAll(2, `tree: ${msg}\n${usage ? USAGE_LINE : ''}`);
    return 1;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      roots.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      roots.push(a);
      continue;
    }
    if (a.startsWith('--')) {
      const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      const value = (): string | null => inline ?? (i + 1 < args.length ? args[++i] : null);
      switch (name) {
        case '--help':
          c.out.write(USAGE);
          return 0;
        case '--version':
          c.out.write('tree v2.1.0 (agentOS) (c) 1996 - 2022 by Steve Baker, Thomas Moore, Francesc Rocher, Florian Sesser, Kyosuke Tokoro\n');
          return 0;
        case '--noreport': o.report = false; break;
        case '--prune': o.prune = true; break;
        case '--ignore-case': ignoreCase = true; break;
        case '--dirsfirst': o.dirs = 'first'; break;
        case '--filesfirst': o.dirs = 'last'; break;
        case '--si': o.size = 'si'; break;
        case '--charset': {
          const v = value();
          if (v === null) return bad(`Missing argument to --charset option.`);
          o.unicode = /^utf-?8$/i.test(v);
          break;
        }
        case '--sort': {
          const v = value();
          if (v === null) return bad('Missing argument to --sort option.');
          if (!['name', 'size', 'mtime'].includes(v)) {
            // tree writes the list of sorts to stdout.
            c.sys.writeAll(2, `tree: Sort type '${v}' not valid, should be one of: `);
            c.out.write('name,version,size,mtime,ctime\n');
            return 1;
          }
          o.sort = v as Opts['sort'];
          break;
        }
        default:
          return bad(`Invalid argument \`${a}'.`, true);
      }
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const ch = a[j];
      const takes = 'LPI'.includes(ch);
      let v: string | null = null;
      if (takes) {
        // The value is the next argument (tree does not take it attached).
        v = i + 1 < args.length ? args[++i] : null;
        if (v === null) return bad(`Missing argument to -${ch} option.`);
      }
      switch (ch) {
        case 'a': o.all = true; break;
        case 'd': o.dirsOnly = true; break;
        case 'l': o.follow = true; break;
        case 'f': o.fullPath = true; break;
        case 'x': case 'n': break;
        case 'L':
          if (!/^\d+$/.test(v!) || Number(v) < 1) return bad('Invalid level, must be greater than 0.');
          o.level = Number(v);
          break;
        case 'P': include = v; break;
        case 'I': exclude = v; break;
        case 'q': o.qmark = true; break;
        case 'N': o.raw = true; break;
        case 'Q': o.quote = true; break;
        case 'p': o.perms = true; break;
        case 'u': o.user = true; break;
        case 'g': o.group = true; break;
        case 's': o.size ??= 'bytes'; break;
        case 'h': o.size = 'human'; break;
        case 'F': o.classify = true; break;
        case 't': o.sort = 'mtime'; break;
        case 'U': o.sort = 'none'; break;
        case 'r': o.reverse = true; break;
        case 'i': o.indent = false; break;
        default:
          return bad(`Invalid argument -\`${ch}'.`, true);
      }
    }
  }
  if (include !== null) o.include = pattern(include, ignoreCase);
  if (exclude !== null) o.exclude = pattern(exclude, ignoreCase);
  return { o, roots: roots.length ? roots : ['.'] };
}

const tree = command({ name: 'tree', usage: USAGE, rawArgs: true }, (c) => {
  const p = parse(c);
  if (typeof p === 'number') return p;
  const { o, roots } = p;
  const counts: Counts = { dirs: 0, files: 0 };
  let status = 0;
  for (const root of roots) {
    let st: Stat;
    try {
      st = c.sys.stat(root);
    } catch {
      c.out.write(`${show(o, root)}  [error opening dir]\n`);
      status = 2;
      continue;
    }
    if (!isDir(st.mode)) {
      c.out.write(`${show(o, root)}  [error opening dir]\n`);
      counts.files++;
      continue;
    }
    const lines: string[] = [];
    const shown = walk(c, o, root, 1, counts, lines, new Set([`${st.dev}:${st.ino}`]));
    if (shown) counts.dirs++;
    c.out.write(`${meta(c, o, st)}${show(o, root)}${o.classify ? '/' : ''}${shown === null ? '  [error opening dir]' : ''}\n`);
    for (const l of lines) c.out.write(l);
  }
  if (o.report) {
    const d = `${counts.dirs} director${counts.dirs === 1 ? 'y' : 'ies'}`;
    c.out.write(o.dirsOnly ? `\n${d}\n` : `\n${d}, ${counts.files} file${counts.files === 1 ? '' : 's'}\n`);
  }
  return status;
});

const C_ESCAPES: Record<number, string> = { 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r' };
const octal = (b: number) => `\\${b.toString(8).padStart(3, '0')}`;

/**
 * A name as tree prints it. Outside UTF-8 locales: spaces and backslashes
 * escaped, control characters as C escapes or octal (or '?' with -q), other
 * bytes past ASCII in octal. In UTF-8 locales only control characters are
 * escaped (in octal). -N prints names as they are, -Q quotes them.
 */
function show(o: Opts, name: string): string {
  const s = o.raw ? name : o.unicode ? escapeControls(o, name) : escapeBytes(o, name);
  return o.quote ? `"${s}"` : s;
}

function escapeControls(o: Opts, name: string): string {
  return Array.from(name, (ch) => (ch >= ' ' && ch !== '\x7f' ? ch : o.qmark ? '?' : octal(ch.charCodeAt(0)))).join('');
}

function escapeBytes(o: Opts, name: string): string {
  let s = '';
  for (const b of enc.encode(name)) {
    if (b === 0x20) s += o.quote ? ' ' : '\\ ';
    else if (b === 0x5c) s += '\\\\';
    else if (b === 0x22 && o.quote) s += '\\"';
    else if (C_ESCAPES[b]) s += `\\${C_ESCAPES[b]}`;
    else if (b < 0x20 || b >= 0x7f) s += o.qmark ? '?' : octal(b);
    else s += String.fromCharCode(b);
  }
  return s;
}

/** The [perms user group size] block of -p/-u/-g/-s/-h. */
function meta(c: Cmd, o: Opts, st: Stat): string {
  const parts: string[] = [];
  if (o.perms) parts.push(modeString(st.mode));
  if (o.user) parts.push((userName(c.sys, st.uid) ?? String(st.uid)).padEnd(8));
  if (o.group) parts.push((groupName(c.sys, st.gid) ?? String(st.gid)).padEnd(8));
  if (o.size === 'bytes') parts.push(String(st.size).padStart(11));
  else if (o.size) parts.push(human(st.size, o.size === 'si' ? 1000 : 1024));
  return parts.length ? `[${parts.join(' ')}]  ` : '';
}

function human(n: number, base: number): string {
  if (n < base) return String(n).padStart(4);
  const units = base === 1000 ? 'kMGTPEZY' : 'KMGTPEZY';
  let v = n;
  let u = -1;
  while (v >= base && u < units.length - 1) {
    v /= base;
    u++;
  }
  return `${(v < 9.95 ? v.toFixed(1) : v.toFixed(0)).padStart(3)}${units[u]}`;
}

function classify(o: Opts, st: Stat | null): string {
  if (!o.classify || !st) return '';
  if (isDir(st.mode)) return '/';
  const type = st.mode & 0o170000;
  if (type === 0o140000) return '=';
  if (type === 0o010000) return '|';
  if (type === 0o100000 && st.mode & 0o111) return '*';
  return '';
}

function entries(c: Cmd, o: Opts, dir: string): Entry[] | null {
  let names: string[];
  try {
    names = c.sys.readdir(dir).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
  } catch {
    return null;
  }
  const list: Entry[] = [];
  for (const name of names) {
    if (!o.all && name.startsWith('.')) continue;
    const path = joinPath(dir, name);
    let lst: Stat;
    try {
      lst = c.sys.lstat(path);
    } catch {
      continue;
    }
    let st: Stat | null = lst;
    let target: string | null = null;
    if (isLnk(lst.mode)) {
      target = c.sys.readlink(path);
      try {
        st = c.sys.stat(path);
      } catch {
        st = null;
      }
    }
    const dirLike = st !== null && isDir(st.mode);
    if (o.dirsOnly && !dirLike) continue;
    if (o.exclude?.test(name)) continue;
    if (o.include && !isDir(lst.mode) && !o.include.test(name)) continue;
    list.push({ name, path, lst, st, target });
  }
  return sortEntries(o, list);
}

function sortEntries(o: Opts, list: Entry[]): Entry[] {
  if (o.sort === 'none') return list;
  const byName = (a: Entry, b: Entry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const cmp =
    o.sort === 'size' ? (a: Entry, b: Entry) => b.lst.size - a.lst.size || byName(a, b)
    : o.sort === 'mtime' ? (a: Entry, b: Entry) => a.lst.mtimeMs - b.lst.mtimeMs || byName(a, b)
    : byName;
  const sorted = list.sort((a, b) => (o.reverse ? -cmp(a, b) : cmp(a, b)));
  if (!o.dirs) return sorted;
  const isD = (e: Entry) => e.st !== null && isDir(e.st.mode);
  const dirs = sorted.filter(isD);
  const files = sorted.filter((e) => !isD(e));
  return o.dirs === 'first' ? [...dirs, ...files] : [...files, ...dirs];
}

interface Row {
  entry: Entry;
  sub: string[];
  note: string;
  isDirectory: boolean;
  counts: Counts;
}

/** List one directory's entries into `out` (lines relative to it); returns how many were shown, null if unreadable. */
function walk(c: Cmd, o: Opts, dir: string, depth: number, counts: Counts, out: string[], seen: Set<string>): number | null {
  const list = entries(c, o, dir);
  if (list === null) return null;
  const rows: Row[] = [];
  for (const e of list) {
    const st = e.st;
    const isDirectory = st !== null && isDir(st.mode);
    const row: Row = { entry: e, sub: [], note: '', isDirectory, counts: { dirs: 0, files: 0 } };
    // A symlink is only descended with -l; a directory at the level limit is listed, not opened.
    const descend = isDirectory && (!isLnk(e.lst.mode) || o.follow) && depth < o.level;
    if (descend) {
      const key = `${st.dev}:${st.ino}`;
      // Any directory already listed (not only an ancestor) is not entered again.
      if (seen.has(key)) row.note = '  [recursive, not followed]';
      else if (seen.add(key) && walk(c, o, e.path, depth + 1, row.counts, row.sub, seen) === null) row.note = '  [error opening dir]';
      else if (o.prune && row.sub.length === 0) continue;
    }
    rows.push(row);
  }
  rows.forEach((r, i) => {
    const last = i === rows.length - 1;
    const branch = !o.indent ? '' : o.unicode ? (last ? '└── ' : '├── ') : last ? '`-- ' : '|-- ';
    // tree 2's Unicode continuation line pads with no-break spaces.
    const cont = !o.indent ? '' : o.unicode ? (last ? '    ' : '│\u00a0\u00a0 ') : last ? '    ' : '|   ';
    const e = r.entry;
    let line = `${branch}${meta(c, o, e.lst)}${show(o, o.fullPath ? e.path : e.name)}`;
    line += e.target !== null ? ` -> ${show(o, e.target)}${classify(o, e.st)}` : classify(o, e.st);
    out.push(`${line}${r.note}\n`);
    for (const s of r.sub) out.push(cont + s);
    if (r.isDirectory) counts.dirs++;
    else counts.files++;
    counts.dirs += r.counts.dirs;
    counts.files += r.counts.files;
  });
  return rows.length;
}

export default function main(os: AgentosApi): void {
  os.exit(tree(os, os.argv.slice(1)));
}

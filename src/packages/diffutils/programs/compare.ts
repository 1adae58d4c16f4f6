// Comparing two operands as GNU diff does: files (text or binary), a file
// against a directory (the file of the same name in it), and directories
// (sorted listings merged: "Only in", "Common subdirectories", recursion with
// -r, absent files as empty with -N). Returns 0 same, 1 different, 2 trouble.

import { O_RDONLY } from '../../../abi/fcntl.js';
import { isDir, isLnk, isReg, type Stat } from '../../../abi/stat.js';
import { Errno } from '../../../abi/errno.js';
import { errnoOf, fileTypeName, joinPath, baseName, type Cmd } from '../../../userland/lib/index.js';
import { fnmatch } from '../../../userland/lib/glob.js';
import { compareTexts, splitLines, type CompareOptions, type Text } from './analyze.js';
import { Printer, type Style } from './output.js';

export type Format = 'normal' | 'unified' | 'context' | 'ed' | 'rcs';

export interface DiffOptions extends CompareOptions, Style {
  format: Format;
  brief: boolean;
  reportIdentical: boolean;
  recursive: boolean;
  newFile: boolean;
  unidirectionalNewFile: boolean;
  text: boolean;
  stripTrailingCr: boolean;
  noDereference: boolean;
  labels: [string | undefined, string | undefined];
  exclude: string[];
  startingFile: string | undefined;
  /** The options as typed, for the "diff -r a/x b/x" lines. */
  switches: string;
}

/** How much of a file is looked at for NUL bytes (GNU: one st_blksize buffer). */
const BINARY_PROBE = 4096;

interface Side {
  name: string;
  /** What was found: a file to open, standard input, nothing (-N), or an errno. */
  kind: 'file' | 'stdin' | 'absent' | 'error';
  errno: number;
  st: Stat;
}

const EMPTY_STAT: Stat = { dev: 0, ino: 0, mode: 0, nlink: 0, uid: 0, gid: 0, rdev: 0, size: 0, blksize: 4096, blocks: 0, atimeMs: 0, mtimeMs: 0, ctimeMs: 0 };

export class Differ {
  constructor(
    private readonly c: Cmd,
    private readonly o: DiffOptions,
  ) {}

  /** compare_files: `name0`/`name1` are relative to the parents' names when inside a directory walk. */
  compare(parent: [string, string] | null, name0: string | null, name1: string | null): number {
    const o = this.o;
    if (!((name0 !== null && name1 !== null) || (o.unidirectionalNewFile && name1 !== null) || o.newFile)) {
      const p = parent as [string, string];
      this.message(`Only in ${name0 !== null ? p[0] : p[1]}: ${name0 ?? name1}\n`);
      return 1;
    }
    const n0 = name0 ?? (name1 as string);
    const n1 = name1 ?? n0;
    const full: [string, string] = parent ? [joinPath(parent[0], n0), joinPath(parent[1], n1)] : [n0, n1];
    const sides: Side[] = [0, 1].map((f) => {
      const exists = f === 0 ? name0 !== null : name1 !== null;
      return exists ? this.look(full[f]) : { name: full[f], kind: 'absent', errno: 0, st: EMPTY_STAT };
    });
    // -N: a top-level operand that does not exist reads as empty when the other one does.
    for (const f of [0, 1]) {
      const s = sides[f];
      const other = sides[1 - f];
      if ((o.newFile || (f === 0 && o.unidirectionalNewFile)) && s.kind === 'error' && s.errno === Errno.ENOENT && !parent && (other.kind === 'file' || other.kind === 'stdin')) {
        s.kind = 'absent';
      }
    }
    for (const f of [0, 1]) if (sides[f].kind === 'absent') sides[f].st = { ...EMPTY_STAT, mode: sides[1 - f].st.mode };
    let status = 0;
    for (const s of sides) {
      if (s.kind === 'error') {
        this.c.sysError(s.name, new this.c.os.SysError(s.errno), 2);
        status = 2;
      }
    }
    const dir = (f: number) => isDir(sides[f].st.mode);
    if (status === 0 && !parent && dir(0) !== dir(1)) {
      // A directory and a file on the command line: the file of that name in the directory.
      const d = dir(0) ? 0 : 1;
      const fnm = sides[1 - d].name;
      if (fnm === '-') this.c.fail('cannot compare \'-\' to a directory');
      const path = joinPath(sides[d].name, baseName(fnm));
      const s = this.look(path);
      sides[d] = s;
      if (s.kind === 'error') {
        this.c.sysError(path, new this.c.os.SysError(s.errno), 2);
        status = 2;
      }
    }
    if (status !== 0) return status;
    if (sides[0].kind === 'absent' && sides[1].kind === 'absent') return 0;
    // The same file twice (or standard input twice) has no differences.
    const same =
      (sides[0].kind === 'stdin' && sides[1].kind === 'stdin') ||
      (sides[0].kind === 'file' && sides[1].kind === 'file' && sides[0].st.ino === sides[1].st.ino && sides[0].st.dev === sides[1].st.dev);
    if (same) {
      status = 0;
    } else if (dir(0) && dir(1)) {
      if (parent && !o.recursive) this.message(`Common subdirectories: ${sides[0].name} and ${sides[1].name}\n`);
      else status = this.dirs(sides);
    } else if (dir(0) || dir(1) || (parent && !(regOrLink(sides[0].st) && regOrLink(sides[1].st)))) {
      if (sides[0].kind === 'absent' || sides[1].kind === 'absent') {
        if ((dir(0) || dir(1)) && o.recursive && (o.newFile || (o.unidirectionalNewFile && sides[0].kind === 'absent'))) {
          status = this.dirs(sides);
        } else {
          const p = parent as [string, string];
          this.message(`Only in ${p[sides[0].kind === 'absent' ? 1 : 0]}: ${n0}\n`);
          status = 1;
        }
      } else {
        const [l0, l1] = [o.labels[0] ?? sides[0].name, o.labels[1] ?? sides[1].name];
        this.message(`File ${l0} is a ${fileTypeName(sides[0].st.mode, sides[0].st.size)} while file ${l1} is a ${fileTypeName(sides[1].st.mode, sides[1].st.size)}\n`);
        status = 1;
      }
    } else {
      status = this.files(sides, parent !== null);
    }
    if (status === 0 && o.reportIdentical && !dir(0)) {
      this.message(`Files ${o.labels[0] ?? sides[0].name} and ${o.labels[1] ?? sides[1].name} are identical\n`);
    }
    return status;
  }

  private look(name: string): Side {
    const sys = this.c.sys;
    try {
      if (name === '-') {
        const st = sys.fstat(0);
        return { name, kind: 'stdin', errno: 0, st: { ...st, mtimeMs: Date.now() } };
      }
      const st = this.o.noDereference ? sys.lstat(name) : sys.stat(name);
      return { name, kind: 'file', errno: 0, st };
    } catch (e) {
      return { name, kind: 'error', errno: errnoOf(e) || Errno.EIO, st: EMPTY_STAT };
    }
  }

  private message(s: string): void {
    this.c.out.write(s);
  }

  /** diff_dirs: both listings sorted, merged name by name. */
  private dirs(sides: Side[]): number {
    const lists = sides.map((s) => (s.kind === 'absent' ? [] : this.list(s.name)));
    if (lists.some((l) => l === null)) return 2;
    const [a, b] = lists as string[][];
    const names: [string | null, string | null][] = [];
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      const cmp = i >= a.length ? 1 : j >= b.length ? -1 : a[i] < b[j] ? -1 : a[i] > b[j] ? 1 : 0;
      if (cmp === 0) names.push([a[i++], b[j++]]);
      else if (cmp < 0) names.push([a[i++], null]);
      else names.push([null, b[j++]]);
    }
    let status = 0;
    const parent: [string, string] = [sides[0].name, sides[1].name];
    for (const [n0, n1] of names) {
      if (this.o.startingFile !== undefined && (n0 ?? n1 ?? '') < this.o.startingFile) continue;
      status = Math.max(status, this.compare(parent, n0, n1));
    }
    return status;
  }

  private list(dir: string): string[] | null {
    try {
      const names = this.c.sys.readdir(dir).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
      return names.filter((n) => !this.o.exclude.some((p) => fnmatch(p, n))).sort(byteOrder);
    } catch (e) {
      this.c.sysError(dir, e, 2);
      return null;
    }
  }

  /** Two regular files (or stdin, or -N's absent file): binary check, compare, print. */
  private files(sides: Side[], inDir: boolean): number {
    const data: Uint8Array[] = [];
    for (const s of sides) {
      if (s.kind === 'absent') {
        data.push(new Uint8Array(0));
        continue;
      }
      const bytes = this.read(s);
      if (!bytes) return 2;
      data.push(bytes);
    }
    const o = this.o;
    const names = [o.labels[0] ?? sides[0].name, o.labels[1] ?? sides[1].name];
    const binary = !o.text && data.some((d) => d.subarray(0, BINARY_PROBE).includes(0));
    if (binary) {
      if (equalBytes(data[0], data[1])) return 0;
      this.message(`${o.brief ? 'Files' : 'Binary files'} ${names[0]} and ${names[1]} differ\n`);
      return 1;
    }
    const texts = data.map((d) => this.prepare(d)) as [Text, Text];
    const script = compareTexts(texts[0], texts[1], o);
    let begun = false;
    const begin = () => {
      if (begun) return;
      begun = true;
      if (inDir) this.message(`diff${o.switches} ${cQuote(names[0])} ${cQuote(names[1])}\n`);
      if (o.format === 'unified' || o.format === 'context') {
        const marks = o.format === 'unified' ? ['---', '+++'] : ['***', '---'];
        for (const f of [0, 1]) {
          const label = o.labels[f];
          const time = o.format === 'unified' || this.hardLocale() ? isoTime(sides[f].st.mtimeMs) : posixTime(sides[f].st.mtimeMs);
          this.message(label !== undefined ? `${marks[f]} ${label}\n` : `${marks[f]} ${cQuote(sides[f].name)}\t${time}\n`);
        }
      }
    };
    const printer = new Printer(this.c.out, texts, o, begin);
    const changed = printer.anyChange(script);
    if (o.brief) {
      if (changed) this.message(`Files ${names[0]} and ${names[1]} differ\n`);
    } else if (changed) {
      if (o.format === 'unified') printer.unified(script);
      else if (o.format === 'context') printer.context(script);
      else if (o.format === 'ed') printer.ed(script);
      else if (o.format === 'rcs') printer.rcs(script);
      else printer.normal(script);
    }
    let status = changed ? 1 : 0;
    if (o.format === 'ed') {
      for (const f of [0, 1]) {
        if (data[f].length && data[f][data[f].length - 1] !== 10) {
          this.c.warn(`${names[f]}: No newline at end of file\n`);
          status = 2;
        }
      }
    }
    return status;
  }

  /** Context headers use POSIX's date format in the C locale, ISO's elsewhere (GNU: hard_locale). */
  private hardLocale(): boolean {
    const env = this.c.os.env;
    const loc = env.LC_ALL || env.LC_TIME || env.LANG || 'C';
    return loc !== 'C' && loc !== 'POSIX';
  }

  private read(s: Side): Uint8Array | null {
    const sys = this.c.sys;
    let fd = 0;
    try {
      if (s.kind !== 'stdin') fd = sys.open(s.name, O_RDONLY);
      return sys.readAll(fd);
    } catch (e) {
      this.c.sysError(s.name, e, 2);
      return null;
    } finally {
      if (fd !== 0) sys.close(fd);
    }
  }

  /** --strip-trailing-cr, and ed's silent completion of a last line. */
  private prepare(d: Uint8Array): Text {
    let b = d;
    if (this.o.stripTrailingCr && b.includes(13)) {
      const out: number[] = [];
      for (let i = 0; i < b.length; i++) if (!(b[i] === 13 && (b[i + 1] === 10 || i + 1 === b.length))) out.push(b[i]);
      b = Uint8Array.from(out);
    }
    if (this.o.format === 'ed' && b.length && b[b.length - 1] !== 10) {
      const c = new Uint8Array(b.length + 1);
      c.set(b);
      c[b.length] = 10;
      b = c;
    }
    return splitLines(b);
  }
}

const regOrLink = (st: Stat): boolean => isReg(st.mode) || isLnk(st.mode);

const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** "%Y-%m-%d %H:%M:%S.%N %z" in UTC. */
function isoTime(ms: number): string {
  const d = new Date(Math.floor(ms));
  const iso = d.toISOString();
  const frac = String(Math.round((((ms % 1000) + 1000) % 1000) * 1e6)).padStart(9, '0');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${frac} +0000`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "%a %b %e %T %Y" in UTC. */
function posixTime(ms: number): string {
  const d = new Date(Math.floor(ms));
  const day = String(d.getUTCDate()).padStart(2);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${day} ${d.toISOString().slice(11, 19)} ${d.getUTCFullYear()}`;
}

/** GNU's c-maybe quoting of names in headers: double quotes and C escapes when needed. */
export function cQuote(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\s"\\\x00-\x1f\x7f]/.test(s)) return s;
  const esc: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\f': '\\f', '\v': '\\v', '\b': '\\b', '\x07': '\\a' };
  // eslint-disable-next-line no-control-regex
  return `"${s.replace(/["\\\x00-\x1f\x7f]/g, (ch) => esc[ch] ?? `\\${ch.charCodeAt(0).toString(8).padStart(3, '0')}`)}"`;
}

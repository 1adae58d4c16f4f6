// grep [OPTION]... PATTERNS [FILE]...   (also egrep = grep -E, fgrep = grep -F)
// Print lines that match patterns. GNU grep is the specification.

import { Errno, strerror, SysError } from '../../../abi/errno.js';
import { isDir, isLnk } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { fileExcluded, suffixes, type FileFilter } from './file-filter.js';
import { fnmatch } from '../../../userland/lib/glob.js';
import { bytesToStr, LineReader, Output, utf8Bytes } from './io.js';
import { compile, type Matcher } from '../../../userland/lib/regex/match.js';
import { parseArgs, UsageError, type OptSpec } from '../../../userland/lib/args.js';
import { RegexError, type Syntax } from '../../../userland/lib/regex/regex.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { hasEncodingError } from '../../../userland/lib/utf8.js';

const USAGE = `Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE.
Example: grep -i 'hello world' menu.h main.c
PATTERNS can contain multiple patterns separated by newlines.

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions
  -P, --perl-regexp         PATTERNS are Perl regular expressions
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
      --no-ignore-case      do not ignore case distinctions (default)
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines
  -z, --null-data           a data line ends in 0 byte, not newline

Miscellaneous:
  -s, --no-messages         suppress error messages
  -v, --invert-match        select non-matching lines
  -V, --version             display version information and exit
      --help                display this help text and exit

Output control:
  -m, --max-count=NUM       stop after NUM selected lines
  -b, --byte-offset         print the byte offset with output lines
  -n, --line-number         print line number with output lines
      --line-buffered       flush output on every line
  -H, --with-filename       print file name with output lines
  -h, --no-filename         suppress the file name prefix on output
      --label=LABEL         use LABEL as the standard input file name prefix
  -o, --only-matching       show only nonempty parts of lines that match
  -q, --quiet, --silent     suppress all normal output
      --binary-files=TYPE   assume that binary files are TYPE;
                            TYPE is 'binary', 'text', or 'without-match'
  -a, --text                equivalent to --binary-files=text
  -I                        equivalent to --binary-files=without-match
  -d, --directories=ACTION  how to handle directories;
                            ACTION is 'read', 'recurse', or 'skip'
  -r, --recursive           like --directories=recurse
  -R, --dereference-recursive  likewise, but follow all symlinks
      --include=GLOB        search only files that match GLOB (a file pattern)
      --exclude=GLOB        skip files that match GLOB
      --exclude-dir=GLOB    skip directories that match GLOB
  -L, --files-without-match  print only names of FILEs with no selected lines
  -l, --files-with-matches  print only names of FILEs with selected lines
  -c, --count               print only a count of selected lines per FILE
  -Z, --null                print 0 byte after FILE name

Context control:
  -B, --before-context=NUM  print NUM lines of leading context
  -A, --after-context=NUM   print NUM lines of trailing context
  -C, --context=NUM         print NUM lines of output context
  -NUM                      same as --context=NUM
      --group-separator=SEP  print SEP on line between matches with context
      --no-group-separator  do not print separator for matches with context
      --color[=WHEN],
      --colour[=WHEN]       use markers to highlight the matching strings;
                            WHEN is 'always', 'never', or 'auto'

When FILE is '-', read standard input.  With no FILE, read '.' if
recursive, '-' otherwise.  With fewer than two FILEs, assume -h.
Exit status is 0 if any line is selected, 1 otherwise;
if any error occurs and -q is not given, the exit status is 2.
`;

const TRY = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";

const OPTIONS: OptSpec = {
  short: 'EPFGe:f:iywxzsvVm:bnHhoqaIUd:rRLlC:cZB:A:',
  long: {
    'extended-regexp': ['E', 'none'],
    'perl-regexp': ['P', 'none'],
    'fixed-strings': ['F', 'none'],
    'basic-regexp': ['G', 'none'],
    'regexp': ['e', 'required'],
    'file': ['f', 'required'],
    'ignore-case': ['i', 'none'],
    'no-ignore-case': ['no-i', 'none'],
    'word-regexp': ['w', 'none'],
    'line-regexp': ['x', 'none'],
    'null-data': ['z', 'none'],
    'no-messages': ['s', 'none'],
    'invert-match': ['v', 'none'],
    'version': ['V', 'none'],
    'help': ['help', 'none'],
    'max-count': ['m', 'required'],
    'byte-offset': ['b', 'none'],
    'line-number': ['n', 'none'],
    'line-buffered': ['line-buffered', 'none'],
    'with-filename': ['H', 'none'],
    'no-filename': ['h', 'none'],
    'label': ['label', 'required'],
    'only-matching': ['o', 'none'],
    'quiet': ['q', 'none'],
    'silent': ['q', 'none'],
    'binary-files': ['binary-files', 'required'],
    'text': ['a', 'none'],
    'binary': ['U', 'none'],
    'directories': ['d', 'required'],
    'recursive': ['r', 'none'],
    'dereference-recursive': ['R', 'none'],
    'include': ['include', 'required'],
    'exclude': ['exclude', 'required'],
    'exclude-dir': ['exclude-dir', 'required'],
    'files-without-match': ['L', 'none'],
    'files-with-matches': ['l', 'none'],
    'context': ['C', 'required'],
    'color': ['color', 'optional'],
    'colour': ['color', 'optional'],
    'count': ['c', 'none'],
    'null': ['Z', 'none'],
    'before-context': ['B', 'required'],
    'after-context': ['A', 'required'],
    'group-separator': ['group-separator', 'required'],
    'no-group-separator': ['no-group-separator', 'none'],
  },
  digits: 'context-num',
};

/** GREP_COLORS capabilities grep uses (GNU defaults). */
interface Colors {
  ms: string;
  mc: string;
  fn: string;
  ln: string;
  bn: string;
  se: string;
  /** `ne`: no erase-to-end-of-line after each coloured part. */
  ne: boolean;
}

interface Config {
  syntax: Syntax | 'fixed' | 'perl';
  ignoreCase: boolean;
  word: boolean;
  line: boolean;
  invert: boolean;
  count: boolean;
  list: '' | 'matching' | 'nonmatching';
  only: boolean;
  quiet: boolean;
  noMessages: boolean;
  lineNumbers: boolean;
  byteOffset: boolean;
  /** true, false, or 'dirs': only for files found by recursing into an operand. */
  withName: boolean | 'dirs';
  maxCount: number;
  after: number;
  before: number;
  eol: string;
  nullAfterName: boolean;
  label: string;
  binaryFiles: 'binary' | 'text' | 'without-match';
  directories: 'read' | 'skip' | 'recurse';
  deref: boolean;
  filters: FileFilter[];
  excludeDirs: string[];
  groupSeparator: string | null;
  color: Colors | null;
  lineBuffered: boolean;
  /** A UTF-8 locale: match by character; a line with an encoding error makes the file binary when printed. */
  utf8: boolean;
}

/** Thrown to stop everything quietly (a -q match, or stdout gone). */
class Stop extends Error {
  constructor(readonly status: number) {
    super('stop');
  }
}

export default function main(os: AgentosApi): void {
  let status: number;
  try {
    status = run(os);
  } catch (e) {
    if (e instanceof Stop) status = e.status;
    else if (e instanceof SysError && e.errno === Errno.EPIPE) status = 2;
    else throw e;
  }
  os.exit(status);
}

function run(os: AgentosApi): number {
  const invoked = os.argv[0] ?? 'grep';
  const prog = invoked.slice(invoked.lastIndexOf('/') + 1);
  let cfg: Config;
  let patterns: string[];
  let operands: string[];
  try {
    ({ cfg, patterns, operands } = configure(os, prog));
  } catch (e) {
    if (e instanceof UsageError) {
      os.eprint(e.message ? `grep: ${e.message}\n${TRY}` : TRY);
      return 2;
    }
    if (e instanceof UsageErrorNoTry) os.eprint(`grep: ${e.text}\n`);
    if (e instanceof Stop) return e.status;
    throw e;
  }
  let matcher: Matcher;
  try {
    const c = compile(patterns, cfg);
    for (const w of c.warnings) os.eprint(`grep: warning: ${w}\n`);
    matcher = c.matcher;
  } catch (e) {
    if (!(e instanceof RegexError)) throw e;
    os.eprint(`grep: ${e.message}\n`);
    return 2;
  }
  if (cfg.maxCount === 0) return 1;
  const g = new Grep(os, cfg, matcher);
  try {
    if (operands.length === 0) {
      if (cfg.directories === 'recurse') g.walk('.', '', true);
      else g.searchOperand('-');
    } else for (const f of operands) g.searchOperand(f);
  } finally {
    g.out.flush();
  }
  if (g.error && !(cfg.quiet && g.matched)) return 2;
  return g.matched ? 0 : 1;
}

/** Options → configuration; also reads -f files. */
function configure(os: AgentosApi, prog: string): { cfg: Config; patterns: string[]; operands: string[] } {
  const parsed = parseArgs(os.argv.slice(1), OPTIONS);
  const cfg: Config = {
    syntax: prog === 'egrep' ? 'ere' : prog === 'fgrep' ? 'fixed' : 'bre',
    ignoreCase: false,
    word: false,
    line: false,
    invert: false,
    count: false,
    list: '',
    only: false,
    quiet: false,
    noMessages: false,
    lineNumbers: false,
    byteOffset: false,
    withName: false,
    maxCount: -1,
    after: -1,
    before: -1,
    eol: '\n',
    nullAfterName: false,
    label: '(standard input)',
    binaryFiles: 'binary',
    directories: 'read',
    deref: false,
    filters: [],
    excludeDirs: [],
    groupSeparator: '--',
    color: null,
    lineBuffered: false,
    utf8: isUtf8Locale(os.env),
  };
  let patterns: string[] | null = null;
  const addPatterns = (text: string) => (patterns ??= []).push(...text.split('\n'));
  let context = -1;
  let names: boolean | null = null;
  let color = 'never';
  let matcherSet = prog === 'egrep' || prog === 'fgrep';
  for (const [k, arg] of parsed.list) {
    const v = arg ?? '';
    switch (k) {
      case 'E':
      case 'F':
      case 'G':
      case 'P': {
        const want = k === 'E' ? 'ere' : k === 'F' ? 'fixed' : k === 'P' ? 'perl' : 'bre';
        if (matcherSet && cfg.syntax !== want) throw new UsageErrorNoTry('conflicting matchers specified');
        cfg.syntax = want;
        matcherSet = true;
        break;
      }
      case 'e': addPatterns(utf8Bytes(v)); break;
      case 'f': {
        // Each line is a pattern; an empty file gives none (matches nothing), "\n" one empty one.
        const text = readPatternFile(os, v);
        if (text === '') patterns ??= [];
        else addPatterns(text.endsWith('\n') ? text.slice(0, -1) : text);
        break;
      }
      case 'i':
      case 'y': cfg.ignoreCase = true; break;
      case 'no-i': cfg.ignoreCase = false; break;
      case 'w': cfg.word = true; break;
      case 'x': cfg.line = true; break;
      case 'z': cfg.eol = '\0'; break;
      case 's': cfg.noMessages = true; break;
      case 'v': cfg.invert = true; break;
      case 'V':
        os.print('grep (agentOS grep) 0.1.0\n');
        throw new Stop(0);
      case 'help':
        os.print(USAGE);
        throw new Stop(0);
      case 'm': {
        if (!/^\s*[-+]?\d+$/.test(v)) throw new UsageErrorNoTry('invalid max count');
        const n = Number(v);
        cfg.maxCount = n < 0 ? -1 : n;
        break;
      }
      case 'b': cfg.byteOffset = true; break;
      case 'n': cfg.lineNumbers = true; break;
      case 'line-buffered': cfg.lineBuffered = true; break;
      case 'H': names = true; break;
      case 'h': names = false; break;
      case 'label': cfg.label = v; break;
      case 'o': cfg.only = true; break;
      case 'q': cfg.quiet = true; break;
      case 'binary-files':
        if (v !== 'binary' && v !== 'text' && v !== 'without-match') throw new UsageErrorNoTry('unknown binary-files type');
        cfg.binaryFiles = v;
        break;
      case 'a': cfg.binaryFiles = 'text'; break;
      case 'I': cfg.binaryFiles = 'without-match'; break;
      case 'U': break; // no CR/LF distinction here
      case 'd':
        if (v !== 'read' && v !== 'skip' && v !== 'recurse') throw new UsageError(`invalid argument '${v}' for '--directories'`);
        cfg.directories = v;
        break;
      case 'r': cfg.directories = 'recurse'; cfg.deref = false; break;
      case 'R': cfg.directories = 'recurse'; cfg.deref = true; break;
      case 'include': cfg.filters.push({ kind: 'include', glob: v }); break;
      case 'exclude': cfg.filters.push({ kind: 'exclude', glob: v }); break;
      case 'exclude-dir': cfg.excludeDirs.push(v); break;
      case 'L': cfg.list = 'nonmatching'; break;
      case 'l': cfg.list = 'matching'; break;
      case 'c': cfg.count = true; break;
      case 'Z': cfg.nullAfterName = true; break;
      case 'A': cfg.after = contextArg(v); break;
      case 'B': cfg.before = contextArg(v); break;
      case 'C': context = contextArg(v); break;
      case 'context-num': context = contextArg(v); break;
      case 'group-separator': cfg.groupSeparator = utf8Bytes(v); break;
      case 'no-group-separator': cfg.groupSeparator = null; break;
      case 'color':
        if (v === '' || ['always', 'yes', 'force'].includes(v)) color = v === '' ? 'auto' : 'always';
        else if (['never', 'no', 'none'].includes(v)) color = 'never';
        else if (['auto', 'tty', 'if-tty'].includes(v)) color = 'auto';
        else throw new UsageError(`invalid argument '${v}' for '--color'`);
        break;
    }
  }
  if (cfg.list) cfg.count = false; // -l / -L win over -c
  if (cfg.after < 0) cfg.after = Math.max(context, 0);
  if (cfg.before < 0) cfg.before = Math.max(context, 0);
  const operands = parsed.operands;
  if (patterns === null) {
    if (operands.length === 0) throw new UsageError('');
    addPatterns(utf8Bytes(operands.shift()!));
  }
  cfg.withName = names ?? (operands.length > 1 ? true : cfg.directories === 'recurse' ? 'dirs' : false);
  if (color === 'auto') color = os.sys.isatty(1) && os.env.TERM && os.env.TERM !== 'dumb' ? 'always' : 'never';
  if (color === 'always') cfg.color = parseColors(os.env.GREP_COLORS ?? '');
  return { cfg, patterns: patterns ?? [], operands };
}

/** GNU prints some option errors without the usage lines. */
class UsageErrorNoTry extends Stop {
  constructor(readonly text: string) {
    super(2);
  }
}

function contextArg(v: string): number {
  if (!/^\d+$/.test(v)) throw new UsageErrorNoTry(`${v}: invalid context length argument`);
  return Number(v);
}

function readPatternFile(os: AgentosApi, path: string): string {
  try {
    return bytesToStr(path === '-' ? os.sys.readAll(0) : os.sys.readFile(path));
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    throw new UsageErrorNoTry(`${path}: ${strerror(e.errno)}`);
  }
}

function parseColors(spec: string): Colors {
  const c: Colors = { ms: '01;31', mc: '01;31', fn: '35', ln: '32', bn: '32', se: '36', ne: false };
  for (const item of spec.split(':')) {
    const [k, v = ''] = item.split('=');
    if (k === 'mt') c.ms = c.mc = v;
    else if (k === 'ms' || k === 'mc' || k === 'fn' || k === 'ln' || k === 'bn' || k === 'se') c[k] = v;
    else if (k === 'ne') c.ne = true;
  }
  return c;
}

/** The search itself: files, directories, lines, output. */
class Grep {
  readonly out: Output;
  matched = false;
  error = false;
  /** Something has been printed in context mode: the next group needs a separator. */
  private printedGroup = false;
  private readonly context: boolean;

  constructor(
    private readonly os: AgentosApi,
    private readonly cfg: Config,
    private readonly matcher: Matcher,
  ) {
    this.out = new Output(os.sys, cfg.lineBuffered);
    this.context = cfg.after > 0 || cfg.before > 0;
  }

  private complain(name: string, e: unknown): void {
    if (!(e instanceof SysError)) throw e;
    if (e.errno === Errno.EPIPE) throw e;
    this.error = true;
    if (!this.cfg.noMessages) this.os.eprint(`grep: ${name}: ${strerror(e.errno)}\n`);
  }

  /** A command-line operand. */
  searchOperand(path: string): void {
    if (path === '-') {
      this.searchFd(0, utf8Bytes(this.cfg.label), this.cfg.withName === true);
      return;
    }
    const recurse = this.cfg.directories === 'recurse';
    let st;
    try {
      st = this.os.sys.stat(path);
    } catch (e) {
      this.complain(path, e);
      return;
    }
    if (isDir(st.mode)) {
      if (recurse) {
        if (this.cfg.excludeDirs.length && suffixes(path).some((n) => this.cfg.excludeDirs.some((g) => fnmatch(g, n)))) return;
        this.walk(path, path, false);
      } else if (this.cfg.directories === 'read') {
        this.complain(path, new SysError(Errno.EISDIR));
      }
      return;
    }
    if (fileExcluded(suffixes(path), this.cfg.filters)) return;
    this.searchPath(path, path, this.cfg.withName === true);
  }

  /** Recurse into a directory; `display` is the name prefix shown ('' for the implicit '.'). */
  walk(path: string, display: string, implicit: boolean): void {
    let entries;
    try {
      entries = this.os.sys.readdir(path);
    } catch (e) {
      this.complain(display || path, e);
      return;
    }
    for (const ent of entries) {
      if (ent.name === '.' || ent.name === '..') continue;
      const child = path.endsWith('/') ? path + ent.name : `${path}/${ent.name}`;
      const shown = implicit ? ent.name : display.endsWith('/') ? display + ent.name : `${display}/${ent.name}`;
      let st;
      try {
        st = this.cfg.deref ? this.os.sys.stat(child) : this.os.sys.lstat(child);
      } catch (e) {
        this.complain(shown, e);
        continue;
      }
      if (isLnk(st.mode)) continue; // -r follows only command-line symlinks
      if (isDir(st.mode)) {
        if (this.cfg.excludeDirs.some((g) => fnmatch(g, ent.name))) continue;
        this.walk(child, shown, false);
        continue;
      }
      if (fileExcluded([ent.name], this.cfg.filters)) continue;
      this.searchPath(child, shown, this.cfg.withName !== false);
    }
  }

  private searchPath(path: string, shown: string, withName: boolean): void {
    let fd: number;
    try {
      fd = this.os.sys.open(path);
    } catch (e) {
      this.complain(shown, e);
      return;
    }
    try {
      this.searchFd(fd, utf8Bytes(shown), withName);
    } catch (e) {
      this.complain(shown, e);
    } finally {
      this.os.sys.close(fd);
    }
  }

  private paint(cap: string | undefined, text: string): string {
    const c = this.cfg.color;
    if (!c || !cap) return text;
    return c.ne ? `\x1b[${cap}m${text}\x1b[m` : `\x1b[${cap}m\x1b[K${text}\x1b[m\x1b[K`;
  }

  private prefix(name: string, withName: boolean, sep: string, lineno: number, offset: number): string {
    const c = this.cfg.color;
    let s = '';
    if (withName) s += this.paint(c?.fn, name) + (this.cfg.nullAfterName ? '\0' : this.paint(c?.se, sep));
    if (this.cfg.lineNumbers) s += this.paint(c?.ln, String(lineno)) + this.paint(c?.se, sep);
    if (this.cfg.byteOffset) s += this.paint(c?.bn, String(offset)) + this.paint(c?.se, sep);
    return s;
  }

  /** The line with its matches coloured (cap: ms for selected lines, mc for context). */
  private highlight(line: string, cap: string): string {
    let s = '';
    let at = 0;
    for (const [a, b] of this.matcher.matches(line)) {
      s += line.slice(at, a) + this.paint(cap, line.slice(a, b));
      at = b;
    }
    return s + line.slice(at);
  }

  /** Does this record select? In a binary file a NUL also ends a line (as GNU treats it). */
  private countSelected(line: string, binary: boolean): number {
    if (binary && line.includes('\0')) {
      let n = 0;
      for (const piece of line.split('\0')) if (this.matcher.test(piece) !== this.cfg.invert) n++;
      return n;
    }
    return this.matcher.test(line) !== this.cfg.invert ? 1 : 0;
  }

  /** Search one open file; `name` is a byte string. */
  searchFd(fd: number, name: string, withName: boolean): void {
    const cfg = this.cfg;
    const out = this.out;
    const c = cfg.color;
    const printLines = !cfg.quiet && !cfg.count && !cfg.list;
    // Skipping lines that cannot match is safe when only selected lines matter and a
    // skipped binary chunk cannot change the outcome (without-match stops at the first line seen).
    const skim = !printLines && !cfg.invert && cfg.binaryFiles !== 'without-match' && cfg.eol === '\n' ? this.matcher.needle : null;
    const reader = new LineReader(this.os.sys, fd, cfg.eol, skim);
    let count = 0;
    let lineno = 0;
    let offset = 0;
    let lastOut = 0;
    let afterLeft = 0;
    let done = false; // -m reached: only trailing context remains
    const ring: [number, number, string][] = [];

    const binaryMatches = () => {
      out.flush();
      this.os.eprint(`grep: ${new TextDecoder().decode(Uint8Array.from(name, (ch) => ch.charCodeAt(0)))}: binary file matches\n`);
    };
    // UTF-8: a line (or an -o match) with an encoding error is not printed, and the
    // file is reported as binary at its end, as GNU does.
    const checkEncoding = cfg.utf8 && cfg.binaryFiles !== 'text';
    let encodingErrors = false;
    const suppressed = (text: string) => checkEncoding && hasEncodingError(text) && (encodingErrors = true);
    const emit = (no: number, off: number, line: string, selected: boolean) => {
      if (!cfg.only && suppressed(line)) return;
      if (this.context && this.printedGroup && no > lastOut + 1 && cfg.groupSeparator !== null) {
        out.write(this.paint(c?.se, cfg.groupSeparator));
        out.endLine('\n');
      }
      this.printedGroup = true;
      lastOut = no;
      const matchLine = selected !== cfg.invert; // the line matches the patterns
      if (cfg.only) {
        if (!selected || cfg.invert) return;
        for (const [a, b] of this.matcher.matches(line)) {
          if (suppressed(line.slice(a, b))) return;
          out.write(this.prefix(name, withName, ':', no, off + a) + this.paint(c?.ms, line.slice(a, b)));
          out.endLine(cfg.eol);
        }
        return;
      }
      const body = c && matchLine ? this.highlight(line, selected ? c.ms : c.mc) : line;
      out.write(this.prefix(name, withName, selected ? ':' : '-', no, off) + body);
      out.endLine(cfg.eol);
    };

    for (let line = reader.read(); line !== null; line = reader.read()) {
      lineno++;
      const off = offset;
      offset += line.length + 1;
      const binary = reader.binary && cfg.binaryFiles !== 'text';
      if (binary && cfg.binaryFiles === 'without-match') {
        // As GNU: a binary file counts as matching nothing (-c prints 0, -L names it).
        count = 0;
        break;
      }
      if (done) {
        if (afterLeft === 0) break;
        afterLeft--;
        emit(lineno, off, line, false);
        continue;
      }
      const n = this.countSelected(line, binary);
      if (n === 0) {
        if (!printLines) continue;
        if (afterLeft > 0) {
          afterLeft--;
          emit(lineno, off, line, false);
        } else if (cfg.before > 0) {
          ring.push([lineno, off, line]);
          if (ring.length > cfg.before) ring.shift();
        }
        continue;
      }
      count += n;
      this.matched = true;
      if (cfg.quiet) throw new Stop(0);
      if (cfg.list) break;
      if (binary && !cfg.count) return binaryMatches();
      if (printLines) {
        for (const [no, o, l] of ring) emit(no, o, l, false);
        ring.length = 0;
        emit(lineno, off, line, true);
        afterLeft = cfg.after;
      }
      if (cfg.maxCount > 0 && count >= cfg.maxCount) {
        count = cfg.maxCount;
        done = true;
        if (!printLines || afterLeft === 0) break;
      }
    }
    if (cfg.count) {
      if (withName) out.write(this.paint(c?.fn, name) + (cfg.nullAfterName ? '\0' : this.paint(c?.se, ':')));
      out.write(String(count));
      out.endLine('\n');
    }
    if ((cfg.list === 'matching' && count > 0) || (cfg.list === 'nonmatching' && count === 0)) {
      out.write(this.paint(c?.fn, name));
      out.endLine(cfg.nullAfterName ? '\0' : '\n');
    }
    if (encodingErrors) binaryMatches();
  }
}

// pr [OPTION]... [FILE]...: paginate files for printing (coreutils 9.1):
// 66-line pages with a five-line header (date, name, page) and trailer,
// columns down (-COLUMN) or across (-a), files side by side (-m), line
// numbers (-n), double spacing (-d), margins (-o). Padding between columns
// is written with tabs where tab stops allow, as GNU pr does.

import { command, quote, tryStat, type Cmd } from '../../../userland/lib/index.js';
import { strftime } from '../../../userland/lib/strftime.js';
import { put, readInputs } from './text.js';

const USAGE = `Usage: pr [OPTION]... [FILE]...
Paginate or columnate FILE(s) for printing.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  +FIRST_PAGE[:LAST_PAGE], --pages=FIRST_PAGE[:LAST_PAGE]
                    begin [stop] printing with page FIRST_[LAST_]PAGE
  -COLUMN, --columns=COLUMN
                    output COLUMN columns and print columns down,
                    unless -a is used. Balance number of lines in the
                    columns on each page
  -a, --across      print columns across rather than down, used together
                    with -COLUMN
  -d, --double-space
                    double space the output
  -D, --date-format=FORMAT
                    use FORMAT for the header date
  -h, --header=HEADER
                    use a centered HEADER instead of filename in page header,
  -J, --join-lines  merge full lines, turns off -W line truncation
  -l, --length=PAGE_LENGTH
                    set the page length to PAGE_LENGTH (66) lines
  -m, --merge       print all files in parallel, one in each column
  -n[SEP[DIGITS]], --number-lines[=SEP[DIGITS]]
                    number lines, use DIGITS (5) digits, then SEP (TAB)
  -N, --first-line-number=NUMBER
                    start counting with NUMBER at 1st line of first page printed
  -o, --indent=MARGIN
                    offset each line with MARGIN (zero) spaces
  -s[CHAR], --separator[=CHAR]
                    separate columns by a single character, default for CHAR
                    is the <TAB> character without -w and 'no char' with -w
  -t, --omit-header  omit page headers and trailers
  -T, --omit-pagination
                    omit page headers and trailers, eliminate any pagination
  -w, --width=PAGE_WIDTH
                    set page width to PAGE_WIDTH (72) characters for
                    multiple text-column output only
      --help     display this help and exit
      --version  output version information and exit
`;

interface Opts {
  cols: number;
  across: boolean;
  merge: boolean;
  double: boolean;
  length: number;
  width: number;
  header: string | null;
  dateFmt: string;
  omit: boolean;
  number: { sep: string; digits: number } | null;
  firstNumber: number;
  offset: number;
  sep: string | null;
  join: boolean;
  first: number;
  last: number;
}

/** Display width of `s` starting at column 0 (tabs to 8-column stops). */
function width(s: string): number {
  let w = 0;
  for (const ch of s) w = ch === '\t' ? (Math.floor(w / 8) + 1) * 8 : w + 1;
  return w;
}

function truncate(s: string, max: number): string {
  let w = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const nw = s[i] === '\t' ? (Math.floor(w / 8) + 1) * 8 : w + 1;
    if (nw > max) break;
    w = nw;
  }
  return s.slice(0, i);
}

function headerLine(o: Opts, date: string, name: string, page: number): string {
  const right = `Page ${page}`;
  const space = Math.max(1, o.width - date.length - name.length - right.length);
  const l = Math.floor(space / 2);
  return `${date}${' '.repeat(l)}${name}${' '.repeat(space - l)}${right}`;
}

export const pr = command(
  {
    name: 'pr',
    usage: USAGE,
    short: 'adD:fFh:i::Jl:mn::N:o:rs::S::tTvw:W:e::c',
    numericOperands: true,
    long: {
      pages: ['pages', 'required'], columns: ['columns', 'required'], across: ['a', 'none'], 'double-space': ['d', 'none'],
      'date-format': ['D', 'required'], header: ['h', 'required'], 'join-lines': ['J', 'none'], length: ['l', 'required'],
      merge: ['m', 'none'], 'number-lines': ['n', 'optional'], 'first-line-number': ['N', 'required'], indent: ['o', 'required'],
      separator: ['s', 'optional'], 'omit-header': ['t', 'none'], 'omit-pagination': ['T', 'none'], width: ['w', 'required'],
      'page-width': ['W', 'required'], 'form-feed': ['F', 'none'],
    },
  },
  (c) => {
    const o: Opts = {
      cols: 1, across: false, merge: false, double: false, length: 66, width: 72, header: null, dateFmt: '%Y-%m-%d %H:%M',
      omit: false, number: null, firstNumber: 1, offset: 0, sep: null, join: false, first: 1, last: Infinity,
    };
    const files: string[] = [];
    // -COLUMN and +PAGE look like operands to the option parser; take them here.
    for (const a of c.operands) {
      if (/^-\d+$/.test(a)) o.cols = Number(a.slice(1));
      else if (/^\+\d+(:\d+)?$/.test(a)) {
        const [f, l] = a.slice(1).split(':');
        o.first = Number(f);
        if (l) o.last = Number(l);
      } else files.push(a);
    }
    const num = (v: string | undefined, what: string): number => {
      if (v === undefined || !/^\d+$/.test(v)) c.fail(`${what}: ${quote(v ?? '')}`);
      return Number(v);
    };
    for (const [k, v] of c.all) {
      switch (k) {
        case 'a': o.across = true; break;
        case 'd': o.double = true; break;
        case 'D': o.dateFmt = v!; break;
        case 'h': o.header = v!; break;
        case 'J': o.join = true; break;
        case 'l': o.length = num(v, `'-l PAGE_LENGTH' invalid number of lines`); break;
        case 'm': o.merge = true; break;
        case 'n': {
          const m = /^(\D?)(\d*)$/.exec(v ?? '');
          o.number = { sep: m?.[1] || '\t', digits: m?.[2] ? Number(m[2]) : 5 };
          break;
        }
        case 'N': o.firstNumber = num(v, `'-N NUMBER' invalid starting line number`); break;
        case 'o': o.offset = num(v, `'-o MARGIN' invalid line offset`); break;
        case 's': o.sep = v ?? '\t'; break;
        case 't': case 'T': o.omit = true; break;
        case 'w': case 'W': o.width = num(v, `'-${k} PAGE_WIDTH' invalid number of characters`); break;
        case 'columns': o.cols = num(v, 'invalid number of columns'); break;
        case 'pages': {
          const [f, l] = (v ?? '').split(':');
          o.first = num(f, 'invalid page range');
          if (l) o.last = num(l, 'invalid page range');
          break;
        }
      }
    }
    if (o.length <= 10) o.omit = true;
    if (o.merge && o.cols > 1) c.fail('cannot specify number of columns when printing in parallel');
    if (o.across && o.cols === 1 && !o.merge) o.across = false;
    paginate(c, o, files.length ? files : ['-']);
  },
);

function paginate(c: Cmd, o: Opts, files: string[]): void {
  const now = Date.now();
  const date = (f: string) => {
    const st = f === '-' ? null : tryStat(c.sys, f);
    return strftime(o.dateFmt, st ? st.mtimeMs : now);
  };
  if (o.merge) {
    const texts = readInputs(c, files);
    const streams = texts.map((t) => splitLines(t));
    const name = o.header ?? '';
    run(c, o, streams, date(files[0] === '-' ? '-' : '-'), name, true);
    return;
  }
  for (const f of files) {
    const t = readInputs(c, [f]);
    if (!t.length) continue;
    run(c, o, [splitLines(t[0])], date(f), o.header ?? (f === '-' ? '' : f), false);
  }
}

function splitLines(t: string): string[] {
  const l = t.split('\n');
  if (l.at(-1) === '') l.pop();
  return l;
}

function run(c: Cmd, o: Opts, streams: string[][], date: string, name: string, merge: boolean): void {
  const body = o.omit ? Infinity : o.length - 10;
  const rowsPerPage = o.double && body !== Infinity ? Math.max(1, Math.floor(body / 2)) : body;
  const cols = merge ? streams.length : o.cols;
  const sepLen = o.sep === null ? 1 : o.sep.length;
  const colWidth = cols > 1 ? Math.floor((o.width - (cols - 1) * sepLen) / cols) : Infinity;
  let lineNo = o.firstNumber;
  const numbered = (s: string) => (o.number ? `${String(lineNo++).padStart(o.number.digits)}${o.number.sep}${s}` : s);
  const multi = cols > 1;
  const cell = (s: string) => {
    const t = multi ? expandTabs(numbered(s)) : numbered(s);
    return multi && (o.sep === null || o.width !== 72) && !o.join ? truncate(t, colWidth) : t;
  };
  // Rows of cells, page by page.
  const pages: (string | null)[][][] = [];
  if (merge) {
    const n = Math.max(...streams.map((s) => s.length));
    const rows: (string | null)[][] = [];
    for (let i = 0; i < n; i++) rows.push(streams.map((s) => (i < s.length ? cell(s[i]) : '')));
    for (let i = 0; i < rows.length || i === 0; i += rowsPerPage === Infinity ? Math.max(rows.length, 1) : rowsPerPage) {
      pages.push(rows.slice(i, rowsPerPage === Infinity ? undefined : i + rowsPerPage));
    }
  } else {
    const lines = streams[0];
    const perPage = rowsPerPage === Infinity ? Math.max(lines.length, 1) : rowsPerPage * cols;
    for (let i = 0; i < lines.length || (i === 0 && pages.length === 0); i += perPage) {
      const chunk = lines.slice(i, i + perPage);
      const rows: (string | null)[][] = [];
      if (o.across) {
        for (let k = 0; k < chunk.length; k += cols) rows.push(chunk.slice(k, k + cols).map(cell));
      } else {
        // Down: full pages fill each column in turn; the last page balances them.
        const full = chunk.length === perPage && rowsPerPage !== Infinity;
        const colsLines: string[][] = [];
        let rest = chunk;
        for (let k = 0; k < cols; k++) {
          const take = full ? rowsPerPage : Math.ceil(rest.length / (cols - k));
          colsLines.push(rest.slice(0, take));
          rest = rest.slice(take);
        }
        const n = Math.max(...colsLines.map((x) => x.length));
        const numberedCols = colsLines.map((x) => x.map(cell));
        for (let r = 0; r < n; r++) rows.push(numberedCols.map((x) => (r < x.length ? x[r] : null)));
      }
      pages.push(rows);
      if (lines.length === 0) break;
    }
  }
  const margin = ' '.repeat(o.offset);
  pages.forEach((rows, pi) => {
    const page = pi + 1;
    if (page < o.first || page > o.last) return;
    let out = '';
    if (!o.omit) out += `\n\n${headerLine(o, date, name, page)}\n\n\n`;
    let used = 0;
    for (const row of rows) {
      let line = '';
      let col = 0;
      const starts = new Set<number>();
      const lastFilled = merge ? row.length - 1 : row.reduce((a, x, i) => (x !== null ? i : a), -1);
      for (let k = 0; k <= lastFilled; k++) {
        const s = row[k] ?? '';
        if (k > 0) {
          if (o.sep !== null && (o.sep !== '\t' || o.width !== 72)) line += o.sep;
          else line += o.sep === '\t' ? '\t' : ' '.repeat(Math.max(0, k * (colWidth + sepLen) - col));
          col = width(line);
        }
        starts.add(col);
        line += s;
        col = width(line);
      }
      out += `${margin}${multi ? compress(line, starts) : line}\n`;
      used++;
      if (o.double) {
        out += '\n';
        used++;
      }
    }
    if (!o.omit) out += '\n'.repeat(Math.max(0, o.length - 5 - used));
    put(c, out);
  });
}

/** Input tabs as spaces to 8-column stops (multi-column output measures cells in columns). */
function expandTabs(s: string): string {
  if (!s.includes('\t')) return s;
  let out = '';
  for (const ch of s) out += ch === '\t' ? ' '.repeat(8 - (out.length % 8)) : ch;
  return out;
}

/** Runs of spaces that reach a tab stop written as tabs, as GNU pr writes multi-column output (a run ends where a cell starts). */
function compress(line: string, starts: Set<number>): string {
  let out = '';
  let col = 0;
  let run = 0;
  for (const ch of line) {
    if (starts.has(col) && run) {
      out += ' '.repeat(run);
      run = 0;
    }
    if (ch === ' ') {
      run++;
      col++;
      if (col % 8 === 0 && run > 1) {
        out += '\t';
        run = 0;
      }
      continue;
    }
    out += ' '.repeat(run) + ch;
    run = 0;
    col = ch === '\t' ? (Math.floor(col / 8) + 1) * 8 : col + 1;
  }
  return out + ' '.repeat(run);
}

// column [-txLJd] [-c WIDTH] [-s SEPS] [-o SEP] [-N NAMES] [-R|-H|-O COLUMNS]
// [-l N] [-n NAME] [FILE]...: columnate lists (util-linux 2.38 behaviour:
// entries filled down columns at tab stops, or a table with -t).

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { chunks, command, winsize, type Cmd } from '../../../userland/lib/index.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { encode, seqLen, strWidth } from '../../../userland/lib/utf8.js';

const USAGE = `
Usage:
 column [options] [<file>...]

Columnate lists.

Options:
 -t, --table                      create a table
 -n, --table-name <name>          table name for JSON output
 -O, --table-order <columns>      specify order of output columns
 -N, --table-columns <names>      comma separated columns names
 -l, --table-columns-limit <num>  maximal number of input columns
 -d, --table-noheadings           don't print header
 -H, --table-hide <columns>       don't print the columns
 -R, --table-right <columns>      right align text in these columns
 -L, --keep-empty-lines           don't ignore empty lines
 -J, --json                       use JSON output format for table

 -c, --output-width <width>       width of output in number of characters
 -o, --output-separator <string>  columns separator for table output (default is two spaces)
 -s, --separator <string>         possible table delimiters
 -x, --fillrows                   fill rows before columns

 -h, --help                       display this help
 -V, --version                    display version

For more details see column(1).
`;

const TAB = 8;
const latin1 = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.byteLength; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
};
const bytes = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0));

/** Text as column reads it: bytes that are not characters of the locale (all non-ASCII in C) become \xHH. */
function escapeInvalid(s: string, utf8: boolean): string {
  if (!/[\x80-\xff]/.test(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; ) {
    const n = utf8 ? seqLen(s, i) : s.charCodeAt(i) < 0x80 ? 1 : 0;
    if (n === 0) out += `\\x${s.charCodeAt(i++).toString(16).padStart(2, '0')}`;
    else out += s.slice(i, (i += n));
  }
  return out;
}

/** Columns an entry takes: its characters' widths in UTF-8, else its bytes. */
let entryWidth = (s: string): number => s.length;

const column = command(
  {
    name: 'column',
    usage: USAGE,
    short: 'tn:O:N:l:dH:R:LJc:o:s:xhV',
    long: {
      table: ['t', 'none'], 'table-name': ['n', 'required'], 'table-order': ['O', 'required'],
      'table-columns': ['N', 'required'], 'table-columns-limit': ['l', 'required'], 'table-noheadings': ['d', 'none'],
      'table-hide': ['H', 'required'], 'table-right': ['R', 'required'], 'keep-empty-lines': ['L', 'none'],
      json: ['J', 'none'], 'output-width': ['c', 'required'], 'output-separator': ['o', 'required'],
      separator: ['s', 'required'], fillrows: ['x', 'none'],
    },
  },
  (c) => {
    if (c.has('h')) return void c.out.write(USAGE);
    if (c.has('V')) return void c.out.write('column from util-linux 2.38.1 (agentOS)\n');
    const json = c.has('J');
    const table = c.has('t') || json;
    if (json && !c.has('N')) c.fail('option --table-columns required for --json');
    let outWidth = 0;
    const cw = c.get('c');
    if (cw !== undefined) {
      if (!/^\d+$/.test(cw)) c.fail(`invalid columns argument: '${cw}'`);
      outWidth = Number(cw);
    }
    const limit = c.get('l');
    if (limit !== undefined && !(/^\d+$/.test(limit) && Number(limit) > 0)) {
      c.fail(/^\d+$/.test(limit) ? 'columns limit must be greater than zero' : `invalid columns limit argument: '${limit}'`);
    }
    const keepEmpty = c.has('L');
    const entries: string[] = [];
    // util-linux opens every operand by its name ("-" is a file called "-").
    const fds: [number, string][] = [];
    if (c.operands.length === 0) fds.push([0, '-']);
    for (const name of c.operands) {
      try {
        fds.push([c.sys.open(name), name]);
      } catch (e) {
        c.sysError(name, e);
      }
    }
    for (const [fd, name] of fds) {
      let carry = '';
      try {
        for (const b of chunks(c.sys, fd)) {
          const parts = (carry + latin1(b)).split('\n');
          carry = parts.pop()!;
          entries.push(...parts);
        }
      } catch (e) {
        c.sysError(name, e);
      }
      if (carry) entries.push(carry);
      if (fd !== 0) c.sys.close(fd);
    }
    const utf8 = isUtf8Locale(c.os.env);
    if (utf8) entryWidth = (s) => strWidth(s, 1, 0);
    const kept = entries.filter((e) => keepEmpty || e.trim() !== '').map((e) => escapeInvalid(e, utf8));
    if (table) return void printTable(c, kept, limit === undefined ? Infinity : Number(limit), json);
    if (outWidth === 0) outWidth = terminalWidth(c);
    fill(c, kept, outWidth, c.has('x'));
  },
);

function terminalWidth(c: Cmd): number {
  const w = winsize(c.sys, 1);
  if (w && w.cols > 0) return w.cols;
  const env = Number(c.os.env.COLUMNS);
  return Number.isInteger(env) && env > 0 ? env : 80;
}

/** Entries in columns at tab stops: down the columns, or across the rows with -x. */
function fill(c: Cmd, ents: string[], width: number, rows: boolean): void {
  if (ents.length === 0) return;
  const raw = Math.max(...ents.map(entryWidth));
  if (raw >= width) {
    for (const e of ents) c.out.write(bytes(`${e}\n`));
    return;
  }
  const max = (raw + TAB) & ~(TAB - 1);
  const cols = Math.floor(width / max);
  let out = '';
  let chars = 0;
  /** Tabs to the first tab stop past the entry, until reaching `end`. */
  const pad = (end: number) => {
    for (let next = (chars + TAB) & ~(TAB - 1); next <= end; next = (chars + TAB) & ~(TAB - 1)) {
      out += '\t';
      chars = next;
    }
  };
  if (rows) {
    let col = 0;
    let end = max;
    ents.forEach((e, i) => {
      out += e;
      chars += entryWidth(e);
      if (i === ents.length - 1) return;
      // With no whole column fitting GNU's count never wraps: one long line.
      if (++col === cols) {
        out += '\n';
        chars = col = 0;
        end = max;
      } else {
        pad(end);
        end += max;
      }
    });
    if (chars) out += '\n';
  } else {
    const ncols = cols || 1;
    const nrows = Math.ceil(ents.length / ncols);
    for (let row = 0; row < nrows; row++) {
      let end = max;
      chars = 0;
      for (let base = row, col = 0; col < ncols; col++) {
        out += ents[base];
        chars += entryWidth(ents[base]);
        if ((base += nrows) >= ents.length) break;
        pad(end);
        end += max;
      }
      out += '\n';
    }
  }
  c.out.write(bytes(out));
}

/**
 * Split a line into at most `limit` cells: runs of blanks by default, each
 * separator character with -s. The last allowed cell takes the rest of the
 * line from just after the separator that ended the cell before it.
 */
function cells(line: string, seps: string | null, limit: number): string[] {
  const out: string[] = [];
  if (seps === '') return [line];
  const isSep = (ch: string) => (seps === null ? ch === ' ' || ch === '\t' : seps.includes(ch));
  let pos = 0;
  while (pos <= line.length) {
    const from = pos;
    // Blank runs merge: skip to the next token (a line of blanks has none).
    if (seps === null) {
      while (pos < line.length && isSep(line[pos])) pos++;
      if (pos === line.length) break;
    }
    let end = pos;
    while (end < line.length && !isSep(line[end])) end++;
    if (out.length === limit - 1) {
      out.push(line.slice(seps === null ? from : pos));
      break;
    }
    out.push(line.slice(pos, end));
    if (end === line.length) break;
    pos = end + 1;
  }
  return out;
}

function printTable(c: Cmd, lines: string[], limit: number, json: boolean): void {
  const s = c.get('s');
  const seps = s === undefined ? null : encode(s);
  const rows = lines.map((l) => cells(l, seps, limit));
  const names = c.has('N') ? encode(c.get('N')!).split(',') : [];
  const ncols = Math.max(names.length, ...rows.map((r) => r.length));
  /** Column numbers (1-based) or -N names. */
  const pick = (opt: string): Set<number> => {
    const v = c.get(opt);
    const out = new Set<number>();
    if (v === undefined) return out;
    for (const item of v.split(',')) {
      const range = /^(\d+)-(\d+)$/.exec(item);
      if (item === '0') for (let i = 0; i < ncols; i++) out.add(i);
      else if (range) for (let i = Number(range[1]); i <= Number(range[2]); i++) out.add(i - 1);
      else if (item === '-1') out.add(ncols - 1);
      else if (/^\d+$/.test(item)) out.add(Number(item) - 1);
      else if (names.includes(item)) out.add(names.indexOf(item));
      else c.fail(`undefined column name '${item}'`);
    }
    return out;
  };
  const right = pick('R');
  const hidden = pick('H');
  const order: number[] = [];
  for (const i of pick('O')) if (i < ncols && !order.includes(i)) order.push(i);
  for (let i = 0; i < ncols; i++) if (!order.includes(i)) order.push(i);
  const visible = order.filter((i) => !hidden.has(i));
  if (json) return void printJson(c, rows, names, visible);
  if (rows.length === 0) return;
  const headings = names.length > 0 && !c.has('d');
  const all = headings ? [names, ...rows] : rows;
  const widths = Array.from({ length: ncols }, (_, i) => Math.max(0, ...all.map((r) => entryWidth(r[i] ?? ''))));
  const sep = encode(c.get('o') ?? '  ');
  let out = '';
  for (const r of all) {
    visible.forEach((i, k) => {
      const cell = r[i] ?? '';
      const gap = ' '.repeat(widths[i] - entryWidth(cell));
      if (k > 0) out += sep;
      const last = k === visible.length - 1;
      // The last column is not padded: when left-aligned, or when its cell is empty.
      if (last && (cell === '' || !right.has(i))) out += cell;
      else out += right.has(i) ? gap + cell : cell + gap;
    });
    out += '\n';
  }
  c.out.write(bytes(out));
}

/** libsmartcols' JSON: 3-space indents, lowercased names, null for empty cells. */
function printJson(c: Cmd, rows: string[][], names: string[], visible: number[]): void {
  if (rows.length === 0) return;
  const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  const escape = (ch: string) => named[ch] ?? (ch < ' ' ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}` : ch);
  const q = (s: string) => `"${Array.from(s, escape).join('')}"`;
  // util-linux counts lines from 2 here.
  const wide = rows.findIndex((r) => r.length > names.length);
  if (wide >= 0) c.fail(`line ${wide + 2}: for JSON the name of the column ${names.length + 1} is required`);
  const objects = rows.map((r) =>
    visible.map((i) => `         ${q(names[i].toLowerCase())}: ${r[i] ? q(r[i]) : 'null'}`).join(',\n'),
  );
  const name = c.get('n') ?? 'table';
  c.out.write(bytes(`{\n   ${q(name)}: [\n      {\n${objects.join('\n      },{\n')}\n      }\n   ]\n}\n`));
}

export default function main(os: AgentosApi): void {
  os.exit(column(os, os.argv.slice(1)));
}

// The shell's dot-commands. A command returns 0 (ok), 1 (error) or 2 (quit).
// Names may be abbreviated to any prefix, resolved in sqlite3's order.

import { SysError } from '../../../abi/errno.js';
import { bstr, jsString, SqliteError } from './engine.js';
import { dump, schema, tableList } from './dump.js';
import { importFile } from './importer.js';
import type { Mode } from './render.js';
import { ShellExit, type Lines, type Shell } from './shell.js';
import { quoteIdent } from './format.js';

/** Backslash escapes in dot-command arguments (\t \n \\ \NNN ...). */
function unescape(z: string): string {
  const map: Record<string, string> = { a: '\x07', b: '\b', t: '\t', n: '\n', v: '\v', f: '\f', r: '\r', '"': '"', "'": "'", '\\': '\\' };
  return z.replace(/\\([abtnvfr"'\\]|[0-7]{1,3}|x[0-9a-fA-F]{1,2})/g, (_, c: string) => {
    if (c[0] === 'x') return String.fromCharCode(parseInt(c.slice(1), 16));
    if (/^[0-7]/.test(c)) return String.fromCharCode(parseInt(c, 8) & 0xff);
    return map[c];
  });
}

/** Split a dot-command line into arguments: whitespace-separated, '...' literal, "..." with escapes. */
function splitArgs(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /[ \t\n\v\f\r]/.test(line[i])) i++;
    if (i >= line.length) break;
    const q = line[i];
    if (q === "'" || q === '"') {
      let j = ++i;
      while (j < line.length && line[j] !== q) j += line[j] === '\\' && q === '"' && j + 1 < line.length ? 2 : 1;
      const a = line.slice(i, j);
      args.push(q === '"' ? unescape(a) : a);
      i = j + 1;
    } else {
      let j = i;
      while (j < line.length && !/[ \t\n\v\f\r]/.test(line[j])) j++;
      args.push(unescape(line.slice(i, j)));
      i = j;
    }
  }
  return args;
}

/** booleanValue(): on/yes/true, off/no/false or a number; anything else is "no", with a warning. */
export function bool(sh: Shell, z: string): boolean {
  if (/^(0x[0-9a-f]+|[0-9]+)$/i.test(z)) return Number(z) !== 0;
  if (/^(on|yes|true)$/i.test(z)) return true;
  if (/^(off|no|false)$/i.test(z)) return false;
  sh.err(`ERROR: Not a boolean value: "${z}". Assuming "no".\n`);
  return false;
}

/** integerValue(): a leading decimal or 0x number with an optional KiB/MB/... suffix. */
export function intValue(z: string): number {
  const m = /^([-+]?)(0x[0-9a-f]+|[0-9]*)/i.exec(z)!;
  const v = m[2] ? Number(m[2]) : 0;
  return m[1] === '-' ? -v : v;
}

const HELP: [string, string][] = [
  ['bail', '.bail on|off             Stop after hitting an error.  Default OFF'],
  ['changes', '.changes on|off          Show number of rows changed by SQL'],
  ['databases', '.databases               List names and files of attached databases'],
  ['dump', '.dump ?OBJECTS?          Render database content as SQL'],
  ['echo', '.echo on|off             Turn command echo on or off'],
  ['exit', '.exit ?CODE?             Exit this program with return-code CODE'],
  ['headers', '.headers on|off          Turn display of headers on or off'],
  ['help', '.help ?-all? ?PATTERN?   Show help text for PATTERN'],
  ['import', '.import FILE TABLE       Import data from FILE into TABLE'],
  ['indexes', '.indexes ?TABLE?         Show names of indexes'],
  ['mode', '.mode MODE ?OPTIONS?     Set output mode'],
  ['nullvalue', '.nullvalue STRING        Use STRING in place of NULL values'],
  ['once', '.once ?OPTIONS? ?FILE?   Output for the next SQL command only to FILE'],
  ['open', '.open ?OPTIONS? ?FILE?   Close existing database and reopen FILE'],
  ['output', '.output ?FILE?           Send output to FILE or stdout if FILE is omitted'],
  ['print', '.print STRING...         Print literal STRING'],
  ['quit', '.quit                    Exit this program'],
  ['read', '.read FILE               Read input from FILE'],
  ['schema', '.schema ?PATTERN?        Show the CREATE statements matching PATTERN'],
  ['separator', '.separator COL ?ROW?     Change the column and row separators'],
  ['show', '.show                    Show the current values for various settings'],
  ['tables', '.tables ?TABLE?          List names of tables matching LIKE pattern TABLE'],
  ['width', '.width NUM1 NUM2 ...     Set minimum column widths for columnar output'],
];

const MODE_HELP = `   MODE is one of:
     ascii       Columns/rows delimited by 0x1F and 0x1E
     box         Tables using unicode box-drawing characters
     csv         Comma-separated values
     column      Output in columns.  (See .width)
     html        HTML <table> code
     insert      SQL insert statements for TABLE
     json        Results in a JSON array
     line        One value per line
     list        Values delimited by "|"
     markdown    Markdown table format
     qbox        Shorthand for "box --wrap 60 --quote"
     quote       Escape answers as for SQL
     table       ASCII-art table
     tabs        Tab-separated values
     tcl         TCL list elements
   OPTIONS: (for columnar modes or insert mode):
     --wrap N       Wrap output lines to no longer than N characters
     --wordwrap B   Wrap or not at word boundaries per B (on/off)
     --ww           Shorthand for "--wordwrap 1"
     --quote        Quote output text as SQL literals
     --noquote      Do not quote output text
     TABLE          The name of SQL table used for "insert" mode
`;

const IMPORT_HELP = `.import FILE TABLE       Import data from FILE into TABLE
   Options:
     --ascii               Use \\037 and \\036 as column and row separators
     --csv                 Use , and \\n as column and row separators
     --skip N              Skip the first N rows of input
     --schema S            Target table to be S.TABLE
     -v                    "Verbose" - increase auxiliary output
   Notes:
     *  If TABLE does not exist, it is created.  The first row of input
        determines the column names.
     *  If neither --csv or --ascii are used, the input mode is derived
        from the ".mode" output mode
     *  If FILE begins with "|" then it is a command that generates the
        input text.
`;

export function importHelp(): string {
  return IMPORT_HELP;
}

type Handler = (sh: Shell, a: string[]) => number;

/** Commands in sqlite3's matching order, with the prefix length each needs. */
const COMMANDS: [string, number, Handler][] = [
  ['bail', 1, (sh, a) => usageOr(sh, a.length === 2, '.bail on|off', () => (sh.bail = bool(sh, a[1])))],
  ['changes', 3, (sh, a) => usageOr(sh, a.length === 2, '.changes on|off', () => (sh.countChanges = bool(sh, a[1])))],
  ['databases', 2, databases],
  ['dump', 2, (sh, a) => dump(sh, a.slice(1))],
  ['echo', 1, (sh, a) => usageOr(sh, a.length === 2, '.echo on|off', () => (sh.echo = bool(sh, a[1])))],
  ['exit', 2, (_sh, a) => {
    const code = a.length > 1 ? intValue(a[1]) : 0;
    if (code !== 0) throw new ShellExit(code);
    return 2;
  }],
  ['headers', 2, (sh, a) => usageOr(sh, a.length === 2, '.headers on|off', () => {
    sh.s.headers = bool(sh, a[1]);
    sh.headerSet = true;
  })],
  ['help', 1, help],
  ['import', 2, (sh, a) => importFile(sh, a.slice(1))],
  ['indexes', 3, (sh, a) => tableList(sh, a, 'index')],
  ['indices', 3, (sh, a) => tableList(sh, a, 'index')],
  ['mode', 1, mode],
  ['nullvalue', 1, (sh, a) => usageOr(sh, a.length === 2, '.nullvalue STRING', () => (sh.s.nullValue = a[1]))],
  ['once', 2, (sh, a) => output(sh, a, true)],
  ['open', 2, open],
  ['output', 2, (sh, a) => output(sh, a, false)],
  ['print', 2, (sh, a) => {
    sh.write(`${a.slice(1).join(' ')}\n`);
    return 0;
  }],
  ['quit', 1, () => 2],
  ['read', 3, read],
  ['schema', 2, (sh, a) => schema(sh, a.slice(1))],
  ['separator', 2, (sh, a) => {
    let rc = 0;
    if (a.length < 2 || a.length > 3) {
      sh.err('Usage: .separator COL ?ROW?\n');
      rc = 1;
    }
    if (a.length >= 2) sh.s.colSep = a[1];
    if (a.length >= 3) sh.s.rowSep = a[2];
    return rc;
  }],
  ['show', 2, show],
  ['tables', 2, (sh, a) => tableList(sh, a, 'table')],
  ['width', 1, (sh, a) => {
    sh.s.widths = a.slice(1).map(intValue);
    return 0;
  }],
];

function usageOr(sh: Shell, ok: boolean, usage: string, act: () => void): number {
  if (!ok) {
    sh.err(`Usage: ${usage}\n`);
    return 1;
  }
  act();
  return 0;
}

/** Run one dot-command line. */
export function metaCommand(sh: Shell, line: string): number {
  const a = splitArgs(line.slice(1));
  const name = a[0] ?? '';
  const hit = name && COMMANDS.find(([full, min]) => name.length >= min && full.startsWith(name));
  if (!hit) {
    sh.err(`Error: unknown command or invalid arguments:  "${name}". Enter ".help" for help\n`);
    return 1;
  }
  let rc: number;
  try {
    rc = hit[2](sh, a);
  } catch (e) {
    if (!(e instanceof SqliteError)) throw e;
    sh.err(`Error: ${e.message}\n`);
    rc = 1;
  }
  sh.sync();
  return rc;
}

function help(sh: Shell, a: string[]): number {
  const pat = a[1]?.replace(/^-all$/, '');
  if (pat === 'mode') sh.write(`${HELP.find(([n]) => n === 'mode')![1]}\n${MODE_HELP}`);
  else if (pat === 'import') sh.write(IMPORT_HELP);
  else {
    const hits = HELP.filter(([n]) => !pat || n.startsWith(pat));
    if (pat && hits.length === 0) sh.write(`Nothing matches '${pat}'\n`);
    for (const [, text] of hits) sh.write(`${text}\n`);
  }
  return 0;
}

const MODE_NAMES: Record<Mode, string> = {
  line: 'line', column: 'column', list: 'list', semi: 'semi', html: 'html', insert: 'insert', quote: 'quote',
  tcl: 'tcl', csv: 'csv', ascii: 'ascii', json: 'json', markdown: 'markdown', table: 'table', box: 'box', tabs: 'list',
};

const COLUMNAR: readonly Mode[] = ['column', 'markdown', 'table', 'box'];

function modeDescription(sh: Shell): string {
  const s = sh.s;
  return COLUMNAR.includes(s.mode)
    ? `${MODE_NAMES[s.mode]} --wrap ${s.wrap} --wordwrap ${s.wordWrap ? 'on' : 'off'} --${s.quote ? '' : 'no'}quote`
    : MODE_NAMES[s.mode];
}

function mode(sh: Shell, a: string[]): number {
  let name: string | null = null;
  let table: string | null = null;
  let wrap = 60;
  let wordWrap = false;
  let quote = false;
  for (let i = 1; i < a.length; i++) {
    const z = a[i];
    const opt = z.replace(/^--?/, '');
    if (z.startsWith('-') && opt === 'wrap' && i + 1 < a.length) wrap = intValue(a[++i]);
    else if (z.startsWith('-') && opt === 'ww') wordWrap = true;
    else if (z.startsWith('-') && opt === 'wordwrap' && i + 1 < a.length) wordWrap = bool(sh, a[++i]);
    else if (z.startsWith('-') && (opt === 'quote' || opt === 'noquote')) quote = opt === 'quote';
    else if (name === null) {
      name = z;
      if (z === 'qbox') [name, wrap, quote] = ['box', 60, true];
    } else if (table === null) table = z;
    else if (z.startsWith('-')) {
      sh.err(`unknown option: ${z}\noptions:\n  --noquote\n  --quote\n  --wordwrap on/off\n  --wrap N\n  --ww\n`);
      return 1;
    } else {
      sh.err(`extra argument: "${z}"\n`);
      return 1;
    }
  }
  const s = sh.s;
  if (name === null) {
    sh.write(`current output mode: ${modeDescription(sh)}\n`);
    name = MODE_NAMES[s.mode];
  }
  const n = name;
  const is = (full: string) => n.length > 0 && full.startsWith(n);
  const columnar = (m: Mode) => {
    s.mode = m;
    s.wrap = wrap;
    s.wordWrap = wordWrap;
    s.quote = quote;
  };
  if (is('lines')) [s.mode, s.rowSep] = ['line', '\n'];
  else if (is('columns')) {
    columnar('column');
    if (!sh.headerSet) s.headers = true;
    s.rowSep = '\n';
  } else if (is('list')) [s.mode, s.colSep, s.rowSep] = ['list', '|', '\n'];
  else if (is('html')) s.mode = 'html';
  else if (is('tcl')) [s.mode, s.colSep, s.rowSep] = ['tcl', ' ', '\n'];
  else if (is('csv')) [s.mode, s.colSep, s.rowSep] = ['csv', ',', '\r\n'];
  else if (is('tabs')) [s.mode, s.colSep] = ['list', '\t'];
  else if (is('insert')) [s.mode, s.destTable] = ['insert', quoteIdent(table ?? 'table')];
  else if (is('quote')) [s.mode, s.colSep, s.rowSep] = ['quote', ',', '\n'];
  else if (is('ascii')) [s.mode, s.colSep, s.rowSep] = ['ascii', '\x1f', '\x1e'];
  else if (is('markdown')) columnar('markdown');
  else if (is('table')) columnar('table');
  else if (is('box')) columnar('box');
  else if (is('json')) s.mode = 'json';
  else {
    sh.err('Error: mode should be one of: ascii box column csv html insert json line list markdown qbox quote table tabs tcl\n');
    return 1;
  }
  return 0;
}

function databases(sh: Shell): number {
  const rows = sh.query('PRAGMA database_list');
  for (const r of rows) {
    const schemaName = r[1] ?? '';
    const file = schemaName === 'main' ? sh.dbPath() : (r[2] ?? '');
    const ro = schemaName === 'main' && sh.readonly && sh.dbPath() !== '';
    sh.write(`${schemaName}: ${file ? file : '""'} ${ro ? 'r/o' : 'r/w'}\n`);
  }
  return 0;
}

function output(sh: Shell, a: string[], once: boolean): number {
  const files = a.slice(1).filter((x) => !x.startsWith('-'));
  if (files.length > 1) {
    sh.err(`ERROR: extra parameter: "${files[1]}".  Usage:\n`);
    return 1;
  }
  const file = files[0] ?? null;
  try {
    sh.redirect(file === null || file === 'stdout' ? null : file, once);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    sh.err(`Error: cannot open "${file}"\nError: cannot write to "${file}"\n`);
    return 1;
  }
  return 0;
}

function open(sh: Shell, a: string[]): number {
  let file = '';
  let readonly = false;
  let fresh = false;
  for (const z of a.slice(1)) {
    const opt = z.replace(/^--?/, '-');
    if (opt === '-readonly') readonly = true;
    else if (opt === '-new') fresh = true;
    else if (z.startsWith('-')) {
      sh.err(`unknown option: ${z}\n`);
      return 1;
    } else if (file) {
      sh.err(`extra argument: "${z}"\n`);
      return 1;
    } else file = z;
  }
  sh.reopen(file, readonly);
  try {
    if (fresh && file) sh.os.sys.writeFile(jsString(file), new Uint8Array(0));
    sh.db();
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    sh.err(`Error: unable to open database "${file}": unable to open database file\n`);
    sh.reopen('', false);
    return 1;
  }
  return 0;
}


function read(sh: Shell, a: string[]): number {
  if (a.length !== 2) {
    sh.err('Usage: .read FILE\n');
    return 1;
  }
  let fd: number;
  try {
    fd = sh.os.sys.open(jsString(a[1]));
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    sh.err(`Error: cannot open "${a[1]}"\n`);
    return 1;
  }
  try {
    const r = sh.processInput(fileLines(sh, fd), true, (l) => metaCommand(sh, l));
    return r.errors > 0 ? 1 : 0;
  } finally {
    sh.os.sys.close(fd);
  }
}

/** Lines of an fd as byte strings, without "\n" or "\r\n". */
export function* fileLines(sh: Shell, fd: number): Lines {
  let carry = '';
  for (;;) {
    sh.beforeRead(fd);
    const chunk = sh.os.sys.read(fd, 65536);
    if (chunk.byteLength === 0) break;
    const text = carry + bstr(chunk);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      yield text.slice(start, nl > start && text[nl - 1] === '\r' ? nl - 1 : nl);
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  if (carry) yield carry;
}

/** output_c_string: a C string literal. */
function cString(z: string): string {
  const esc: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
  let s = '"';
  for (const c of z) {
    const n = c.charCodeAt(0);
    s += esc[c] ?? (n < 0x20 || n === 0x7f ? `\\${n.toString(8).padStart(3, '0')}` : c);
  }
  return `${s}"`;
}

function show(sh: Shell, a: string[]): number {
  if (a.length !== 1) {
    sh.err('Usage: .show\n');
    return 1;
  }
  const s = sh.s;
  const line = (k: string, v: string) => sh.write(`${k.padStart(12)}: ${v}\n`);
  line('echo', sh.echo ? 'on' : 'off');
  line('eqp', 'off');
  line('explain', 'auto');
  line('headers', s.headers ? 'on' : 'off');
  line('mode', modeDescription(sh));
  line('nullvalue', cString(s.nullValue));
  line('output', sh.outName());
  line('colseparator', cString(s.colSep));
  line('rowseparator', cString(s.rowSep));
  line('stats', 'off');
  line('width', s.widths.map((w) => `${w} `).join(''));
  line('filename', sh.dbName);
  return 0;
}

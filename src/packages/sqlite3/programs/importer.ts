// .import FILE TABLE: CSV (RFC 4180 quoting) or separator-delimited fields
// into a table, created from the first row's names when it does not exist.

import { SysError } from '../../../abi/errno.js';
import { chunks } from '../../../userland/lib/index.js';
import { bstr, jsString, SqliteError } from './engine.js';
import { importHelp, intValue } from './dot.js';
import type { Shell } from './shell.js';

const EOF = -1;

/** Reads fields one at a time, remembering what ended each (a separator, the row end or EOF). */
class FieldReader {
  private buf = '';
  private pos = 0;
  private readonly src: Iterator<Uint8Array>;
  /** What ended the last field: the column or row separator's code, or EOF. */
  term = 0;
  line = 1;
  private first = true;

  constructor(
    private readonly sh: Shell,
    fd: number,
    readonly file: string,
    readonly colSep: number,
    readonly rowSep: number,
  ) {
    this.src = chunks(sh.os.sys, fd);
  }

  private getc(): number {
    if (this.pos >= this.buf.length) {
      const n = this.src.next();
      if (n.done) return EOF;
      this.buf = bstr(n.value);
      this.pos = 0;
    }
    return this.buf.charCodeAt(this.pos++);
  }

  /** csv_read_one_field: null at end of input. */
  csv(): string | null {
    let c = this.getc();
    if (c === EOF) {
      this.term = EOF;
      return null;
    }
    let z = '';
    if (c === 0x22) {
      const startLine = this.line;
      let pc = 0;
      let ppc = 0;
      for (;;) {
        c = this.getc();
        if (c === this.rowSep) this.line++;
        if (c === 0x22 && pc === 0x22) {
          pc = 0;
          continue;
        }
        if ((c === this.colSep && pc === 0x22) || (c === this.rowSep && pc === 0x22) || (c === this.rowSep && pc === 13 && ppc === 0x22) || (c === EOF && pc === 0x22)) {
          z = z.slice(0, z.lastIndexOf('"'));
          this.term = c;
          break;
        }
        if (pc === 0x22 && c !== 13) this.sh.err(`${this.file}:${this.line}: unescaped " character\n`);
        if (c === EOF) {
          this.sh.err(`${this.file}:${startLine}: unterminated "-quoted field\n`);
          this.term = c;
          break;
        }
        z += String.fromCharCode(c);
        ppc = pc;
        pc = c;
      }
    } else {
      if (this.first && c === 0xef) {
        const c2 = this.getc();
        const c3 = c2 === 0xbb ? this.getc() : EOF;
        if (c2 === 0xbb && c3 === 0xbf) {
          this.first = false;
          return this.csv();
        }
        z += String.fromCharCode(c, ...[c2, c3].filter((x) => x >= 0));
        c = this.getc();
      }
      while (c !== EOF && c !== this.colSep && c !== this.rowSep) {
        z += String.fromCharCode(c);
        c = this.getc();
      }
      if (c === this.rowSep) {
        this.line++;
        if (z.endsWith('\r')) z = z.slice(0, -1);
      }
      this.term = c;
    }
    this.first = false;
    return z;
  }

  /** ascii_read_one_field: no quoting. */
  ascii(): string | null {
    let c = this.getc();
    if (c === EOF) {
      this.term = EOF;
      return null;
    }
    let z = '';
    while (c !== EOF && c !== this.colSep && c !== this.rowSep) {
      z += String.fromCharCode(c);
      c = this.getc();
    }
    if (c === this.rowSep) this.line++;
    this.term = c;
    return z;
  }
}

/** Column definitions for a new table: duplicate names (any case) become name_N, empty ones "?". */
function columnDefs(names: string[]): { defs: string; renames: string[] } {
  const base = names.map((n) => (n === '' ? '?' : n));
  const count = new Map<string, number>();
  for (const n of base) count.set(n.toLowerCase(), (count.get(n.toLowerCase()) ?? 0) + 1);
  const renames: string[] = [];
  const final = base.map((n, i) => {
    if ((count.get(n.toLowerCase()) ?? 0) < 2) return n;
    const r = `${n}_${i + 1}`;
    renames.push(`"${n}" to "${r}"`);
    return r;
  });
  const q = (n: string) => `"${n.replaceAll('"', '""')}"`;
  const defs = final.map((n, i) => `${i === 0 ? '' : i % 4 === 0 ? ',\n ' : ', '}${q(n)} TEXT`).join('');
  return { defs: `(\n${defs})`, renames };
}

export function importFile(sh: Shell, args: string[]): number {
  let file: string | null = null;
  let table: string | null = null;
  let schemaName: string | null = null;
  let skip = 0;
  let verbose = 0;
  let ascii = sh.s.mode === 'ascii';
  let useMode = true;
  let colSep = 0;
  let rowSep = 0;
  for (let i = 0; i < args.length; i++) {
    const z = args[i].startsWith('--') ? args[i].slice(1) : args[i];
    if (!z.startsWith('-')) {
      if (file === null) file = z;
      else if (table === null) table = z;
      else {
        sh.write(`ERROR: extra argument: "${z}".  Usage:\n${importHelp()}`);
        return 1;
      }
    } else if (z === '-v') verbose++;
    else if (z === '-schema' && i < args.length - 1) schemaName = args[++i];
    else if (z === '-skip' && i < args.length - 1) skip = intValue(args[++i]);
    else if (z === '-ascii') [ascii, useMode, colSep, rowSep] = [true, false, 0x1f, 0x1e];
    else if (z === '-csv') [ascii, useMode, colSep, rowSep] = [false, false, 0x2c, 0x0a];
    else {
      sh.write(`ERROR: unknown option: "${z}".  Usage:\n${importHelp()}`);
      return 1;
    }
  }
  if (table === null || file === null) {
    sh.write(`ERROR: missing ${file === null ? 'FILE' : 'TABLE'} argument. Usage:\n${importHelp()}`);
    return 1;
  }
  sh.db();
  if (useMode) {
    let row = sh.s.rowSep;
    if (sh.s.colSep.length === 0) return fail(sh, 'Error: non-null column separator required for import');
    if (sh.s.colSep.length > 1) return fail(sh, 'Error: multi-character column separators not allowed for import');
    if (row.length === 0) return fail(sh, 'Error: non-null row separator required for import');
    // CSV's output row separator reads as "\n" (and stays so, as in sqlite3).
    if (row === '\r\n' && sh.s.mode === 'csv') row = sh.s.rowSep = '\n';
    if (row.length > 1) return fail(sh, 'Error: multi-character row separators not allowed for import');
    [colSep, rowSep] = [sh.s.colSep.charCodeAt(0), row.charCodeAt(0)];
  }
  let fd: number;
  try {
    fd = sh.os.sys.open(jsString(file));
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    return fail(sh, `Error: cannot open "${file}"`);
  }
  try {
    const r = new FieldReader(sh, fd, file, colSep, rowSep);
    return load(sh, r, ascii, table, schemaName, skip, verbose);
  } finally {
    sh.os.sys.close(fd);
  }
}

function fail(sh: Shell, msg: string): number {
  sh.err(`${msg}\n`);
  return 1;
}

function load(sh: Shell, r: FieldReader, ascii: boolean, table: string, schemaName: string | null, skip: number, verbose: number): number {
  const read = () => (ascii ? r.ascii() : r.csv());
  while (skip-- > 0) while (read() !== null && r.term === r.colSep);
  const q = (n: string) => `"${n.replaceAll('"', '""')}"`;
  const full = schemaName !== null ? `${q(schemaName)}.${q(table)}` : q(table);
  let nCol: number;
  try {
    nCol = columnCount(sh, `SELECT * FROM ${full}`);
  } catch (e) {
    if (!(e instanceof SqliteError)) throw e;
    if (!e.message.startsWith('no such table: ')) return fail(sh, `Error: ${e.message}`);
    const names: string[] = [];
    for (let z = read(); z !== null; z = read()) {
      names.push(z);
      if (r.term !== r.colSep) break;
    }
    if (names.length === 0) return fail(sh, `${r.file}: empty file`);
    const { defs, renames } = columnDefs(names);
    if (renames.length) sh.err(`Columns renamed during .import ${r.file} due to duplicates:\n${renames.join(',\n')}\n`);
    const create = `CREATE TABLE ${full}${defs}\n`;
    if (verbose >= 1) sh.write(`${create}\n`);
    try {
      sh.query(create);
    } catch (e2) {
      if (!(e2 instanceof SqliteError)) throw e2;
      return fail(sh, `${create} failed:\n${e2.message}`);
    }
    nCol = columnCount(sh, `SELECT * FROM ${full}`);
  }
  if (nCol === 0) return 0;
  const insert = `INSERT INTO ${full} VALUES(${Array(nCol).fill('?').join(',')})`;
  if (verbose >= 2) sh.write(`Insert using: ${insert}\n`);
  const e = sh.e;
  const db = sh.db().handle;
  const p = e.alloc(insert);
  let stmt: number;
  try {
    stmt = e.prepare(db, p, insert.length).stmt;
  } finally {
    e.free(p);
  }
  // Like sqlite3_get_autocommit(): BEGIN fails inside a transaction, which then holds the rows.
  let began = true;
  try {
    sh.query('BEGIN');
  } catch (err) {
    if (!(err instanceof SqliteError)) throw err;
    began = false;
  }
  let rows = 0;
  let errors = 0;
  let rc = 0;
  try {
    do {
      const startLine = r.line;
      e.clearBindings(stmt);
      let i = 0;
      for (; i < nCol; i++) {
        const z = read();
        if (z === null && i === 0) break;
        if (ascii && (z === null || z === '') && i === 0) break;
        if (z !== null) e.bindText(stmt, i + 1, z);
        if (i < nCol - 1 && r.term !== r.colSep) {
          sh.err(`${r.file}:${startLine}: expected ${nCol} columns but found ${i + 1} - filling the rest with NULL\n`);
          i = nCol + 1;
          break;
        }
      }
      if (r.term === r.colSep) {
        do {
          read();
          i++;
        } while (r.term === r.colSep);
        sh.err(`${r.file}:${startLine}: expected ${nCol} columns but found ${i} - extras ignored\n`);
      }
      if (i >= nCol) {
        e.step(stmt);
        rc = e.reset(stmt);
        if (rc !== 0) {
          sh.err(`${r.file}:${startLine}: INSERT failed: ${e.errmsg(db)}\n`);
          errors++;
        } else rows++;
      }
    } while (r.term !== EOF);
  } finally {
    e.finalize(stmt);
    if (began) sh.query('COMMIT');
  }
  if (verbose > 0) sh.write(`Added ${rows} rows with ${errors} errors using ${r.line - 1} lines of input\n`);
  // sqlite3 returns the last row's result: a failed last INSERT is the command's status.
  return rc;
}

function columnCount(sh: Shell, sql: string): number {
  const e = sh.e;
  const p = e.alloc(sql);
  try {
    const { stmt } = e.prepare(sh.db().handle, p, sql.length);
    const n = e.columnCount(stmt);
    e.finalize(stmt);
    return n;
  } finally {
    e.free(p);
  }
}

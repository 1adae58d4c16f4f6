// The shell's state and its main loops: running a batch of SQL statement by
// statement (shell_exec), reporting errors the way sqlite3 3.40 words them,
// and reading input line by line into statements and dot-commands
// (process_input).

import { SysError } from '../../../abi/errno.js';
import { O_CREAT, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { Writer } from '../../../userland/lib/index.js';
import { isCommandTerminator, isComplete, quickscan, SCAN_START } from './complete.js';
import { DbFile } from './dbfile.js';
import { bytes, jsString, SQLITE_DONE, SQLITE_NULL, SQLITE_ROW, SqliteError, utf8, type Engine } from './engine.js';
import { errorContext, errorOffset } from './errctx.js';
import { render, type Settings, type Sink } from './render.js';

/** poll(2)'s readable event. */
const POLLIN = 1;

/** Thrown by .exit / .quit handling to end the program with a status. */
export class ShellExit {
  constructor(readonly status: number) {}
}

/** A source of input lines (without their newline), as byte strings. */
export type Lines = Iterator<string>;

export class Shell implements Sink {
  readonly s: Settings = {
    mode: 'list', headers: false, colSep: '|', rowSep: '\n', nullValue: '', destTable: '"table"', widths: [], wrap: 0, wordWrap: false, quote: false, newlines: false,
  };
  /** Headers were set explicitly (.mode column then leaves them alone). */
  headerSet = false;
  bail = false;
  echo = false;
  countChanges = false;
  interactive = false;
  private dbFile: DbFile | null = null;
  /** A batch ran since the last write-back. */
  private pending = false;
  private lastSync = Date.now();
  /** The database named on the command line or by .open. */
  dbName = '';
  readonly = false;
  private readonly stdout: Writer;
  private out: Writer;
  private outFd = 1;
  private outFile: string | null = null;
  /** .once: the redirection ends after the next command. */
  private once = false;

  constructor(
    readonly os: AgentosApi,
    readonly e: Engine,
  ) {
    let tty = false;
    try {
      tty = os.sys.isatty(1);
    } catch {
      // stdout closed: writes fail later
    }
    this.stdout = new Writer(os.sys, 1, tty);
    this.out = this.stdout;
  }

  write(text: string): void {
    this.out.write(bytes(text));
  }

  /** A diagnostic on stderr (a byte string), after what stdout holds. */
  err(text: string): void {
    this.flush();
    this.os.sys.writeAll(2, bytes(text));
  }

  flush(): void {
    this.out.flush();
    if (this.out !== this.stdout) this.stdout.flush();
  }

  /** The open database, opened on first use like open_db(); a file that cannot be opened ends the program. */
  db(): DbFile {
    if (this.dbFile) return this.dbFile;
    try {
      this.dbFile = DbFile.open(this.e, this.os.sys, jsString(this.dbName), this.readonly);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      this.err(`Error: unable to open database "${this.dbName}": unable to open database file\n`);
      throw new ShellExit(1);
    }
    return this.dbFile;
  }

  /** The database file's path for .databases ('' in memory). */
  dbPath(): string {
    return this.dbFile?.path ? utf8(this.dbFile.path) : '';
  }

  /** The output file's name for .show. */
  outName(): string {
    return this.outFile ?? 'stdout';
  }

  /** Close the current database (writing it back) and name another, opened on next use. */
  reopen(name: string, readonly: boolean): void {
    this.close();
    this.dbName = name;
    this.readonly = readonly;
  }

  /** Write the database back if it changed. */
  sync(): void {
    this.pending = false;
    this.lastSync = Date.now();
    this.dbFile?.sync();
  }

  /**
   * After a batch read from input: write back now if a second has passed,
   * else when the input runs dry (see beforeRead) or at the end. A script
   * of many small transactions so costs one file write, not one per commit.
   */
  syncSoon(): void {
    this.pending = true;
    if (Date.now() - this.lastSync >= 1000) this.sync();
  }

  /** Before reading more input from fd: write back if a batch waits and the read may block. */
  beforeRead(fd: number): void {
    if (!this.pending) return;
    try {
      if (this.os.sys.poll([[fd, POLLIN]], 0).length > 0) return;
    } catch {
      // cannot poll: write now
    }
    this.sync();
  }

  close(): void {
    if (!this.dbFile) return;
    this.dbFile.sync();
    this.dbFile.close();
    this.dbFile = null;
  }

  /** Send output to a file (null: back to stdout); `once` for a single command. */
  redirect(path: string | null, once = false): void {
    this.endRedirect();
    if (path === null) return;
    this.outFd = this.os.sys.open(jsString(path), O_WRONLY | O_CREAT | O_TRUNC, 0o666);
    this.out = new Writer(this.os.sys, this.outFd);
    this.outFile = path;
    this.once = once;
  }

  private endRedirect(): void {
    if (this.out === this.stdout) return;
    this.out.flush();
    this.os.sys.close(this.outFd);
    this.out = this.stdout;
    this.outFile = null;
    this.once = false;
  }

  /** After each command: a .once redirection ends. */
  afterCommand(): void {
    if (this.once) this.endRedirect();
  }

  /**
   * shell_exec: run every statement of `sql` in order, stopping at the first
   * error. Returns null or the error as "in prepare, ..." / "stepping, ...",
   * with the sqlite result code.
   */
  exec(sql: string): { msg: string; rc: number } | null {
    const db = this.db().handle;
    const base = this.e.alloc(sql);
    try {
      let off = 0;
      while (off < sql.length) {
        let stmt: number;
        let tail: number;
        try {
          ({ stmt, tail } = this.e.prepare(db, base + off, sql.length - off));
        } catch (err) {
          if (!(err instanceof SqliteError)) throw err;
          const rest = sql.slice(off);
          const code = err.code > 1 ? ` (${err.code})` : '';
          return { msg: `in prepare, ${err.message}${code}${errorContext(rest, errorOffset(this.e, db, rest, err.message))}`, rc: err.code };
        }
        off = tail - base;
        if (stmt) {
          try {
            render(this.e, stmt, this.s, this);
          } catch (err) {
            this.e.finalize(stmt);
            throw err;
          }
          // finalize() returns the error of the step that failed, if any.
          const rc = this.e.finalize(stmt);
          if (rc !== 0) {
            const msg = this.e.errmsg(db);
            return { msg: `stepping, ${msg}${rc > 1 ? ` (${rc})` : ''}`, rc };
          }
        }
        while (off < sql.length && /[ \t\n\v\f\r]/.test(sql[off])) off++;
      }
      return null;
    } finally {
      this.e.free(base);
    }
  }

  /** runOneSqlLine: run a batch read from input, report an error (with its line if `withLine`). Returns false on error. */
  runBatch(sql: string, startLine: number, withLine: boolean): boolean {
    const r = this.exec(sql);
    this.syncSoon();
    if (r) {
      let type = 'Error';
      let tail = r.msg;
      if (tail.startsWith('in prepare, ')) [type, tail] = ['Parse error', tail.slice(12)];
      else if (tail.startsWith('stepping, ')) [type, tail] = ['Runtime error', tail.slice(10)];
      const prefix = withLine ? `${type} near line ${startLine}:` : `${type}:`;
      this.err(`${prefix} ${tail}\n`);
      return false;
    }
    if (this.countChanges) this.printChanges();
    return true;
  }

  printChanges(): void {
    const db = this.db().handle;
    const total = this.query('SELECT total_changes()')[0]?.[0] ?? '0';
    this.write(`changes: ${this.e.changes(db)}   total_changes: ${total}\n`);
  }

  /** Run a query for the shell's own use; rows of column texts (null for NULL). Throws SqliteError. */
  query(sql: string, binds: string[] = []): (string | null)[][] {
    const db = this.db().handle;
    const p = this.e.alloc(sql);
    const rows: (string | null)[][] = [];
    try {
      let off = 0;
      while (off < sql.length) {
        const { stmt, tail } = this.e.prepare(db, p + off, sql.length - off);
        off = tail - p;
        if (!stmt) continue;
        try {
          binds.forEach((b, i) => this.e.bindText(stmt, i + 1, b));
          let rc: number;
          while ((rc = this.e.step(stmt)) === SQLITE_ROW) {
            const n = this.e.columnCount(stmt);
            const row: (string | null)[] = [];
            for (let i = 0; i < n; i++) row.push(this.e.columnType(stmt, i) === SQLITE_NULL ? null : this.e.columnText(stmt, i));
            rows.push(row);
          }
          if (rc !== SQLITE_DONE) throw new SqliteError(this.e.errmsg(db));
        } finally {
          this.e.finalize(stmt);
        }
      }
    } finally {
      this.e.free(p);
    }
    return rows;
  }

  /**
   * process_input: read lines, gather them into complete statements, run
   * dot-commands. Returns the number of errors; stops early on .quit (status
   * 2 from `meta`) or, with .bail, at the first error.
   */
  processInput(lines: Lines, fromFile: boolean, meta: (line: string) => number): { errors: number; quit: boolean } {
    let errors = 0;
    let sql = '';
    let startLine = 0;
    let lineNo = 0;
    let scan = SCAN_START;
    const prompt = (more: boolean) => {
      if (this.interactive && !fromFile) {
        this.write(more ? '   ...> ' : 'sqlite> ');
        this.flush();
      }
    };
    while (errors === 0 || !this.bail || (this.interactive && !fromFile)) {
      prompt(sql.length > 0);
      const next = lines.next();
      if (next.done) break;
      let line = next.value;
      lineNo++;
      if (!scan.wait && isCommandTerminator(line) && isComplete(`${sql};`)) line = ';';
      scan = quickscan(line, scan);
      if (!scan.wait && !scan.dark && sql.length === 0) {
        if (this.echo) this.write(`${line}\n`);
        scan = SCAN_START;
        continue;
      }
      if (sql.length === 0 && (line[0] === '.' || line[0] === '#')) {
        if (this.echo) this.write(`${line}\n`);
        if (line[0] === '.') {
          const rc = meta(line);
          this.afterCommand();
          if (rc === 2) return { errors, quit: true };
          if (rc) errors++;
        }
        scan = SCAN_START;
        continue;
      }
      if (sql.length === 0) {
        sql = line.replace(/^[ \t\n\v\f\r]+/, '');
        startLine = lineNo;
      } else sql += `\n${line}`;
      if (!scan.wait && scan.semi && isComplete(sql)) {
        if (this.echo) this.write(`${sql}\n`);
        if (!this.runBatch(sql, startLine, fromFile || !this.interactive)) errors++;
        this.afterCommand();
        sql = '';
        scan = SCAN_START;
      } else if (!scan.wait && !scan.dark) {
        if (this.echo) this.write(`${sql}\n`);
        sql = '';
        scan = SCAN_START;
      }
    }
    if (sql.length > 0 && (errors === 0 || !this.bail)) {
      if (this.echo) this.write(`${sql}\n`);
      if (!this.runBatch(sql, startLine, fromFile || !this.interactive)) errors++;
      this.afterCommand();
    }
    return { errors, quit: false };
  }
}

// The database file in the VFS. sql.js keeps the live database in its own
// in-memory filesystem; we load the VFS file into it when opening and write
// it back whenever a batch of statements committed a change: the bytes go to
// a temporary file beside the target, which is then renamed over it, so a
// reader (or a crash) sees the old file or the new one, never a torn one.
//
// A change is noticed with a second connection to the same in-memory file:
// its PRAGMA data_version moves when the main connection commits. While a
// write transaction is open the copy (sql.js's backup-based export) refuses,
// so the file is written once the transaction ends — and never if it is
// rolled back or left open at exit, as with the real sqlite3.

import { Errno, SysError } from '../../../abi/errno.js';
import { O_CREAT, O_EXCL, O_WRONLY } from '../../../abi/fcntl.js';
import type { SqlJsDatabase } from 'sql.js/dist/sql-wasm-browser.js';
import type { Sys } from '../../../libc/sys.js';
import { SQLITE_ROW, type Engine, utf8 } from './engine.js';

export class DbFile {
  private monitor = 0;
  private version = -1;
  private dirty = false;

  private constructor(
    private readonly e: Engine,
    private readonly sys: Sys,
    readonly db: SqlJsDatabase,
    /** The VFS file (resolved through symlinks), or null for an in-memory database. */
    readonly path: string | null,
    private readonly readonly: boolean,
  ) {}

  /** The sqlite3* handle of the connection. */
  get handle(): number {
    return this.db.db;
  }

  /**
   * Open `name` ('' or ':memory:' for an in-memory database). A missing file
   * is created empty, like sqlite3_open does. Throws SysError for files that
   * cannot be read.
   */
  static open(e: Engine, sys: Sys, name: string, readonly: boolean): DbFile {
    if (name === '' || name === ':memory:') return new DbFile(e, sys, e.database(null), null, true);
    let path = name;
    let data: Uint8Array | null = null;
    try {
      path = sys.realpath(name);
      data = sys.readFile(path);
    } catch (err) {
      if (!(err instanceof SysError) || err.errno !== Errno.ENOENT || readonly) throw err;
      // A dangling symlink names the file to create.
      try {
        path = resolveLink(sys, name);
        sys.close(sys.open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644));
      } catch (e2) {
        if (!(e2 instanceof SysError) || e2.errno !== Errno.EEXIST) throw e2;
      }
    }
    const f = new DbFile(e, sys, e.database(data && data.length ? data : null), path, readonly);
    // sql.js cannot open read-only: query_only makes writes fail with SQLITE_READONLY all the same.
    if (readonly) f.pragma(f.handle, 'PRAGMA query_only = 1');
    else {
      f.monitor = e.openRaw(utf8(f.db.filename));
      f.version = f.dataVersion();
    }
    return f;
  }

  private dataVersion(): number {
    return this.pragma(this.monitor, 'PRAGMA data_version');
  }

  /** Run a PRAGMA on a connection; its first value as a number (-1 if none). */
  private pragma(db: number, sql: string): number {
    const p = this.e.alloc(sql);
    try {
      const { stmt } = this.e.prepare(db, p, sql.length);
      try {
        return this.e.step(stmt) === SQLITE_ROW ? this.e.columnDouble(stmt, 0) : -1;
      } finally {
        this.e.finalize(stmt);
      }
    } finally {
      this.e.free(p);
    }
  }

  /** After a batch: write the file back if a change was committed and no write transaction is open. */
  sync(): void {
    if (!this.path || this.readonly) return;
    const v = this.dataVersion();
    if (v !== this.version) {
      this.version = v;
      this.dirty = true;
    }
    if (!this.dirty) return;
    let data: Uint8Array;
    try {
      data = this.db.export();
    } catch {
      return; // a write transaction is open: its commit is seen later
    }
    this.version = this.dataVersion();
    writeAtomically(this.sys, this.path, data);
    this.dirty = false;
  }

  close(): void {
    if (this.monitor) this.e.close(this.monitor);
    this.db.close();
  }
}

/** Follow symlinks of a path whose final target does not exist yet. */
function resolveLink(sys: Sys, name: string): string {
  let p = name;
  for (let i = 0; i < 40; i++) {
    let target: string;
    try {
      target = sys.readlink(p);
    } catch {
      return p;
    }
    p = target.startsWith('/') ? target : p.slice(0, p.lastIndexOf('/') + 1) + target;
  }
  throw new SysError(Errno.ELOOP);
}

/** Replace `path` with `data`: a temporary file in the same directory, then rename(2). */
function writeAtomically(sys: Sys, path: string, data: Uint8Array): void {
  const slash = path.lastIndexOf('/');
  const dir = slash < 0 ? '' : path.slice(0, slash + 1);
  let mode = -1;
  try {
    mode = sys.stat(path).mode & 0o7777;
  } catch {
    // a new file: 0644 less the umask
  }
  for (let n = 0; ; n++) {
    const tmp = `${dir}.${path.slice(slash + 1)}.${sys.getpid()}-${n}.tmp`;
    let fd: number;
    try {
      fd = sys.open(tmp, O_WRONLY | O_CREAT | O_EXCL, mode < 0 ? 0o644 : mode);
    } catch (e) {
      if (e instanceof SysError && e.errno === Errno.EEXIST && n < 100) continue;
      throw e;
    }
    try {
      try {
        sys.writeAll(fd, data);
      } finally {
        sys.close(fd);
      }
      if (mode >= 0) sys.chmod(tmp, mode);
      sys.rename(tmp, path);
    } catch (e) {
      try {
        sys.unlink(tmp);
      } catch {
        // already gone
      }
      throw e;
    }
    return;
  }
}

// SQLite itself: sql.js (SQLite compiled to WebAssembly) driven through its C
// API. The wasm ships in the package (share/sqlite3/sql-wasm.wasm) and is read
// from the VFS; its compiled WebAssembly.Module is kept per worker, keyed by
// the file's identity, so a pooled worker that runs sqlite3 again only
// instantiates it. Text crosses the boundary as "byte strings" (one char per
// byte) so SQL, values and messages keep their exact bytes, as in C.

import initSqlJs, { type SqlJsDatabase, type SqlJsStatic } from 'sql.js/dist/sql-wasm-browser.js';
import type { Sys } from '../../../libc/sys.js';

export const SQLITE_ROW = 100;
export const SQLITE_DONE = 101;
export const SQLITE_INTEGER = 1;
export const SQLITE_FLOAT = 2;
export const SQLITE_TEXT = 3;
export const SQLITE_BLOB = 4;
export const SQLITE_NULL = 5;

const CACHE = Symbol.for('agentos.sqlite3.wasm');
type ModuleCache = Map<string, { key: string; module: WebAssembly.Module }>;

/** Compile the wasm at `path`, or reuse this worker's compilation of the same file. */
function compiled(sys: Sys, path: string): WebAssembly.Module {
  const g = globalThis as unknown as Record<symbol, ModuleCache | undefined>;
  const cache = (g[CACHE] ??= new Map());
  const fd = sys.open(path);
  try {
    const st = sys.fstat(fd);
    const key = `${st.dev}:${st.ino}:${st.mtimeMs}:${st.size}`;
    const hit = cache.get(path);
    if (hit?.key === key) return hit.module;
    const module = new WebAssembly.Module(sys.readAll(fd) as Uint8Array<ArrayBuffer>);
    cache.set(path, { key, module });
    return module;
  } finally {
    sys.close(fd);
  }
}

type Fn = (...args: number[]) => number;

/** A byte string from bytes. */
export function bstr(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}

/** Bytes from a byte string. */
export function bytes(s: string): Uint8Array {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
/** A JS string (argv, messages) as a UTF-8 byte string. */
export const utf8 = (s: string): string => bstr(enc.encode(s));
/** A byte string (e.g. a path) as the JS string system calls take. */
export const jsString = (s: string): string => dec.decode(bytes(s));

/** An error from SQLite: its message and result code. */
export class SqliteError extends Error {
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message);
  }
}

/** A prepared statement, or null for a tail that held only comments/space; `tail` is where the next one starts. */
export interface Prepared {
  stmt: number;
  tail: number;
}

export class Engine {
  private readonly f: Record<string, Fn> = {};
  private view = new Uint8Array(0);
  /** Two scratch words for out-parameters. */
  private readonly out: number;

  private constructor(
    readonly sql: SqlJsStatic,
    private readonly memory: WebAssembly.Memory,
  ) {
    const sigs: Record<string, number> = {
      sqlite3_open: 2, sqlite3_close_v2: 1, sqlite3_prepare_v2: 5, sqlite3_step: 1, sqlite3_finalize: 1,
      sqlite3_reset: 1, sqlite3_column_count: 1, sqlite3_column_name: 2, sqlite3_column_type: 2,
      sqlite3_column_text: 2, sqlite3_column_blob: 2, sqlite3_column_bytes: 2, sqlite3_column_double: 2,
      sqlite3_errmsg: 1, sqlite3_changes: 1, sqlite3_bind_text: 5,
      sqlite3_clear_bindings: 1,
    };
    for (const [name, n] of Object.entries(sigs)) {
      this.f[name] = sql.cwrap(name, 'number', Array(n).fill('number')) as Fn;
    }
    this.out = sql._malloc(8);
  }

  static async load(sys: Sys, wasmPath: string): Promise<Engine> {
    const module = compiled(sys, wasmPath);
    let memory: WebAssembly.Memory | undefined;
    const sql = await initSqlJs({
      instantiateWasm(imports, done) {
        const instance = new WebAssembly.Instance(module, imports);
        memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
        done(instance);
        return {};
      },
    });
    if (!memory) throw new Error('sql.js: the wasm exports no memory');
    return new Engine(sql, memory);
  }

  private heap(): Uint8Array {
    if (this.view.buffer !== this.memory.buffer) this.view = new Uint8Array(this.memory.buffer);
    return this.view;
  }

  private i32(ptr: number): number {
    const h = this.heap();
    return (h[ptr] | (h[ptr + 1] << 8) | (h[ptr + 2] << 16) | (h[ptr + 3] << 24)) >>> 0;
  }

  /** A NUL-terminated string (or `len` bytes) at ptr, as a byte string. */
  cstr(ptr: number, len = -1): string {
    if (ptr === 0) return '';
    const h = this.heap();
    let end = ptr + len;
    if (len < 0) for (end = ptr; h[end] !== 0; end++);
    return bstr(h.subarray(ptr, end));
  }

  /** Copy a byte string into the wasm heap, NUL-terminated; free it with free(). */
  alloc(s: string): number {
    const p = this.sql._malloc(s.length + 1);
    const h = this.heap();
    for (let i = 0; i < s.length; i++) h[p + i] = s.charCodeAt(i);
    h[p + s.length] = 0;
    return p;
  }

  free(p: number): void {
    this.sql._free(p);
  }

  /** A new database, empty or holding `data` (kept in sql.js's in-memory filesystem). */
  database(data: Uint8Array | null): SqlJsDatabase {
    return new this.sql.Database(data);
  }

  /** A second connection to a file of sql.js's filesystem. */
  openRaw(filename: string): number {
    const p = this.alloc(filename);
    try {
      const rc = this.f.sqlite3_open(p, this.out);
      const db = this.i32(this.out);
      if (rc !== 0) throw new SqliteError(this.errmsg(db), rc);
      return db;
    } finally {
      this.free(p);
    }
  }

  close(db: number): void {
    this.f.sqlite3_close_v2(db);
  }

  errmsg(db: number): string {
    return this.cstr(this.f.sqlite3_errmsg(db));
  }

  /** Prepare the first statement of the SQL at heap address `ptr` (n bytes); throws SqliteError. */
  prepare(db: number, ptr: number, n: number): Prepared {
    const rc = this.f.sqlite3_prepare_v2(db, ptr, n, this.out, this.out + 4);
    const stmt = this.i32(this.out);
    if (rc !== 0) {
      if (stmt) this.finalize(stmt);
      throw new SqliteError(this.errmsg(db), rc);
    }
    return { stmt, tail: this.i32(this.out + 4) };
  }

  step(stmt: number): number {
    return this.f.sqlite3_step(stmt);
  }

  reset(stmt: number): number {
    return this.f.sqlite3_reset(stmt);
  }

  finalize(stmt: number): number {
    return this.f.sqlite3_finalize(stmt);
  }

  columnCount(stmt: number): number {
    return this.f.sqlite3_column_count(stmt);
  }

  columnName(stmt: number, i: number): string {
    return this.cstr(this.f.sqlite3_column_name(stmt, i));
  }

  columnType(stmt: number, i: number): number {
    return this.f.sqlite3_column_type(stmt, i);
  }

  /** The value as sqlite3_column_text renders it (all its bytes, NULs included). */
  columnText(stmt: number, i: number): string {
    const p = this.f.sqlite3_column_text(stmt, i);
    return this.cstr(p, this.f.sqlite3_column_bytes(stmt, i));
  }

  columnBlob(stmt: number, i: number): string {
    const p = this.f.sqlite3_column_blob(stmt, i);
    return this.cstr(p, this.f.sqlite3_column_bytes(stmt, i));
  }

  columnDouble(stmt: number, i: number): number {
    return this.f.sqlite3_column_double(stmt, i);
  }

  changes(db: number): number {
    return this.f.sqlite3_changes(db);
  }

  /** Bind a byte string as TEXT (SQLITE_TRANSIENT: sqlite copies it). */
  bindText(stmt: number, i: number, s: string): void {
    const p = this.alloc(s);
    this.f.sqlite3_bind_text(stmt, i, p, s.length, -1);
    this.free(p);
  }

  clearBindings(stmt: number): void {
    this.f.sqlite3_clear_bindings(stmt);
  }
}

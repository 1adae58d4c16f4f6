// The part of sql.js (dist/sql-wasm-browser.js) the sqlite3 program uses.

declare module 'sql.js/dist/sql-wasm-browser.js' {
  export interface SqlJsDatabase {
    /** The sqlite3* handle. */
    db: number;
    /** The file in the module's in-memory filesystem that holds the database. */
    filename: string;
    /** The database file's bytes, copied with the backup API (the connection stays open). */
    export(): Uint8Array;
    close(): void;
  }
  export interface SqlJsStatic {
    Database: new (data?: Uint8Array | null) => SqlJsDatabase;
    cwrap(name: string, ret: 'number' | 'string' | null, args: ('number' | 'string')[]): (...args: (number | string)[]) => number;
    _malloc(n: number): number;
    _free(p: number): void;
  }
  export interface SqlJsConfig {
    instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void): object;
  }
  export default function initSqlJs(config: SqlJsConfig): Promise<SqlJsStatic>;
}

// The "^--- error here" lines the shell prints under a failing statement.
// sql.js does not export sqlite3_error_offset(), so the offset is found from
// the message: the token it names (for syntax errors, the occurrence at which
// a prefix of the statement fails the same way — the parser stops there).
// Messages SQLite 3.40 gives no offset for get no context.

import { SqliteError, type Engine } from './engine.js';
import { tokenize, type Token } from './complete.js';

/** The byte offset in `sql` of the error `msg`, or -1. */
export function errorOffset(e: Engine, db: number, sql: string, msg: string): number {
  let m = /^unrecognized token: "(.*)"$/s.exec(msg);
  if (m) return sql.indexOf(m[1]);
  const toks = (tokenize(sql) ?? []).filter((t) => t.kind !== 'space');
  const text = (t: Token) => sql.slice(t.start, t.end);
  m = /^near "(.*)": syntax error$/s.exec(msg);
  if (m) {
    const hits = toks.filter((t) => text(t) === m![1]);
    for (const t of hits) if (prepareError(e, db, sql.slice(0, t.end)) === msg) return t.start;
    return hits.length ? hits[0].start : -1;
  }
  m = /^(?:no such column|ambiguous column name): (.*)$/s.exec(msg);
  if (m) {
    const parts = m[1].split('.');
    for (let i = 0; i + 2 * (parts.length - 1) < toks.length; i++) {
      if (parts.every((p, j) => nameIs(text(toks[i + 2 * j]), p) && (j === 0 || text(toks[i + 2 * j - 1]) === '.'))) return toks[i].start;
    }
    return -1;
  }
  m = /^(?:no such function: (.*)|wrong number of arguments to function (.*)\(\))$/s.exec(msg);
  if (m) {
    const name = m[1] ?? m[2];
    const i = toks.findIndex((t, k) => nameIs(text(t), name) && toks[k + 1] && text(toks[k + 1]) === '(');
    return i < 0 ? -1 : toks[i].start;
  }
  return -1;
}

/** An identifier token (bare or quoted) spelling `name`, case-insensitively. */
function nameIs(tok: string, name: string): boolean {
  const bare = /^["`[]/.test(tok) ? tok.slice(1, -1) : tok;
  return bare.toLowerCase() === name.toLowerCase();
}

function prepareError(e: Engine, db: number, sql: string): string | null {
  const p = e.alloc(sql);
  try {
    const { stmt } = e.prepare(db, p, sql.length);
    if (stmt) e.finalize(stmt);
    return null;
  } catch (err) {
    if (err instanceof SqliteError) return err.message;
    throw err;
  } finally {
    e.free(p);
  }
}

/** The shell's context lines: the statement (a window of it) and a pointer to `offset`. */
export function errorContext(sql: string, offset: number): string {
  if (offset < 0) return '';
  let z = sql;
  let off = offset;
  let start = 0;
  while (off > 50) {
    off--;
    start++;
    while ((z.charCodeAt(start) & 0xc0) === 0x80) {
      start++;
      off--;
    }
  }
  z = z.slice(start);
  let len = z.length;
  if (len > 78) {
    len = 78;
    while ((z.charCodeAt(len) & 0xc0) === 0x80) len--;
  }
  const code = z.slice(0, len).replace(/[ \t\n\v\f\r]/g, ' ');
  return off < 25 ? `\n  ${code}\n  ${' '.repeat(off)}^--- error here` : `\n  ${code}\n  ${' '.repeat(off - 14)}error here ---^`;
}

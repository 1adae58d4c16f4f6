// .dump, .schema, .tables and .indexes: the schema and content as the shell prints them.

import { isComplete } from './complete.js';
import { needsQuote, quoteIdent, sqlString } from './format.js';
import type { Shell } from './shell.js';

const ident = (z: string): string => `"${z.replaceAll('"', '""')}"`;

/** printSchemaLine: a CREATE statement and its terminator, kept valid when it ends in a comment. */
function schemaLine(sql: string, tail: string): string {
  let z = sql;
  if (tail.startsWith(';') && (z.includes('/*') || z.includes('--'))) {
    for (const end of ['', '*/', '\n']) {
      if (isComplete(`${sql}${end};`)) {
        z = sql + end;
        break;
      }
    }
  }
  if (/^CREATE TABLE ['"]/.test(z)) return `CREATE TABLE IF NOT EXISTS ${z.slice(13)}${tail}`;
  return z + tail;
}

/** The view's column list as a comment, as shell_add_schema shows it. */
function fakeSchema(sh: Shell, schemaName: string | null, name: string): string {
  const cols = sh.query(`PRAGMA ${schemaName ? `${ident(schemaName)}.` : ''}table_info(${ident(name)})`).map((r) => quoteIdent(r[1] ?? ''));
  return `${quoteIdent(name)}(${cols.join(',')})`;
}

/** The statement for .schema: a schema prefix for attached databases, the view comment. */
function addSchema(sh: Shell, sql: string, schemaName: string | null, name: string): string {
  const m = /^CREATE (TABLE|INDEX|UNIQUE INDEX|VIEW|TRIGGER|VIRTUAL TABLE) /.exec(sql);
  if (!m) return sql;
  const head = `CREATE ${m[1]}`;
  let z = sql;
  if (schemaName) {
    const q = needsQuote(schemaName) && schemaName.toLowerCase() !== 'temp' ? ident(schemaName) : schemaName;
    z = `${head} ${q}.${sql.slice(head.length + 1)}`;
  }
  if (m[1] === 'VIEW') z += `\n/* ${fakeSchema(sh, schemaName, name)} */`;
  return z;
}

export function schema(sh: Shell, args: string[]): number {
  let pattern: string | null = null;
  let noSys = false;
  for (const a of args) {
    if (a === '--nosys' || a === '-nosys') noSys = true;
    else if (a === '--indent' || a === '-indent') continue;
    else if (a.startsWith('-')) {
      sh.err(`Unknown option "${a}" on ".schema"\n`);
      return 1;
    } else if (pattern === null) pattern = a;
    else {
      sh.err('Usage: .schema ?--indent? ?--nosys? ?LIKE-PATTERN?\n');
      return 1;
    }
  }
  const dbs = sh.query('PRAGMA database_list').map((r) => r[1] ?? '').filter((n) => n !== '');
  const parts = dbs.map((db, i) => {
    const quoted = needsQuote(db) ? ident(db) : db;
    return `SELECT sql, type, tbl_name, name, rowid, ${i + 1} AS snum, ${sqlString(db)} AS sname FROM ${quoted}.sqlite_schema`;
  });
  let where = '';
  if (pattern !== null) {
    const glob = /[*?[]/.test(pattern);
    where += `${pattern.includes('.') ? "lower(printf('%s.%s',sname,tbl_name))" : 'lower(tbl_name)'} ${glob ? 'GLOB' : 'LIKE'} ${sqlString(pattern)}${glob ? '' : " ESCAPE '\\' "} AND `;
  }
  if (noSys) where += "name NOT LIKE 'sqlite_%' AND ";
  const rows = sh.query(`SELECT sql, sname, name FROM (${parts.join(' UNION ALL ')}) WHERE ${where}sql IS NOT NULL ORDER BY snum, rowid`);
  for (const [sql, sname, name] of rows) {
    sh.write(schemaLine(addSchema(sh, sql ?? '', sname === 'main' ? null : sname, name ?? ''), ';\n'));
  }
  return 0;
}

/** .tables / .indexes: matching names in columns across an 80-character line. */
export function tableList(sh: Shell, a: string[], kind: 'table' | 'index'): number {
  const dbs = sh.query('PRAGMA database_list').map((r) => r[1]).filter((n): n is string => n !== null);
  if (a.length > 2 && kind === 'index') {
    sh.err('Usage: .indexes ?LIKE-PATTERN?\n');
    return 1;
  }
  const parts = dbs.map((db) => {
    const sel = db.toLowerCase() === 'main' ? 'SELECT name FROM ' : `SELECT ${sqlString(db)}||'.'||name FROM `;
    const filter = kind === 'table'
      ? " WHERE type IN ('table','view')   AND name NOT LIKE 'sqlite_%'   AND name LIKE ?1"
      : " WHERE type='index'   AND tbl_name LIKE ?1";
    return `${sel}${ident(db)}.sqlite_schema ${filter}`;
  });
  const names = sh.query(`${parts.join(' UNION ALL ')} ORDER BY 1`, [a[1] ?? '%']).map((r) => r[0] ?? '');
  if (names.length === 0) return 0;
  const max = Math.max(...names.map((n) => n.length));
  const cols = Math.max(1, Math.floor(80 / (max + 2)));
  const rows = Math.ceil(names.length / cols);
  for (let i = 0; i < rows; i++) {
    let line = '';
    for (let j = i; j < names.length; j += rows) line += (j < rows ? '' : '  ') + names[j].padEnd(max);
    sh.write(`${line}\n`);
  }
  return 0;
}

/** .dump ?OBJECTS?: the database (or the matching tables) as SQL. */
export function dump(sh: Shell, args: string[]): number {
  const likes: string[] = [];
  let dataOnly = false;
  let noSys = false;
  let newlines = false;
  for (const a of args) {
    const opt = a.replace(/^--/, '-');
    if (opt === '-data-only') dataOnly = true;
    else if (opt === '-nosys') noSys = true;
    else if (opt === '-newlines') newlines = true;
    else if (opt === '-preserve-rowids') continue;
    else if (a.startsWith('-')) {
      sh.err(`Unknown option "${a}" on ".dump"\n`);
      return 1;
    } else likes.push(`name LIKE ${sqlString(a)} ESCAPE '\\'`);
  }
  const like = likes.length ? likes.join(' OR ') : 'true';
  if (!dataOnly) sh.write('PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n');
  let errors = 0;
  let writableSchema = false;
  const tables = sh.query(`SELECT name, type, sql FROM sqlite_schema AS o WHERE (${like}) AND type=='table'  AND sql NOT NULL ORDER BY tbl_name='sqlite_sequence', rowid`);
  const saved = { ...sh.s };
  try {
    for (const [name, type, sql] of tables) {
      const table = name ?? '';
      if (table === 'sqlite_sequence' && !noSys) {
        if (!dataOnly) sh.write('DELETE FROM sqlite_sequence;\n');
      } else if (/^sqlite_stat.$/.test(table) && !noSys) {
        if (!dataOnly) sh.write('ANALYZE sqlite_schema;\n');
      } else if (table.startsWith('sqlite_')) continue;
      else if (dataOnly) {
        // rows only
      } else if ((sql ?? '').startsWith('CREATE VIRTUAL TABLE')) {
        if (!writableSchema) sh.write('PRAGMA writable_schema=ON;\n');
        writableSchema = true;
        sh.write(`INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)VALUES('table',${sqlString(table)},${sqlString(table)},0,${sqlString(sql ?? '')});\n`);
        continue;
      } else sh.write(schemaLine(sql ?? '', ';\n'));
      if (type !== 'table') continue;
      const cols = sh.query(`PRAGMA table_info(${ident(table)})`).map((r) => quoteIdent(r[1] ?? ''));
      Object.assign(sh.s, { mode: 'insert', headers: false, destTable: quoteIdent(table), newlines });
      if (sh.exec(`SELECT ${cols.join(',')} FROM ${quoteIdent(table)}`)) errors++;
    }
  } finally {
    Object.assign(sh.s, saved);
  }
  if (!dataOnly) {
    for (const [sql] of sh.query(`SELECT sql FROM sqlite_schema AS o WHERE (${like}) AND sql NOT NULL  AND type IN ('index','trigger','view')`)) {
      const z = sql ?? '';
      sh.write(`${z}${z.includes('--') ? '\n;\n' : ';\n'}`);
    }
  }
  if (writableSchema) sh.write('PRAGMA writable_schema=OFF;\n');
  if (!dataOnly) {
    sh.write(errors ? 'ROLLBACK; -- due to errors\n' : 'COMMIT;\n');
  }
  return 0;
}

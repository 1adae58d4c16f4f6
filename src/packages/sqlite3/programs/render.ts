// Running one prepared statement and printing its rows in the current output
// mode, byte for byte as the sqlite3 shell (3.40) prints them.

import { SQLITE_BLOB, SQLITE_FLOAT, SQLITE_INTEGER, SQLITE_NULL, SQLITE_ROW, SQLITE_TEXT, type Engine } from './engine.js';
import { altG, charWidth, csvField, hexBlob, htmlString, isNumber, jsonString, quoteIdent, sqlString, sqlStringEscaped } from './format.js';

export type Mode = 'ascii' | 'box' | 'csv' | 'column' | 'html' | 'insert' | 'json' | 'line' | 'list' | 'markdown' | 'quote' | 'table' | 'tabs' | 'tcl' | 'semi';

export interface Settings {
  mode: Mode;
  headers: boolean;
  colSep: string;
  rowSep: string;
  nullValue: string;
  /** The table name INSERT mode writes (quoted as needed). */
  destTable: string;
  /** .width: per column, negative for right-aligned; 0 automatic. */
  widths: number[];
  /** Columnar modes: wrap cells wider than this (0: never); at word boundaries if wordWrap. */
  wrap: number;
  wordWrap: boolean;
  /** Columnar modes show values as SQL literals. */
  quote: boolean;
  /** INSERT mode keeps newlines in strings (.dump --newlines) instead of replace(...,char(10)). */
  newlines: boolean;
}

/** Where the shell's output goes; text is a byte string. */
export interface Sink {
  write(s: string): void;
}

const COLUMNAR = new Set<Mode>(['column', 'table', 'box', 'markdown']);

/** C's "%s" of a value: text stops at the first NUL. */
const cstr = (z: string): string => {
  const i = z.indexOf('\0');
  return i < 0 ? z : z.slice(0, i);
};

/** Step `stmt` to the end, printing rows; returns the last sqlite3_step result. */
export function render(e: Engine, stmt: number, s: Settings, out: Sink): number {
  let rc = e.step(stmt);
  if (rc !== SQLITE_ROW) return rc;
  const n = e.columnCount(stmt);
  const names: string[] = [];
  for (let i = 0; i < n; i++) names.push(cstr(e.columnName(stmt, i)));
  if (COLUMNAR.has(s.mode)) return columnar(e, stmt, s, out, names);
  let count = 0;
  do {
    const types: number[] = [];
    const vals: (string | null)[] = [];
    for (let i = 0; i < n; i++) {
      const t = e.columnType(stmt, i);
      types.push(t);
      vals.push(t === SQLITE_NULL ? null : t === SQLITE_BLOB && (s.mode === 'insert' || s.mode === 'quote') ? '' : cstr(e.columnText(stmt, i)));
    }
    row(e, stmt, s, out, names, vals, types, count++);
    rc = e.step(stmt);
  } while (rc === SQLITE_ROW);
  if (s.mode === 'json') out.write(']\n');
  return rc;
}

function row(e: Engine, stmt: number, s: Settings, out: Sink, names: string[], vals: (string | null)[], types: number[], count: number): void {
  const n = names.length;
  const nv = (v: string | null): string => v ?? s.nullValue;
  switch (s.mode) {
    case 'line': {
      const w = Math.max(5, ...names.map((c) => c.length));
      if (count > 0) out.write(s.rowSep);
      for (let i = 0; i < n; i++) out.write(`${names[i].padStart(w)} = ${nv(vals[i])}${s.rowSep}`);
      return;
    }
    case 'list':
    case 'tabs':
    case 'ascii':
    case 'semi':
      if (count === 0 && s.headers && s.mode !== 'semi') out.write(names.join(s.colSep) + s.rowSep);
      out.write(s.mode === 'semi' ? `${vals.map(nv).join(s.colSep)};\n` : vals.map(nv).join(s.colSep) + s.rowSep);
      return;
    case 'html':
      if (count === 0 && s.headers) out.write(`<TR>${names.map((c) => `<TH>${htmlString(c)}</TH>\n`).join('')}</TR>\n`);
      out.write(`<TR>${vals.map((v) => `<TD>${htmlString(nv(v))}</TD>\n`).join('')}</TR>\n`);
      return;
    case 'tcl':
      if (count === 0 && s.headers) out.write(names.map(tclString).join(s.colSep) + s.rowSep);
      out.write(vals.map((v) => tclString(nv(v))).join(s.colSep) + s.rowSep);
      return;
    case 'csv':
      if (count === 0 && s.headers) out.write(names.map((c) => csvField(c, s.colSep)).join(s.colSep) + s.rowSep);
      out.write(vals.map((v) => (v === null ? s.nullValue : csvField(v, s.colSep))).join(s.colSep) + s.rowSep);
      return;
    case 'json': {
      const cells = names.map((c, i) => `${jsonString(c)}:${jsonValue(e, stmt, i, vals[i], types[i])}`);
      out.write(`${count === 0 ? '[{' : ',\n{'}${cells.join(',')}}`);
      return;
    }
    case 'quote': {
      if (count === 0 && s.headers) out.write(names.map(sqlString).join(s.colSep) + s.rowSep);
      out.write(vals.map((v, i) => sqlValue(e, stmt, i, v, types[i], false, true)).join(s.colSep) + s.rowSep);
      return;
    }
    case 'insert': {
      const cols = s.headers ? `(${names.map(quoteIdent).join(',')})` : '';
      out.write(`INSERT INTO ${s.destTable}${cols} VALUES(${vals.map((v, i) => sqlValue(e, stmt, i, v, types[i], true, s.newlines)).join(',')});\n`);
      return;
    }
    default:
      return;
  }
}

function jsonValue(e: Engine, stmt: number, i: number, v: string | null, type: number): string {
  if (v === null || type === SQLITE_NULL) return 'null';
  if (type === SQLITE_FLOAT) {
    const r = e.columnDouble(stmt, i);
    return r === Infinity ? '1e999' : r === -Infinity ? '-1e999' : altG(r);
  }
  if (type === SQLITE_BLOB) return jsonString(e.columnBlob(stmt, i));
  if (type === SQLITE_TEXT) return jsonString(v);
  return v;
}

/** A value as an SQL literal (quote and insert modes). */
function sqlValue(e: Engine, stmt: number, i: number, v: string | null, type: number, insert: boolean, newlines: boolean): string {
  const str = newlines ? sqlString : sqlStringEscaped;
  if (v === null || type === SQLITE_NULL) return 'NULL';
  if (type === SQLITE_TEXT) return str(v);
  if (type === SQLITE_INTEGER) return v;
  if (type === SQLITE_FLOAT) {
    const r = e.columnDouble(stmt, i);
    if (insert && Math.abs(r) === Infinity) return r > 0 ? '1e999' : '-1e999';
    if (insert && Number.isInteger(r) && Math.abs(r) < 2 ** 63) return `${BigInt(r)}.0`;
    return altG(r);
  }
  if (type === SQLITE_BLOB) return hexBlob(e.columnBlob(stmt, i));
  return isNumber(v) ? v : str(v);
}

/** A value as an SQL literal for the columnar modes' --quote. */
function quotedColumn(e: Engine, stmt: number, i: number): string {
  switch (e.columnType(stmt, i)) {
    case SQLITE_NULL: return 'NULL';
    case SQLITE_TEXT: return sqlString(cstr(e.columnText(stmt, i)));
    case SQLITE_BLOB: return `x'${hexBlob(e.columnBlob(stmt, i)).slice(2)}`;
    default: return cstr(e.columnText(stmt, i));
  }
}

function tclString(z: string): string {
  let s = '"';
  for (const c of z) {
    if (c === '\\' || c === '"') s += `\\${c}`;
    else if (c === '\t') s += '\\t';
    else if (c === '\n') s += '\\n';
    else if (c === '\r') s += '\\r';
    else if (c < ' ' || c === '\x7f') s += `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`;
    else s += c;
  }
  return `${s}"`;
}

/**
 * One display line of a cell for the columnar modes: at most `max` characters
 * (0: no limit), tabs expanded, stopping at a control character; `tail` is
 * what is left for the next line (null: nothing).
 */
function displayLine(z: string, max: number, wordWrap: boolean): { line: string; tail: string | null } {
  const mx = max === 0 ? 1_000_000 : Math.abs(max);
  let i = 0;
  let n = 0;
  while (n < mx && i < z.length) {
    const c = z.charCodeAt(i);
    if (c >= 0x20) {
      n++;
      do i++;
      while (i < z.length && (z.charCodeAt(i) & 0xc0) === 0x80);
    } else if (c === 9) {
      do n++;
      while ((n & 7) !== 0 && n < mx);
      i++;
    } else break;
  }
  let k = i;
  if (n >= mx && wordWrap) {
    const space = (j: number) => /\s/.test(z[j - 1] ?? '');
    const alnum = (j: number) => /[A-Za-z0-9]/.test(z[j] ?? '');
    for (k = i; k > i / 2 && !space(k); k--);
    if (k <= i / 2) for (k = i; k > i / 2 && !(alnum(k - 1) !== alnum(k) && (z.charCodeAt(k) & 0xc0) !== 0x80); k--);
    if (k <= i / 2) k = i;
    else {
      i = k;
      while (z[i] === ' ') i++;
    }
  }
  let tail: string | null;
  if (n >= mx && i < z.length && z.charCodeAt(i) >= 0x20) tail = z.slice(i);
  else if (z[i] === '\r' && z[i + 1] === '\n') tail = i + 2 < z.length ? z.slice(i + 2) : null;
  else if (i >= z.length || i + 1 >= z.length) tail = null;
  else tail = z.slice(i + 1);
  let line = '';
  let w = 0;
  for (let j = 0; j < k; ) {
    const c = z.charCodeAt(j);
    if (c >= 0x20) {
      w++;
      do line += z[j++];
      while (j < z.length && (z.charCodeAt(j) & 0xc0) === 0x80);
    } else if (c === 9) {
      do {
        w++;
        line += ' ';
      } while ((w & 7) !== 0 && w < mx);
      j++;
    } else break;
  }
  return { line, tail };
}

/** Pad (or cut) to |w| characters; negative w right-aligns. */
function fit(z: string, w: number): string {
  const n = charWidth(z);
  const aw = Math.abs(w);
  if (n > aw) {
    let out = '';
    let seen = 0;
    for (let i = 0; i < z.length; i++) {
      if ((z.charCodeAt(i) & 0xc0) !== 0x80 && ++seen > aw) break;
      out += z[i];
    }
    return out;
  }
  const pad = ' '.repeat(aw - n);
  return w < 0 ? pad + z : z + pad;
}

const center = (z: string, w: number): string => {
  const n = charWidth(z);
  return ' '.repeat(Math.floor((w - n) / 2)) + z + ' '.repeat(Math.floor((w - n + 1) / 2));
};

// Box-drawing characters as UTF-8 byte strings.
const utf = (s: string): string => String.fromCharCode(...new TextEncoder().encode(s));
const BOX = {
  h: utf('─'), v: utf('│'),
  top: ['┌', '┬', '┐'].map(utf), mid: ['├', '┼', '┤'].map(utf), bot: ['└', '┴', '┘'].map(utf),
};

function columnar(e: Engine, stmt: number, s: Settings, out: Sink, names: string[]): number {
  const n = names.length;
  const widthOf = (i: number) => s.widths[i] || s.wrap;
  const cells: string[] = names.map((c, i) => displayLine(c, widthOf(i), s.wordWrap).line);
  const rowDiv: boolean[] = [];
  let multi = false;
  let rc = SQLITE_ROW;
  let pending: (string | null)[] | null = null;
  do {
    const next: (string | null)[] = [];
    let more = false;
    rowDiv.push(true);
    for (let i = 0; i < n; i++) {
      let z: string;
      if (pending) z = pending[i] ?? '';
      else if (s.quote) z = quotedColumn(e, stmt, i);
      else z = e.columnType(stmt, i) === SQLITE_NULL ? s.nullValue : cstr(e.columnText(stmt, i));
      const d = displayLine(z, widthOf(i), s.wordWrap);
      cells.push(d.line);
      next.push(d.tail);
      if (d.tail !== null) more = true;
    }
    if (more) {
      rowDiv[rowDiv.length - 1] = false;
      multi = true;
      pending = next;
    } else {
      pending = null;
      rc = e.step(stmt);
    }
  } while (pending || rc === SQLITE_ROW);

  const widths = names.map((_, i) => Math.abs(s.widths[i] ?? 0));
  cells.forEach((c, i) => (widths[i % n] = Math.max(widths[i % n], charWidth(c))));
  const signed = (i: number) => ((s.widths[i] ?? 0) < 0 ? -widths[i] : widths[i]);
  const rule = (l: string, m: string, r: string, h: string) => l + widths.map((w) => h.repeat(w + 2)).join(m) + r + '\n';
  let colSep = '  ';
  let rowSep = '\n';
  let lead = '';
  let text = '';
  switch (s.mode) {
    case 'column':
      if (s.headers) {
        text += names.map((_, i) => fit(cells[i], signed(i))).join('  ') + '\n';
        text += widths.map((w) => '-'.repeat(w)).join('  ') + '\n';
      }
      break;
    case 'table':
      [colSep, rowSep, lead] = [' | ', ' |\n', '| '];
      text += rule('+', '+', '+', '-');
      text += `| ${names.map((_, i) => center(cells[i], widths[i])).join(' | ')} |\n`;
      text += rule('+', '+', '+', '-');
      break;
    case 'markdown':
      [colSep, rowSep, lead] = [' | ', ' |\n', '| '];
      text += `| ${names.map((_, i) => center(cells[i], widths[i])).join(' | ')} |\n`;
      text += rule('|', '|', '|', '-');
      break;
    default: {
      [colSep, rowSep, lead] = [` ${BOX.v} `, ` ${BOX.v}\n`, `${BOX.v} `];
      text += rule(BOX.top[0], BOX.top[1], BOX.top[2], BOX.h);
      text += `${BOX.v} ${names.map((_, i) => center(cells[i], widths[i])).join(` ${BOX.v} `)} ${BOX.v}\n`;
      text += rule(BOX.mid[0], BOX.mid[1], BOX.mid[2], BOX.h);
    }
  }
  out.write(text);
  const rows = cells.length / n;
  for (let r = 1; r < rows; r++) {
    let line = lead;
    for (let i = 0; i < n; i++) line += fit(cells[r * n + i], signed(i)) + (i === n - 1 ? '' : colSep);
    line += rowSep;
    if (multi && rowDiv[r - 1] && r + 1 < rows) {
      if (s.mode === 'table') line += rule('+', '+', '+', '-');
      else if (s.mode === 'box') line += rule(BOX.mid[0], BOX.mid[1], BOX.mid[2], BOX.h);
      else if (s.mode === 'column') line += '\n';
    }
    out.write(line);
  }
  if (s.mode === 'table') out.write(rule('+', '+', '+', '-'));
  else if (s.mode === 'box') out.write(rule(BOX.bot[0], BOX.bot[1], BOX.bot[2], BOX.h));
  return rc;
}

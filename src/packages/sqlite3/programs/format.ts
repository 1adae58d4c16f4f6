// How the sqlite3 shell spells values: SQL literals, CSV fields, JSON and
// HTML strings, hex blobs, its "%!.20g" doubles. All on byte strings.

/** 'text' with quotes doubled. */
export function sqlString(z: string): string {
  return `'${z.replaceAll("'", "''")}'`;
}

/** A string for an INSERT statement: newlines and CRs become char(10)/char(13) through replace(). */
export function sqlStringEscaped(z: string): string {
  if (!/[\n\r]/.test(z)) return sqlString(z);
  const nl = z.includes('\n') ? unused(z, '\\n', '\\012') : '';
  const cr = z.includes('\r') ? unused(z, '\\r', '\\015') : '';
  let body = z.replaceAll("'", "''");
  if (nl) body = body.replaceAll('\n', nl);
  if (cr) body = body.replaceAll('\r', cr);
  let s = `'${body}'`;
  if (cr) s = `replace(${s},'${cr}',char(13))`;
  if (nl) s = `replace(${s},'${nl}',char(10))`;
  return s;
}

/** A marker not found in z: a, else b, else "(N)". */
function unused(z: string, a: string, b: string): string {
  if (!z.includes(a)) return a;
  if (!z.includes(b)) return b;
  for (let i = 0; ; i++) if (!z.includes(`(${i})`)) return `(${i})`;
}

/** X'hex' for a blob. */
export function hexBlob(b: string): string {
  let s = "X'";
  for (let i = 0; i < b.length; i++) s += b.charCodeAt(i).toString(16).padStart(2, '0');
  return `${s}'`;
}

/** Bytes that make a CSV field quoted: control characters, space, '"', "'", DEL and any byte >= 0x80. */
const csvSpecial = (c: number): boolean => c <= 0x20 || c === 0x22 || c === 0x27 || c >= 0x7f;

/** A CSV field: quoted ("" doubling) if empty, if it holds special bytes or the separator. */
export function csvField(z: string, sep: string): string {
  let quote = z === '' || (sep !== '' && z.includes(sep));
  for (let i = 0; !quote && i < z.length; i++) quote = csvSpecial(z.charCodeAt(i));
  return quote ? `"${z.replaceAll('"', '""')}"` : z;
}

const JSON_ESC: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '"': '\\"', '\\': '\\\\' };

export function jsonString(z: string): string {
  let s = '"';
  for (const c of z) {
    const e = JSON_ESC[c];
    if (e) s += e;
    else if (c < ' ') s += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else s += c;
  }
  return `${s}"`;
}

const HTML_ESC: Record<string, string> = { '<': '&lt;', '&': '&amp;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function htmlString(z: string): string {
  return z.replace(/[<&>"']/g, (c) => HTML_ESC[c]);
}

/**
 * sqlite3_snprintf's "%!.Ng": N significant digits, trailing zeros dropped
 * but at least one digit after the point, exponent of at least two digits.
 */
export function altG(r: number, prec = 20): string {
  if (Number.isNaN(r)) return 'NaN';
  if (!Number.isFinite(r)) return r < 0 ? '-Inf' : 'Inf';
  if (r === 0) return '0.0';
  const [mant, ex] = r.toExponential(prec - 1).split('e');
  const exp = Number(ex);
  const neg = mant.startsWith('-');
  const digits = mant.replace(/^-/, '').replace('.', '');
  let s: string;
  if (exp < -4 || exp >= prec) {
    s = `${trimZeros(`${digits[0]}.${digits.slice(1)}`)}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  } else if (exp < 0) {
    s = trimZeros(`0.${'0'.repeat(-exp - 1)}${digits}`);
  } else {
    s = trimZeros(`${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`);
  }
  return neg ? `-${s}` : s;
}

function trimZeros(s: string): string {
  const t = s.replace(/0+$/, '');
  return t.endsWith('.') ? `${t}0` : t;
}

/** The shell's isNumber(): an optional sign, digits, an optional fraction and exponent. */
export function isNumber(z: string): boolean {
  return /^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$/.test(z);
}

/** Width in characters of UTF-8 text (continuation bytes do not count). */
export function charWidth(z: string): number {
  let n = 0;
  for (let i = 0; i < z.length; i++) if ((z.charCodeAt(i) & 0xc0) !== 0x80) n++;
  return n;
}

/** Identifiers the shell quotes with "..." (not a plain name, or a keyword). */
export function needsQuote(name: string): boolean {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return true;
  return KEYWORDS.has(name.toUpperCase());
}

/** `"name"` with quotes doubled when the name needs quoting, else the name. */
export function quoteIdent(name: string): string {
  return needsQuote(name) ? `"${name.replaceAll('"', '""')}"` : name;
}

// SQLite's keywords (sqlite3_keyword_name), for quoteIdent.
const KEYWORDS = new Set(
  (
    'ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH AUTOINCREMENT BEFORE BEGIN BETWEEN BY ' +
    'CASCADE CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT CONSTRAINT CREATE CROSS CURRENT CURRENT_DATE ' +
    'CURRENT_TIME CURRENT_TIMESTAMP DATABASE DEFAULT DEFERRABLE DEFERRED DELETE DESC DETACH DISTINCT DO DROP ' +
    'EACH ELSE END ESCAPE EXCEPT EXCLUDE EXCLUSIVE EXISTS EXPLAIN FAIL FILTER FIRST FOLLOWING FOR FOREIGN FROM ' +
    'FULL GENERATED GLOB GROUP GROUPS HAVING IF IGNORE IMMEDIATE IN INDEX INDEXED INITIALLY INNER INSERT INSTEAD ' +
    'INTERSECT INTO IS ISNULL JOIN KEY LAST LEFT LIKE LIMIT MATCH MATERIALIZED NATURAL NO NOT NOTHING NOTNULL ' +
    'NULL NULLS OF OFFSET ON OR ORDER OTHERS OUTER OVER PARTITION PLAN PRAGMA PRECEDING PRIMARY QUERY RAISE ' +
    'RANGE RECURSIVE REFERENCES REGEXP REINDEX RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK ROW ROWS ' +
    'SAVEPOINT SELECT SET TABLE TEMP TEMPORARY THEN TIES TO TRANSACTION TRIGGER UNBOUNDED UNION UNIQUE UPDATE ' +
    'USING VACUUM VALUES VIEW VIRTUAL WHEN WHERE WINDOW WITH WITHOUT'
  ).split(' '),
);

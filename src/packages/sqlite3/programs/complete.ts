// Where SQL statements end, the way the sqlite3 shell decides it: a tokenizer
// for SQL text, sqlite3_complete()'s rule (a statement ends at a `;` outside
// strings, comments and CREATE TRIGGER bodies), and the shell's per-line
// quick scan that says whether a buffered line can end a statement.

export type TokenKind = 'space' | 'semi' | 'word' | 'string' | 'other';

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
const isIdChar = (c: string): boolean => /[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) >= 0x80;
const NUMBER = /^(0[xX][0-9a-fA-F]+|[0-9]*\.?[0-9]*([eE][-+]?[0-9]+)?)/;
const OPERATORS = ['||', '<=', '>=', '!=', '==', '<>', '<<', '>>', '->'];

/**
 * Split SQL (a byte string) into tokens; comments count as space. Returns null
 * if a string, quoted name or block comment is left open.
 */
export function tokenize(s: string): Token[] | null {
  const out: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const start = i;
    const c = s[i];
    let kind: TokenKind;
    if (isSpace(c)) {
      while (i < s.length && isSpace(s[i])) i++;
      kind = 'space';
    } else if (c === '-' && s[i + 1] === '-') {
      while (i < s.length && s[i] !== '\n') i++;
      kind = 'space';
    } else if (c === '/' && s[i + 1] === '*') {
      const e = s.indexOf('*/', i + 2);
      if (e < 0) return null;
      i = e + 2;
      kind = 'space';
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      const e = s.indexOf(close, i + 1);
      if (e < 0) return null;
      i = e + 1;
      kind = 'string';
    } else if (c === ';') {
      i++;
      kind = 'semi';
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(s[i + 1] ?? ''))) {
      i += NUMBER.exec(s.slice(i, i + 400))![0].length;
      while (i < s.length && isIdChar(s[i])) i++;
      kind = 'other';
    } else if (isIdChar(c)) {
      while (i < s.length && isIdChar(s[i])) i++;
      kind = 'word';
    } else {
      i += OPERATORS.includes(s.slice(i, i + 2)) ? 2 : 1;
      kind = 'other';
    }
    out.push({ kind, start, end: i });
  }
  return out;
}

// sqlite3_complete's states and the token classes it distinguishes.
const enum St { Invalid, Start, Normal, Explain, Create, Trigger, Semi, End }
const enum Tk { Semi, Ws, Other, Explain, Create, Temp, Trigger, End }

const NEXT: readonly (readonly St[])[] = [
  /* Invalid */ [St.Start, St.Invalid, St.Normal, St.Explain, St.Create, St.Normal, St.Normal, St.Normal],
  /* Start   */ [St.Start, St.Start, St.Normal, St.Explain, St.Create, St.Normal, St.Normal, St.Normal],
  /* Normal  */ [St.Start, St.Normal, St.Normal, St.Normal, St.Normal, St.Normal, St.Normal, St.Normal],
  /* Explain */ [St.Start, St.Explain, St.Explain, St.Normal, St.Create, St.Normal, St.Normal, St.Normal],
  /* Create  */ [St.Start, St.Create, St.Normal, St.Normal, St.Normal, St.Create, St.Trigger, St.Normal],
  /* Trigger */ [St.Semi, St.Trigger, St.Trigger, St.Trigger, St.Trigger, St.Trigger, St.Trigger, St.Trigger],
  /* Semi    */ [St.Semi, St.Semi, St.Trigger, St.Trigger, St.Trigger, St.Trigger, St.Trigger, St.End],
  /* End     */ [St.Start, St.End, St.Trigger, St.Trigger, St.Trigger, St.Trigger, St.Trigger, St.Trigger],
];

const KEYWORDS: Record<string, Tk> = {
  explain: Tk.Explain, create: Tk.Create, temp: Tk.Temp, temporary: Tk.Temp, trigger: Tk.Trigger, end: Tk.End,
};

/** sqlite3_complete(): the text ends with a complete statement. */
export function isComplete(s: string): boolean {
  const toks = tokenize(s);
  if (!toks) return false;
  let st = St.Invalid;
  for (const t of toks) {
    let tk: Tk;
    if (t.kind === 'space') tk = Tk.Ws;
    else if (t.kind === 'semi') tk = Tk.Semi;
    else if (t.kind === 'word') tk = KEYWORDS[s.slice(t.start, t.end).toLowerCase()] ?? Tk.Other;
    else tk = Tk.Other;
    st = NEXT[st][tk];
  }
  return st === St.Start;
}

/**
 * The shell's quick scan state across lines: what it waits for (a closing
 * quote or the end of a block comment), whether non-space text was seen and
 * whether the last of it was a `;`.
 */
export interface Scan {
  wait: string;
  dark: boolean;
  semi: boolean;
}

export const SCAN_START: Scan = { wait: '', dark: false, semi: false };

export function quickscan(line: string, from: Scan): Scan {
  let { wait, dark, semi } = from;
  let i = 0;
  while (i < line.length) {
    const c = line[i++];
    if (wait) {
      if (c !== wait) continue;
      if (wait === '*') {
        if (line[i] !== '/') continue;
        i++;
      } else if (wait !== ']' && line[i] === wait) {
        i++;
        continue;
      }
      wait = '';
      continue;
    }
    if (isSpace(c)) continue;
    if (c === '-' && line[i] === '-') {
      const nl = line.indexOf('\n', i);
      if (nl < 0) break;
      i = nl + 1;
      continue;
    }
    if (c === ';') {
      semi = true;
      continue;
    }
    if (c === '/' && line[i] === '*') {
      i++;
      wait = '*';
      continue;
    }
    if (c === '[' || c === '`' || c === "'" || c === '"') {
      wait = c === '[' ? ']' : c;
      dark = true;
      semi = false;
      continue;
    }
    dark = true;
    semi = false;
  }
  return { wait, dark, semi };
}

/** A line holding only "/" (Oracle) or "go" (SQL Server) ends the statement. */
export function isCommandTerminator(line: string): boolean {
  const m = /^[ \t\n\r\f\v]*(\/|[gG][oO])/.exec(line);
  if (!m) return false;
  const rest = quickscan(line.slice(m[0].length), SCAN_START);
  return !rest.wait && !rest.dark && !rest.semi;
}

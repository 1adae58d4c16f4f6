// The intermediate form of an expanded word: pieces of text that remember how
// they were quoted, and field splitting over them by IFS.
import type { Pattern } from './pattern.js';

/**
 * lit    unquoted literal text: globbed, never split
 * exp    result of an unquoted expansion: split by IFS, then globbed
 * q      quoted text: neither (an empty `q` piece still makes a field exist: `""`)
 * break  a field boundary that `"$@"` / `"${a[@]}"` put between elements
 */
export interface Piece {
  text: string;
  kind: 'lit' | 'exp' | 'q' | 'break';
}

export const BREAK: Piece = { text: '', kind: 'break' };

export const joinPieces = (ps: Piece[]): string => {
  let s = '';
  for (const p of ps) s += p.text;
  return s;
};

/** Pieces as a pattern: quoted pieces match literally. */
export const piecesToPattern = (ps: Piece[]): Pattern =>
  ps.filter((p) => p.kind !== 'break').map((p) => ({ text: p.text, quoted: p.kind === 'q' }));

const isIfsSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n';

/**
 * Splits pieces into fields. IFS whitespace runs delimit fields and are trimmed
 * at the edges; any other IFS character delimits one field each, absorbing the
 * whitespace around it. Fields with no text and no quoted piece disappear.
 */
export function splitFields(pieces: Piece[], ifs: string): Piece[][] {
  const out: Piece[][] = [];
  let cur: Piece[] = [];
  let started = false;
  // 0: inside or before a field; 1: after a whitespace delimiter; 2: after a non-whitespace one.
  let state = 0;
  const emit = (): void => {
    out.push(cur);
    cur = [];
    started = false;
  };
  for (const p of pieces) {
    if (p.kind === 'break') {
      if (started) emit();
      state = 0;
      continue;
    }
    if (p.kind !== 'exp' || ifs === '') {
      if (p.text !== '' || p.kind === 'q') {
        cur.push(p);
        started = true;
        state = 0;
      }
      continue;
    }
    const t = p.text;
    let from = 0;
    for (let k = 0; k < t.length; k++) {
      const c = t[k];
      if (!ifs.includes(c)) continue;
      if (k > from) {
        cur.push({ text: t.slice(from, k), kind: 'exp' });
        started = true;
      }
      from = k + 1;
      if (isIfsSpace(c)) {
        if (started) {
          emit();
          state = 1;
        }
      } else if (started) {
        emit();
        state = 2;
      } else if (state === 1) {
        state = 2;
      } else {
        // Two non-whitespace delimiters in a row, or one at the start: an empty field.
        out.push([]);
        state = 2;
      }
    }
    if (from < t.length) {
      cur.push(from === 0 ? p : { text: t.slice(from), kind: 'exp' });
      started = true;
      state = 0;
    }
  }
  if (started) emit();
  return out;
}

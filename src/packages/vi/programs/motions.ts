// Cursor motions over lines of text: words (w b e, vi's three character
// classes: blanks, word characters, other punctuation; an empty line counts
// as a word), first non-blank, and searches with a JavaScript RegExp.

import type { Pos } from './buffer.js';

/** 0 blank (and the end of a non-empty line), 1 word character, 2 punctuation, 3 an empty line. */
function cls(lines: string[], p: Pos): number {
  const line = lines[p.y];
  if (p.x >= line.length) return line.length === 0 ? 3 : 0;
  const c = line[p.x];
  if (c === ' ' || c === '\t') return 0;
  return /\w/.test(c) ? 1 : 2;
}

/** The next character position (the end of each line counts once); null at the end of the text. */
function next(lines: string[], p: Pos): Pos | null {
  if (p.x < lines[p.y].length) return { y: p.y, x: p.x + 1 };
  return p.y + 1 < lines.length ? { y: p.y + 1, x: 0 } : null;
}

function prev(lines: string[], p: Pos): Pos | null {
  if (p.x > 0) return { y: p.y, x: Math.max(0, Math.min(p.x, lines[p.y].length) - 1) };
  return p.y > 0 ? { y: p.y - 1, x: lines[p.y - 1].length } : null;
}

/** w: the start of the next word. */
export function wordForward(lines: string[], p: Pos): Pos {
  const c = cls(lines, p);
  let q: Pos | null = p;
  if (c === 3) q = next(lines, q);
  else if (c !== 0) while (q && cls(lines, q) === c) q = next(lines, q);
  while (q && cls(lines, q) === 0) q = next(lines, q);
  if (q) return q;
  const y = lines.length - 1;
  return { y, x: lines[y].length };
}

/** e: the end of this or the next word. */
export function wordEnd(lines: string[], p: Pos): Pos {
  let q = next(lines, p);
  while (q && (cls(lines, q) === 0 || cls(lines, q) === 3)) q = next(lines, q);
  if (!q) return p;
  const c = cls(lines, q);
  for (;;) {
    const n = next(lines, q);
    if (!n || n.y !== q.y || cls(lines, n) !== c) return q;
    q = n;
  }
}

/** b: the start of this or the previous word. */
export function wordBack(lines: string[], p: Pos): Pos {
  let q = prev(lines, p);
  while (q && cls(lines, q) === 0) q = prev(lines, q);
  if (!q) return { y: 0, x: 0 };
  const c = cls(lines, q);
  if (c === 3) return q;
  for (;;) {
    const n = prev(lines, q);
    if (!n || n.y !== q.y || cls(lines, n) !== c) return q;
    q = n;
  }
}

/** ^: the first non-blank of a line (its last character when all blank). */
export function firstNonBlank(line: string): number {
  const m = /^[ \t]*/.exec(line)![0].length;
  return m < line.length ? m : Math.max(0, line.length - 1);
}

/** The next (or previous) match of `re` from `p`, wrapping around; whether it wrapped. */
export function search(lines: string[], re: RegExp, p: Pos, back: boolean): { pos: Pos; wrapped: boolean } | null {
  const n = lines.length;
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
  const matchesIn = (y: number): number[] => {
    const xs: number[] = [];
    g.lastIndex = 0;
    for (let m = g.exec(lines[y]); m; m = g.exec(lines[y])) {
      xs.push(m.index);
      if (m[0] === '') g.lastIndex++;
      if (g.lastIndex > lines[y].length) break;
    }
    return xs;
  };
  for (let i = 0; i <= n; i++) {
    const y = back ? (p.y - i + n * 2) % n : (p.y + i) % n;
    const wrapped = back ? p.y - i < 0 : p.y + i >= n;
    let xs = matchesIn(y);
    if (i === 0) xs = xs.filter((x) => (back ? x < p.x : x > p.x));
    if (i === n) xs = xs.filter((x) => (back ? x >= p.x : x <= p.x));
    if (xs.length) return { pos: { y, x: back ? xs[xs.length - 1] : xs[0] }, wrapped: wrapped || i === n };
  }
  return null;
}

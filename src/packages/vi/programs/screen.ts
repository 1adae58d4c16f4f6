// Drawing the editor on an ANSI terminal: text rows (long lines wrap, as
// vim's default), `~` past the end, and the bottom line for messages, the
// command being typed and the ruler. Only rows that changed since the last
// frame are rewritten.

import type { Pos } from './buffer.js';

export interface View {
  lines: string[];
  top: number;
  cur: Pos;
  /** Insert mode: the cursor may sit past the last character. */
  insert: boolean;
  number: boolean;
  /** The bottom line's left part (a message or the command line), and whether the cursor goes there. */
  bottom: string;
  onBottom: boolean;
  ruler: string;
}

/** How a character shows: tabs to the next multiple of 8, control characters as ^X. */
function cells(ch: string, col: number): string {
  if (ch === '\t') return ' '.repeat(8 - (col % 8));
  const c = ch.codePointAt(0)!;
  if (c < 0x20) return '^' + String.fromCharCode(c + 64);
  if (c === 0x7f) return '^?';
  return ch;
}

/** A line as it shows, and the screen column where each character starts (one more for the end). */
export function layout(line: string): { text: string; starts: number[] } {
  let text = '';
  const starts: number[] = [];
  for (const ch of line) {
    starts.push(text.length);
    for (let k = 1; k < ch.length; k++) starts.push(text.length);
    text += cells(ch, text.length);
  }
  starts.push(text.length);
  return { text, starts };
}

export function numberWidth(lines: number): number {
  return Math.max(4, String(lines).length + 1);
}

/** Screen rows a line takes at this width. */
export function rowsOf(line: string, width: number): number {
  return Math.max(1, Math.ceil(layout(line).text.length / width));
}

export class Screen {
  private prev: string[] = [];

  constructor(
    public rows: number,
    public cols: number,
  ) {}

  /** Forget what is on the screen: the next frame redraws everything. */
  invalidate(): string {
    this.prev = [];
    return '\x1b[H\x1b[2J';
  }

  /** The text area's width (less the number column). */
  width(v: Pick<View, 'number' | 'lines'>): number {
    return Math.max(1, this.cols - (v.number ? numberWidth(v.lines.length) : 0));
  }

  /** A top line that keeps the cursor's line wholly in the text rows. */
  scroll(v: View): number {
    const w = this.width(v);
    const area = this.rows - 1;
    let top = Math.min(v.top, v.cur.y);
    let used = 0;
    for (let y = top; y <= v.cur.y; y++) used += rowsOf(v.lines[y], w);
    while (used > area && top < v.cur.y) used -= rowsOf(v.lines[top++], w);
    return top;
  }

  /** The escape sequences that bring the screen to this view. */
  frame(v: View): string {
    const w = this.width(v);
    const nw = v.number ? numberWidth(v.lines.length) : 0;
    const area = this.rows - 1;
    const rows: string[] = [];
    let cursor: [number, number] = [0, 0];
    for (let y = v.top; y < v.lines.length && rows.length < area; y++) {
      const { text, starts } = layout(v.lines[y]);
      const n = Math.max(1, Math.ceil(text.length / w));
      if (rows.length + n > area && y !== v.top) {
        while (rows.length < area) rows.push('@');
        break;
      }
      if (y === v.cur.y) {
        const x = Math.min(v.cur.x, v.insert ? v.lines[y].length : Math.max(0, v.lines[y].length - 1));
        const col = starts[Math.min(x, starts.length - 1)];
        cursor = [rows.length + Math.floor(col / w), nw + (col % w)];
        if (cursor[0] >= rows.length + n) cursor = [rows.length + n - 1, nw + w - 1];
      }
      for (let r = 0; r < n; r++) {
        const gutter = v.number ? (r === 0 ? String(y + 1).padStart(nw - 1) + ' ' : ' '.repeat(nw)) : '';
        rows.push(gutter + text.slice(r * w, (r + 1) * w));
      }
    }
    while (rows.length < area) rows.push('~');
    const rulerCol = Math.max(0, this.cols - 18);
    let bottom = v.bottom.slice(0, this.cols - 1);
    if (!v.onBottom && v.ruler && bottom.length < rulerCol) bottom = bottom.padEnd(rulerCol) + v.ruler;
    // Never the last cell of the last row: writing there could scroll the terminal.
    rows.push(bottom.slice(0, this.cols - 1));
    let out = '';
    for (let r = 0; r < rows.length; r++) {
      if (this.prev[r] === rows[r]) continue;
      // A full row leaves the cursor pending a wrap, where erasing would take its last cell.
      out += `\x1b[${r + 1};1H${rows[r]}${rows[r].length < this.cols ? '\x1b[K' : ''}`;
    }
    this.prev = rows;
    if (v.onBottom) cursor = [this.rows - 1, Math.min(v.bottom.length, this.cols - 1)];
    return out + `\x1b[${cursor[0] + 1};${cursor[1] + 1}H`;
  }
}

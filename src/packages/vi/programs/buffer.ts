// The text being edited: its lines, whether it differs from the file, and the
// undo history (each change command saves a whole snapshot of the lines
// before it changes them, so undo is multi-level and exact).

export interface Pos {
  y: number;
  x: number;
}

interface Snapshot {
  lines: string[];
  cur: Pos;
}

export class TextBuffer {
  lines: string[];
  modified = false;
  private undo: Snapshot[] = [];
  private redo: Snapshot[] = [];

  constructor(text: string) {
    this.lines = TextBuffer.split(text);
  }

  /** Lines of a file's text; a final newline ends the last line rather than starting another. */
  static split(text: string): string[] {
    const lines = text.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    return lines;
  }

  /** The file's text: every line newline-terminated; an empty buffer is an empty file. */
  text(): string {
    return this.empty() ? '' : this.lines.join('\n') + '\n';
  }

  empty(): boolean {
    return this.lines.length === 1 && this.lines[0] === '';
  }

  /** Lines as vim counts them (an empty buffer has none). */
  count(): number {
    return this.empty() ? 0 : this.lines.length;
  }

  /** Record the state before a change (call once per change command). */
  save(cur: Pos): void {
    this.undo.push({ lines: this.lines.slice(), cur: { ...cur } });
    this.redo = [];
    this.modified = true;
  }

  /** Step back one change; the cursor it had then, or null with nothing to undo. */
  undoStep(cur: Pos): Pos | null {
    const s = this.undo.pop();
    if (!s) return null;
    this.redo.push({ lines: this.lines, cur: { ...cur } });
    this.lines = s.lines;
    this.modified = true;
    return s.cur;
  }

  redoStep(cur: Pos): Pos | null {
    const s = this.redo.pop();
    if (!s) return null;
    this.undo.push({ lines: this.lines, cur: { ...cur } });
    this.lines = s.lines;
    this.modified = true;
    return s.cur;
  }

  /** Text between two positions (end exclusive), as lines. */
  slice(a: Pos, b: Pos): string[] {
    if (a.y === b.y) return [this.lines[a.y].slice(a.x, b.x)];
    const out = [this.lines[a.y].slice(a.x)];
    for (let y = a.y + 1; y < b.y; y++) out.push(this.lines[y]);
    out.push(this.lines[b.y].slice(0, b.x));
    return out;
  }

  /** Remove the text between two positions (end exclusive). */
  remove(a: Pos, b: Pos): void {
    const head = this.lines[a.y].slice(0, a.x);
    const tail = this.lines[b.y].slice(b.x);
    this.lines.splice(a.y, b.y - a.y + 1, head + tail);
  }

  /** Insert text (as lines) at a position; where its end lands. */
  insert(p: Pos, parts: string[]): Pos {
    const line = this.lines[p.y];
    const head = line.slice(0, p.x);
    const tail = line.slice(p.x);
    if (parts.length === 1) {
      this.lines[p.y] = head + parts[0] + tail;
      return { y: p.y, x: p.x + parts[0].length };
    }
    const mid = parts.slice(1, -1);
    const last = parts[parts.length - 1];
    this.lines.splice(p.y, 1, head + parts[0], ...mid, last + tail);
    return { y: p.y + parts.length - 1, x: last.length };
  }
}

// A terminal for tests to read what a person would see: @xterm/headless (the
// parser and buffer of xterm.js, the terminal the playground uses) behind a
// small interface. xterm parses writes asynchronously, so `write` resolves once
// its bytes are on the screen; read the screen after awaiting it.

import { Terminal } from '@xterm/headless';

export class XtermScreen {
  readonly term: Terminal;

  constructor(cols: number, rows: number, scrollback = 0) {
    // Reading the buffer is a "proposed" API in @xterm/headless 6.
    this.term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
  }

  get rows(): number {
    return this.term.rows;
  }

  get cols(): number {
    return this.term.cols;
  }

  /** Resolves once `data` (and everything written before it) is parsed. */
  write(data: string): Promise<void> {
    return new Promise((resolve) => this.term.write(data, resolve));
  }

  /** Resolves once everything written so far is parsed. */
  flush(): Promise<void> {
    return this.write('');
  }

  resize(rows: number, cols: number): void {
    this.term.resize(cols, rows);
  }

  /** The cursor's row in the viewport and its column. */
  get row(): number {
    return this.term.buffer.active.cursorY;
  }

  get col(): number {
    return this.term.buffer.active.cursorX;
  }

  /** Line `i` of the active buffer (scrollback first, then the viewport), trailing blanks trimmed (written spaces too). */
  line(i: number): string {
    return this.term.buffer.active.getLine(i)?.translateToString(true).trimEnd() ?? '';
  }

  /** Lines in the active buffer: scrollback and viewport. */
  get length(): number {
    return this.term.buffer.active.length;
  }

  /** The cursor's line counted from the top of the scrollback. */
  get cursorLine(): number {
    const b = this.term.buffer.active;
    return b.baseY + b.cursorY;
  }

  dispose(): void {
    this.term.dispose();
  }
}

// The full screen a screen editor draws on: an xterm of rows × columns without
// scrollback (the alternate screen included), read row by row.

import { XtermScreen } from '../../xterm-screen.js';

export class VScreen extends XtermScreen {
  constructor(rows: number, cols: number) {
    super(cols, rows);
  }

  /** The viewport's rows, trailing blanks trimmed. */
  text(): string[] {
    const b = this.term.buffer.active;
    return Array.from({ length: this.rows }, (_, i) => this.line(b.baseY + i));
  }

  /** The bottom line (messages, the command line, the ruler). */
  bottom(): string {
    return this.text()[this.rows - 1];
  }
}

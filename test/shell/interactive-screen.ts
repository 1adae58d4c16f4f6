// The screen of a line-editing session, read as a person would after the
// editor's redraws: an xterm with scrollback, whose text is every line from the
// first to the last one holding text or the cursor.

import { XtermScreen } from '../xterm-screen.js';

export class Screen extends XtermScreen {
  constructor(cols = 80, rows = 24) {
    super(cols, rows, 10_000);
  }

  /** The lines so far, trailing blanks trimmed. */
  text(): string[] {
    let end = this.length;
    while (end > this.cursorLine + 1 && !this.line(end - 1)) end--;
    return Array.from({ length: end }, (_, i) => this.line(i));
  }

  /** The last non-empty line (where the prompt usually is). */
  lastLine(): string {
    const t = this.text();
    for (let i = t.length - 1; i >= 0; i--) if (t[i]) return t[i];
    return '';
  }
}

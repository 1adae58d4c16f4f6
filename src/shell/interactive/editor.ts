// The shell's own readline: reads keystrokes from the terminal in raw mode
// and edits one line (emacs keys, history, completion), redrawing it in place
// across wrapped rows. The terminal's settings are restored before it returns,
// so commands always start with the cooked terminal the user left.

import { Errno, SysError } from '../../abi/errno.js';
import { ECHO, ICANON, ICRNL, IEXTEN, ISIG, IXON, ONLCR, OPOST, type Termios, VMIN, VTIME } from '../../abi/termios.js';
import type { Sys } from '../../libc/sys.js';
import { tcgetattr, tcsetattr, winsize } from '../../userland/lib/tty.js';
import type { History } from './history.js';
import { nextKey } from './keys.js';
import { charWidth, promptLayout, stringWidth } from './prompt.js';

export type ReadResult = { line: string } | { eof: true } | { interrupted: true };

export interface Completion {
  /** Where the completed word starts in the line (the rest up to the cursor is replaced). */
  start: number;
  /** Replacements for the word; a single one is inserted with `suffix`. */
  candidates: string[];
  /** What follows a unique match: ' ' (a finished word), '' (a directory ends in '/'). */
  suffix: string;
  /** Shown in a listing instead of the full candidates (file names without their directory). */
  display?: string[];
}

export interface EditorHooks {
  complete(line: string, cursor: number): Completion | null;
}

const enc = new TextEncoder();

export class LineEditor {
  private chars: string[] = [];
  private pos = 0;
  private killRing = '';
  /** Screen row of the cursor relative to the prompt's last line, for redrawing. */
  private row = 0;
  private promptText = '';
  private promptWidth = 0;
  private histIndex = 0;
  /** The line being typed, kept while walking the history. */
  private draft = '';
  private lastKey = '';
  private pending = '';
  private readonly decoder = new TextDecoder();
  /** A new line on this terminal: NL when the tty maps it to CR NL (ONLCR), else CR NL. */
  private nl = '\r\n';

  constructor(
    private readonly sys: Sys,
    private readonly fdIn: number,
    private readonly fdOut: number,
    private readonly history: History,
    private readonly hooks: EditorHooks,
  ) {}

  private write(s: string): void {
    this.sys.writeAll(this.fdOut, enc.encode(s));
  }

  private get columns(): number {
    const w = winsize(this.sys, this.fdIn);
    return w && w.cols > 0 ? w.cols : 80;
  }

  get line(): string {
    return this.chars.join('');
  }

  readLine(prompt: string): ReadResult {
    const saved = tcgetattr(this.sys, this.fdIn);
    const raw: Termios = {
      ...saved,
      iflag: saved.iflag & ~(ICRNL | IXON),
      lflag: saved.lflag & ~(ICANON | ECHO | ISIG | IEXTEN),
      cc: [...saved.cc],
    };
    this.nl = saved.oflag & OPOST && saved.oflag & ONLCR ? '\n' : '\r\n';
    raw.cc[VMIN] = 1;
    raw.cc[VTIME] = 0;
    tcsetattr(this.sys, this.fdIn, raw);
    try {
      return this.edit(prompt);
    } finally {
      tcsetattr(this.sys, this.fdIn, saved);
    }
  }

  private edit(prompt: string): ReadResult {
    const layout = promptLayout(prompt);
    this.promptText = layout.text.slice(layout.text.lastIndexOf('\n') + 1);
    this.promptWidth = layout.lastWidth;
    this.chars = [];
    this.pos = 0;
    this.row = 0;
    this.histIndex = this.history.entries.length;
    this.draft = '';
    this.write(layout.text);
    for (;;) {
      const key = this.readKey();
      if (key === null) return this.chars.length ? this.accept() : { eof: true };
      const r = this.handle(key);
      this.lastKey = key;
      if (r) return r;
    }
  }

  private readKey(): string | null {
    for (;;) {
      if (this.pending) {
        const k = nextKey(this.pending, true);
        if (k) {
          this.pending = this.pending.slice(k.len);
          return k.name;
        }
      }
      let b: Uint8Array;
      try {
        b = this.sys.read(this.fdIn, 4096);
      } catch (e) {
        if (e instanceof SysError && e.errno === Errno.EINTR) continue;
        if (e instanceof SysError && e.errno === Errno.EIO) return null;
        throw e;
      }
      if (!b.byteLength) {
        if (!this.pending) return null;
        const k = nextKey(this.pending, false)!;
        this.pending = this.pending.slice(k.len);
        return k.name;
      }
      this.pending += this.decoder.decode(b, { stream: true });
    }
  }

  private accept(): ReadResult {
    if (this.pos !== this.chars.length) {
      this.pos = this.chars.length;
      this.redraw();
    }
    this.write(this.nl);
    return { line: this.line };
  }

  private handle(key: string): ReadResult | null {
    switch (key) {
      case 'enter':
      case 'C-j':
        return this.accept();
      case 'C-d':
        if (!this.chars.length) {
          return { eof: true };
        }
        this.deleteAt(this.pos);
        break;
      case 'C-c':
        this.pos = this.chars.length;
        this.redraw();
        this.write('^C' + this.nl);
        return { interrupted: true };
      case 'backspace':
      case 'C-h':
        if (this.pos > 0) this.deleteAt(--this.pos);
        break;
      case 'delete':
        this.deleteAt(this.pos);
        break;
      case 'left':
      case 'C-b':
        if (this.pos > 0) this.pos--;
        break;
      case 'right':
      case 'C-f':
        if (this.pos < this.chars.length) this.pos++;
        break;
      case 'home':
      case 'C-a':
        this.pos = 0;
        break;
      case 'end':
      case 'C-e':
        this.pos = this.chars.length;
        break;
      case 'M-b':
        this.pos = this.wordStart(this.pos);
        break;
      case 'M-f':
        this.pos = this.wordEnd(this.pos);
        break;
      case 'C-k':
        this.kill(this.pos, this.chars.length);
        break;
      case 'C-u':
        this.kill(0, this.pos);
        break;
      case 'C-w':
        this.kill(this.wordStart(this.pos, /\s/), this.pos);
        break;
      case 'M-backspace':
        this.kill(this.wordStart(this.pos), this.pos);
        break;
      case 'M-d':
        this.kill(this.pos, this.wordEnd(this.pos));
        break;
      case 'C-y':
        this.insert(this.killRing);
        break;
      case 'C-t':
        if (this.pos > 0 && this.chars.length > 1) {
          const p = this.pos === this.chars.length ? this.pos - 1 : this.pos;
          [this.chars[p - 1], this.chars[p]] = [this.chars[p], this.chars[p - 1]];
          this.pos = Math.min(p + 1, this.chars.length);
        }
        break;
      case 'C-l':
        this.write('\x1b[H\x1b[2J' + this.promptText);
        this.row = 0;
        break;
      case 'up':
      case 'C-p':
        this.walkHistory(-1);
        break;
      case 'down':
      case 'C-n':
        this.walkHistory(1);
        break;
      case 'C-r':
        return this.search();
      case 'tab':
        this.complete();
        break;
      default:
        if ([...key].length !== 1 || key < ' ') return null; // unbound: ignored, like readline's bell without the noise
        if (this.appendFast(key)) return null;
        this.insert(key);
    }
    this.redraw();
    return null;
  }

  /** Typing at the end of the line, away from the right margin: just echo the character. */
  private appendFast(ch: string): boolean {
    if (this.pos !== this.chars.length) return false;
    const before = this.promptWidth + stringWidth(this.line);
    const after = before + charWidth(ch.codePointAt(0)!);
    const cols = this.columns;
    if (Math.floor(after / cols) !== Math.floor(before / cols) || after % cols === 0) return false;
    this.chars.push(ch);
    this.pos++;
    this.write(ch);
    return true;
  }

  private insert(text: string): void {
    const cs = [...text];
    this.chars.splice(this.pos, 0, ...cs);
    this.pos += cs.length;
  }

  private deleteAt(i: number): void {
    if (i < this.chars.length) this.chars.splice(i, 1);
  }

  private kill(from: number, to: number): void {
    if (to <= from) return;
    this.killRing = this.chars.slice(from, to).join('');
    this.chars.splice(from, to - from);
    this.pos = from;
  }

  /** Start of the word before `i` (words: alphanumerics, or non-blanks with `sep` = /\s/ for C-w). */
  private wordStart(i: number, sep = /[^\p{L}\p{N}_]/u): number {
    while (i > 0 && sep.test(this.chars[i - 1])) i--;
    while (i > 0 && !sep.test(this.chars[i - 1])) i--;
    return i;
  }

  private wordEnd(i: number): number {
    const sep = /[^\p{L}\p{N}_]/u;
    while (i < this.chars.length && sep.test(this.chars[i])) i++;
    while (i < this.chars.length && !sep.test(this.chars[i])) i++;
    return i;
  }

  private walkHistory(dir: number): void {
    const entries = this.history.entries;
    const next = this.histIndex + dir;
    if (next < 0 || next > entries.length) return;
    if (this.histIndex === entries.length) this.draft = this.line;
    this.histIndex = next;
    this.chars = [...(next === entries.length ? this.draft : entries[next])];
    this.pos = this.chars.length;
  }

  /** C-r: incremental search backwards through the history. */
  private search(): ReadResult | null {
    let query = '';
    let from = this.history.entries.length;
    let found = -1;
    const show = () => {
      const match = found >= 0 ? this.history.entries[found] : '';
      this.clearLine();
      this.write(`(reverse-i-search)\`${query}': ${match}`);
      this.row = 0;
    };
    const find = (start: number) => {
      for (let i = start - 1; i >= 0; i--) {
        if (this.history.entries[i].includes(query)) {
          found = i;
          return;
        }
      }
    };
    show();
    for (;;) {
      const key = this.readKey();
      if (key === null) return { eof: true };
      if (key === 'C-r') {
        from = found >= 0 ? found : from;
        find(from);
      } else if (key === 'backspace') {
        query = query.slice(0, -1);
        found = -1;
        find(this.history.entries.length);
      } else if ([...key].length === 1 && key >= ' ') {
        query += key;
        find(found >= 0 ? found + 1 : this.history.entries.length);
      } else {
        if (found >= 0) {
          this.chars = [...this.history.entries[found]];
          this.histIndex = found;
        }
        this.pos = this.chars.length;
        this.clearLine();
        this.write(this.promptText);
        this.row = 0;
        if (key === 'C-g' || key === 'C-c') {
          this.chars = [];
          this.pos = 0;
        }
        if (key === 'enter' || key === 'C-j') return this.accept();
        this.redraw();
        return null;
      }
      show();
    }
  }

  private clearLine(): void {
    this.write((this.row > 0 ? `\x1b[${this.row}A` : '') + '\r\x1b[J');
  }

  private complete(): void {
    const c = this.hooks.complete(this.line, this.pos);
    if (!c || !c.candidates.length) return;
    const word = this.chars.slice(c.start, this.pos).join('');
    let insert: string;
    if (c.candidates.length === 1) insert = c.candidates[0] + c.suffix;
    else {
      insert = commonPrefix(c.candidates);
      if (insert.length <= word.length && this.lastKey === 'tab') {
        this.list(c.display ?? c.candidates);
        return;
      }
      if (insert.length < word.length) return;
    }
    this.chars.splice(c.start, this.pos - c.start, ...insert);
    this.pos = c.start + [...insert].length;
  }

  /** Print candidates in columns below the line, then the prompt and line again. */
  private list(items: string[]): void {
    const cols = this.columns;
    const width = Math.max(...items.map(stringWidth)) + 2;
    const perRow = Math.max(1, Math.floor(cols / width));
    const rows = Math.ceil(items.length / perRow);
    let out = '';
    for (let r = 0; r < rows; r++) {
      let line = '';
      for (let k = 0; k < perRow; k++) {
        const item = items[k * rows + r];
        if (item === undefined) continue;
        line += item + (k * rows + r + rows < items.length ? ' '.repeat(width - stringWidth(item)) : '');
      }
      out += line + this.nl;
    }
    this.pos = this.chars.length;
    this.redraw();
    this.write(this.nl + out + this.promptText);
    this.row = 0;
    this.lastKey = '';
  }

  /**
   * Repaint the prompt's last line and the buffer from the row the cursor is
   * on, then put the cursor back. A line that exactly fills its last row gets
   * a wrap forced, so the cursor's row is known (xterm defers the wrap).
   */
  private redraw(): void {
    const cols = this.columns;
    const text = this.line;
    const total = this.promptWidth + stringWidth(text);
    const before = this.promptWidth + this.chars.slice(0, this.pos).reduce((w, ch) => w + charWidth(ch.codePointAt(0)!), 0);
    let out = (this.row > 0 ? `\x1b[${this.row}A` : '') + '\r' + this.promptText + text;
    if (total > 0 && total % cols === 0) out += ' \r';
    out += '\x1b[J';
    const endRow = Math.floor(total / cols);
    const row = Math.floor(before / cols);
    const col = before % cols;
    if (endRow > row) out += `\x1b[${endRow - row}A`;
    out += '\r' + (col ? `\x1b[${col}C` : '');
    this.row = row;
    this.write(out);
  }
}

function commonPrefix(items: string[]): string {
  let p = items[0];
  for (const s of items) while (!s.startsWith(p)) p = p.slice(0, -1);
  return p;
}

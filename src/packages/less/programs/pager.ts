// The pager's model, apart from any terminal: the text as screen rows (long
// lines wrap), the row at the top of the window, the commands of less/more
// (with a count prefix), searching, and what the screen shows. Pure: the
// terminal driver feeds it keys and draws screen().

export type Key = string;

/** What a key did: nothing to redraw, a redraw, or quit. */
export type Result = 'none' | 'redraw' | 'quit';

interface Row {
  text: string;
  /** The text line it belongs to (0-based). */
  line: number;
}

export class Pager {
  private rows: Row[] = [];
  /** The first row shown. */
  top = 0;
  private count = '';
  /** Text being typed after / or ? (null when not searching). */
  private typing: string | null = null;
  private direction: 1 | -1 = 1;
  private pattern: RegExp | null = null;
  message = '';

  constructor(
    private readonly lines: string[],
    private height: number,
    private width: number,
    /** Shown in the prompt on the first screen (a file name). */
    private readonly name = '',
  ) {
    this.layout();
  }

  /** Rows of text per window: the screen less its prompt line. */
  get window(): number {
    return Math.max(1, this.height - 1);
  }

  resize(height: number, width: number): void {
    const line = this.rows[this.top]?.line ?? 0;
    this.height = height;
    this.width = width;
    this.layout();
    this.top = this.clamp(this.rows.findIndex((r) => r.line === line));
  }

  private layout(): void {
    this.rows = [];
    this.lines.forEach((l, line) => {
      const text = expandTabs(l);
      if (text.length === 0) this.rows.push({ text, line });
      for (let i = 0; i < text.length; i += this.width) this.rows.push({ text: text.slice(i, i + this.width), line });
    });
  }

  /** The last possible top row (the end of the text on the last screen line). */
  private get maxTop(): number {
    return Math.max(0, this.rows.length - this.window);
  }

  private clamp(n: number): number {
    return Math.min(Math.max(0, n), this.maxTop);
  }

  atEnd(): boolean {
    return this.top >= this.maxTop;
  }

  /** Handle one key (a character, or a name: 'up', 'down', 'pgup', 'pgdn', 'home', 'end', 'enter', 'backspace', 'escape'). */
  key(k: Key): Result {
    if (this.typing !== null) return this.typeSearch(k);
    if (/^[0-9]$/.test(k)) {
      this.count += k;
      return 'none';
    }
    const n = this.count === '' ? null : Number(this.count);
    this.count = '';
    this.message = '';
    const before = this.top;
    const half = Math.max(1, Math.floor(this.window / 2));
    switch (k) {
      case 'q': case 'Q': case '\x03':
        return 'quit';
      case ' ': case 'f': case '\x06': case '\x16': case 'z': case 'pgdn':
        this.top = this.clamp(this.top + (n ?? this.window));
        break;
      case 'b': case '\x02': case 'w': case 'pgup':
        this.top = this.clamp(this.top - (n ?? this.window));
        break;
      case 'enter': case 'j': case 'e': case '\x0e': case '\x05': case 'down':
        this.top = this.clamp(this.top + (n ?? 1));
        break;
      case 'k': case 'y': case '\x19': case '\x10': case '\x0b': case 'up':
        this.top = this.clamp(this.top - (n ?? 1));
        break;
      case 'd': case '\x04':
        this.top = this.clamp(this.top + (n ?? half));
        break;
      case 'u': case '\x15':
        this.top = this.clamp(this.top - (n ?? half));
        break;
      case 'g': case '<': case 'home':
        this.top = this.clamp(n === null ? 0 : this.rowOf(n - 1));
        break;
      case 'G': case '>': case 'end':
        this.top = n === null ? this.maxTop : this.clamp(this.rowOf(n - 1));
        break;
      case '/': case '?':
        this.typing = '';
        this.direction = k === '/' ? 1 : -1;
        return 'redraw';
      case 'n': case 'N':
        if (!this.pattern) {
          this.message = 'No previous regular expression';
          return 'redraw';
        }
        this.search((k === 'n' ? this.direction : -this.direction) as 1 | -1, n ?? 1);
        return 'redraw';
      case 'r': case '\x0c': case '\x12':
        return 'redraw';
      default:
        return 'none';
    }
    return this.top === before ? 'none' : 'redraw';
  }

  /** The first row of text line `line`. */
  private rowOf(line: number): number {
    const i = this.rows.findIndex((r) => r.line >= line);
    return i < 0 ? this.rows.length : i;
  }

  private typeSearch(k: Key): Result {
    if (k === 'escape' || k === '\x03') {
      this.typing = null;
    } else if (k === 'backspace' || k === '\x7f' || k === '\b') {
      if (this.typing === '') this.typing = null;
      else this.typing = this.typing!.slice(0, -1);
    } else if (k === 'enter') {
      const text = this.typing!;
      this.typing = null;
      if (text !== '') {
        try {
          this.pattern = new RegExp(text);
        } catch {
          this.message = 'Invalid pattern';
          return 'redraw';
        }
      }
      if (this.pattern) this.search(this.direction, 1);
    } else if (k.length === 1) this.typing += k;
    return 'redraw';
  }

  /** Move to the `times`-th line after (or before) the top line that matches the pattern. */
  private search(dir: 1 | -1, times: number): void {
    const re = this.pattern!;
    let line = this.rows[this.top]?.line ?? 0;
    for (let t = 0; t < times; t++) {
      let i = line + dir;
      while (i >= 0 && i < this.lines.length && !re.test(this.lines[i])) i += dir;
      if (i < 0 || i >= this.lines.length) {
        this.message = 'Pattern not found';
        return;
      }
      line = i;
    }
    this.top = this.clamp(this.rowOf(line));
  }

  /** The window's rows, then the prompt line. */
  screen(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.window; i++) {
      const r = this.rows[this.top + i];
      out.push(r ? this.highlight(r.text) : '~');
    }
    out.push(this.prompt());
    return out;
  }

  private highlight(text: string): string {
    if (!this.pattern) return text;
    const g = new RegExp(this.pattern.source, 'g');
    return text.replace(g, (m) => (m ? `\x1b[7m${m}\x1b[27m` : m));
  }

  prompt(): string {
    if (this.typing !== null) return `${this.direction === 1 ? '/' : '?'}${this.typing}`;
    if (this.message) return `\x1b[7m${this.message}  (press RETURN)\x1b[27m`;
    if (this.atEnd()) return '\x1b[7m(END)\x1b[27m';
    if (this.top === 0 && this.name) return `\x1b[7m${this.name}\x1b[27m`;
    return ':';
  }
}

/** Tabs to spaces (stops every 8) and other control characters shown as ^X. */
function expandTabs(s: string): string {
  let out = '';
  for (const ch of s) {
    if (ch === '\t') out += ' '.repeat(8 - (out.length % 8));
    else if (ch < ' ' || ch === '\x7f') out += `^${String.fromCharCode(ch.charCodeAt(0) ^ 0x40)}`;
    else out += ch;
  }
  return out;
}

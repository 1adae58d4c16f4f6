// The editor's state machine: normal mode (counts, motions, operators d y c,
// put, undo, repeat with `.`), insert mode and the bottom command line (ex
// commands, / and ? searches with JavaScript RegExp syntax). Keys in (as
// keys.ts names them), state out; drawing and files are the caller's.

import { TextBuffer, type Pos } from './buffer.js';
import { ex, type Files } from './ex.js';
import { firstNonBlank, search, wordBack, wordEnd, wordForward } from './motions.js';

type Mode = 'normal' | 'insert' | 'cmdline';

interface Register {
  lines: string[];
  linewise: boolean;
}

interface Target {
  pos: Pos;
  linewise: boolean;
  /** The character under the end position is part of the range (e, $, f, t). */
  inclusive: boolean;
}

const MORE = Symbol('more keys');
const isDigit = (k: string) => k.length === 1 && k >= '0' && k <= '9';
const printable = (k: string) => k === '\t' || ([...k].length === 1 && k >= ' ' && k !== '\x7f');

export class Editor {
  buf: TextBuffer;
  cur: Pos = { y: 0, x: 0 };
  top = 0;
  mode: Mode = 'normal';
  message = '';
  /** The command line being typed, with its leading ':', '/' or '?'. */
  cmdline = '';
  number = false;
  quit = false;
  /** Set when the whole screen must be redrawn (Ctrl-L, :e). */
  redraw = false;
  /** Ctrl-Z: the caller gives the terminal back and stops (job control). */
  suspend = false;
  /** Text rows on the screen (for paging). */
  page = 23;
  private pending: string[] = [];
  private reg: Register | null = null;
  private lastSearch: { re: RegExp; source: string; back: boolean } | null = null;
  private lastFind: { cmd: string; ch: string } | null = null;
  private dot: string[] = [];
  /** Keys of the change being typed (a command that entered insert mode, then what was inserted). */
  private rec: string[] | null = null;
  private replaying = false;
  private saved = false;
  private wantCol = 0;
  /** What insert mode repeats for a count (3ihi<Esc>) and how (o and O open a line each time). */
  private insertCount = 1;
  private insertTyped: string[] = [];
  private insertOpens = false;

  constructor(
    readonly files: Files,
    public file: string,
    text: string,
  ) {
    this.buf = new TextBuffer(text);
  }

  get lines(): string[] {
    return this.buf.lines;
  }

  /** The bottom line: the command line, the mode, or the last message. */
  bottom(): string {
    if (this.mode === 'cmdline') return this.cmdline;
    if (this.mode === 'insert' && !this.message) return '-- INSERT --';
    return this.message;
  }

  /** vim's ruler: line,column and where the window is in the text. */
  ruler(rowsShown: number): string {
    const line = this.lines[this.cur.y];
    const col = line.length === 0 ? '0-1' : String(Math.min(this.cur.x, line.length) + 1);
    const n = this.lines.length;
    const where = this.top === 0 && this.top + rowsShown >= n ? 'All' : this.top === 0 ? 'Top' : this.top + rowsShown >= n ? 'Bot' : `${Math.floor((this.top * 100) / (n - rowsShown))}%`;
    return `${this.cur.y + 1},${col}`.padEnd(14) + where;
  }

  key(k: string): void {
    if (this.mode === 'insert') this.insertKey(k);
    else if (this.mode === 'cmdline') this.cmdlineKey(k);
    else this.normalKey(k);
  }

  // ---- changes and undo

  /** Call before changing the text: one undo step per command. */
  private change(): void {
    if (this.saved) return;
    this.buf.save(this.cur);
    this.saved = true;
  }

  private clampX(insert = this.mode === 'insert'): void {
    this.cur.y = Math.max(0, Math.min(this.cur.y, this.lines.length - 1));
    const len = this.lines[this.cur.y].length;
    this.cur.x = Math.max(0, Math.min(this.cur.x, insert ? len : len - 1));
  }

  private setLine(y: number, x?: number): void {
    this.cur.y = Math.max(0, Math.min(y, this.lines.length - 1));
    this.cur.x = x ?? firstNonBlank(this.lines[this.cur.y]);
    this.clampX(false);
    this.wantCol = this.cur.x;
  }

  // ---- normal mode

  private normalKey(k: string): void {
    if (k === 'escape' && this.pending.length === 0) return;
    if (k === 'escape' || k === '\x03') {
      if (k === '\x03' && this.pending.length === 0) this.message = 'Type  :q!  and press <Enter> to abandon all changes and exit vi';
      this.pending = [];
      return;
    }
    this.pending.push(k);
    const keys = this.pending;
    if (keys.length === 1) this.saved = false;
    let r: typeof MORE | boolean;
    try {
      r = this.command(keys);
    } catch (e) {
      this.message = (e as Error).message;
      r = false;
    }
    if (r === MORE) return;
    this.pending = [];
    if (r && !this.replaying) {
      if (this.mode === 'insert') this.rec = keys.slice();
      else this.dot = keys.slice();
    }
    this.saved = this.mode === 'insert' && this.saved;
  }

  /** Run a complete normal command; MORE while it needs keys, true when it changed the text. */
  private command(keys: string[]): typeof MORE | boolean {
    let i = 0;
    let c1 = '';
    while (i < keys.length && isDigit(keys[i]) && !(keys[i] === '0' && c1 === '')) c1 += keys[i++];
    if (i >= keys.length) return MORE;
    const count = Number(c1) || 1;
    const hasCount = c1 !== '';
    const cmd = keys[i++];
    const rest = keys.slice(i);
    const line = this.lines[this.cur.y];
    switch (cmd) {
      case 'd':
      case 'y':
      case 'c':
        return this.operator(cmd, rest, count);
      case 'x':
      case 'del':
        return line.length > 0 && this.apply('d', { y: this.cur.y, x: this.cur.x }, { pos: { y: this.cur.y, x: Math.min(line.length, this.cur.x + count) }, linewise: false, inclusive: false });
      case 'X':
        return this.cur.x > 0 && this.apply('d', { y: this.cur.y, x: Math.max(0, this.cur.x - count) }, { pos: { ...this.cur }, linewise: false, inclusive: false });
      case 'D':
      case 'C':
        return this.operator(cmd === 'D' ? 'd' : 'c', ['$'], count);
      case 's':
        return this.operator('c', ['l'], count);
      case 'S':
        return this.operator('c', ['c'], count);
      case 'p':
      case 'P':
        return this.put(cmd === 'P', count);
      case 'J':
        return this.join(Math.max(2, count));
      case 'r':
        if (rest.length === 0) return MORE;
        if (!printable(rest[0]) && rest[0] !== 'enter') return false;
        if (this.cur.x + count > line.length) return false;
        this.change();
        if (rest[0] === 'enter') {
          this.lines.splice(this.cur.y, 1, line.slice(0, this.cur.x), line.slice(this.cur.x + count));
          this.setLine(this.cur.y + 1);
        } else {
          this.lines[this.cur.y] = line.slice(0, this.cur.x) + rest[0].repeat(count) + line.slice(this.cur.x + count);
          this.cur.x += count - 1;
        }
        return true;
      case '~': {
        if (line.length === 0) return false;
        this.change();
        const end = Math.min(line.length, this.cur.x + count);
        const mid = [...line.slice(this.cur.x, end)].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
        this.lines[this.cur.y] = line.slice(0, this.cur.x) + mid + line.slice(end);
        this.cur.x = Math.min(end, line.length - 1);
        return true;
      }
      case 'u':
        for (let n = 0; n < count; n++) if (!this.undoRedo(true)) break;
        return false;
      case '\x12':
        for (let n = 0; n < count; n++) if (!this.undoRedo(false)) break;
        return false;
      case '.':
        this.pending = [];
        this.repeat();
        return false;
      case 'i':
      case 'ins':
      case 'a':
      case 'I':
      case 'A':
      case 'o':
      case 'O':
        this.startInsert(cmd, count);
        return true;
      case ':':
        this.mode = 'cmdline';
        this.cmdline = hasCount ? `:.,.+${count - 1}` : ':';
        return false;
      case '/':
      case '?':
        this.mode = 'cmdline';
        this.cmdline = cmd;
        return false;
      case 'Z':
        if (rest.length === 0) return MORE;
        if (rest[0] === 'Z') ex(this, 'x');
        else if (rest[0] === 'Q') ex(this, 'q!');
        return false;
      case '\x06':
      case 'pgdn':
        this.scrollBy(count * Math.max(1, this.page - 2));
        return false;
      case '\x02':
      case 'pgup':
        this.scrollBy(-count * Math.max(1, this.page - 2));
        return false;
      case '\x04':
        this.scrollBy(Math.max(1, Math.floor(this.page / 2)), true);
        return false;
      case '\x15':
        this.scrollBy(-Math.max(1, Math.floor(this.page / 2)), true);
        return false;
      case '\x07':
        this.message = this.fileInfo();
        return false;
      case '\x0c':
        this.redraw = true;
        return false;
      case '\x1a':
        this.suspend = true;
        return false;
      default: {
        const t = this.motion(cmd, rest, count, hasCount);
        if (t === MORE) return MORE;
        if (!t) return false;
        const target = t.pos;
        this.cur = { ...target };
        this.clampX(false);
        if (!['j', 'k', 'up', 'down', '\x0e', '\x10'].includes(cmd)) this.wantCol = cmd === '$' || cmd === 'end' ? Infinity : this.cur.x;
        return false;
      }
    }
  }

  /** Where a motion goes from the cursor; null when it cannot move (vi beeps). */
  private motion(cmd: string, rest: string[], count: number, hasCount: boolean): Target | typeof MORE | null {
    const { y, x } = this.cur;
    const line = this.lines[y];
    const last = this.lines.length - 1;
    const char = (p: Pos, inclusive = false): Target => ({ pos: p, linewise: false, inclusive });
    const lineTo = (ny: number): Target | null => {
      if (ny < 0 || ny > last) return null;
      const len = this.lines[ny].length;
      return { pos: { y: ny, x: Math.min(this.wantCol, Math.max(0, len - 1)) }, linewise: true, inclusive: false };
    };
    switch (cmd) {
      case 'h':
      case 'left':
      case 'backspace':
        return x > 0 ? char({ y, x: Math.max(0, x - count) }) : null;
      case 'l':
      case 'right':
      case ' ':
        return x < line.length - 1 || (line.length > 0 && x < line.length) ? char({ y, x: Math.min(line.length, x + count) }) : null;
      case 'j':
      case 'down':
      case '\x0e':
        return lineTo(y + count) ?? (y < last ? lineTo(last) : null);
      case 'k':
      case 'up':
      case '\x10':
        return lineTo(y - count) ?? (y > 0 ? lineTo(0) : null);
      case '+':
      case 'enter':
      case '-': {
        const ny = cmd === '-' ? y - count : y + count;
        return ny < 0 || ny > last ? null : { pos: { y: ny, x: firstNonBlank(this.lines[ny]) }, linewise: true, inclusive: false };
      }
      case '0':
      case 'home':
        return char({ y, x: 0 });
      case '^':
        return char({ y, x: firstNonBlank(line) });
      case '$':
      case 'end': {
        const ny = Math.min(last, y + count - 1);
        return char({ y: ny, x: Math.max(0, this.lines[ny].length - 1) }, true);
      }
      case '|':
        return char({ y, x: Math.min(count - 1, Math.max(0, line.length - 1)) });
      case 'w':
      case 'W':
      case 'b':
      case 'B':
      case 'e':
      case 'E': {
        const step = cmd === 'w' || cmd === 'W' ? wordForward : cmd === 'b' || cmd === 'B' ? wordBack : wordEnd;
        let p: Pos = { y, x };
        for (let n = 0; n < count; n++) p = step(this.lines, p);
        return char(p, cmd === 'e' || cmd === 'E');
      }
      case 'G':
        return this.toLine(hasCount ? count - 1 : last);
      case 'g':
        if (rest.length === 0) return MORE;
        return rest[0] === 'g' ? this.toLine(hasCount ? count - 1 : 0) : null;
      case 'H':
        return this.toLine(this.top + count - 1);
      case 'L':
        return this.toLine(Math.min(last, this.top + this.page - 1) - count + 1);
      case 'M':
        return this.toLine(this.top + Math.floor((Math.min(last, this.top + this.page - 1) - this.top) / 2));
      case 'f':
      case 'F':
      case 't':
      case 'T':
        if (rest.length === 0) return MORE;
        this.lastFind = { cmd, ch: rest[0] };
        return this.find(cmd, rest[0], count);
      case ';':
      case ',': {
        if (!this.lastFind) return null;
        const { cmd: c, ch } = this.lastFind;
        const flip: Record<string, string> = { f: 'F', F: 'f', t: 'T', T: 't' };
        return this.find(cmd === ';' ? c : flip[c], ch, count);
      }
      case 'n':
      case 'N': {
        if (!this.lastSearch) throw new Error('E35: No previous regular expression');
        let p: Pos = { y, x };
        for (let n = 0; n < count; n++) p = this.searchFrom(p, cmd === 'N' ? !this.lastSearch.back : this.lastSearch.back) ?? p;
        return char(p);
      }
      default:
        return null;
    }
  }

  private toLine(ny: number): Target {
    const y = Math.max(0, Math.min(ny, this.lines.length - 1));
    return { pos: { y, x: firstNonBlank(this.lines[y]) }, linewise: true, inclusive: false };
  }

  private find(cmd: string, ch: string, count: number): Target | null {
    const line = this.lines[this.cur.y];
    let x = this.cur.x;
    const fwd = cmd === 'f' || cmd === 't';
    for (let n = 0; n < count; n++) {
      const from = fwd ? x + 1 : x - 1;
      x = fwd ? line.indexOf(ch, from) : from < 0 ? -1 : line.lastIndexOf(ch, from);
      if (x < 0) return null;
    }
    if (cmd === 't') x--;
    if (cmd === 'T') x++;
    return { pos: { y: this.cur.y, x }, linewise: false, inclusive: fwd };
  }

  /** d, c or y with a motion, or doubled (dd) for whole lines. */
  private operator(op: string, rest: string[], count: number): typeof MORE | boolean {
    let i = 0;
    let c2 = '';
    while (i < rest.length && isDigit(rest[i]) && !(rest[i] === '0' && c2 === '')) c2 += rest[i++];
    if (i >= rest.length) return MORE;
    const n = count * (Number(c2) || 1);
    const m = rest[i];
    if (m === op) {
      const y2 = this.cur.y + n - 1;
      if (y2 > this.lines.length - 1) return false;
      return this.apply(op, { y: this.cur.y, x: 0 }, { pos: { y: y2, x: 0 }, linewise: true, inclusive: false });
    }
    // cw changes to the end of the word, as ce.
    const mm = op === 'c' && (m === 'w' || m === 'W') && this.lines[this.cur.y][this.cur.x]?.trim() ? 'e' : m;
    const t = this.motion(mm, rest.slice(i + 1), n, c2 !== '' || count > 1);
    if (t === MORE) return MORE;
    if (!t) return false;
    // A word motion that runs onto a later line stops at the end of the line before it.
    if ((m === 'w' || m === 'W') && t.pos.y > this.cur.y && /^[ \t]*$/.test(this.lines[t.pos.y].slice(0, t.pos.x))) {
      const py = t.pos.y - 1;
      t.pos = { y: py, x: this.lines[py].length };
    }
    return this.apply(op, { ...this.cur }, t);
  }

  /** Apply an operator from `from` to a target; true when the text changed. */
  private apply(op: string, from: Pos, t: Target): boolean {
    if (t.linewise) {
      const y1 = Math.min(from.y, t.pos.y);
      const y2 = Math.max(from.y, t.pos.y);
      this.reg = { lines: this.lines.slice(y1, y2 + 1), linewise: true };
      if (op === 'y') {
        this.setLine(y1, from.y <= t.pos.y ? this.cur.x : undefined);
        if (y2 - y1 + 1 > 2) this.message = `${y2 - y1 + 1} lines yanked`;
        return false;
      }
      this.change();
      if (op === 'c') {
        this.lines.splice(y1, y2 - y1 + 1, '');
        this.cur = { y: y1, x: 0 };
        this.enterInsert(1, false);
        return true;
      }
      this.lines.splice(y1, y2 - y1 + 1);
      if (this.lines.length === 0) this.lines.push('');
      if (y2 - y1 + 1 > 2) this.message = `${y2 - y1 + 1} fewer lines`;
      this.setLine(y1);
      return true;
    }
    let a = from;
    let b = { ...t.pos };
    if (b.y < a.y || (b.y === a.y && b.x < a.x)) [a, b] = [b, a];
    if (t.inclusive) b.x = Math.min(this.lines[b.y].length, b.x + 1);
    b.x = Math.min(b.x, this.lines[b.y].length);
    this.reg = { lines: this.buf.slice(a, b), linewise: false };
    if (op === 'y') {
      this.cur = a;
      return false;
    }
    this.change();
    this.buf.remove(a, b);
    this.cur = { ...a };
    if (op === 'c') this.enterInsert(1, false);
    else this.clampX(false);
    this.wantCol = this.cur.x;
    return true;
  }

  private put(before: boolean, count: number): boolean {
    const r = this.reg;
    if (!r) throw new Error('E353: Nothing in register "');
    this.change();
    if (r.linewise) {
      const block: string[] = [];
      for (let n = 0; n < count; n++) block.push(...r.lines);
      const at = before ? this.cur.y : this.cur.y + 1;
      this.lines.splice(at, 0, ...block);
      this.setLine(at);
      if (block.length > 2) this.message = `${block.length} more lines`;
      return true;
    }
    let parts = r.lines;
    for (let n = 1; n < count; n++) {
      const joined = parts.slice(0, -1).concat(parts[parts.length - 1] + r.lines[0], r.lines.slice(1));
      parts = joined;
    }
    const x = before || this.lines[this.cur.y].length === 0 ? this.cur.x : this.cur.x + 1;
    const end = this.buf.insert({ y: this.cur.y, x }, parts);
    this.cur = parts.length > 1 ? { y: this.cur.y, x } : { y: end.y, x: Math.max(0, end.x - 1) };
    this.clampX(false);
    return true;
  }

  private join(n: number): boolean {
    const { y } = this.cur;
    if (y + 1 >= this.lines.length) return false;
    this.change();
    const last = Math.min(this.lines.length - 1, y + n - 1);
    let line = this.lines[y];
    let x = 0;
    for (let k = y + 1; k <= last; k++) {
      const next = this.lines[k].replace(/^[ \t]+/, '');
      // One space at the seam, unless there is blank there already or the next line starts with ')'.
      const space = next !== '' && line !== '' && !/[ \t]$/.test(line) && !next.startsWith(')');
      x = next === '' ? line.length - 1 : line.length;
      line += (space ? ' ' : '') + next;
    }
    this.lines.splice(y, last - y + 1, line);
    this.cur.x = x;
    this.clampX(false);
    return true;
  }

  private undoRedo(undo: boolean): boolean {
    const p = undo ? this.buf.undoStep(this.cur) : this.buf.redoStep(this.cur);
    if (!p) {
      this.message = undo ? 'Already at oldest change' : 'Already at newest change';
      return false;
    }
    this.cur = p;
    this.clampX(false);
    return true;
  }

  private repeat(): void {
    if (this.dot.length === 0) return;
    this.replaying = true;
    try {
      for (const k of this.dot) this.key(k);
    } finally {
      this.replaying = false;
    }
  }

  private scrollBy(n: number, half = false): void {
    const last = this.lines.length - 1;
    const top = Math.max(0, Math.min(last, this.top + n));
    if (top === this.top && !half) return;
    this.top = top;
    // Back a page leaves the cursor on the window's last line, forward on its first.
    this.setLine(half ? Math.max(0, Math.min(last, this.cur.y + n)) : n < 0 ? Math.min(last, top + this.page - 1) : top);
  }

  // ---- insert mode

  private startInsert(cmd: string, count: number): void {
    const line = this.lines[this.cur.y];
    this.enterInsert(count, cmd === 'o' || cmd === 'O');
    if (cmd === 'a') this.cur.x = Math.min(line.length, this.cur.x + 1);
    else if (cmd === 'A') this.cur.x = line.length;
    else if (cmd === 'I') this.cur.x = /^[ \t]*/.exec(line)![0].length;
    else if (cmd === 'o' || cmd === 'O') {
      this.change();
      const at = cmd === 'o' ? this.cur.y + 1 : this.cur.y;
      this.lines.splice(at, 0, '');
      this.cur = { y: at, x: 0 };
    }
  }

  private enterInsert(count: number, opens: boolean): void {
    this.insertCount = count;
    this.insertTyped = [];
    this.insertOpens = opens;
    this.mode = 'insert';
    this.message = '';
  }

  private insertKey(k: string): void {
    if (this.rec && !this.replaying) this.rec.push(k);
    if (k === 'escape' || k === '\x03') {
      for (let n = 1; n < this.insertCount; n++) {
        if (this.insertOpens) this.typeKey('enter');
        for (const t of this.insertTyped) this.typeKey(t);
      }
      this.mode = 'normal';
      this.message = '';
      this.cur.x = Math.max(0, this.cur.x - 1);
      this.clampX(false);
      this.wantCol = this.cur.x;
      this.saved = false;
      if (this.rec && !this.replaying) this.dot = this.rec;
      this.rec = null;
      return;
    }
    if (['up', 'down', 'left', 'right', 'home', 'end', 'pgup', 'pgdn'].includes(k)) {
      this.insertTyped = [];
      this.insertCount = 1;
      const t = this.motion(k === 'pgup' ? 'k' : k === 'pgdn' ? 'j' : k === 'end' ? '$' : k, [], k.startsWith('pg') ? this.page : 1, false);
      if (t && t !== MORE) this.cur = { ...t.pos, x: k === 'end' ? this.lines[t.pos.y].length : t.pos.x };
      this.clampX(true);
      return;
    }
    this.insertTyped.push(k);
    this.typeKey(k);
  }

  /** One key's effect on the text in insert mode. */
  private typeKey(k: string): void {
    const { y, x } = this.cur;
    const line = this.lines[y];
    if (k === 'enter') {
      this.change();
      this.lines.splice(y, 1, line.slice(0, x), line.slice(x));
      this.cur = { y: y + 1, x: 0 };
    } else if (k === 'backspace') {
      if (x > 0) {
        this.change();
        this.lines[y] = line.slice(0, x - 1) + line.slice(x);
        this.cur.x--;
      } else if (y > 0) {
        this.change();
        const prev = this.lines[y - 1];
        this.lines.splice(y - 1, 2, prev + line);
        this.cur = { y: y - 1, x: prev.length };
      }
    } else if (k === 'del') {
      if (x < line.length || y + 1 < this.lines.length) {
        this.change();
        this.buf.remove({ y, x }, x < line.length ? { y, x: x + 1 } : { y: y + 1, x: 0 });
      }
    } else if (k === '\x17' || k === '\x15') {
      const from = k === '\x15' ? 0 : wordBack(this.lines, { y, x }).x;
      if (from < x) {
        this.change();
        this.lines[y] = line.slice(0, from) + line.slice(x);
        this.cur.x = from;
      }
    } else if (printable(k)) {
      this.change();
      this.lines[y] = line.slice(0, x) + k + line.slice(x);
      this.cur.x += k.length;
    }
  }

  // ---- the command line

  private cmdlineKey(k: string): void {
    if (k === 'escape' || k === '\x03') {
      this.mode = 'normal';
      this.cmdline = '';
      return;
    }
    if (k === 'backspace') {
      if (this.cmdline.length <= 1) this.mode = 'normal';
      this.cmdline = this.cmdline.slice(0, -1);
      return;
    }
    if (k === '\x15') {
      this.cmdline = this.cmdline[0];
      return;
    }
    if (k === 'enter') {
      const text = this.cmdline;
      this.mode = 'normal';
      this.cmdline = '';
      this.message = '';
      this.saved = false;
      try {
        if (text[0] === ':') ex(this, text.slice(1));
        else this.searchCommand(text.slice(1), text[0] === '?');
      } catch (e) {
        this.message = (e as Error).message;
      }
      this.saved = false;
      return;
    }
    if (printable(k)) this.cmdline += k;
  }

  private searchCommand(pattern: string, back: boolean): void {
    if (pattern === '') {
      if (!this.lastSearch) throw new Error('E35: No previous regular expression');
      this.lastSearch.back = back;
    } else {
      let re: RegExp;
      try {
        re = new RegExp(pattern);
      } catch {
        throw new Error(`E486: Pattern not found: ${pattern}`);
      }
      this.lastSearch = { re, source: pattern, back };
    }
    const p = this.searchFrom(this.cur, back);
    if (p) {
      this.cur = p;
      this.wantCol = p.x;
    }
  }

  /** The next match from `p` (a message when the search wraps); throws when there is none. */
  private searchFrom(p: Pos, back: boolean): Pos | null {
    const s = this.lastSearch!;
    const r = search(this.lines, s.re, p, back);
    if (!r) throw new Error(`E486: Pattern not found: ${s.source}`);
    this.message = r.wrapped ? (back ? 'search hit TOP, continuing at BOTTOM' : 'search hit BOTTOM, continuing at TOP') : (back ? '?' : '/') + s.source;
    return r.pos;
  }

  // ---- files

  /** Ctrl-G: `"name" [Modified] 3 lines --33%--`. */
  fileInfo(): string {
    const name = this.file ? `"${this.file}"` : '"[No Name]"';
    const mod = this.buf.modified ? ' [Modified]' : '';
    const n = this.buf.count();
    const body = n === 0 ? '--No lines in buffer--' : `${n} line${n === 1 ? '' : 's'} --${Math.floor(((this.cur.y + 1) * 100) / n)}%--`;
    return `${name}${mod} ${body}`;
  }

  /** Replace the buffer with a file's text (:e). */
  load(file: string, text: string): void {
    this.file = file;
    this.buf = new TextBuffer(text);
    this.cur = { y: 0, x: 0 };
    this.top = 0;
    this.redraw = true;
  }

  /** Goto a line (ex :N). */
  gotoLine(n: number): void {
    this.setLine(n);
  }
}

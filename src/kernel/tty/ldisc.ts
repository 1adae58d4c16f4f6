// The line discipline (Linux's n_tty): what happens to keystrokes between the
// terminal and the programs reading it, and to their output on its way back.
//
// Input: ICRNL/INLCR/IGNCR/ISTRIP, ISIG (INTR/QUIT/SUSP → a signal to the
// foreground group), and either canonical editing (ICANON: ERASE, KILL, and
// with IEXTEN WERASE, REPRINT, LNEXT; a read returns at most one line; EOF
// ends a line without a newline, or reads as 0 bytes on an empty line) or raw
// bytes (VMIN/VTIME are the reader's business: see tty.ts). ECHO, ECHOE,
// ECHOK, ECHOKE, ECHONL and ECHOCTL shape what is echoed.
// Output: OPOST with ONLCR, OCRNL, ONOCR, ONLRET, OLCUC.
//
// It knows nothing about processes: signals, echo and wake-ups go to its owner.

import {
  ECHO, ECHOCTL, ECHOE, ECHOK, ECHOKE, ECHONL, ICANON, ICRNL, IEXTEN, IGNCR, INLCR, ISIG, ISTRIP, IUTF8, IXON, NOFLSH,
  OCRNL, OLCUC, ONLCR, ONLRET, ONOCR, OPOST, type Termios, VEOF, VEOL, VEOL2, VERASE, VINTR, VKILL, VLNEXT, VQUIT,
  VREPRINT, VSTART, VSTOP, VSUSP, VWERASE,
} from '../../abi/termios.js';
import { SIGINT, SIGQUIT, SIGTSTP } from '../../abi/signal.js';
import { defaultTermios } from './termios-default.js';

export interface LdiscOwner {
  /** Bytes for the terminal (already through output processing). */
  output(bytes: number[]): void;
  /** ISIG: a signal for the foreground process group. */
  signal(sig: number): void;
}

/** Linux's N_TTY_BUF_SIZE: a canonical line, and the raw queue, hold at most this much. */
export const TTY_BUF = 4096;

const DISABLED = 0; // _POSIX_VDISABLE

export class LineDiscipline {
  termios: Termios = defaultTermios();
  /** Completed canonical lines (an EOF-terminated one may be empty): a read takes from the first. */
  private lines: number[][] = [];
  /** The line being edited (canonical). */
  private edit: number[] = [];
  /** Raw-mode input. */
  private raw: number[] = [];
  private lnext = false;
  /** Output column, for ONOCR and erasing tabs. */
  private column = 0;

  constructor(private readonly owner: LdiscOwner) {}

  private flag(field: 'iflag' | 'oflag' | 'lflag', bit: number): boolean {
    return (this.termios[field] & bit) !== 0;
  }

  private is(c: number, index: number): boolean {
    const v = this.termios.cc[index];
    return v !== DISABLED && c === v;
  }

  get canonical(): boolean {
    return this.flag('lflag', ICANON);
  }

  /** Bytes a read could take now (canonical: whole lines only). */
  get available(): number {
    return this.canonical ? this.lines.reduce((n, l) => n + l.length, 0) : this.raw.length;
  }

  /** A read would return at once (canonical: a line, maybe an empty EOF one). */
  get readable(): boolean {
    return this.canonical ? this.lines.length > 0 : this.raw.length > 0;
  }

  /** New settings; switching modes carries pending input over, as n_tty does. */
  setTermios(t: Termios): void {
    const wasCanon = this.canonical;
    this.termios = t;
    if (wasCanon && !this.canonical) {
      for (const l of this.lines) this.raw.push(...l);
      this.raw.push(...this.edit);
      this.lines = [];
      this.edit = [];
    } else if (!wasCanon && this.canonical && this.raw.length) {
      this.edit = this.raw;
      this.raw = [];
    }
  }

  flushInput(): void {
    this.lines = [];
    this.edit = [];
    this.raw = [];
    this.lnext = false;
  }

  /** Take up to `max` bytes for a reader: one line at most in canonical mode. null: nothing to read. */
  take(max: number): Uint8Array | null {
    if (this.canonical) {
      const line = this.lines[0];
      if (!line) return null;
      const n = Math.min(max, line.length);
      const out = Uint8Array.from(line.slice(0, n));
      if (n === line.length) this.lines.shift();
      else this.lines[0] = line.slice(n);
      return out;
    }
    if (!this.raw.length) return null;
    const out = Uint8Array.from(this.raw.slice(0, max));
    this.raw = this.raw.slice(out.length);
    return out;
  }

  /** Keystrokes from the terminal. */
  receive(bytes: Uint8Array): void {
    for (const b of bytes) this.receiveByte(b);
  }

  private receiveByte(byte: number): void {
    let c = byte;
    if (this.flag('iflag', ISTRIP)) c &= 0x7f;
    if (this.lnext) {
      this.lnext = false;
      return this.insert(c);
    }
    if (c === 0x0d) {
      if (this.flag('iflag', IGNCR)) return;
      if (this.flag('iflag', ICRNL)) c = 0x0a;
    } else if (c === 0x0a && this.flag('iflag', INLCR)) c = 0x0d;
    const lflag = this.termios.lflag;
    if (lflag & ISIG) {
      const sig = this.is(c, VINTR) ? SIGINT : this.is(c, VQUIT) ? SIGQUIT : this.is(c, VSUSP) ? SIGTSTP : 0;
      if (sig) {
        if (!(lflag & NOFLSH)) this.flushInput();
        this.echoChar(c);
        this.owner.signal(sig);
        return;
      }
    }
    // Flow control is not emulated (output never stops), but the characters are consumed as on Linux.
    if (this.flag('iflag', IXON) && (this.is(c, VSTOP) || this.is(c, VSTART))) return;
    if (!(lflag & ICANON)) {
      if (this.raw.length < TTY_BUF) this.raw.push(c);
      this.echoChar(c);
      return;
    }
    const ext = (lflag & IEXTEN) !== 0;
    if (this.is(c, VERASE)) return this.erase('char');
    if (ext && this.is(c, VWERASE)) return this.erase('word');
    if (this.is(c, VKILL)) return this.erase('line');
    if (ext && this.is(c, VLNEXT)) {
      this.lnext = true;
      if (lflag & ECHO) this.emit(lflag & ECHOCTL ? [0x5e, 0x08] : []);
      return;
    }
    if (ext && this.is(c, VREPRINT)) {
      this.echoChar(c);
      this.emit([0x0a, ...this.edit.flatMap((b) => this.echoForm(b))]);
      return;
    }
    if (this.is(c, VEOF)) {
      this.lines.push(this.edit);
      this.edit = [];
      return;
    }
    if (c === 0x0a || this.is(c, VEOL) || this.is(c, VEOL2)) {
      this.edit.push(c);
      this.lines.push(this.edit);
      this.edit = [];
      if (c === 0x0a && !(lflag & ECHO) && lflag & ECHONL) this.emit([0x0a]);
      else this.echoChar(c);
      return;
    }
    this.insert(c);
  }

  /** An ordinary character into the line being edited (raw mode: into the queue). */
  private insert(c: number): void {
    if (!this.canonical) {
      if (this.raw.length < TTY_BUF) this.raw.push(c);
    } else if (this.edit.length < TTY_BUF - 1) this.edit.push(c);
    else return; // a full line only takes its end (newline, EOF)
    this.echoChar(c);
  }

  private erase(what: 'char' | 'word' | 'line'): void {
    const l = this.termios.lflag;
    if (!this.edit.length) return;
    if (what === 'line' && !(l & ECHOKE) && l & ECHO) {
      this.edit = [];
      this.echoChar(this.termios.cc[VKILL]);
      if (l & ECHOK) this.emit([0x0a]);
      return;
    }
    const isSpace = (b: number) => b === 0x20 || b === 0x09;
    let seenWord = false;
    while (this.edit.length) {
      const last = this.edit[this.edit.length - 1];
      if (what === 'word') {
        if (isSpace(last) && seenWord) break;
        if (!isSpace(last)) seenWord = true;
      }
      const ch = this.popChar();
      if (l & ECHO) {
        if (l & ECHOE || (what !== 'char' && l & ECHOKE)) this.echoErase(this.width(ch));
        else this.echoChar(this.termios.cc[VERASE]);
      }
      if (what === 'char') break;
    }
  }

  /** Remove the last character (all its UTF-8 bytes with IUTF8); returns its bytes. */
  private popChar(): number[] {
    const out: number[] = [];
    for (;;) {
      const b = this.edit.pop();
      if (b === undefined) return out;
      out.unshift(b);
      if (!this.flag('iflag', IUTF8) || (b & 0xc0) !== 0x80) return out;
    }
  }

  /** Columns a character took when echoed: ^X forms take two. */
  private width(ch: number[]): number {
    const b = ch[0];
    if (ch.length > 1) return 1;
    if (b === 0x09) return 1;
    return (b < 0x20 || b === 0x7f) && this.flag('lflag', ECHOCTL) ? 2 : 1;
  }

  private echoErase(cols: number): void {
    if (!this.flag('lflag', ECHO)) return;
    const out: number[] = [];
    for (let i = 0; i < cols; i++) out.push(0x08, 0x20, 0x08);
    this.emit(out);
  }

  private echoForm(c: number): number[] {
    if (this.flag('lflag', ECHOCTL) && (c < 0x20 || c === 0x7f) && c !== 0x09 && c !== 0x0a && c !== this.termios.cc[VSTART] && c !== this.termios.cc[VSTOP]) {
      return [0x5e, c === 0x7f ? 0x3f : c ^ 0x40];
    }
    return [c];
  }

  private echoChar(c: number): void {
    if (this.flag('lflag', ECHO)) this.emit(this.echoForm(c));
  }

  private emit(bytes: number[]): void {
    if (bytes.length) this.owner.output(this.process(bytes));
  }

  /** Output processing (OPOST), for program output and echo alike. */
  process(bytes: ArrayLike<number>): number[] {
    const o = this.termios.oflag;
    const out: number[] = [];
    if (!(o & OPOST)) {
      for (let i = 0; i < bytes.length; i++) out.push(bytes[i]);
      return out;
    }
    for (let i = 0; i < bytes.length; i++) {
      let c = bytes[i];
      if (c === 0x0a) {
        if (o & ONLCR) {
          out.push(0x0d, 0x0a);
          this.column = 0;
          continue;
        }
        if (o & ONLRET) this.column = 0;
      } else if (c === 0x0d) {
        if (o & ONOCR && this.column === 0) continue;
        if (o & OCRNL) {
          c = 0x0a;
          if (o & ONLRET) this.column = 0;
        } else this.column = 0;
      } else if (c === 0x09) this.column = (this.column | 7) + 1;
      else if (c === 0x08) this.column = Math.max(0, this.column - 1);
      else if (c >= 0x20 && (c & 0xc0) !== 0x80) {
        if (o & OLCUC && c >= 0x61 && c <= 0x7a) c -= 0x20;
        this.column++;
      }
      out.push(c);
    }
    return out;
  }
}

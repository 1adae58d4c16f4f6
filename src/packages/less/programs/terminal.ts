// Driving a Pager on a terminal: keys from /dev/tty (the pager's own input
// may be a pipe), the screen redrawn with ANSI sequences, the size from
// TIOCGWINSZ when the terminal answers it, else $LINES/$COLUMNS, else 24x80.

import { O_RDWR } from '../../../abi/fcntl.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { Pager } from './pager.js';
import { ECHO, ICANON, ICRNL, type Termios, VMIN, VTIME } from '../../../abi/termios.js';
import { tcgetattr, tcsetattr } from '../../../userland/lib/tty.js';

const TIOCGWINSZ = 0x5413;
const enc = new TextEncoder();
const dec = new TextDecoder();

/** The terminal size: rows and columns. */
export function termSize(os: AgentosApi, fd: number): [number, number] {
  try {
    const ws = os.sys.raw.call('ioctl', fd, TIOCGWINSZ, 0) as { rows?: number; cols?: number } | null;
    if (ws?.rows && ws.cols) return [ws.rows, ws.cols];
  } catch {
    // no window size from this terminal
  }
  const rows = Number(os.env.LINES) || 24;
  const cols = Number(os.env.COLUMNS) || 80;
  return [rows, cols];
}

/** Key names for the escape sequences of arrow and paging keys. */
const SEQUENCES: Record<string, string> = {
  '\x1b[A': 'up', '\x1b[B': 'down', '\x1b[5~': 'pgup', '\x1b[6~': 'pgdn', '\x1b[H': 'home', '\x1b[F': 'end',
  '\x1bOA': 'up', '\x1bOB': 'down', '\x1b[1~': 'home', '\x1b[4~': 'end', '\x1bv': 'pgup', '\x1b<': 'home', '\x1b>': 'end',
};

/** Split what the terminal sent into keys. */
export function keys(input: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < input.length; ) {
    const seq = Object.keys(SEQUENCES).find((s) => input.startsWith(s, i));
    if (seq) {
      out.push(SEQUENCES[seq]);
      i += seq.length;
      continue;
    }
    const c = input[i++];
    out.push(c === '\r' || c === '\n' ? 'enter' : c === '\x1b' ? 'escape' : c === '\x7f' ? 'backspace' : c);
  }
  return out;
}

/**
 * Page `lines` interactively; false if there is no terminal to read keys
 * from (the caller then copies the text through). `alternate`: page on the
 * terminal's alternate screen and give the shell its screen back after, as
 * less does with xterm's ti/te strings (more, and less -X, do not).
 */
export function page(os: AgentosApi, lines: string[], name: string, quitAtEnd: boolean, alternate = false): boolean {
  const tty = openRaw(os);
  if (!tty) return false;
  const [rows, cols] = termSize(os, 1);
  const p = new Pager(lines, rows, cols, name);
  const draw = () => {
    const screen = p.screen();
    os.sys.writeAll(1, enc.encode(`\x1b[H\x1b[2J${screen.join('\r\n')}`));
  };
  try {
    if (alternate) os.sys.writeAll(1, '\x1b[?1049h');
    draw();
    for (;;) {
      const b = os.sys.read(tty.fd, 64);
      if (b.byteLength === 0) break;
      let quit = false;
      for (const k of keys(dec.decode(b))) {
        const r = p.key(k);
        if (r === 'quit' || (quitAtEnd && p.atEnd() && (k === ' ' || k === 'f'))) quit = true;
        if (quit) break;
      }
      if (quit) break;
      draw();
    }
    os.sys.writeAll(1, alternate ? '\x1b[?1049l' : '\r\x1b[K');
  } finally {
    tty.close();
  }
  return true;
}

/** Ask a question on the terminal and return the key answered (null: no terminal, or end of input). */
export function ask(os: AgentosApi, question: string): string | null {
  const tty = openRaw(os);
  if (!tty) return null;
  try {
    os.sys.writeAll(1, enc.encode(question));
    const b = os.sys.read(tty.fd, 64);
    os.sys.writeAll(1, '\r\n');
    return b.byteLength ? dec.decode(b)[0] : null;
  } finally {
    tty.close();
  }
}

/** /dev/tty with keys one at a time and unechoed (raw mode) until closed. */
function openRaw(os: AgentosApi): { fd: number; close(): void } | null {
  let fd: number;
  try {
    fd = os.sys.open('/dev/tty', O_RDWR);
  } catch {
    return null;
  }
  let saved: Termios | null = null;
  try {
    saved = tcgetattr(os.sys, fd);
    tcsetattr(os.sys, fd, { ...saved, lflag: saved.lflag & ~(ICANON | ECHO), iflag: saved.iflag & ~ICRNL, cc: saved.cc.map((c, i) => (i === VMIN ? 1 : i === VTIME ? 0 : c)) });
  } catch {
    saved = null; // not a terminal that takes settings
  }
  return {
    fd,
    close() {
      if (saved) tcsetattr(os.sys, fd, saved);
      os.sys.close(fd);
    },
  };
}

// A terminal's settings put back when the process that changed them is killed. A program that
// makes its terminal raw (an editor, node's setRawMode, `linux` with a terminal) restores it as
// it exits; killed by a signal its cleanup never runs — here its worker is simply ended — and an
// interactive shell puts the terminal back (as bash does), but a script's shell, or no shell at
// all, leaves it raw for everything after. So the kernel remembers, per process and terminal, the
// settings before its first change and the last it made; when the process dies of a signal and
// the terminal still has its last settings (nobody changed them since), the earlier ones return.
// A process that exits normally keeps its change (`stty raw` must last).

import { WIFSIGNALED } from '../../abi/wait.js';
import type { Termios } from '../../abi/termios.js';
import type { Process } from '../process.js';

interface Change {
  before: Termios;
  after: Termios;
}

/** What the terminal needs from here: its settings, setting them (waking its waiters), and whether it is gone. */
export interface Settings {
  get(): Termios;
  set(t: Termios): void;
  /** Its master side is closed: nothing to put back, and what is kept for it can go. */
  gone(): boolean;
}

const changes = new WeakMap<Process, Map<Settings, Change>>();

const copy = (t: Termios): Termios => ({ ...t, cc: [...t.cc] });
const same = (a: Termios, b: Termios): boolean =>
  a.iflag === b.iflag && a.oflag === b.oflag && a.cflag === b.cflag && a.lflag === b.lflag && a.cc.every((c, i) => c === b.cc[i]);

/** `p` is about to set `tty`'s settings to `next`. */
export function noteChange(p: Process, tty: Settings, next: Termios): void {
  let mine = changes.get(p);
  if (!mine) changes.set(p, (mine = new Map()));
  // Terminals gone since are let go: a process opening and changing pty after pty keeps at most the live ones.
  for (const t of mine.keys()) if (t.gone()) mine.delete(t);
  const c = mine.get(tty);
  if (c) c.after = copy(next);
  else mine.set(tty, { before: copy(tty.get()), after: copy(next) });
}

/** How many terminals' earlier settings are kept for `p` (tests). */
export function kept(p: Process): number {
  return changes.get(p)?.size ?? 0;
}

/** `p` ended with wait status `status`: killed, its changes still in place are undone. */
export function processEnded(p: Process, status: number): void {
  const mine = changes.get(p);
  if (!mine) return;
  changes.delete(p);
  if (!WIFSIGNALED(status)) return;
  for (const [tty, c] of mine) if (same(tty.get(), c.after)) tty.set(c.before);
}

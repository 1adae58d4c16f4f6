// A terminal session for a person (or a terminal emulator): a pseudo-terminal
// in the kernel (/dev/ptmx) whose slave is the controlling terminal of a new
// session running a shell. Keystrokes go into the line discipline through the
// master; output (after OPOST) comes back from it. Everything goes through
// init's ordinary syscalls, so the Node and browser hosts share this file.

import { DEFAULT_PATH } from '../../abi/env.js';
import { SysError } from '../../abi/errno.js';
import { O_CLOEXEC, O_NOCTTY, O_RDWR } from '../../abi/fcntl.js';
import { TIOCGPTN, TIOCSWINSZ } from '../../abi/termios.js';
import { shellStatus } from '../../abi/wait.js';
import type { Machine } from './machine.js';

export interface TerminalOptions {
  cols?: number;
  rows?: number;
  cwd?: string;
  env?: Record<string, string>;
  /** Default: an interactive login shell, ['bash', '-l']. */
  argv?: string[];
}

export interface Terminal {
  /** Keystrokes into the line discipline. */
  write(data: Uint8Array | string): void;
  /** Output (after OPOST/ONLCR); returns the unsubscribe function. Output before the first subscriber is kept for it. */
  onData(cb: (bytes: Uint8Array) => void): () => void;
  /** TIOCSWINSZ: SIGWINCH to the foreground group when the size changes. */
  resize(cols: number, rows: number): void;
  /** The session leader's exit status (shell-style: 128 + signal when killed). */
  readonly exited: Promise<number>;
  /** Hang up: the session gets SIGHUP; resolves once the leader is gone. */
  close(): Promise<void>;
}

/** Who runs the session and what it starts with (AgentVM passes its user and environment). */
export interface TerminalIdentity {
  uid?: number;
  gid?: number;
  env?: Record<string, string>;
  cwd?: string;
}

const enc = new TextEncoder();

export async function openTerminal(m: Machine, opts: TerminalOptions = {}, who: TerminalIdentity = {}): Promise<Terminal> {
  const cols = opts.cols ?? 80;
  const rows = opts.rows ?? 24;
  const argv = opts.argv?.length ? opts.argv : ['bash', '-l'];
  const master = (await m.syscall('open', '/dev/ptmx', O_RDWR | O_NOCTTY | O_CLOEXEC)) as number;
  let pid: number;
  try {
    await m.syscall('ioctl', master, TIOCSWINSZ, { rows, cols });
    const pts = `/dev/pts/${(await m.syscall('ioctl', master, TIOCGPTN)) as number}`;
    if (who.uid !== undefined) await m.syscall('chown', pts, who.uid, who.gid ?? who.uid);
    const slave = (await m.syscall('open', pts, O_RDWR | O_NOCTTY)) as number;
    try {
      const env = { TERM: 'xterm-256color', COLUMNS: String(cols), LINES: String(rows), ...who.env, ...opts.env };
      pid = (await m.syscall('spawn', {
        path: await resolveCommand(m, argv[0]),
        argv,
        env: Object.entries({ HOME: '/home/user', USER: 'user', LOGNAME: 'user', LANG: 'C.UTF-8', SHELL: '/bin/bash', ...env }).map(([k, v]) => `${k}=${v}`),
        cwd: opts.cwd ?? who.cwd,
        fds: [[0, slave], [1, slave], [2, slave]],
        setsid: true,
        ctty: 0,
        uid: who.uid,
        gid: who.gid ?? who.uid,
      })) as number;
    } finally {
      await m.syscall('close', slave);
    }
  } catch (e) {
    await m.syscall('close', master).catch(() => {});
    throw e;
  }
  return new PtyTerminal(m, master, pid);
}

/** A command name as the shell would find it on the default PATH (the host has no shell to ask). */
async function resolveCommand(m: Machine, name: string): Promise<string> {
  if (name.includes('/')) return name;
  for (const dir of DEFAULT_PATH.split(':')) {
    try {
      await m.stat(`${dir}/${name}`);
      return `${dir}/${name}`;
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
    }
  }
  throw new Error(`agentOS terminal: ${name}: command not found`);
}

class PtyTerminal implements Terminal {
  readonly exited: Promise<number>;
  private readonly listeners = new Set<(b: Uint8Array) => void>();
  /** Output that arrived before anyone listened. */
  private early: Uint8Array[] = [];
  private closed = false;
  private writes: Promise<unknown> = Promise.resolve();
  private readonly pumped: Promise<void>;

  constructor(private readonly m: Machine, private readonly master: number, pid: number) {
    this.pumped = this.pump();
    this.exited = m.wait(pid).then(async (status) => {
      // What the shell wrote last is still on its way; then the terminal goes.
      await Promise.race([this.pumped, new Promise((r) => setTimeout(r, 200))]);
      await this.hangup();
      return shellStatus(status);
    });
    this.exited.catch(() => {}); // a VM stopped under an open terminal is not an unhandled rejection
  }

  private async pump(): Promise<void> {
    for (;;) {
      let b: Uint8Array;
      try {
        b = (await this.m.syscall('read', this.master, 65536)) as Uint8Array;
      } catch {
        return; // EIO: every slave closed, or EBADF: hung up
      }
      if (!b.byteLength) return;
      if (this.listeners.size) this.listeners.forEach((l) => l(b));
      else this.early.push(b);
    }
  }

  write(data: Uint8Array | string): void {
    if (this.closed) return;
    const bytes = typeof data === 'string' ? enc.encode(data) : data;
    this.writes = this.writes.then(() => this.m.syscall('write', this.master, bytes)).catch(() => {});
  }

  onData(cb: (bytes: Uint8Array) => void): () => void {
    this.listeners.add(cb);
    if (this.early.length) {
      const early = this.early;
      this.early = [];
      early.forEach((b) => cb(b));
    }
    return () => this.listeners.delete(cb);
  }

  resize(cols: number, rows: number): void {
    if (this.closed) return;
    this.writes = this.writes.then(() => this.m.syscall('ioctl', this.master, TIOCSWINSZ, { rows, cols })).catch(() => {});
  }

  private async hangup(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writes;
    await this.m.syscall('close', this.master).catch(() => {});
  }

  async close(): Promise<void> {
    await this.hangup();
    await this.exited.catch(() => {});
  }
}

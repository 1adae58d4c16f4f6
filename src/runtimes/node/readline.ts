// The `readline` module: createInterface over a Readable (line, close,
// question, prompt, async iteration) and readline/promises.

import { EventEmitter } from './events.js';
import type { Readable, Writable } from './stream.js';
import { emitKeypressEvents } from './keypress.js';

interface RlOpts { input: Readable; output?: Writable; prompt?: string; terminal?: boolean; crlfDelay?: number }

export class Interface extends EventEmitter {
  closed = false;
  line = '';
  terminal: boolean;
  private input: Readable;
  private output?: Writable;
  private promptText: string;
  private buf = '';
  private pending: ((s: string) => void) | null = null;
  private paused = false;
  private onData = (c: unknown) => this.feed(typeof c === 'string' ? c : this.dec.decode(c as Uint8Array, { stream: true }));
  private onEnd = () => {
    if (this.buf) this.emitLine(this.buf);
    this.buf = '';
    this.close();
  };
  private dec = new TextDecoder();

  constructor(input: Readable | RlOpts, output?: Writable) {
    super();
    const o: RlOpts = (input as RlOpts).input ? (input as RlOpts) : { input: input as Readable, output };
    this.input = o.input;
    this.output = o.output;
    this.promptText = o.prompt ?? '> ';
    this.terminal = !!o.terminal;
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
  }

  private feed(s: string): void {
    this.buf += s;
    let i: number;
    while (!this.closed && (i = this.buf.search(/\r?\n|\r(?!$)/)) >= 0) {
      const nl = this.buf[i] === '\r' && this.buf[i + 1] === '\n' ? 2 : 1;
      const line = this.buf.slice(0, i);
      this.buf = this.buf.slice(i + nl);
      this.emitLine(line);
    }
  }

  private emitLine(line: string): void {
    const q = this.pending;
    if (q) {
      this.pending = null;
      q(line);
    } else this.emit('line', line);
  }

  setPrompt(p: string): void { this.promptText = p; }
  getPrompt(): string { return this.promptText; }
  prompt(): void {
    if (this.paused) this.resume();
    this.output?.write(this.promptText);
  }
  question(query: string, o?: unknown, cb?: (a: string) => void): void {
    if (typeof o === 'function') cb = o as (a: string) => void;
    if (this.closed) throw Object.assign(new Error('readline was closed'), { code: 'ERR_USE_AFTER_CLOSE' });
    this.output?.write(query);
    this.pending = cb ?? null;
    this.resume();
  }
  write(d: string): void { this.output?.write(d); }
  pause(): this { this.paused = true; this.input.pause(); this.emit('pause'); return this; }
  resume(): this { this.paused = false; this.input.resume(); this.emit('resume'); return this; }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.input.removeListener('data', this.onData);
    this.input.removeListener('end', this.onEnd);
    this.input.pause();
    this.emit('close');
  }
  getCursorPos(): { rows: number; cols: number } { return { rows: 0, cols: 0 }; }

  [Symbol.asyncIterator](): AsyncIterableIterator<string> {
    const lines: string[] = [];
    let done = false;
    let wake: (() => void) | null = null;
    this.on('line', (l: unknown) => { lines.push(l as string); wake?.(); });
    this.on('close', () => { done = true; wake?.(); });
    const it: AsyncIterableIterator<string> = {
      next: async () => {
        while (!lines.length && !done) await new Promise<void>((r) => (wake = r));
        wake = null;
        return lines.length ? { value: lines.shift()!, done: false } : { value: undefined, done: true };
      },
      return: async () => { this.close(); return { value: undefined, done: true }; },
      [Symbol.asyncIterator]: () => it,
    };
    return it;
  }
}

export function makeReadline(promises: boolean): Record<string, unknown> {
  const createInterface = (i: Readable | RlOpts, o?: Writable) => {
    const rl = new Interface(i, o);
    if (promises) {
      const q = rl.question.bind(rl);
      (rl as unknown as { question: unknown }).question = (query: string) => new Promise<string>((res) => q(query, res));
    }
    return rl;
  };
  const base = {
    Interface,
    createInterface,
    clearLine: (s: Writable, dir = 0, cb?: () => void) => { s.write(dir < 0 ? '\x1b[1K' : dir > 0 ? '\x1b[0K' : '\x1b[2K'); cb?.(); return true; },
    clearScreenDown: (s: Writable, cb?: () => void) => { s.write('\x1b[0J'); cb?.(); return true; },
    cursorTo: (s: Writable, x: number, y?: number | (() => void), cb?: () => void) => {
      s.write(typeof y === 'number' ? `\x1b[${y + 1};${x + 1}H` : `\x1b[${x + 1}G`);
      (typeof y === 'function' ? y : cb)?.();
      return true;
    },
    moveCursor: (s: Writable, dx: number, dy: number, cb?: () => void) => {
      let o = '';
      if (dx) o += dx > 0 ? `\x1b[${dx}C` : `\x1b[${-dx}D`;
      if (dy) o += dy > 0 ? `\x1b[${dy}B` : `\x1b[${-dy}A`;
      if (o) s.write(o);
      cb?.();
      return true;
    },
    emitKeypressEvents,
  };
  return promises ? { ...base, Readline: class {} } : { ...base, promises: makeReadline(true) };
}

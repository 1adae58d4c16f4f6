// jq's inputs: the files (or stdin) read as one stream, a chunk at a time,
// yielding each value as soon as it is complete — JSON texts, raw lines
// (-R), the stream events of each value (--stream) — and tracking the
// position jq reports in errors (`<stdin>:3`).

import { SysError, strerror } from '../../../../abi/errno.js';
import { O_RDONLY } from '../../../../abi/fcntl.js';
import type { Sys } from '../../../../libc/sys.js';
import { JsonReader } from '../engine/json-parse.js';
import type { Json } from '../engine/value.js';

const CHUNK = 64 * 1024;

export interface InputOptions {
  raw: boolean;
  stream: boolean;
  seq: boolean;
  /** Parse warnings (--seq) and file errors go here. */
  warn: (msg: string) => void;
  /** Called before each read, which may block: results so far should reach the reader. */
  beforeRead?: () => void;
}

export class Inputs {
  private k = -1;
  private fd = -1;
  private decoderFile = new TextDecoder();
  private readonly reader: JsonReader;
  private done = false;
  private name: string | null = null;
  /** Newlines already consumed from previous files (positions count per file). */
  private lineBase = 0;
  private rawBuf = '';
  private rawLines = 0;
  private readonly queue: Json[] = [];
  /** A file could not be opened (exit status 2 at the end). */
  failed = false;
  /** A value was read (for -R -s: the text was taken). */
  started = false;
  /** next() calls so far, and the one during which the end of the last file was seen. */
  private calls = 0;
  private endCall = -1;
  /** The last file is closed: positions are unknown again (as in jq). */
  private closed = false;

  constructor(
    private readonly sys: Sys,
    private readonly files: string[],
    private readonly opts: InputOptions,
  ) {
    this.reader = new JsonReader({ seq: opts.seq, warn: opts.warn });
  }

  /** The next input value, or undefined at the end. Throws ParseError. */
  next(): Json | undefined {
    this.calls++;
    if (this.queue.length) return this.queue.shift();
    for (;;) {
      const v = this.opts.raw ? this.rawLine() : this.reader.read();
      if (v !== undefined) {
        this.started = true;
        if (this.opts.stream && !this.opts.raw) {
          streamEvents(v, this.queue);
          return this.queue.shift();
        }
        return v;
      }
      if (this.done) {
        if (this.endCall < this.calls) this.closed = true;
        return undefined;
      }
      this.fill();
    }
  }

  /** Everything left, for -R -s: the whole text. */
  rest(): string {
    while (!this.done) this.fill();
    const s = this.rawBuf;
    this.rawBuf = '';
    this.started = true;
    return s;
  }

  private rawLine(): string | undefined {
    const nl = this.rawBuf.indexOf('\n');
    if (nl >= 0) {
      const line = this.rawBuf.slice(0, nl);
      this.rawBuf = this.rawBuf.slice(nl + 1);
      this.rawLines++;
      return line;
    }
    if (this.done && this.rawBuf !== '') {
      const line = this.rawBuf;
      this.rawBuf = '';
      return line;
    }
    return undefined;
  }

  private feed(text: string): void {
    if (this.opts.raw) this.rawBuf += text;
    else this.reader.feed(text);
  }

  /** Read the next chunk, moving on through the files; marks the end. */
  private fill(): void {
    while (this.fd < 0) {
      if (!this.open()) {
        this.done = true;
        this.endCall = this.calls;
        if (!this.opts.raw) this.reader.end();
        return;
      }
    }
    let b: Uint8Array;
    this.opts.beforeRead?.();
    try {
      b = this.sys.read(this.fd, CHUNK);
    } catch (e) {
      // jq treats a file it cannot read (a directory) as empty, and fails at the end.
      if (!(e instanceof SysError)) throw e;
      this.failed = true;
      b = new Uint8Array(0);
    }
    if (b.length) {
      this.feed(this.decoderFile.decode(b, { stream: true }));
      return;
    }
    this.feed(this.decoderFile.decode());
    if (this.fd !== 0) this.sys.close(this.fd);
    this.fd = -1;
  }

  private open(): boolean {
    const list = this.files.length ? this.files : ['-'];
    while (++this.k < list.length) {
      const f = list[this.k];
      if (f === '-') {
        this.fd = 0;
      } else {
        try {
          this.fd = this.sys.open(f, O_RDONLY);
        } catch (e) {
          if (!(e instanceof SysError)) throw e;
          this.opts.warn(`error: Could not open file ${f}: ${strerror(e.errno)}`);
          this.failed = true;
          continue;
        }
      }
      this.lineBase = this.opts.raw ? this.rawLines : this.reader.lineNo;
      this.name = f === '-' ? '<stdin>' : f;
      this.decoderFile = new TextDecoder();
      return true;
    }
    return false;
  }

  filename(): Json {
    return this.closed ? null : this.name;
  }

  lineNumber(): number {
    return (this.opts.raw ? this.rawLines : this.reader.lineNo) - this.lineBase;
  }

  /** Where errors say they happened: `<stdin>:N`, `file:N`, or `<unknown>` outside any file. */
  position(): string {
    if (this.name === null || this.closed) return '<unknown>';
    return `${this.name}:${this.lineNumber()}`;
  }
}

/** --stream: a value as [path, leaf] events and [path] closing markers. */
function streamEvents(v: Json, out: Json[]): void {
  const walk = (x: Json, path: Json[]): void => {
    const entries: [Json, Json][] = Array.isArray(x) ? x.map((y, i) => [i, y]) : x instanceof Map ? [...x] : [];
    if (entries.length === 0) {
      out.push([path, x]);
      return;
    }
    for (const [key, y] of entries) walk(y, [...path, key]);
    out.push([[...path, entries[entries.length - 1][0]]]);
  };
  walk(v, []);
}

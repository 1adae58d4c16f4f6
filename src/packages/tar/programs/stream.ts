// Byte plumbing for tar: sources read chunk by chunk (an fd, or gunzip over
// one), a block reader that hands out exact byte counts without copying when
// it can, and sinks (an fd, or gzip in front of one). An archive is never
// held whole in memory.

import { GzDecoder, GzError } from '../../gzip/programs/decoder.js';
import { GzEncoder } from '../../gzip/programs/encoder.js';
import type { Sys } from '../../../libc/sys.js';
import { Writer } from '../../../userland/lib/writer.js';

const CHUNK = 128 * 1024;
const EMPTY = new Uint8Array(0);

export interface Source {
  /** The next chunk, or null at the end. */
  read(): Uint8Array | null;
}

export class FdSource implements Source {
  constructor(
    private readonly sys: Sys,
    private readonly fd: number,
  ) {}

  read(): Uint8Array | null {
    const b = this.sys.read(this.fd, CHUNK);
    return b.byteLength ? b : null;
  }
}

/** Replays bytes already read (to sniff the format) before the rest of a source. */
export class PrefixSource implements Source {
  constructor(
    private prefix: Uint8Array | null,
    private readonly rest: Source,
  ) {}

  read(): Uint8Array | null {
    const p = this.prefix;
    this.prefix = null;
    return p && p.byteLength ? p : this.rest.read();
  }
}

/** What gunzip said, as tar reports its child: the message and the child's exit status. */
export interface ChildTrouble {
  message: string;
  status: number;
}

/** gzip -d as tar's child: errors end the stream and are remembered for "Child returned status". */
export class GunzipSource implements Source {
  trouble: ChildTrouble | null = null;
  private readonly queue: Uint8Array[] = [];
  private readonly dec = new GzDecoder((b) => this.queue.push(b));
  private done = false;

  constructor(
    private readonly src: Source,
    private readonly report: (t: ChildTrouble) => void,
  ) {}

  read(): Uint8Array | null {
    while (this.queue.length === 0 && !this.done) {
      const c = this.src.read();
      try {
        if (c) this.dec.push(c);
        else {
          this.done = true;
          this.dec.end();
          if (this.dec.tail === 'garbage') this.fail('\ngzip: stdin: decompression OK, trailing garbage ignored', 2);
        }
      } catch (e) {
        if (!(e instanceof GzError)) throw e;
        this.done = true;
        this.fail(`${e.leadingNewline ? '\n' : ''}gzip: stdin${e.message}`, 1);
      }
    }
    return this.queue.shift() ?? null;
  }

  private fail(message: string, status: number): void {
    this.trouble = { message, status };
    this.report(this.trouble);
  }
}

/** Exact-size reads over a source; `offset` counts the bytes consumed. */
export class BlockReader {
  offset = 0;
  private cur: Uint8Array = EMPTY;
  private pos = 0;

  constructor(private readonly src: Source) {}

  /** Up to n bytes (a view when possible); empty only at the end. */
  take(n: number): Uint8Array {
    if (this.pos >= this.cur.byteLength) {
      const next = this.src.read();
      if (!next) return EMPTY;
      this.cur = next;
      this.pos = 0;
    }
    const k = Math.min(n, this.cur.byteLength - this.pos);
    const out = this.cur.subarray(this.pos, this.pos + k);
    this.pos += k;
    this.offset += k;
    return out;
  }

  /** Exactly n bytes, or fewer at the end. */
  read(n: number): Uint8Array {
    const first = this.take(n);
    if (first.byteLength === n || first.byteLength === 0) return first;
    const out = new Uint8Array(n);
    out.set(first);
    let got = first.byteLength;
    while (got < n) {
      const more = this.take(n - got);
      if (!more.byteLength) return out.subarray(0, got);
      out.set(more, got);
      got += more.byteLength;
    }
    return out;
  }

  /** Skip n bytes; returns how many there were. */
  skip(n: number): number {
    let left = n;
    while (left > 0) {
      const b = this.take(left);
      if (!b.byteLength) break;
      left -= b.byteLength;
    }
    return n - left;
  }

  /** Read to the end (so a compressor's errors surface). */
  drain(): void {
    while (this.take(CHUNK).byteLength) {
      // discard
    }
  }
}

export interface Sink {
  write(b: Uint8Array): void;
  end(): void;
}

export class FdSink implements Sink {
  private readonly w: Writer;

  constructor(sys: Sys, fd: number) {
    this.w = new Writer(sys, fd);
  }

  write(b: Uint8Array): void {
    this.w.write(b);
  }

  end(): void {
    this.w.flush();
  }
}

/** gzip as tar's child writes it: from a pipe, so no name and no time in the header. */
export class GzipSink implements Sink {
  private readonly enc: GzEncoder;

  constructor(private readonly inner: Sink) {
    this.enc = new GzEncoder((b) => inner.write(b), 6, null, 0);
  }

  write(b: Uint8Array): void {
    this.enc.push(b);
  }

  end(): void {
    this.enc.end();
    this.inner.end();
  }
}

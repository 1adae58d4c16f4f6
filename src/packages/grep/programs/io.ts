// Byte-oriented I/O for grep. Data is handled as "byte strings" (one char per
// byte, latin1) so that matching is by byte, as in the C locale, and output
// is byte-exact whatever the input encoding.

import { IO_CHUNK } from '../../../abi/channel.js';
import type { Sys } from '../../../libc/sys.js';
import { latin1, latin1Bytes } from '../../../userland/lib/bytes.js';
import { encode } from '../../../userland/lib/utf8.js';

/** Output flushes at 64 KiB (input is read IO_CHUNK at a time: LineReader). */
const CHUNK = 64 * 1024;

/** Bytes → byte string. */
export const bytesToStr = latin1;

/** Byte string → bytes. */
export const strToBytes = latin1Bytes;

/**
 * A JS string, e.g. a file name or an argv pattern, as the byte string of its
 * UTF-8 (bytes that are not UTF-8 arrive as lone surrogates and go back as they were).
 */
export const utf8Bytes = encode;

/**
 * Streams the records of a file: reads IO_CHUNK bytes at a time and yields each
 * line without its terminator, so a huge file never sits in memory. `binary`
 * turns true once a NUL byte has been seen (before the lines of that chunk
 * are yielded, as GNU grep decides per buffer).
 */
export class LineReader {
  binary = false;
  private carry = '';
  private eof = false;
  private pending: string[] = [];
  private next = 0;

  constructor(
    private readonly sys: Sys,
    private readonly fd: number,
    private readonly eol: string,
    /**
     * Only lines holding a match of this yield (the others are skipped, so
     * line numbers and offsets are lost: for -c, -l, -L and -q). Must not be
     * able to match across an end of line.
     */
    private readonly needle: RegExp | null = null,
  ) {}

  /** The next line, or null at the end. */
  read(): string | null {
    while (this.next >= this.pending.length) {
      if (this.eof) return null;
      this.fill();
    }
    return this.pending[this.next++];
  }

  private fill(): void {
    this.pending = [];
    this.next = 0;
    const b = this.sys.read(this.fd, IO_CHUNK);
    if (b.length === 0) {
      this.eof = true;
      if (this.carry !== '') this.pending.push(this.carry);
      this.carry = '';
      return;
    }
    if (!this.binary && this.eol !== '\0' && b.includes(0)) this.binary = true;
    const s = this.carry + bytesToStr(b);
    if (this.needle) {
      this.fillMatching(s);
      return;
    }
    let start = 0;
    for (let i = s.indexOf(this.eol); i >= 0; i = s.indexOf(this.eol, start)) {
      this.pending.push(s.slice(start, i));
      start = i + 1;
    }
    this.carry = s.slice(start);
  }

  /** Yield only the complete lines of `s` that hold a needle match; the unterminated rest is carried. */
  private fillMatching(s: string): void {
    const re = this.needle!;
    const last = s.lastIndexOf(this.eol);
    re.lastIndex = 0;
    for (let m = re.exec(s); m && m.index < last; m = re.exec(s)) {
      const start = s.lastIndexOf(this.eol, m.index - 1) + 1;
      const end = s.indexOf(this.eol, m.index);
      this.pending.push(s.slice(start, end));
      re.lastIndex = end + 1;
    }
    this.carry = s.slice(last + 1);
  }
}

/** Buffered stdout for byte strings; flushes at 64 KiB, at exit, or per line with --line-buffered. */
export class Output {
  private parts: string[] = [];
  private size = 0;

  constructor(
    private readonly sys: Sys,
    private readonly lineBuffered: boolean,
  ) {}

  write(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= CHUNK) this.flush();
  }

  /** End of one output line. */
  endLine(eol: string): void {
    this.write(eol);
    if (this.lineBuffered) this.flush();
  }

  flush(): void {
    if (this.size === 0) return;
    const data = strToBytes(this.parts.join(''));
    this.parts = [];
    this.size = 0;
    this.sys.writeAll(1, data);
  }
}

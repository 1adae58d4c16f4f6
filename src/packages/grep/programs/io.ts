// Byte-oriented I/O for grep. Data is handled as "byte strings" (one char per
// byte, latin1) so that matching is by byte, as in the C locale, and output
// is byte-exact whatever the input encoding.

import type { Sys } from '../../../user/sys.js';

const CHUNK = 64 * 1024;

/** Bytes → byte string. */
export function bytesToStr(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}

/** Byte string → bytes. */
export function strToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const enc = new TextEncoder();
/** A JS (Unicode) string, e.g. a file name or an argv pattern, as the byte string of its UTF-8. */
export const utf8Bytes = (s: string): string => bytesToStr(enc.encode(s));

/**
 * Streams the records of a file: reads CHUNK bytes at a time and yields each
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
    const b = this.sys.read(this.fd, CHUNK);
    if (b.length === 0) {
      this.eof = true;
      if (this.carry !== '') this.pending.push(this.carry);
      this.carry = '';
      return;
    }
    if (!this.binary && this.eol !== '\0' && b.includes(0)) this.binary = true;
    const s = this.carry + bytesToStr(b);
    let start = 0;
    for (let i = s.indexOf(this.eol); i >= 0; i = s.indexOf(this.eol, start)) {
      this.pending.push(s.slice(start, i));
      start = i + 1;
    }
    this.carry = s.slice(start);
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

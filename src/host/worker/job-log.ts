// A background job's output (jobs.ts): one bounded ring of stdout and stderr
// chunks in the order they were captured. Each stream is decoded as UTF-8 by a
// streaming decoder as it arrives, so a character split across two writes (or
// two pipe reads) is stored whole, and the ring holds valid UTF-8 only; bytes
// that are not UTF-8 become U+FFFD. Positions ("cursors") count the bytes of
// that UTF-8 from the job's start, both streams together. Past the capacity
// the oldest bytes go, cut at a character boundary; a reader whose cursor is
// older learns how many it missed (`dropped`).

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Chunks of one stream that follow each other merge up to this size (a `tick` a line would be an entry each). */
const MERGE_BYTES = 64 * 1024;

export type Stream = 'stdout' | 'stderr';

interface Entry {
  stream: Stream;
  /** Position of its first byte. */
  at: number;
  bytes: Uint8Array;
}

/** What is new since a cursor. */
export interface LogRead {
  stdout: string;
  stderr: string;
  /** Where the next read starts: the end of what this one returned. */
  cursor: number;
  /** Bytes between the caller's cursor and the oldest byte still kept (the ring overflowed). */
  dropped: number;
}

/** UTF-8 continuation byte (10xxxxxx): not a character's start. */
const isCont = (b: number): boolean => (b & 0xc0) === 0x80;

export class JobLog {
  private entries: Entry[] = [];
  /** Position of the oldest byte kept. */
  private start = 0;
  /** Position after the newest byte: every byte the job has written (as UTF-8). */
  end = 0;
  private readonly decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };

  constructor(readonly capacity: number) {}

  /** Bytes the job wrote to `stream`; a character's incomplete tail waits in the decoder for the next ones. */
  push(stream: Stream, data: Uint8Array): void {
    this.append(stream, this.decoders[stream].decode(data, { stream: true }));
  }

  /** `stream` reached end of file: an incomplete character left over becomes U+FFFD. */
  close(stream: Stream): void {
    this.append(stream, this.decoders[stream].decode());
  }

  private append(stream: Stream, text: string): void {
    if (!text) return;
    const bytes = enc.encode(text);
    const last = this.entries.at(-1);
    if (last && last.stream === stream && last.bytes.length + bytes.length <= MERGE_BYTES) {
      const b = new Uint8Array(last.bytes.length + bytes.length);
      b.set(last.bytes);
      b.set(bytes, last.bytes.length);
      last.bytes = b;
    } else {
      this.entries.push({ stream, at: this.end, bytes });
    }
    this.end += bytes.length;
    this.trim();
  }

  /** Drop the oldest bytes past the capacity, never half a character. */
  private trim(): void {
    const cut = this.end - this.capacity;
    if (cut <= this.start) return;
    while (this.entries.length && this.entries[0].at + this.entries[0].bytes.length <= cut) this.entries.shift();
    const first = this.entries[0];
    if (!first || first.at >= cut) {
      this.start = first ? first.at : this.end;
      return;
    }
    let off = cut - first.at;
    while (off < first.bytes.length && isCont(first.bytes[off])) off++;
    first.bytes = first.bytes.slice(off);
    first.at += off;
    this.start = first.at;
  }

  /** What was written after `cursor` (0: from the start), each stream apart. */
  read(cursor = 0): LogRead {
    const from = Math.min(Math.max(cursor, this.start), this.end);
    const parts: Record<Stream, Uint8Array[]> = { stdout: [], stderr: [] };
    for (const e of this.entries) {
      if (e.at + e.bytes.length <= from) continue;
      let off = Math.max(0, from - e.at);
      // A cursor the caller made up may point inside a character: start at the next one.
      while (off < e.bytes.length && isCont(e.bytes[off])) off++;
      parts[e.stream].push(e.bytes.subarray(off));
    }
    const text = (ps: Uint8Array[]) => ps.map((p) => dec.decode(p)).join('');
    return { stdout: text(parts.stdout), stderr: text(parts.stderr), cursor: this.end, dropped: Math.max(0, this.start - cursor) };
  }
}

// Streaming gunzip: compressed bytes in, decompressed chunks out, one member
// after another. Checks each member's CRC and length as GNU gzip does, and
// classifies what follows the last member (zeros are padding, anything else
// "trailing garbage"). Nothing is ever held beyond one chunk.

import { concatBytes } from '../../../abi/bytes.js';
import { crc32 } from '../../../common/crc32.js';
import { isMagic, isProblem, parseHeader, type GzHeader } from './header.js';
import { RawInflater } from './inflate.js';

/** A decompression failure in GNU gzip's words: `message` follows "gzip: NAME"; then `leadingNewline` as GNU prints it. */
export class GzError extends Error {
  constructor(
    message: string,
    readonly leadingNewline = true,
  ) {
    super(message);
  }
}

type State = 'header' | 'body' | 'trailer' | 'after' | 'zeros' | 'garbage' | 'raw';

const EMPTY = new Uint8Array(0);

export class GzDecoder {
  /** The first member's header (name, mtime, size), once read. */
  first: GzHeader | null = null;
  /** Compressed bytes consumed, uncompressed bytes produced. */
  bytesIn = 0;
  bytesOut = 0;
  /** What followed the members: nothing, zero padding, or garbage. */
  tail: 'none' | 'zeros' | 'garbage' = 'none';
  /** Members decoded, and the last one's CRC and size (gzip -l and -v report those). */
  members = 0;
  lastCrc = 0;
  lastSize = 0;
  private state: State = 'header';
  private pending: Uint8Array = EMPTY;
  private inflater: RawInflater | null = null;
  private crc = 0;
  private size = 0;

  /** `passThrough` (zcat -f): input that is not gzip at all is copied as is. */
  constructor(
    private readonly onData: (b: Uint8Array) => void,
    private readonly passThrough = false,
  ) {}

  push(chunk: Uint8Array): void {
    this.bytesIn += chunk.byteLength;
    let rest: Uint8Array | null = chunk;
    while (rest && rest.byteLength) rest = this.step(rest);
  }

  /** End of input: throws GzError for a truncated member. */
  end(): void {
    if (this.passThrough && this.state === 'header' && this.members === 0 && this.pending[0] !== 0x1f) {
      this.out(this.pending);
      return;
    }
    const truncated = this.state === 'body' || this.state === 'trailer' || (this.state === 'header' && this.members === 0);
    if (truncated) throw new GzError(': unexpected end of file');
    // A lone byte after a member cannot be a magic number.
    if (this.state === 'after' && this.pending.byteLength) this.tail = this.pending[0] === 0 ? 'zeros' : 'garbage';
  }

  /** Consume some of `b`; return what is left for the next state (null: all taken). */
  private step(b: Uint8Array): Uint8Array | null {
    switch (this.state) {
      case 'header': return this.header(b);
      case 'body': return this.body(b);
      case 'trailer': return this.trailer(b);
      case 'after': return this.after(b);
      case 'zeros': {
        if (b.some((x) => x !== 0)) {
          this.tail = 'garbage';
          this.state = 'garbage';
        }
        return null;
      }
      case 'raw':
        this.out(b);
        return null;
      case 'garbage':
        return null;
    }
  }

  private header(b: Uint8Array): Uint8Array | null {
    this.pending = this.pending.byteLength ? concatBytes([this.pending, b]) : b;
    const h = parseHeader(this.pending);
    if (h === null) return null;
    if (isProblem(h)) {
      if (this.passThrough && this.members === 0 && !isMagic(this.pending)) {
        this.state = 'raw';
        const all = this.pending;
        this.pending = EMPTY;
        return all;
      }
      throw new GzError(h.message, h.leadingNewline);
    }
    if (!this.first) this.first = h;
    const rest = this.pending.subarray(h.length);
    this.pending = EMPTY;
    this.crc = 0;
    this.size = 0;
    this.inflater = new RawInflater((d) => {
      this.crc = crc32(d, this.crc);
      this.size = (this.size + d.byteLength) % 2 ** 32;
      this.out(d);
    });
    this.state = 'body';
    return rest;
  }

  private body(b: Uint8Array): Uint8Array | null {
    let rest: Uint8Array | null;
    try {
      rest = this.inflater!.push(b);
    } catch {
      throw new GzError(': invalid compressed data--format violated');
    }
    if (rest === null) return null;
    this.state = 'trailer';
    return rest;
  }

  private trailer(b: Uint8Array): Uint8Array | null {
    this.pending = this.pending.byteLength ? concatBytes([this.pending, b]) : b;
    if (this.pending.byteLength < 8) return null;
    const t = this.pending;
    const crc = (t[0] | t[1] << 8 | t[2] << 16 | t[3] << 24) >>> 0;
    const size = (t[4] | t[5] << 8 | t[6] << 16 | t[7] << 24) >>> 0;
    if (crc !== this.crc) throw new GzError(': invalid compressed data--crc error');
    if (size !== this.size) throw new GzError(': invalid compressed data--length error');
    this.members++;
    this.lastCrc = crc;
    this.lastSize = size;
    this.state = 'after';
    const rest = t.subarray(8);
    this.pending = EMPTY;
    return rest;
  }

  private after(b: Uint8Array): Uint8Array | null {
    this.pending = this.pending.byteLength ? concatBytes([this.pending, b]) : b;
    if (this.pending.byteLength < 2) return null;
    const p = this.pending;
    this.pending = EMPTY;
    if (isMagic(p)) {
      this.state = 'header';
      return p;
    }
    this.state = p[0] === 0 ? 'zeros' : 'garbage';
    this.tail = p[0] === 0 ? 'zeros' : 'garbage';
    return p[0] === 0 ? p.subarray(1) : null;
  }

  /**
   * The header and trailer bytes GNU leaves out of its ratios: only for a
   * lone member with nothing after it (gzip resets the count when it looks
   * for a next member).
   */
  get overhead(): number {
    return this.members === 1 && this.tail === 'none' && this.first ? this.first.length + 8 : 0;
  }

  private out(d: Uint8Array): void {
    this.bytesOut += d.byteLength;
    this.onData(d);
  }
}

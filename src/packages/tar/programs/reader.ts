// Reading an archive member by member the way GNU tar's read_and() does:
// long names ('L'/'K') and pax headers ('x'/'g') fold into the member they
// precede; a zero block ends the archive (a lone one is reported); a block
// with a bad checksum is reported once and skipped; data stream in chunks.

import { decodeBytes } from '../../../abi/bytestr.js';
import type { Tar } from './context.js';
import {
  AREG, BLOCK, DIR, LONGLINK, LONGNAME, PAX, PAXGLOBAL, applyPax, checksumOk, decode, isZeroBlock, parsePax, type Header,
} from './header.js';
import type { BlockReader } from './stream.js';

type Status = 'unread' | 'success' | 'zero' | 'failure';

const padded = (n: number): number => Math.ceil(n / BLOCK) * BLOCK;

export class TarReader {
  /** Offset of the end-of-archive marker (or of the end), where -r appends. */
  endOffset = 0;
  private status: Status = 'unread';
  private left = 0;
  private pad = 0;
  private readonly global = new Map<string, string>();

  constructor(
    private readonly t: Tar,
    private readonly br: BlockReader,
  ) {}

  /** The next member, or null at the end of the archive. Skips what is left of the previous one. */
  next(): Header | null {
    this.skip();
    let longName: string | null = null;
    let longLink: string | null = null;
    let pax: Map<string, string> | null = null;
    for (;;) {
      const start = this.br.offset;
      const b = this.br.read(BLOCK);
      if (b.byteLength < BLOCK) {
        this.endOffset = start;
        return null;
      }
      if (isZeroBlock(b)) {
        if (this.t.opts.ignoreZeros) continue;
        this.endOffset = start;
        const ordinal = this.br.offset / BLOCK;
        const b2 = this.br.read(BLOCK);
        if (b2.byteLength === BLOCK && isZeroBlock(b2)) return null;
        this.t.say(`A lone zero block at ${ordinal}`);
        return null;
      }
      if (!checksumOk(b)) {
        if (this.status === 'unread') this.t.error('This does not look like a tar archive');
        if (this.status !== 'failure') this.t.error('Skipping to next header');
        this.status = 'failure';
        continue;
      }
      const h = decode(b);
      if (h.type === LONGNAME || h.type === LONGLINK || h.type === PAX || h.type === PAXGLOBAL) {
        const data = this.br.read(h.size);
        if (data.byteLength < h.size) this.t.fatal('Unexpected EOF in archive');
        this.br.skip(padded(h.size) - h.size);
        if (h.type === LONGNAME) longName = cString(data);
        else if (h.type === LONGLINK) longLink = cString(data);
        else if (h.type === PAX) pax = parsePax(data);
        else for (const [k, v] of parsePax(data)) this.global.set(k, v);
        continue;
      }
      if (this.global.size) applyPax(h, this.global);
      if (longName !== null) h.name = longName;
      if (longLink !== null) h.linkname = longLink;
      if (pax) applyPax(h, pax);
      // Old archives mark directories with a trailing slash on a regular-file type.
      if (h.type === AREG && h.name.endsWith('/')) h.type = DIR;
      this.status = 'success';
      this.left = h.size;
      this.pad = padded(h.size) - h.size;
      return h;
    }
  }

  /** Stream the current member's data; a short archive is fatal, as in GNU tar. */
  data(each: (chunk: Uint8Array) => void): void {
    while (this.left > 0) {
      const c = this.br.take(this.left);
      if (!c.byteLength) this.t.fatal('Unexpected EOF in archive');
      this.left -= c.byteLength;
      each(c);
    }
    this.skipPad();
  }

  /** Skip the rest of the current member's data. */
  skip(): void {
    if (this.left > 0 && this.br.skip(this.left) < this.left) this.t.fatal('Unexpected EOF in archive');
    this.left = 0;
    this.skipPad();
  }

  private skipPad(): void {
    if (this.pad > 0 && this.br.skip(this.pad) < this.pad) this.t.fatal('Unexpected EOF in archive');
    this.pad = 0;
  }
}

function cString(data: Uint8Array): string {
  const end = data.indexOf(0);
  return decodeBytes(end < 0 ? data : data.subarray(0, end));
}

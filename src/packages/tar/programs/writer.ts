// Writing an archive: each member's header (with GNU long-name members, a
// ustar prefix split, or pax records, by format), its data padded to a
// block, and at the end two zero blocks and zeros up to a whole record.

import {
  BLOCK, LONGLINK, LONGNAME, FieldOverflow, byteLength, encodeBlock, encodeUstar, longLinkBlocks, paxBlocks, splitUstar,
  type Format, type Header,
} from './header.js';
import type { Sink } from './stream.js';

/** Why a member cannot be written in the chosen format (GNU's "...; not dumped" messages, about `subject` if not the file). */
export class NotDumped extends Error {
  constructor(
    message: string,
    readonly subject: string | null = null,
  ) {
    super(message);
  }
}

const OCTAL_SIZE_MAX = 0o77777777777;

export class TarWriter {
  private blocks: number;

  constructor(
    private readonly sink: Sink,
    private readonly format: Format,
    private readonly recordBlocks: number,
    /** The name of uid 0, which GNU puts in its ././@LongLink headers. */
    private readonly rootName: string,
    startBlock = 0,
  ) {
    this.blocks = startBlock;
  }

  /** Write a member's header; its data (h.size bytes) must follow through data(). */
  header(h: Header): void {
    for (const b of this.headerBlocks(h)) this.put(b);
  }

  data(chunk: Uint8Array): void {
    this.sink.write(chunk);
  }

  /** After the data: zeros to the block boundary. */
  endData(size: number): void {
    const rem = size % BLOCK;
    const n = Math.ceil(size / BLOCK);
    if (rem) this.sink.write(new Uint8Array(BLOCK - rem));
    this.blocks += n;
  }

  /** End-of-archive blocks and record padding; returns the archive's length in bytes. */
  finish(): number {
    this.put(new Uint8Array(2 * BLOCK));
    const rem = this.blocks % this.recordBlocks;
    if (rem) this.put(new Uint8Array((this.recordBlocks - rem) * BLOCK));
    this.sink.end();
    return this.blocks * BLOCK;
  }

  private put(b: Uint8Array): void {
    this.sink.write(b);
    this.blocks += b.byteLength / BLOCK;
  }

  private headerBlocks(h: Header): Uint8Array[] {
    const f = this.format;
    if (f === 'gnu' || f === 'oldgnu') {
      // A name that fills the field exactly (no NUL) still fits.
      const out: Uint8Array[] = [];
      if (byteLength(h.linkname) > 100) out.push(...longLinkBlocks(LONGLINK, h.linkname, this.rootName));
      if (byteLength(h.name) > 100) out.push(...longLinkBlocks(LONGNAME, h.name, this.rootName));
      out.push(encodeBlock(h, f));
      return out;
    }
    if (f === 'posix') return this.paxHeader(h);
    if (byteLength(h.linkname) > 100) throw new NotDumped('link name is too long; not dumped', h.linkname);
    if (f === 'v7') {
      if (byteLength(h.name) > 99) throw new NotDumped('file name is too long (max 99); not dumped');
      return [this.encode(h, () => encodeBlock(h, f))];
    }
    const split = splitUstar(h.name);
    if (!split) {
      const why = byteLength(h.name) > 255 ? 'max 255' : 'cannot be split';
      throw new NotDumped(`file name is too long (${why}); not dumped`);
    }
    return [this.encode(h, () => encodeUstar(h, split, f))];
  }

  private encode(h: Header, make: () => Uint8Array): Uint8Array {
    try {
      return make();
    } catch (e) {
      if (!(e instanceof FieldOverflow)) throw e;
      throw new NotDumped(`value ${h.size} out of range`);
    }
  }

  /** POSIX: pax records for what ustar cannot hold (long or non-ASCII names, big numbers). */
  private paxHeader(h: Header): Uint8Array[] {
    const records: [string, string][] = [];
    const ascii = (s: string) => ![...s].some((c) => c.charCodeAt(0) > 0x7f);
    const split = ascii(h.name) ? splitUstar(h.name) : null;
    if (!split) records.push(['path', h.name]);
    if (byteLength(h.linkname) > 100 || !ascii(h.linkname)) records.push(['linkpath', h.linkname]);
    if (h.size > OCTAL_SIZE_MAX) records.push(['size', String(h.size)]);
    if (h.uid > 0o7777777) records.push(['uid', String(h.uid)]);
    if (h.gid > 0o7777777) records.push(['gid', String(h.gid)]);
    if (h.mtime < 0 || h.mtime > OCTAL_SIZE_MAX) records.push(['mtime', String(h.mtime)]);
    const fit: Header = {
      ...h,
      size: Math.min(h.size, OCTAL_SIZE_MAX),
      uid: Math.min(h.uid, 0o7777777),
      gid: Math.min(h.gid, 0o7777777),
      mtime: Math.max(0, Math.min(h.mtime, OCTAL_SIZE_MAX)),
    };
    const main = encodeUstar(fit, split ?? { prefix: '', name: h.name }, 'posix');
    return records.length ? [...paxBlocks(h.name, records), main] : [main];
  }
}

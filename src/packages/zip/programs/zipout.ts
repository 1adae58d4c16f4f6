// Writing a zip archive entry by entry, streaming each file through fflate's
// Deflate. On a seekable file the local header is patched afterwards with
// the CRC and sizes (as Info-ZIP does), and an entry that deflate made no
// smaller is rewritten stored; on a pipe a data descriptor follows the data.

import { Deflate, type DeflateOptions } from 'fflate';
import { SEEK_SET } from '../../../abi/fcntl.js';
import type { Sys } from '../../../libc/sys.js';
import { Writer } from '../../../userland/lib/writer.js';
import { crc32 } from '../../../common/crc32.js';
import {
  DEFLATED, LOCAL_CRC_OFFSET, STORED, centralHeader, descriptor, endRecord, localHeader, localHeaderLength, type Entry, type NewEntry,
} from './format.js';
import { readAt } from './io.js';

export interface Added {
  method: number;
  csize: number;
  usize: number;
}

/** A source of data for an entry that can start over (to store what would not deflate). */
export interface Data {
  read(): Uint8Array | null;
  rewind: (() => void) | null;
}

export class ZipOut {
  private pos = 0;
  private readonly w: Writer;
  private readonly central: Uint8Array[] = [];

  constructor(
    private readonly sys: Sys,
    private readonly fd: number,
    private readonly seekable: boolean,
  ) {
    this.w = new Writer(sys, fd);
  }

  add(e: NewEntry, data: Data | null): Added {
    const offset = this.pos;
    e.descriptor = !this.seekable;
    let r = this.write(e, data);
    if (e.method === DEFLATED && r.csize >= r.usize && this.seekable && data?.rewind) {
      // Info-ZIP stores what deflate cannot shrink.
      this.w.flush();
      this.sys.ftruncate(this.fd, offset);
      this.sys.lseek(this.fd, offset, SEEK_SET);
      this.pos = offset;
      data.rewind();
      e.method = STORED;
      r = this.write(e, data);
    }
    if (e.descriptor) this.put(descriptor(r.crc, r.csize, r.usize));
    else {
      this.w.flush();
      const patch = new Uint8Array(12);
      const v = new DataView(patch.buffer);
      v.setUint32(0, r.crc, true);
      v.setUint32(4, r.csize, true);
      v.setUint32(8, r.usize, true);
      this.sys.pwrite(this.fd, patch, offset + LOCAL_CRC_OFFSET);
    }
    this.central.push(centralHeader(e, r.crc, r.csize, r.usize, offset, r.text));
    return { method: e.method, csize: r.csize, usize: r.usize };
  }

  /** Copy an entry of another archive as it is (local header, data, descriptor), recording it at its new place. */
  copy(sys: Sys, fromFd: number, e: Entry): void {
    const h = readAt(sys, fromFd, e.offset, 30);
    const headLen = localHeaderLength(h) ?? 30;
    let len = headLen + e.csize;
    if (e.flags & 0x08) {
      const d = readAt(sys, fromFd, e.offset + len, 4);
      len += d.byteLength === 4 && d[0] === 0x50 && d[1] === 0x4b && d[2] === 7 && d[3] === 8 ? 16 : 12;
    }
    const offset = this.pos;
    for (let done = 0; done < len; ) {
      const b = readAt(sys, fromFd, e.offset + done, Math.min(128 * 1024, len - done));
      if (!b.byteLength) break;
      this.put(b);
      done += b.byteLength;
    }
    const rec = e.raw.slice();
    new DataView(rec.buffer).setUint32(42, offset, true);
    this.central.push(rec);
  }

  finish(): void {
    const cdOffset = this.pos;
    for (const c of this.central) this.put(c);
    this.put(endRecord(this.central.length, this.pos - cdOffset, cdOffset));
    this.w.flush();
  }

  private write(e: NewEntry, data: Data | null): { crc: number; csize: number; usize: number; text: boolean } {
    this.put(localHeader(e));
    let crc = 0;
    let usize = 0;
    let csize = 0;
    let text = true;
    let first = true;
    const deflate = e.method === DEFLATED
      ? new Deflate({ level: e.level as DeflateOptions['level'] }, (c) => {
          this.put(c);
          csize += c.byteLength;
        })
      : null;
    for (let c = data?.read() ?? null; c; c = data!.read()) {
      if (first) text = looksLikeText(c);
      first = false;
      crc = crc32(c, crc);
      usize += c.byteLength;
      if (deflate) deflate.push(c);
      else {
        this.put(c);
        csize += c.byteLength;
      }
    }
    deflate?.push(new Uint8Array(0), true);
    return { crc, csize, usize, text: text && !first };
  }

  private put(b: Uint8Array): void {
    this.w.write(b);
    this.pos += b.byteLength;
  }
}

/** Info-ZIP marks entries that look like text (its zipinfo shows "tx"): no control bytes but whitespace. */
function looksLikeText(b: Uint8Array): boolean {
  const n = Math.min(b.byteLength, 4096);
  for (let i = 0; i < n; i++) {
    const x = b[i];
    if (x < 0x20 && x !== 9 && x !== 10 && x !== 13 && x !== 12) return false;
  }
  return true;
}

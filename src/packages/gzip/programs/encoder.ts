// Streaming gzip: a header, fflate's streaming Deflate over each chunk as it
// comes, and the CRC-32/size trailer. Output goes to `onData` as produced.

import { Deflate, type DeflateOptions } from 'fflate';
import { crc32 } from '../../../common/crc32.js';
import { buildHeader } from './header.js';

export class GzEncoder {
  bytesIn = 0;
  bytesOut = 0;
  /** Header + trailer bytes (gzip -v's ratio leaves them out). */
  readonly overhead: number;
  private crc = 0;
  private readonly deflate: Deflate;

  constructor(
    private readonly onData: (b: Uint8Array) => void,
    level: number,
    name: string | null,
    mtime: number,
  ) {
    const h = buildHeader(name, mtime, level);
    this.overhead = h.byteLength + 8;
    this.emit(h);
    this.deflate = new Deflate({ level: level as DeflateOptions['level'] }, (d) => this.emit(d));
  }

  push(chunk: Uint8Array): void {
    if (!chunk.byteLength) return;
    this.bytesIn += chunk.byteLength;
    this.crc = crc32(chunk, this.crc);
    this.deflate.push(chunk);
  }

  end(): void {
    this.deflate.push(new Uint8Array(0), true);
    const t = new Uint8Array(8);
    const v = new DataView(t.buffer);
    v.setUint32(0, this.crc, true);
    v.setUint32(4, this.bytesIn % 2 ** 32, true);
    this.emit(t);
  }

  private emit(d: Uint8Array): void {
    if (!d.byteLength) return;
    this.bytesOut += d.byteLength;
    this.onData(d);
  }
}

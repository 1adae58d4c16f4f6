// The `string_decoder` module: multi-byte characters split across writes are held back.

import { Buffer } from 'buffer';

export class StringDecoder {
  readonly encoding: string;
  private td: TextDecoder | null;
  private carry: Uint8Array = new Uint8Array(0);

  constructor(encoding = 'utf8') {
    const e = encoding.toLowerCase().replace('-', '');
    this.encoding = e === 'utf8' ? 'utf8' : e === 'ucs2' || e === 'utf16le' ? 'utf16le' : e;
    this.td = this.encoding === 'utf8' ? new TextDecoder('utf-8') : this.encoding === 'utf16le' ? new TextDecoder('utf-16le') : null;
  }

  write(buf: Uint8Array | string): string {
    if (typeof buf === 'string') return buf;
    if (this.td) return this.td.decode(buf, { stream: true });
    if (this.encoding === 'base64') {
      const all = Buffer.concat([this.carry, buf]);
      const n = all.length - (all.length % 3);
      this.carry = all.subarray(n);
      return all.subarray(0, n).toString('base64');
    }
    return Buffer.from(buf).toString(this.encoding as BufferEncoding);
  }

  end(buf?: Uint8Array): string {
    let s = buf ? this.write(buf) : '';
    if (this.td) s += this.td.decode();
    else if (this.carry.length) { s += Buffer.from(this.carry).toString('base64'); this.carry = new Uint8Array(0); }
    return s;
  }
}

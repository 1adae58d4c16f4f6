// Bit-level output, most significant bit first, into a growing buffer.

export class BitWriter {
  private buf: Uint8Array;
  private len = 0;
  private acc = 0;
  private nacc = 0;

  constructor(size = 1 << 16) {
    this.buf = new Uint8Array(size);
  }

  private byte(b: number): void {
    if (this.len === this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.len++] = b;
  }

  /** Write the low `n` bits of `v` (n ≤ 24). */
  bits(n: number, v: number): void {
    this.acc = (this.acc << n) | (v & ((1 << n) - 1));
    this.nacc += n;
    while (this.nacc >= 8) {
      this.nacc -= 8;
      this.byte((this.acc >>> this.nacc) & 0xff);
    }
    this.acc &= (1 << this.nacc) - 1;
  }

  u32(v: number): void {
    this.bits(16, v >>> 16);
    this.bits(16, v & 0xffff);
  }

  /** The whole bytes written so far (the partial byte stays). */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.len);
    this.len = 0;
    return out;
  }

  /** Pad the last byte with zeros and return everything. */
  finish(): Uint8Array {
    if (this.nacc > 0) this.bits(8 - this.nacc, 0);
    return this.take();
  }
}

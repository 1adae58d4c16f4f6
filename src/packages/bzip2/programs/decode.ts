// The bzip2 decompressor: streams (several may follow one another), blocks,
// Huffman-coded MTF symbols, the inverse Burrows–Wheeler transform and the
// final run-length decoding, with every CRC checked. Input is pulled through
// `more()` as needed, so files of any size stream through.

import { CRC32_MSB_TABLE } from '../../../common/crc32.js';
import { combine } from './crc.js';

export class Bz2Error extends Error {
  constructor(readonly kind: 'magic' | 'data' | 'crc' | 'eof' | 'garbage') {
    super(kind);
  }
}

const MAX_GROUPS = 6;
const MAX_ALPHA = 258;
const MAX_CODE_LEN = 20;

export class Bzip2Decoder {
  private buf: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private acc = 0;
  private nacc = 0;
  /** Bytes consumed by the streams decoded so far (for "trailing garbage" checks). */
  private eof = false;

  constructor(
    private readonly more: () => Uint8Array,
    private readonly out: (b: Uint8Array) => void,
  ) {}

  private fill(): boolean {
    if (this.eof) return false;
    const b = this.more();
    if (b.length === 0) {
      this.eof = true;
      return false;
    }
    this.buf = this.pos < this.buf.length ? concat(this.buf.subarray(this.pos), b) : b;
    this.pos = 0;
    return true;
  }

  private bits(n: number): number {
    while (this.nacc < n) {
      if (this.pos >= this.buf.length && !this.fill()) throw new Bz2Error('eof');
      this.acc = ((this.acc << 8) | this.buf[this.pos++]) >>> 0;
      this.nacc += 8;
    }
    this.nacc -= n;
    const v = (this.acc >>> this.nacc) & ((1 << n) - 1);
    this.acc &= (1 << this.nacc) - 1;
    return v;
  }

  private bit(): number {
    return this.bits(1);
  }

  /** Any bytes left at all (at a byte boundary)? */
  private atEnd(): boolean {
    this.nacc = 0;
    this.acc = 0;
    return this.pos >= this.buf.length && !this.fill();
  }

  /**
   * Decode every stream. `first` says whether the input had at least one
   * stream; after the last, non-bzip2 bytes are trailing garbage (reported
   * by the caller as bzip2 does).
   */
  run(): void {
    let streams = 0;
    for (;;) {
      if (this.atEnd()) {
        if (streams === 0) throw new Bz2Error('magic');
        return;
      }
      let magic: number;
      try {
        magic = this.bits(24);
      } catch (e) {
        if (e instanceof Bz2Error && streams > 0) throw new Bz2Error('garbage');
        throw streams === 0 ? new Bz2Error('magic') : e;
      }
      if (magic !== 0x425a68) throw new Bz2Error(streams === 0 ? 'magic' : 'garbage');
      const level = this.bits(8) - 0x30;
      if (level < 1 || level > 9) throw new Bz2Error(streams === 0 ? 'magic' : 'garbage');
      this.stream(level);
      streams++;
    }
  }

  private stream(level: number): void {
    let combined = 0;
    const tt = new Uint32Array(level * 100000);
    for (;;) {
      const m1 = this.bits(24);
      const m2 = this.bits(24);
      if (m1 === 0x177245 && m2 === 0x385090) {
        const crc = this.bits(16) * 65536 + this.bits(16);
        if (crc !== combined) throw new Bz2Error('crc');
        return;
      }
      if (m1 !== 0x314159 || m2 !== 0x265359) throw new Bz2Error('data');
      const crc = this.bits(16) * 65536 + this.bits(16);
      const got = this.block(tt, level);
      if (got !== crc) throw new Bz2Error('crc');
      combined = combine(combined, crc);
    }
  }

  /** One block: decode it, write its bytes, return its CRC. */
  private block(tt: Uint32Array, level: number): number {
    if (this.bit()) throw new Bz2Error('data'); // randomised blocks: bzip2 0.9.0 only
    const origPtr = this.bits(24);
    const used16 = this.bits(16);
    const seqToUnseq = new Uint8Array(256);
    let nInUse = 0;
    for (let i = 0; i < 16; i++) {
      if (!(used16 & (0x8000 >> i))) continue;
      const b = this.bits(16);
      for (let j = 0; j < 16; j++) if (b & (0x8000 >> j)) seqToUnseq[nInUse++] = i * 16 + j;
    }
    if (nInUse === 0) throw new Bz2Error('data');
    const alphaSize = nInUse + 2;
    const nGroups = this.bits(3);
    if (nGroups < 2 || nGroups > MAX_GROUPS) throw new Bz2Error('data');
    const nSelectors = this.bits(15);
    if (nSelectors < 1) throw new Bz2Error('data');
    const pos = [0, 1, 2, 3, 4, 5];
    const selectors = new Uint8Array(nSelectors);
    for (let i = 0; i < nSelectors; i++) {
      let j = 0;
      while (this.bit()) if (++j >= nGroups) throw new Bz2Error('data');
      const v = pos[j];
      for (; j > 0; j--) pos[j] = pos[j - 1];
      pos[0] = v;
      selectors[i] = v;
    }
    // Code lengths → canonical decoding tables (limit, base, perm per length).
    const tables: { minLen: number; limit: Int32Array; base: Int32Array; perm: Int32Array }[] = [];
    for (let t = 0; t < nGroups; t++) {
      const len = new Uint8Array(alphaSize);
      let curr = this.bits(5);
      for (let i = 0; i < alphaSize; i++) {
        for (;;) {
          if (curr < 1 || curr > MAX_CODE_LEN) throw new Bz2Error('data');
          if (!this.bit()) break;
          curr += this.bit() ? -1 : 1;
        }
        len[i] = curr;
      }
      let minLen = 32;
      let maxLen = 0;
      for (let i = 0; i < alphaSize; i++) {
        minLen = Math.min(minLen, len[i]);
        maxLen = Math.max(maxLen, len[i]);
      }
      const perm = new Int32Array(MAX_ALPHA);
      const limit = new Int32Array(MAX_CODE_LEN + 2).fill(-1);
      const base = new Int32Array(MAX_CODE_LEN + 2);
      let pp = 0;
      for (let l = minLen; l <= maxLen; l++) for (let s = 0; s < alphaSize; s++) if (len[s] === l) perm[pp++] = s;
      const count = new Int32Array(MAX_CODE_LEN + 2);
      for (let i = 0; i < alphaSize; i++) count[len[i]]++;
      let code = 0;
      let idx = 0;
      for (let l = minLen; l <= maxLen; l++) {
        base[l] = idx - code;
        code += count[l];
        idx += count[l];
        limit[l] = code - 1;
        code <<= 1;
      }
      tables.push({ minLen, limit, base, perm });
    }
    // Symbols → MTF → byte counts and the BWT column.
    const yy = new Uint8Array(256);
    for (let i = 0; i < 256; i++) yy[i] = i;
    const counts = new Int32Array(256);
    const maxBlock = level * 100000;
    let n = 0;
    let groupLeft = 0;
    let sel = 0;
    let table = tables[0];
    let runLen = 0;
    let runWeight = 1;
    const eob = alphaSize - 1;
    for (;;) {
      if (groupLeft === 0) {
        if (sel >= nSelectors) throw new Bz2Error('data');
        table = tables[selectors[sel++]];
        groupLeft = 50;
      }
      groupLeft--;
      let l = table.minLen;
      let v = this.bits(l);
      while (l <= MAX_CODE_LEN && v > table.limit[l]) {
        l++;
        v = (v << 1) | this.bit();
      }
      if (l > MAX_CODE_LEN) throw new Bz2Error('data');
      const sym = table.perm[v + table.base[l]];
      if (sym <= 1) {
        runLen += runWeight << sym;
        runWeight <<= 1;
        if (runLen > maxBlock) throw new Bz2Error('data');
        continue;
      }
      if (runLen > 0) {
        const b = seqToUnseq[yy[0]];
        if (n + runLen > maxBlock) throw new Bz2Error('data');
        counts[b] += runLen;
        for (let i = 0; i < runLen; i++) tt[n++] = b;
        runLen = 0;
        runWeight = 1;
      }
      if (sym === eob) break;
      const k = sym - 1;
      const c = yy[k];
      yy.copyWithin(1, 0, k);
      yy[0] = c;
      const b = seqToUnseq[c];
      if (n >= maxBlock) throw new Bz2Error('data');
      counts[b]++;
      tt[n++] = b;
    }
    if (origPtr >= n) throw new Bz2Error('data');
    // Inverse BWT: tt[i] keeps the byte in its low 8 bits and the next index above them.
    const start = new Int32Array(256);
    for (let i = 0, s = 0; i < 256; i++) {
      start[i] = s;
      s += counts[i];
    }
    for (let i = 0; i < n; i++) {
      const b = tt[i] & 0xff;
      tt[start[b]++] |= i << 8;
    }
    // Walk it, undoing the initial run-length coding, and check the CRC.
    const out = new Uint8Array(Math.min(n * 2 + 256, 1 << 20));
    let o = 0;
    let crc = 0xffffffff;
    let p = tt[origPtr] >>> 8;
    let last = -1;
    let same = 0;
    const flush = () => {
      for (let i = 0; i < o; i++) crc = (crc << 8) ^ CRC32_MSB_TABLE[((crc >>> 24) ^ out[i]) & 0xff];
      this.out(out.slice(0, o));
      o = 0;
    };
    for (let i = 0; i < n; i++) {
      const e = tt[p];
      const b = e & 0xff;
      p = e >>> 8;
      if (same === 4) {
        for (let r = 0; r < b; r++) {
          if (o === out.length) flush();
          out[o++] = last;
        }
        same = 0;
        last = -1;
        continue;
      }
      if (b === last) same++;
      else {
        last = b;
        same = 1;
      }
      if (o === out.length) flush();
      out[o++] = b;
    }
    flush();
    return ~crc >>> 0;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const c = new Uint8Array(a.length + b.length);
  c.set(a);
  c.set(b, a.length);
  return c;
}

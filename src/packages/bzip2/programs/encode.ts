// The bzip2 compressor, as libbzip2 1.0.8 does it step for step so that the
// output is the same bytes: run-length coding of the input into blocks of
// level × 100000 − 19 bytes, the Burrows–Wheeler transform, move-to-front
// with RUNA/RUNB zero runs, two to six Huffman tables refined four times over
// groups of 50 symbols, and the block and stream CRCs.

import { BitWriter } from './bits.js';
import { sortRotations } from './bwt.js';
import { combine, crcRun } from './crc.js';
import { assignCodes, makeCodeLengths } from './huffman.js';

const RUNA = 0;
const RUNB = 1;
const G_SIZE = 50;
const N_ITERS = 4;
const MAX_SELECTORS = 18002;

export class Bzip2Encoder {
  private readonly block: Uint8Array;
  private readonly max: number;
  private n = 0;
  private inUse = new Uint8Array(256);
  private blockCRC = 0xffffffff;
  private combined = 0;
  private runCh = 256;
  private runLen = 0;
  private readonly w = new BitWriter();

  constructor(readonly level: number) {
    this.max = 100000 * level - 19;
    this.block = new Uint8Array(100000 * level + 20);
    this.w.bits(8, 0x42);
    this.w.bits(8, 0x5a);
    this.w.bits(8, 0x68);
    this.w.bits(8, 0x30 + level);
  }

  /** Add input; returns compressed bytes ready so far. */
  write(data: Uint8Array): Uint8Array {
    for (let i = 0; i < data.length; i++) {
      // A full block is compressed as it is: the run being counted goes to the next one (as libbzip2 does).
      if (this.n >= this.max) this.closeBlock();
      const ch = data[i];
      if (ch !== this.runCh && this.runLen === 1) {
        const c = this.runCh;
        this.blockCRC = crcRun(this.blockCRC, c, 1);
        this.inUse[c] = 1;
        this.block[this.n++] = c;
        this.runCh = ch;
      } else if (ch !== this.runCh || this.runLen === 255) {
        if (this.runCh < 256) this.addRun();
        this.runCh = ch;
        this.runLen = 1;
      } else this.runLen++;
    }
    return this.w.take();
  }

  /** No more input: the last block, the end-of-stream marker and the combined CRC. */
  end(): Uint8Array {
    if (this.runCh < 256 || this.n > 0) this.endBlock();
    this.w.bits(24, 0x177245);
    this.w.bits(24, 0x385090);
    this.w.u32(this.combined);
    return this.w.finish();
  }

  private addRun(): void {
    const c = this.runCh;
    const len = this.runLen;
    this.blockCRC = crcRun(this.blockCRC, c, len);
    this.inUse[c] = 1;
    const b = this.block;
    if (len < 4) for (let i = 0; i < len; i++) b[this.n++] = c;
    else {
      b[this.n++] = c;
      b[this.n++] = c;
      b[this.n++] = c;
      b[this.n++] = c;
      b[this.n++] = len - 4;
      this.inUse[len - 4] = 1;
    }
  }

  /** The last block: the pending run goes in, then the block is compressed. */
  private endBlock(): void {
    if (this.runCh < 256) this.addRun();
    this.runCh = 256;
    this.runLen = 0;
    this.closeBlock();
  }

  private closeBlock(): void {
    if (this.n > 0) {
      const crc = ~this.blockCRC >>> 0;
      this.combined = combine(this.combined, crc);
      this.compressBlock(crc);
    }
    this.n = 0;
    this.inUse = new Uint8Array(256);
    this.blockCRC = 0xffffffff;
  }

  private compressBlock(crc: number): void {
    const n = this.n;
    const block = this.block;
    const ptr = sortRotations(block, n);
    let origPtr = -1;
    for (let i = 0; i < n; i++) if (ptr[i] === 0) origPtr = i;
    const w = this.w;
    w.bits(24, 0x314159);
    w.bits(24, 0x265359);
    w.u32(crc);
    w.bits(1, 0);
    w.bits(24, origPtr);

    // The symbols in use, in a two-level bitmap.
    const seq = new Int32Array(256);
    let nInUse = 0;
    for (let i = 0; i < 256; i++) if (this.inUse[i]) seq[i] = nInUse++;
    let used16 = 0;
    for (let i = 0; i < 16; i++) for (let j = 0; j < 16; j++) if (this.inUse[i * 16 + j]) used16 |= 1 << (15 - i);
    w.bits(16, used16);
    for (let i = 0; i < 16; i++) {
      if (!(used16 & (1 << (15 - i)))) continue;
      let bits = 0;
      for (let j = 0; j < 16; j++) if (this.inUse[i * 16 + j]) bits |= 1 << (15 - j);
      w.bits(16, bits);
    }

    // Move-to-front with zero runs as RUNA/RUNB digits.
    const eob = nInUse + 1;
    const alphaSize = nInUse + 2;
    const mtfv = new Uint16Array(n + 1);
    const freq = new Int32Array(258);
    const yy = new Uint8Array(256);
    for (let i = 0; i < nInUse; i++) yy[i] = i;
    let wr = 0;
    let zPend = 0;
    const flushZeros = () => {
      zPend--;
      for (;;) {
        const s = zPend & 1 ? RUNB : RUNA;
        mtfv[wr++] = s;
        freq[s]++;
        if (zPend < 2) break;
        zPend = (zPend - 2) >> 1;
      }
      zPend = 0;
    };
    for (let i = 0; i < n; i++) {
      let j = ptr[i] - 1;
      if (j < 0) j += n;
      const ll = seq[block[j]];
      if (yy[0] === ll) {
        zPend++;
        continue;
      }
      if (zPend > 0) flushZeros();
      let k = 1;
      let tmp = yy[1];
      yy[1] = yy[0];
      while (ll !== tmp) {
        const t2 = tmp;
        k++;
        tmp = yy[k];
        yy[k] = t2;
      }
      yy[0] = tmp;
      mtfv[wr++] = k + 1;
      freq[k + 1]++;
    }
    if (zPend > 0) flushZeros();
    mtfv[wr++] = eob;
    freq[eob]++;
    const nMTF = wr;

    // Huffman tables: an initial split of the alphabet by frequency, then four refinements.
    const nGroups = nMTF < 200 ? 2 : nMTF < 600 ? 3 : nMTF < 1200 ? 4 : nMTF < 2400 ? 5 : 6;
    const len = Array.from({ length: nGroups }, () => new Uint8Array(alphaSize));
    {
      let nPart = nGroups;
      let remF = nMTF;
      let gs = 0;
      while (nPart > 0) {
        const tFreq = Math.trunc(remF / nPart);
        let ge = gs - 1;
        let aFreq = 0;
        while (aFreq < tFreq && ge < alphaSize - 1) aFreq += freq[++ge];
        if (ge > gs && nPart !== nGroups && nPart !== 1 && (nGroups - nPart) % 2 === 1) aFreq -= freq[ge--];
        for (let v = 0; v < alphaSize; v++) len[nPart - 1][v] = v >= gs && v <= ge ? 0 : 15;
        nPart--;
        gs = ge + 1;
        remF -= aFreq;
      }
    }
    const selector = new Uint8Array(MAX_SELECTORS);
    let nSelectors = 0;
    const rfreq = Array.from({ length: nGroups }, () => new Int32Array(alphaSize));
    const cost = new Int32Array(nGroups);
    for (let iter = 0; iter < N_ITERS; iter++) {
      for (const r of rfreq) r.fill(0);
      nSelectors = 0;
      for (let gs = 0; gs < nMTF; gs += G_SIZE) {
        const ge = Math.min(gs + G_SIZE - 1, nMTF - 1);
        cost.fill(0);
        for (let i = gs; i <= ge; i++) {
          const s = mtfv[i];
          for (let t = 0; t < nGroups; t++) cost[t] += len[t][s];
        }
        let bt = -1;
        let bc = 999999999;
        for (let t = 0; t < nGroups; t++) {
          if (cost[t] < bc) {
            bc = cost[t];
            bt = t;
          }
        }
        selector[nSelectors++] = bt;
        const rf = rfreq[bt];
        for (let i = gs; i <= ge; i++) rf[mtfv[i]]++;
      }
      for (let t = 0; t < nGroups; t++) makeCodeLengths(len[t], rfreq[t], alphaSize, 17);
    }

    w.bits(3, nGroups);
    w.bits(15, nSelectors);
    // Selectors, move-to-front coded, in unary.
    const pos = [0, 1, 2, 3, 4, 5];
    for (let i = 0; i < nSelectors; i++) {
      const v = selector[i];
      let j = 0;
      let tmp = pos[0];
      while (v !== tmp) {
        j++;
        const t2 = tmp;
        tmp = pos[j];
        pos[j] = t2;
      }
      pos[0] = tmp;
      for (let k = 0; k < j; k++) w.bits(1, 1);
      w.bits(1, 0);
    }
    // Code lengths, delta coded.
    const code = Array.from({ length: nGroups }, () => new Int32Array(alphaSize));
    for (let t = 0; t < nGroups; t++) {
      let curr = len[t][0];
      w.bits(5, curr);
      for (let i = 0; i < alphaSize; i++) {
        while (curr < len[t][i]) {
          w.bits(2, 2);
          curr++;
        }
        while (curr > len[t][i]) {
          w.bits(2, 3);
          curr--;
        }
        w.bits(1, 0);
      }
      let minLen = 32;
      let maxLen = 0;
      for (let i = 0; i < alphaSize; i++) {
        minLen = Math.min(minLen, len[t][i]);
        maxLen = Math.max(maxLen, len[t][i]);
      }
      assignCodes(code[t], len[t], minLen, maxLen, alphaSize);
    }
    // The symbols.
    let sel = 0;
    for (let gs = 0; gs < nMTF; gs += G_SIZE) {
      const ge = Math.min(gs + G_SIZE - 1, nMTF - 1);
      const t = selector[sel++];
      const c = code[t];
      const l = len[t];
      for (let i = gs; i <= ge; i++) w.bits(l[mtfv[i]], c[mtfv[i]]);
    }
  }
}

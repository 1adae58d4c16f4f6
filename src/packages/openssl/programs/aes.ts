// AES (FIPS-197) for 128-, 192- and 256-bit keys: key expansion and the
// block cipher both ways, with lookup tables built once from the S-box.

const SBOX = new Uint8Array(256);
const INV = new Uint8Array(256);
const T0 = new Uint32Array(256);
const T1 = new Uint32Array(256);
const T2 = new Uint32Array(256);
const T3 = new Uint32Array(256);
const D0 = new Uint32Array(256);
const D1 = new Uint32Array(256);
const D2 = new Uint32Array(256);
const D3 = new Uint32Array(256);

(() => {
  // GF(2^8) exponent/log tables with generator 3, then the S-box by inversion and the affine map.
  const exp = new Uint8Array(256);
  const log = new Uint8Array(256);
  for (let i = 0, x = 1; i < 255; i++) {
    exp[i] = x;
    log[x] = i;
    x ^= (x << 1) ^ (x & 0x80 ? 0x1b : 0);
    x &= 0xff;
  }
  const mul = (a: number, b: number) => (a && b ? exp[(log[a] + log[b]) % 255] : 0);
  for (let i = 0; i < 256; i++) {
    let s = i === 0 ? 0 : exp[(255 - log[i]) % 255];
    s ^= ((s << 1) | (s >> 7)) ^ ((s << 2) | (s >> 6)) ^ ((s << 3) | (s >> 5)) ^ ((s << 4) | (s >> 4)) ^ 0x63;
    s &= 0xff;
    SBOX[i] = s;
    INV[s] = i;
  }
  for (let i = 0; i < 256; i++) {
    const s = SBOX[i];
    const t = (mul(s, 2) << 24) | (s << 16) | (s << 8) | mul(s, 3);
    T0[i] = t >>> 0;
    T1[i] = ((t >>> 8) | (t << 24)) >>> 0;
    T2[i] = ((t >>> 16) | (t << 16)) >>> 0;
    T3[i] = ((t >>> 24) | (t << 8)) >>> 0;
    const v = INV[i];
    const d = (mul(v, 14) << 24) | (mul(v, 9) << 16) | (mul(v, 13) << 8) | mul(v, 11);
    D0[i] = d >>> 0;
    D1[i] = ((d >>> 8) | (d << 24)) >>> 0;
    D2[i] = ((d >>> 16) | (d << 16)) >>> 0;
    D3[i] = ((d >>> 24) | (d << 8)) >>> 0;
  }
})();

export class Aes {
  private readonly enc: Uint32Array;
  private readonly dec: Uint32Array;
  private readonly rounds: number;

  constructor(key: Uint8Array) {
    const nk = key.length / 4;
    if (![4, 6, 8].includes(nk)) throw new Error('AES key must be 16, 24 or 32 bytes');
    this.rounds = nk + 6;
    const total = 4 * (this.rounds + 1);
    const w = new Uint32Array(total);
    for (let i = 0; i < nk; i++) w[i] = ((key[4 * i] << 24) | (key[4 * i + 1] << 16) | (key[4 * i + 2] << 8) | key[4 * i + 3]) >>> 0;
    let rcon = 1;
    for (let i = nk; i < total; i++) {
      let t = w[i - 1];
      if (i % nk === 0) {
        t = ((SBOX[(t >>> 16) & 0xff] << 24) | (SBOX[(t >>> 8) & 0xff] << 16) | (SBOX[t & 0xff] << 8) | SBOX[t >>> 24]) ^ (rcon << 24);
        rcon = (rcon << 1) ^ (rcon & 0x80 ? 0x11b : 0);
      } else if (nk > 6 && i % nk === 4) {
        t = (SBOX[t >>> 24] << 24) | (SBOX[(t >>> 16) & 0xff] << 16) | (SBOX[(t >>> 8) & 0xff] << 8) | SBOX[t & 0xff];
      }
      w[i] = (w[i - nk] ^ t) >>> 0;
    }
    this.enc = w;
    // The equivalent inverse cipher's schedule: rounds reversed, InvMixColumns on the middle ones.
    const d = new Uint32Array(total);
    for (let r = 0; r <= this.rounds; r++) {
      for (let c = 0; c < 4; c++) {
        const x = w[4 * (this.rounds - r) + c];
        d[4 * r + c] = r === 0 || r === this.rounds ? x : (D0[SBOX[x >>> 24]] ^ D1[SBOX[(x >>> 16) & 0xff]] ^ D2[SBOX[(x >>> 8) & 0xff]] ^ D3[SBOX[x & 0xff]]) >>> 0;
      }
    }
    this.dec = d;
  }

  /** Encrypt (or decrypt) the 16 bytes at `b[off]` in place. */
  block(b: Uint8Array, off: number, decrypt: boolean): void {
    const k = decrypt ? this.dec : this.enc;
    const [A, B, C, D] = decrypt ? [D0, D1, D2, D3] : [T0, T1, T2, T3];
    const S = decrypt ? INV : SBOX;
    let s0 = (((b[off] << 24) | (b[off + 1] << 16) | (b[off + 2] << 8) | b[off + 3]) ^ k[0]) >>> 0;
    let s1 = (((b[off + 4] << 24) | (b[off + 5] << 16) | (b[off + 6] << 8) | b[off + 7]) ^ k[1]) >>> 0;
    let s2 = (((b[off + 8] << 24) | (b[off + 9] << 16) | (b[off + 10] << 8) | b[off + 11]) ^ k[2]) >>> 0;
    let s3 = (((b[off + 12] << 24) | (b[off + 13] << 16) | (b[off + 14] << 8) | b[off + 15]) ^ k[3]) >>> 0;
    // Encryption reads columns 0,1,2,3 shifted left; decryption shifted right.
    const [i1, i2, i3] = decrypt ? [3, 2, 1] : [1, 2, 3];
    for (let r = 1; r < this.rounds; r++) {
      const s = [s0, s1, s2, s3];
      const o = 4 * r;
      s0 = (A[s[0] >>> 24] ^ B[(s[i1] >>> 16) & 0xff] ^ C[(s[i2] >>> 8) & 0xff] ^ D[s[i3] & 0xff] ^ k[o]) >>> 0;
      s1 = (A[s[1] >>> 24] ^ B[(s[(1 + i1) & 3] >>> 16) & 0xff] ^ C[(s[(1 + i2) & 3] >>> 8) & 0xff] ^ D[s[(1 + i3) & 3] & 0xff] ^ k[o + 1]) >>> 0;
      s2 = (A[s[2] >>> 24] ^ B[(s[(2 + i1) & 3] >>> 16) & 0xff] ^ C[(s[(2 + i2) & 3] >>> 8) & 0xff] ^ D[s[(2 + i3) & 3] & 0xff] ^ k[o + 2]) >>> 0;
      s3 = (A[s[3] >>> 24] ^ B[(s[(3 + i1) & 3] >>> 16) & 0xff] ^ C[(s[(3 + i2) & 3] >>> 8) & 0xff] ^ D[s[(3 + i3) & 3] & 0xff] ^ k[o + 3]) >>> 0;
    }
    const s = [s0, s1, s2, s3];
    const o = 4 * this.rounds;
    for (let c = 0; c < 4; c++) {
      const x = ((S[s[c] >>> 24] << 24) | (S[(s[(c + i1) & 3] >>> 16) & 0xff] << 16) | (S[(s[(c + i2) & 3] >>> 8) & 0xff] << 8) | S[s[(c + i3) & 3] & 0xff]) ^ k[o + c];
      b[off + 4 * c] = x >>> 24;
      b[off + 4 * c + 1] = (x >>> 16) & 0xff;
      b[off + 4 * c + 2] = (x >>> 8) & 0xff;
      b[off + 4 * c + 3] = x & 0xff;
    }
  }
}

// A RegExp over byte strings that matches characters: compiled with the `v`
// flag from a source written for decoded text (see regex.ts's UTF-8 mode), it
// decodes its subject (utf8.ts: invalid bytes become lone surrogates that only
// themselves match), runs there, and answers in bytes: `index`, `lastIndex`
// and the matched strings are those of the byte string it was given. An ASCII
// subject runs a plain RegExp of the same pattern instead (the `v` flag's
// classes cost up to twice as much there, and ASCII is the common case).
//
// Being a RegExp, it serves exec/test and String.prototype.replace/split alike.

import { decodeOffsets, encode, isAsciiStr, type Decoded } from './utf8.js';

/** The decoding of `s` as if it were cut at byte `at` (GNU restarts a search there, mid-character or not). */
function decodeCut(s: string, at: number): Decoded {
  const a = decodeOffsets(s.slice(0, at));
  const b = decodeOffsets(s.slice(at));
  const offsets = new Int32Array(a.text.length + b.text.length + 1);
  offsets.set(a.offsets.subarray(0, a.text.length));
  for (let k = 0; k < b.offsets.length; k++) offsets[a.text.length + k] = b.offsets[k] + at;
  return { text: a.text + b.text, offsets };
}

/** The first unit whose byte offset is `off`, or -1 when `off` falls inside a character. */
function unitAt(d: Decoded, off: number): number {
  const o = d.offsets;
  let lo = 0;
  let hi = o.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (o[mid] < off) lo = mid + 1;
    else hi = mid;
  }
  return o[lo] === off ? lo : -1;
}

const exec = RegExp.prototype.exec;

export class Utf8RegExp extends RegExp {
  private input: string | null = null;
  private ascii = true;
  private decoded: Decoded | null = null;
  private cutAt = -1;
  private readonly plain: RegExp;

  /**
   * `source` is for decoded text (a `v` RegExp), `ascii` for ASCII subjects (a
   * plain RegExp, or null to run `source` there too); `flags` without `v`.
   */
  constructor(source: string, ascii: string | null, flags: string) {
    super(source, `${flags}v`);
    this.plain = ascii === null ? new RegExp(source, `${flags}v`) : new RegExp(ascii, flags);
  }

  override exec(s: string): RegExpExecArray | null {
    if (s !== this.input) {
      this.input = s;
      this.ascii = isAsciiStr(s);
      this.decoded = null;
      this.cutAt = -1;
    }
    if (this.ascii) {
      const p = this.plain;
      p.lastIndex = this.lastIndex;
      const m = p.exec(s);
      this.lastIndex = p.lastIndex;
      return m;
    }
    const moves = this.global || this.sticky;
    const from = moves ? this.lastIndex : 0;
    if (from > s.length) {
      this.lastIndex = 0;
      return null;
    }
    let d = this.decoded;
    if (!d || (this.cutAt >= 0 && this.cutAt !== from)) {
      d = this.decoded = decodeOffsets(s);
      this.cutAt = -1;
    }
    let unit = unitAt(d, from);
    if (unit < 0) {
      d = this.decoded = decodeCut(s, from);
      this.cutAt = from;
      unit = unitAt(d, from);
    }
    if (moves) this.lastIndex = unit;
    const m = exec.call(this, d.text);
    if (!m) {
      if (moves) this.lastIndex = 0;
      return null;
    }
    const start = d.offsets[m.index];
    const end = d.offsets[m.index + m[0].length];
    if (moves) this.lastIndex = end;
    m[0] = s.slice(start, end);
    for (let i = 1; i < m.length; i++) if (m[i] !== undefined) m[i] = encode(m[i]);
    // The `d` flag's indices, in bytes.
    if (m.indices) for (const r of m.indices) if (r) [r[0], r[1]] = [d.offsets[r[0]], d.offsets[r[1]]];
    m.index = start;
    m.input = s;
    return m;
  }
}

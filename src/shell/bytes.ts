// Shell strings are bytes in bash. We keep them as JS strings of UTF-8 text
// and carry any byte that is not part of valid UTF-8 as a lone surrogate
// U+DC80..U+DCFF (Python's "surrogateescape"), so `printf '\377'`, binary
// command substitutions and read round-trip byte for byte.

const utf8 = new TextEncoder();

/** Encode shell text: UTF-8, escaped bytes back to themselves. */
export function encodeShell(s: string): Uint8Array {
  let plain = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc80 && c <= 0xdcff) {
      plain = false;
      break;
    }
  }
  if (plain) return utf8.encode(s);
  const out: number[] = [];
  let run = '';
  const flush = () => {
    if (run) for (const b of utf8.encode(run)) out.push(b);
    run = '';
  };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const prevHigh = i > 0 && s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff;
    if (c >= 0xdc80 && c <= 0xdcff && !prevHigh) {
      flush();
      out.push(c - 0xdc00);
    } else run += s[i];
  }
  flush();
  return new Uint8Array(out);
}

/** Decode bytes as UTF-8, keeping invalid bytes as escapes (never U+FFFD). */
export function decodeShell(b: Uint8Array): string {
  let ascii = true;
  for (let i = 0; i < b.length; i++) if (b[i] > 0x7f) {
    ascii = false;
    break;
  }
  if (ascii) return new TextDecoder().decode(b);
  let out = '';
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    const len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    let ok = len > 0 && i + len <= b.length;
    for (let k = 1; ok && k < len; k++) ok = (b[i + k] & 0xc0) === 0x80;
    if (ok && len === 3) ok = !(c === 0xe0 && b[i + 1] < 0xa0) && !(c === 0xed && b[i + 1] >= 0xa0);
    if (ok && len === 4) ok = !(c === 0xf0 && b[i + 1] < 0x90) && !(c === 0xf4 && b[i + 1] >= 0x90);
    if (!ok) {
      out += String.fromCharCode(0xdc00 + c);
      i++;
      continue;
    }
    out += new TextDecoder().decode(b.subarray(i, i + len));
    i += len;
  }
  return out;
}

/** A byte value from an escape (\377, \xff): a character below 0x80, an escaped byte above. */
export function byteChar(v: number): string {
  return v < 0x80 ? String.fromCharCode(v) : String.fromCharCode(0xdc00 + v);
}

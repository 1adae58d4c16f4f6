// Byte strings as JS strings, losslessly (Python's "surrogateescape"): valid
// UTF-8 decodes as text, and each byte that is not part of valid UTF-8 becomes
// the lone surrogate U+DC00 + byte (U+DC80..U+DCFF), which encodes back to that
// byte. File names, argv, environment and shell text are bytes on Linux; this
// keeps two names that differ only in invalid UTF-8 apart all the way from the
// guest through the syscall channel, the kernel and the persisted layer
// (decision 0033). Any other lone surrogate (a JS string no bytes decode to)
// encodes as its 3-byte generalised UTF-8 form, never as U+FFFD.

const utf8 = new TextEncoder();
const lenient = new TextDecoder();
const strict = new TextDecoder('utf-8', { fatal: true });

/** Length of the valid UTF-8 sequence starting at b[i], or 0 if the byte there does not start one. */
function sequence(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (len === 0 || i + len > b.length) return 0;
  for (let k = 1; k < len; k++) if ((b[i + k] & 0xc0) !== 0x80) return 0;
  const d = b[i + 1];
  // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
  if ((c === 0xe0 && d < 0xa0) || (c === 0xed && d >= 0xa0) || (c === 0xf0 && d < 0x90) || (c === 0xf4 && d >= 0x90)) return 0;
  return len;
}

/** Bytes to a string; invalid UTF-8 bytes become U+DC80..U+DCFF. `b` must not be a view of shared memory. */
export function decodeBytes(b: Uint8Array): string {
  // No U+FFFD: the bytes were valid UTF-8 (a fatal decoder is slower, even on valid input).
  const text = lenient.decode(b);
  return text.includes('\ufffd') ? decodeEscaped(b) : text;
}

/** Decode the valid runs, escape the bytes between them. */
function decodeEscaped(b: Uint8Array): string {
  let out = '';
  let run = 0;
  for (let i = 0; i < b.length; ) {
    const n = sequence(b, i);
    if (n) {
      i += n;
      continue;
    }
    if (run < i) out += strict.decode(b.subarray(run, i));
    out += String.fromCharCode(0xdc00 + b[i]);
    run = ++i;
  }
  return run < b.length ? out + strict.decode(b.subarray(run)) : out;
}

/** A string to bytes: UTF-8, with escaped bytes (U+DC80..U+DCFF) back to themselves. */
export function encodeBytes(s: string): Uint8Array {
  return s.isWellFormed() ? utf8.encode(s) : encodeLoose(s);
}

function encodeLoose(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 3);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) out[n++] = c;
    else if (c >= 0xdc80 && c <= 0xdcff) out[n++] = c - 0xdc00;
    else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
    } else if (c < 0x10000) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    } else {
      out[n++] = 0xf0 | (c >> 18);
      out[n++] = 0x80 | ((c >> 12) & 0x3f);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    }
  }
  return out.slice(0, n);
}

/** encodeBytes(s).length, without encoding when `s` is ASCII. */
export function byteLength(s: string): number {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(s) ? s.length : encodeBytes(s).length;
}

/** The string the kernel keeps for `s`: what decodeBytes(encodeBytes(s)) gives (the same string, unless `s` holds lone surrogates). */
export function canonicalName(s: string): string {
  return s.isWellFormed() ? s : decodeBytes(encodeBytes(s));
}

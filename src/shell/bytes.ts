// Shell strings are bytes in bash. We keep them as JS strings of UTF-8 text
// and carry any byte that is not part of valid UTF-8 as a lone surrogate
// U+DC80..U+DCFF (Python's "surrogateescape", abi/bytestr.ts), so `printf
// '\377'`, binary command substitutions and read round-trip byte for byte.

export { encodeBytes as encodeShell, decodeBytes as decodeShell } from '../abi/bytestr.js';

/** A byte value from an escape (\377, \xff): a character below 0x80, an escaped byte above. */
export function byteChar(v: number): string {
  return v < 0x80 ? String.fromCharCode(v) : String.fromCharCode(0xdc00 + v);
}

// Integer arguments as C's strtoimax/strtoumax read them with base 0 (what
// bash's printf builtin and GNU printf call): leading blanks, a sign, then
// 0x hex, 0 octal or decimal digits; 64-bit range.

export interface ParsedInteger {
  value: bigint;
  /** Characters taken (0: no number at all). */
  end: number;
  /** Out of range (ERANGE): the value is clamped. */
  range: boolean;
}

const MAX = (1n << 63n) - 1n;
const MIN = -(1n << 63n);
const UMAX = (1n << 64n) - 1n;

/** strtoimax(s, &end, 0), or strtoumax (`unsigned`: a negative number wraps modulo 2^64). */
export function parseInteger(s: string, unsigned: boolean): ParsedInteger {
  const m = /^[ \t\n\v\f\r]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)/.exec(s);
  if (!m) return { value: 0n, end: 0, range: false };
  const [text, sign, digits] = m;
  const magnitude = BigInt(digits.length > 1 && digits[0] === '0' && !/^0[xX]/.test(digits) ? `0o${digits.slice(1)}` : digits);
  const negative = sign === '-';
  if (unsigned) {
    if (magnitude > UMAX) return { value: UMAX, end: text.length, range: true };
    return { value: negative && magnitude !== 0n ? (1n << 64n) - magnitude : magnitude, end: text.length, range: false };
  }
  const value = negative ? -magnitude : magnitude;
  if (value > MAX) return { value: MAX, end: text.length, range: true };
  if (value < MIN) return { value: MIN, end: text.length, range: true };
  return { value, end: text.length, range: false };
}

/** A character constant ('c or "c): the code of the character after the quote (0 if none), and what follows it. */
export function charConstant(s: string): { value: number; rest: string } | null {
  if (s[0] !== "'" && s[0] !== '"') return null;
  const cp = s.codePointAt(1);
  if (cp === undefined) return { value: 0, rest: '' };
  return { value: cp, rest: s.slice(1 + String.fromCodePoint(cp).length) };
}

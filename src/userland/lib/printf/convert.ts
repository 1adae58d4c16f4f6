// One printf conversion as glibc's printf does it, on an argument the caller
// has already parsed: the flags (- + space # 0), the width and the precision.
// Shared by the shell's printf builtin and the printf command, which differ
// only in how they read arguments and report bad ones.

import { decodeBytes, encodeBytes } from '../../../abi/bytestr.js';
import { exponentialDigits, fixedDigits, generalDigits, hexDigits, type LongDouble } from './long-double.js';

export interface Spec {
  /** Any of "-+ #0" (and "'", which the C locale ignores). */
  flags: string;
  /** Minimum field width; a negative one from `*` means `-` and its size. */
  width?: number;
  /** Undefined when absent (a negative one from `*` is absent too). */
  precision?: number;
  /** The conversion letter. */
  conv: string;
}

/** The field: `prefix` (sign, 0x) then `body`, padded to the width (`len`: their size in bytes); `zeros` pads with 0s between them. */
function field(spec: Spec, prefix: string, body: string, zeros: boolean, len = prefix.length + body.length): string {
  const width = Math.abs(spec.width ?? 0);
  const left = spec.flags.includes('-') || (spec.width ?? 0) < 0;
  if (len >= width) return prefix + body;
  if (left) return prefix + body + ' '.repeat(width - len);
  if (zeros && spec.flags.includes('0')) return prefix + '0'.repeat(width - len) + body;
  return ' '.repeat(width - len) + prefix + body;
}

const precisionOf = (spec: Spec): number | undefined => (spec.precision !== undefined && spec.precision >= 0 ? spec.precision : undefined);

function signOf(spec: Spec, negative: boolean): string {
  return negative ? '-' : spec.flags.includes('+') ? '+' : spec.flags.includes(' ') ? ' ' : '';
}

/** %d %i (signed) and %o %u %x %X (`value` already reduced to 0 .. 2^64-1). */
export function formatInteger(spec: Spec, value: bigint): string {
  const c = spec.conv;
  const signed = c === 'd' || c === 'i';
  const negative = signed && value < 0n;
  let digits = (negative ? -value : value).toString(c === 'o' ? 8 : c === 'x' || c === 'X' ? 16 : 10);
  if (c === 'X') digits = digits.toUpperCase();
  const prec = precisionOf(spec);
  // C: a precision of 0 prints no digits for 0; any precision turns the 0 flag off.
  if (prec !== undefined) digits = prec === 0 && value === 0n ? '' : digits.padStart(prec, '0');
  let prefix = signed ? signOf(spec, negative) : '';
  if (spec.flags.includes('#')) {
    if (c === 'o' && !digits.startsWith('0')) digits = '0' + digits;
    if ((c === 'x' || c === 'X') && value !== 0n) prefix = c === 'x' ? '0x' : '0X';
  }
  return field(spec, prefix, digits, prec === undefined);
}

/** %f %F %e %E %g %G %a %A. */
export function formatFloat(spec: Spec, v: LongDouble): string {
  const c = spec.conv;
  const upper = c === c.toUpperCase();
  const sign = signOf(spec, v.neg);
  // Infinities and NaNs are padded with spaces, never zeros.
  if (v.kind !== 'finite') return field(spec, sign, upper ? (v.kind === 'inf' ? 'INF' : 'NAN') : v.kind, false);
  const alt = spec.flags.includes('#');
  const prec = precisionOf(spec);
  const lower = c.toLowerCase();
  let body: string;
  if (lower === 'a') {
    body = hexDigits(v, prec, alt);
    // The 0x prefix stays in front of any zero padding.
    const text = upper ? body.toUpperCase() : body;
    return field(spec, sign + text.slice(0, 2), text.slice(2), true);
  }
  if (lower === 'f') body = fixedDigits(v, prec ?? 6, alt);
  else if (lower === 'e') body = exponentialDigits(v, prec ?? 6, alt);
  else body = generalDigits(v, prec ?? 6, alt);
  return field(spec, sign, upper ? body.toUpperCase() : body, true);
}

/** %s %b %q %c and the like: the precision cuts the text, the width pads it with spaces; both count bytes, as C does. */
export function formatText(spec: Spec, text: string): string {
  const prec = precisionOf(spec);
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return field(spec, '', prec === undefined ? text : text.slice(0, prec), false);
  let bytes = encodeBytes(text);
  if (prec !== undefined && bytes.length > prec) bytes = bytes.subarray(0, prec);
  return field(spec, '', decodeBytes(bytes.slice()), false, bytes.length);
}

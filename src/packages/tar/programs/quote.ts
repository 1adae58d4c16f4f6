// GNU tar quotes names with quotearg's "escape" style (its default): C escapes
// for control characters and backslash, octal for other unprintable bytes —
// which in the C locale are all bytes above 0x7f. In a UTF-8 locale printable
// characters stay as they are. Diagnostics also escape ':' (quotearg_colon).

import { encodeBytes } from '../../../abi/bytestr.js';

const C_ESCAPES: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 92: '\\\\' };

let utf8Locale = false;

/** From the environment, as setlocale(LC_ALL, "") would decide. */
export function setLocale(env: Record<string, string>): void {
  const v = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  utf8Locale = /utf-?8/i.test(v);
}

export function quoteName(s: string, colon = false): string {
  // Fast path: plain ASCII names need nothing.
  if (/^[\x20-\x5b\x5d-\x7e]*$/.test(s) && !(colon && s.includes(':'))) return s;
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c in C_ESCAPES) out += C_ESCAPES[c];
    else if (colon && ch === ':') out += '\\:';
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c >= 0xa0 && utf8Locale && !(c >= 0xdc80 && c <= 0xdcff)) out += ch; // an escaped byte is not a character
    else for (const b of encodeBytes(ch)) out += `\\${b.toString(8).padStart(3, '0')}`;
  }
  return out;
}

export const quoteColon = (s: string): string => quoteName(s, true);

/** quote(): 'NAME' in the C locale, ‘NAME’ in a UTF-8 one (locale quoting style). */
export function quoteArg(s: string): string {
  return utf8Locale ? `\u2018${quoteName(s)}\u2019` : `'${quoteName(s).replace(/'/g, "\\'")}'`;
}

// The character classes of glibc's UTF-8 locales (its i18n_ctype tables,
// Unicode 14) written as RegExp classes for the `v` flag, over Unicode
// properties: `[[:alpha:]]` holds letters of every script and the digits of
// other scripts, `[[:upper:]]` titlecase letters too, and so on. They agree
// with glibc on every code point Unicode 14 assigns; the few sets listed are
// where glibc's generator departs from the properties.

/** Alphabetic characters glibc leaves out of alpha (they count as punct). */
const NOT_ALPHA = '\\u0363-\\u036f\\u0c04\\u0f82\\u0f83\\u1dd3-\\u1de6\\u{11080}\\u{11081}';
const ALNUM = `[[\\p{Alphabetic}\\p{Nd}]--[${NOT_ALPHA}]]`;
const SPACE = '\\t\\n\\v\\f\\r\\x20\\u1680\\u2000-\\u2006\\u2008-\\u200a\\u2028\\u2029\\u205f\\u3000';
const LOWER_OUT = '\\u10fc\\u1f88-\\u1f8f\\u1f98-\\u1f9f\\u1fa8-\\u1faf\\u1fbc\\u1fcc\\u1ffc\\ua7f2-\\ua7f4\\uab69';

/** Each POSIX class as a `v`-flag class (nestable inside another class). */
export const UNICODE_CLASSES: Readonly<Record<string, string>> = {
  alpha: `[${ALNUM}--[0-9]]`,
  digit: '[0-9]',
  alnum: ALNUM,
  upper: '[\\p{Uppercase}\\p{Lt}]',
  lower: `[[\\p{Lowercase}\\p{Lt}\\u0295]--[${LOWER_OUT}]]`,
  space: `[${SPACE}]`,
  blank: '[\\t\\x20\\u1680\\u2000-\\u2006\\u2008-\\u200a\\u205f\\u3000]',
  punct: `[\\P{Cn}--[\\p{Cc}\\p{Cs}${SPACE}${ALNUM}]]`,
  print: '[\\P{Cn}--[\\p{Cc}\\p{Cs}\\u2028\\u2029]]',
  graph: `[\\P{Cn}--[\\p{Cc}\\p{Cs}${SPACE}]]`,
  cntrl: '[\\p{Cc}\\u2028\\u2029]',
  xdigit: '[0-9A-Fa-f]',
};

/** Word constituents (`\w`, `\b`, `-w`): alnum and underscore. */
export const UNICODE_WORD = `[${ALNUM}_]`;

const SPACE_RE = new RegExp(`^[${SPACE}]$`, 'v');

/** iswspace for a code point. */
export const isSpaceCp = (cp: number): boolean => (cp < 0x80 ? cp === 0x20 || (cp >= 9 && cp <= 13) : SPACE_RE.test(String.fromCodePoint(cp)));

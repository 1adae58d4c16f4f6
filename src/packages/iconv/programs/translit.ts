// //TRANSLIT replacements: the fallbacks glibc's C locale applies when the
// target set lacks a character (anything else becomes '?'). A UTF-8 locale
// (C.UTF-8 includes glibc's translit_combining) also drops the accents of a
// letter and spells a few letters without a decomposition (ø, ł, þ...).

const TABLE: Record<number, string> = {
  0xa0: ' ', 0xa9: '(C)', 0xab: '<<', 0xad: '-', 0xae: '(R)', 0xb5: 'u', 0xb8: ',', 0xbb: '>>',
  0xbc: ' 1/4 ', 0xbd: ' 1/2 ', 0xbe: ' 3/4 ', 0xc6: 'AE', 0xd7: 'x', 0xdf: 'ss', 0xe6: 'ae',
  0x132: 'IJ', 0x133: 'ij', 0x149: "'n", 0x152: 'OE', 0x153: 'oe', 0x17f: 's',
  0x200b: '', 0x2010: '-', 0x2011: '-', 0x2012: '-', 0x2013: '-', 0x2014: '--', 0x2015: '-',
  0x2018: "'", 0x2019: "'", 0x201a: ',', 0x201b: "'", 0x201c: '"', 0x201d: '"', 0x201e: ',,', 0x201f: '"',
  0x2020: '+', 0x2022: 'o', 0x2024: '.', 0x2025: '..', 0x2026: '...', 0x2039: '<', 0x203a: '>',
  0x20ac: 'EUR', 0x2100: 'a/c', 0x2116: 'No', 0x2122: '(TM)', 0x2190: '<-', 0x2192: '->', 0x2194: '<->',
  0x21d2: '=>', 0x2212: '-', 0x2215: '/', 0x2217: '*', 0x2264: '<=', 0x2265: '>=',
  0x2160: 'I', 0x2161: 'II', 0x2460: '(1)', 0x3000: ' ', 0x410: 'A',
  0xfb00: 'ff', 0xfb01: 'fi', 0xfb02: 'fl', 0xfb03: 'ffi', 0xfb04: 'ffl',
};

/** Letters translit_combining spells out that have no canonical decomposition. */
const COMBINING: Record<number, string> = {
  0xf8: 'o', 0xd8: 'O', 0x142: 'l', 0x141: 'L', 0x111: 'd', 0x110: 'D', 0x127: 'h', 0x126: 'H', 0xf0: 'd', 0xd0: 'D',
  0xfe: 'th', 0xde: 'TH', 0x131: 'i', 0x1e9e: 'SS',
};

/** The replacement text for a code point, or undefined; `combining`: also the UTF-8 locale's. */
export function translit(cp: number, combining = false): string | undefined {
  if (cp in TABLE) return TABLE[cp];
  // Spaces of every width, and the full-width forms of ASCII.
  if (cp >= 0x2000 && cp <= 0x200a) return ' ';
  if (cp >= 0xff01 && cp <= 0xff5e) return String.fromCharCode(cp - 0xfee0);
  if (!combining) return undefined;
  if (cp in COMBINING) return COMBINING[cp];
  // A letter with marks: its base letters (themselves transliterated: Ǿ → Ø → O).
  const base = String.fromCodePoint(cp).normalize('NFD').replace(/\p{Mn}/gu, '');
  if (base === '' || base === String.fromCodePoint(cp)) return undefined;
  return [...base].map((ch) => (ch.codePointAt(0)! < 0x80 ? ch : (translit(ch.codePointAt(0)!, true) ?? ch))).join('');
}

// wc [-clmwL] [FILE]...: newline, word, character and byte counts, and the widest line.

import { isReg } from '../../../abi/stat.js';
import { isSpaceCp } from '../../../userland/lib/ctype.js';
import { chunks, command, countByte, forEachInput, isAscii, join, type Cmd } from '../../../userland/lib/index.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { seqLenIn, utf8Len, wcwidth } from '../../../userland/lib/utf8.js';

const USAGE = `Usage: wc [OPTION]... [FILE]...
Print newline, word, and byte counts for each FILE, and a total line if
more than one FILE is specified.  A word is a non-zero-length sequence of
printable characters delimited by white space.

With no FILE, or when FILE is -, read standard input.

The options below may be used to select which counts are printed, always in
the following order: newline, word, character, byte, maximum line length.
  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
  -L, --max-line-length  print the maximum display width
  -w, --words            print the word counts
      --help     display this help and exit
      --version  output version information and exit
`;

type Counts = [number, number, number, number, number]; // lines, words, chars, bytes, max line width

export const wc = command(
  {
    name: 'wc',
    usage: USAGE,
    short: 'clmwL',
    long: { bytes: ['c', 'none'], chars: ['m', 'none'], lines: ['l', 'none'], words: ['w', 'none'], 'max-line-length': ['L', 'none'] },
  },
  (c) => {
    const any = ['l', 'w', 'm', 'c', 'L'].some((k) => c.has(k));
    const show = any ? [c.has('l'), c.has('w'), c.has('m'), c.has('c'), c.has('L')] : [true, true, false, true, false];
    const files = c.operands.length ? c.operands : ['-'];
    const width = numberWidth(c, files, show.filter(Boolean).length);
    const total: Counts = [0, 0, 0, 0, 0];
    const print = (k: Counts, name: string | null) => {
      const cols = k.filter((_, i) => show[i]).map((n) => String(n).padStart(width));
      c.out.write(cols.join(' ') + (name === null ? '' : ` ${name}`) + '\n');
    };
    const utf8 = isUtf8Locale(c.os.env);
    forEachInput(c, files, (fd, name) => {
      const k = count(c, fd, { words: show[1], chars: show[2] && utf8, width: show[4], utf8 });
      if (!utf8) k[2] = k[3]; // the C locale's characters are bytes
      for (let i = 0; i < 4; i++) total[i] += k[i];
      total[4] = Math.max(total[4], k[4]);
      print(k, c.operands.length ? name : null);
    });
    if (files.length > 1) print(total, 'total');
  },
);

/** GNU's column width: digits of the regular files' total size; at least 7 with non-regular input; 1 for one count of one file. */
function numberWidth(c: Cmd, files: string[], shown: number): number {
  if (files.length === 1 && shown === 1) return 1;
  let total = 0;
  let min = 1;
  for (const f of files) {
    try {
      const st = f === '-' ? c.sys.fstat(0) : c.sys.stat(f);
      if (isReg(st.mode)) total += st.size;
      else min = 7;
    } catch {
      // Reported when the file is opened.
    }
  }
  return Math.max(String(total).length, min);
}

interface Wanted {
  words: boolean;
  /** Characters that are not bytes (a UTF-8 locale). */
  chars: boolean;
  width: boolean;
  utf8: boolean;
}

/** No-break spaces also separate words (coreutils' iswnbspace). */
const NBSP = new Set([0xa0, 0x2007, 0x202f, 0x2060]);

function count(c: Cmd, fd: number, w: Wanted): Counts {
  let nl = 0;
  let bytes = 0;
  if (!w.words && !w.width && !w.chars) {
    // Lines and bytes only: count newlines a word at a time.
    for (const b of chunks(c.sys, fd)) {
      bytes += b.byteLength;
      nl += countByte(b, 10);
    }
    return [nl, 0, bytes, bytes, 0];
  }
  // As GNU's wc: a word is a run of printable characters between white space;
  // other characters (controls, and in UTF-8 invalid bytes, which are not
  // characters at all) neither make nor break words. Tabs advance the line
  // width to the next multiple of 8, \r and \f start it again.
  let words = 0;
  let chars = 0;
  let inWord = false;
  let pos = 0;
  let longest = 0;
  const sep = () => {
    if (inWord) words++;
    inWord = false;
  };
  const step = (cp: number) => {
    switch (cp) {
      case 10:
      case 13:
      case 12:
        if (cp === 10) nl++;
        if (pos > longest) longest = pos;
        pos = 0;
        sep();
        return;
      case 9:
        pos += 8 - (pos % 8);
        sep();
        return;
      case 32:
        pos++;
        sep();
        return;
      case 11:
        sep();
        return;
    }
    if (cp < 0x80) {
      if (cp > 0x20 && cp < 0x7f) {
        pos++;
        inWord = true;
      }
      return;
    }
    if (!w.utf8) return;
    const cw = wcwidth(cp);
    if (cw < 0) return; // not printable
    pos += cw;
    if (isSpaceCp(cp) || NBSP.has(cp)) sep();
    else inWord = true;
  };
  let carry: Uint8Array | null = null;
  for (const chunk of chunks(c.sys, fd)) {
    bytes += chunk.byteLength;
    const b: Uint8Array = carry ? join(carry, chunk) : chunk;
    carry = null;
    if (!w.words && !w.width && isAscii(b)) {
      // No words or widths over ASCII: every byte is a character.
      chars += b.byteLength;
      nl += countByte(b, 10);
      continue;
    }
    let i = 0;
    while (i < b.byteLength) {
      const x = b[i];
      if (x < 0x80 || !w.utf8) {
        chars++;
        step(x);
        i++;
        continue;
      }
      const n = seqLenIn(b, i);
      if (n === 0) {
        // A sequence cut by the end of the chunk waits for the rest.
        if (b.byteLength - i < 4 && truncated(b, i)) {
          carry = b.slice(i);
          break;
        }
        i++;
        continue;
      }
      chars++;
      step(n === 2 ? ((x & 0x1f) << 6) | (b[i + 1] & 0x3f) : n === 3 ? ((x & 0x0f) << 12) | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f) : ((x & 0x07) << 18) | ((b[i + 1] & 0x3f) << 12) | ((b[i + 2] & 0x3f) << 6) | (b[i + 3] & 0x3f));
      i += n;
    }
  }
  if (pos > longest) longest = pos;
  sep();
  return [nl, words, chars, bytes, longest];
}

/** Whether the bytes from `i` to the end are the start of a valid sequence that the end cut short. */
function truncated(b: Uint8Array, i: number): boolean {
  const tail = [b[i], b[i + 1], b[i + 2]];
  for (let n = b.byteLength - i; n < 3; n++) tail[n] = 0x80;
  return utf8Len(tail[0], tail[1], tail[2], 0x80) > b.byteLength - i;
}

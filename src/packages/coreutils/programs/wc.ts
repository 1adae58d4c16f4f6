// wc [-clmw] [FILE]...: newline, word and byte counts.

import { isReg } from '../../../abi/stat.js';
import { chunks, command, countByte, forEachInput, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: wc [OPTION]... [FILE]...
Print newline, word, and byte counts for each FILE, and a total line if
more than one FILE is specified.  A word is a non-zero-length sequence of
printable characters delimited by white space.

With no FILE, or when FILE is -, read standard input.

The options below may be used to select which counts are printed, always in
the following order: newline, word, character, byte.
  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
  -w, --words            print the word counts
      --help     display this help and exit
      --version  output version information and exit
`;

type Counts = [number, number, number, number]; // lines, words, chars, bytes

export const wc = command(
  {
    name: 'wc',
    usage: USAGE,
    short: 'clmw',
    long: { bytes: ['c', 'none'], chars: ['m', 'none'], lines: ['l', 'none'], words: ['w', 'none'] },
  },
  (c) => {
    const any = ['l', 'w', 'm', 'c'].some((k) => c.has(k));
    const show = any ? [c.has('l'), c.has('w'), c.has('m'), c.has('c')] : [true, true, false, true];
    const files = c.operands.length ? c.operands : ['-'];
    const width = numberWidth(c, files, show.filter(Boolean).length);
    const total: Counts = [0, 0, 0, 0];
    const print = (k: Counts, name: string | null) => {
      const cols = k.filter((_, i) => show[i]).map((n) => String(n).padStart(width));
      c.out.write(cols.join(' ') + (name === null ? '' : ` ${name}`) + '\n');
    };
    forEachInput(c, files, (fd, name) => {
      const k = count(c, fd, show[1]);
      for (let i = 0; i < 4; i++) total[i] += k[i];
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

function count(c: Cmd, fd: number, needWords: boolean): Counts {
  let nl = 0;
  let words = 0;
  let bytes = 0;
  let inWord = false;
  for (const b of chunks(c.sys, fd)) {
    bytes += b.byteLength;
    if (!needWords) {
      // Lines and bytes only: count newlines a word at a time.
      nl += countByte(b, 10);
      continue;
    }
    for (const ch of b) {
      if (ch === 10) nl++;
      const space = ch === 32 || (ch >= 9 && ch <= 13);
      if (space) inWord = false;
      else if (!inWord) {
        inWord = true;
        words++;
      }
    }
  }
  return [nl, words, bytes, bytes];
}


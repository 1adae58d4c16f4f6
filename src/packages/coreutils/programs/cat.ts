// cat [-AbeEnstTuv] [FILE]...: concatenate files to standard output.

import { chunks, command, forEachInput, lines, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: cat [OPTION]... [FILE]...
Concatenate FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

  -A, --show-all           equivalent to -vET
  -b, --number-nonblank    number nonempty output lines, overrides -n
  -e                       equivalent to -vE
  -E, --show-ends          display $ at end of each line
  -n, --number             number all output lines
  -s, --squeeze-blank      suppress repeated empty output lines
  -t                       equivalent to -vT
  -T, --show-tabs          display TAB characters as ^I
  -u                       (ignored)
  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB
      --help     display this help and exit
      --version  output version information and exit
`;

interface Flags {
  number: boolean;
  nonblank: boolean;
  ends: boolean;
  tabs: boolean;
  nonprinting: boolean;
  squeeze: boolean;
}

export const cat = command(
  {
    name: 'cat',
    usage: USAGE,
    short: 'AbeEnstTuv',
    long: {
      'show-all': ['A', 'none'], 'number-nonblank': ['b', 'none'], 'show-ends': ['E', 'none'], number: ['n', 'none'],
      'squeeze-blank': ['s', 'none'], 'show-tabs': ['T', 'none'], 'show-nonprinting': ['v', 'none'],
    },
  },
  (c) => {
    const h = (k: string) => c.has(k);
    const f: Flags = {
      nonblank: h('b'),
      number: h('n') || h('b'),
      ends: h('A') || h('e') || h('E'),
      tabs: h('A') || h('t') || h('T'),
      nonprinting: h('A') || h('e') || h('t') || h('v'),
      squeeze: h('s'),
    };
    const plain = !f.number && !f.ends && !f.tabs && !f.nonprinting && !f.squeeze;
    const state = { line: 0, blankRun: 0 };
    forEachInput(c, c.operands, (fd) => {
      if (plain) for (const b of chunks(c.sys, fd)) c.out.write(b);
      else for (const l of lines(c.sys, fd)) emit(c, l, f, state);
    });
  },
);

const LF = 10;

function emit(c: Cmd, l: Uint8Array, f: Flags, st: { line: number; blankRun: number }): void {
  const hasNl = l[l.byteLength - 1] === LF;
  const body = hasNl ? l.subarray(0, -1) : l;
  const blank = hasNl && body.byteLength === 0;
  if (blank) {
    if (f.squeeze && st.blankRun > 0) return;
    st.blankRun++;
  } else st.blankRun = 0;
  if (f.number && !(f.nonblank && blank)) c.out.write(`${String(++st.line).padStart(6)}\t`);
  c.out.write(f.tabs || f.nonprinting ? visible(body, f) : body);
  if (hasNl) c.out.write(f.ends ? '$\n' : '\n');
}

/** ^X and M- notation (-v), ^I for tabs (-T). */
function visible(b: Uint8Array, f: Flags): Uint8Array {
  const out: number[] = [];
  const caret = (ch: number) => out.push(94, ch);
  for (let ch of b) {
    if (ch === 9) {
      if (f.tabs) caret(73);
      else out.push(9);
      continue;
    }
    if (!f.nonprinting) {
      out.push(ch);
      continue;
    }
    if (ch >= 128) {
      out.push(77, 45); // "M-"
      ch -= 128;
    }
    if (ch < 32) caret(ch + 64);
    else if (ch === 127) caret(63);
    else out.push(ch);
  }
  return Uint8Array.from(out);
}

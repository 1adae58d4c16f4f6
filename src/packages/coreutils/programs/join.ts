// join [OPTION]... FILE1 FILE2: join lines of two sorted files on a common
// field (streams: only the current run of equal keys is held).

import { command, lines, openInput, quote, quoteaf, type Cmd } from '../../../userland/lib/index.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { bin, str } from './text.js';

const USAGE = `Usage: join [OPTION]... FILE1 FILE2
For each pair of input lines with identical join fields, write a line to
standard output.  The default join field is the first, delimited by blanks.

When FILE1 or FILE2 (not both) is -, read standard input.

  -a FILENUM             also print unpairable lines from file FILENUM, where
                           FILENUM is 1 or 2, corresponding to FILE1 or FILE2
  -e STRING              replace missing (empty) input fields with STRING;
                           I.e., missing fields specified with '-12jo' options
  -i, --ignore-case      ignore differences in case when comparing fields
  -j FIELD               equivalent to '-1 FIELD -2 FIELD'
  -o FORMAT              obey FORMAT while constructing output line
  -t CHAR                use CHAR as input and output field separator
  -v FILENUM             like -a FILENUM, but suppress joined output lines
  -1 FIELD               join on this FIELD of file 1
  -2 FIELD               join on this FIELD of file 2
      --check-order      check that the input is correctly sorted, even
                           if all input lines are pairable
      --nocheck-order    do not check that the input is correctly sorted
      --header           treat the first line in each file as field headers,
                           print them without trying to pair them
  -z, --zero-terminated  line delimiter is NUL, not newline
      --help     display this help and exit
      --version  output version information and exit

Unless -t CHAR is given, leading blanks separate fields and are ignored,
else fields are separated by CHAR.  Any FIELD is a field number counted
from 1.  FORMAT is one or more comma or blank separated specifications,
each being 'FILENUM.FIELD' or '0'.  Default FORMAT outputs the join field,
the remaining fields from FILE1, the remaining fields from FILE2, all
separated by CHAR.  If FORMAT is the keyword 'auto', then the first
line of each file determines the number of fields output for each line.

Important: FILE1 and FILE2 must be sorted on the join fields.
`;

interface Line {
  text: string;
  fields: string[];
}

/** One output field: file 0 means the join field of whichever line is present. */
interface Spec {
  file: 0 | 1 | 2;
  field: number;
}

const BLANK: Line = { text: '', fields: [] };

interface Settings {
  /** Separator: null for runs of blanks; '\n' (from -t '') for the whole line. */
  tab: string | null;
  keys: [number, number];
  unpaired: [boolean, boolean];
  paired: boolean;
  empty: string | null;
  format: Spec[] | 'auto' | null;
  fold: boolean;
  /** 'default': warn once per file after an unpairable line; 'on': fail at once; 'off'. */
  check: 'default' | 'on' | 'off';
  header: boolean;
  eol: string;
}

export const join = command(
  {
    name: 'join',
    usage: USAGE,
    short: 'a:e:ij:o:t:v:1:2:z',
    long: {
      'ignore-case': ['i', 'none'], 'check-order': ['C', 'none'], 'nocheck-order': ['N', 'none'], header: ['H', 'none'],
      'zero-terminated': ['z', 'none'],
    },
  },
  (c) => {
    const s = settings(c);
    const ops = c.operands;
    if (ops.length === 0) c.usage('missing operand');
    if (ops.length === 1) c.usage(`missing operand after ${quote(ops[0])}`);
    if (ops.length > 2) c.usage(`extra operand ${quoteaf(ops[2])}`);
    // GNU reports errno here, left at ENOENT by glibc's loading of a UTF-8 locale (and 0 in C).
    if (ops[0] === '-' && ops[1] === '-') c.fail(`both files cannot be standard input${isUtf8Locale(c.os.env) ? ': No such file or directory' : ''}`);
    const fds = ops.map((f) => openInput(c, f));
    if (fds.includes(null)) c.exit(1);
    return new Joiner(c, s, ops, fds as number[]).run();
  },
);

function fieldNumber(c: Cmd, v: string): number {
  if (!/^\+?\d+$/.test(v) || Number(v) === 0) return c.fail(`invalid field number: ${quote(v)}`);
  return Number(v) - 1;
}

function settings(c: Cmd): Settings {
  const s: Settings = {
    tab: null, keys: [-1, -1], unpaired: [false, false], paired: true, empty: null, format: null, fold: false,
    check: 'default', header: false, eol: c.has('z') ? '\0' : '\n',
  };
  const setKey = (i: 0 | 1, n: number) => {
    if (s.keys[i] >= 0 && s.keys[i] !== n) c.fail(`incompatible join fields ${s.keys[i] + 1}, ${n + 1}`);
    s.keys[i] = n;
  };
  const specs: Spec[] = [];
  for (const [k, v] of c.all) {
    if (k === 'a' || k === 'v') {
      if (v !== '1' && v !== '2') c.fail(`invalid field number: ${quote(v!)}`);
      s.unpaired[Number(v) - 1] = true;
      if (k === 'v') s.paired = false;
    } else if (k === 'e') s.empty = v!;
    else if (k === 'i') s.fold = true;
    else if (k === 'j') {
      const n = fieldNumber(c, v!);
      setKey(0, n);
      setKey(1, n);
    } else if (k === '1' || k === '2') setKey(k === '1' ? 0 : 1, fieldNumber(c, v!));
    else if (k === 't') {
      const t = v!;
      if (t.length > 1 && t !== '\\0') c.fail(`multi-character tab ${quote(t)}`);
      const tab = t === '' ? '\n' : t === '\\0' ? '\0' : t;
      if (s.tab !== null && s.tab !== tab) c.fail('incompatible tabs');
      s.tab = tab;
    } else if (k === 'o') {
      if (v === 'auto') {
        s.format = 'auto';
        continue;
      }
      for (const item of v!.split(/[ ,\t]+/).filter(Boolean)) specs.push(spec(c, item));
    } else if (k === 'C') s.check = 'on';
    else if (k === 'N') s.check = 'off';
    else if (k === 'H') s.header = true;
  }
  if (specs.length && s.format !== 'auto') s.format = specs;
  s.keys = [Math.max(s.keys[0], 0), Math.max(s.keys[1], 0)];
  return s;
}

function spec(c: Cmd, item: string): Spec {
  if (item === '0') return { file: 0, field: 0 };
  if (!'012'.includes(item[0])) return c.fail(`invalid file number in field spec: ${quote(item)}`);
  if (item[0] === '0' || item[1] !== '.') return c.fail(`invalid field specifier: ${quote(item)}`);
  return { file: Number(item[0]) as 1 | 2, field: fieldNumber(c, item.slice(2)) };
}

const upper = (s: string) => s.replace(/[a-z]+/g, (m) => m.toUpperCase());

class Joiner {
  private readonly inputs: Generator<Uint8Array>[];
  private readonly lineNo = [0, 0];
  private readonly prev: (Line | null)[] = [null, null];
  private readonly warned = [false, false];
  private seenUnpairable = false;
  private auto: [number, number] = [0, 0];

  constructor(
    private readonly c: Cmd,
    private readonly s: Settings,
    private readonly names: string[],
    fds: number[],
  ) {
    this.inputs = fds.map((fd) => lines(c.sys, fd, s.eol.charCodeAt(0)));
  }

  run(): number {
    const s = this.s;
    // Each side holds its current run of lines with equal keys; [0] is the line in hand.
    let run1 = this.first(0);
    let run2 = this.first(1);
    if (s.format === 'auto') this.auto = [run1[0]?.fields.length ?? 0, run2[0]?.fields.length ?? 0];
    if (s.header && (run1.length || run2.length)) {
      this.emit(run1[0] ?? BLANK, run2[0] ?? BLANK);
      this.prev[0] = this.prev[1] = null;
      run1 = this.first(0);
      run2 = this.first(1);
    }
    while (run1.length && run2.length) {
      const d = this.compare(run1[0], run2[0]);
      if (d !== 0) {
        const side = d < 0 ? 0 : 1;
        if (s.unpaired[side]) {
          if (side === 0) this.emit(run1[0], BLANK);
          else this.emit(BLANK, run2[0]);
        }
        if (side === 0) run1 = this.first(0);
        else run2 = this.first(1);
        this.seenUnpairable = true;
        continue;
      }
      // Gather every following line with the same key on both sides.
      const more1 = this.gather(0, run1, run2[0]);
      const more2 = this.gather(1, run2, run1[0]);
      if (s.paired) for (const a of run1) for (const b of run2) this.emit(a, b);
      run1 = more1 ? [more1] : [];
      run2 = more2 ? [more2] : [];
    }
    const checkTail = s.check !== 'off' && !(this.warned[0] && this.warned[1]);
    this.tail(0, run1, checkTail);
    this.tail(1, run2, checkTail);
    if (this.warned[0] || this.warned[1]) this.c.fail('input is not in sorted order');
    return this.c.status;
  }

  /** Unpairable lines left on one side after the other ran out (read on only to check order). */
  private tail(side: 0 | 1, run: Line[], checkTail: boolean): void {
    const print = this.s.unpaired[side];
    if (!run.length || !(print || checkTail)) return;
    const out = (l: Line) => (side === 0 ? this.emit(l, BLANK) : this.emit(BLANK, l));
    if (print) out(run[0]);
    for (let l = this.next(side); l; l = this.next(side)) {
      if (print) out(l);
      if (this.warned[side] && !print) break;
    }
  }

  private first(side: 0 | 1): Line[] {
    const l = this.next(side);
    return l ? [l] : [];
  }

  /** Append lines whose key equals `other`'s to `run`; return the first that differs (or null at EOF). */
  private gather(side: 0 | 1, run: Line[], other: Line): Line | null {
    for (;;) {
      const l = this.next(side);
      if (!l) return null;
      const d = side === 0 ? this.compare(l, other) : this.compare(other, l);
      if (d !== 0) return l;
      run.push(l);
    }
  }

  private next(side: 0 | 1): Line | null {
    const r = this.inputs[side].next();
    if (r.done) return null;
    let text = str(r.value);
    if (text.endsWith(this.s.eol)) text = text.slice(0, -1);
    const l: Line = { text, fields: this.split(text) };
    this.lineNo[side]++;
    this.checkOrder(side, l);
    this.prev[side] = l;
    return l;
  }

  private checkOrder(side: 0 | 1, l: Line): void {
    const prev = this.prev[side];
    const s = this.s;
    if (!prev || s.check === 'off' || (s.check === 'default' && !this.seenUnpairable) || this.warned[side]) return;
    const k = s.keys[side];
    if (this.cmpKeys(this.key(prev, k), this.key(l, k)) <= 0) return;
    const msg = `${this.names[side]}:${this.lineNo[side]}: is not sorted: ${l.text}`;
    if (s.check === 'on') this.c.fail(msg);
    this.c.warn(msg);
    this.warned[side] = true;
  }

  private split(text: string): string[] {
    const tab = this.s.tab;
    if (text === '') return [];
    if (tab === '\n') return [text];
    if (tab !== null) return text.split(tab);
    // Runs of blanks separate; leading blanks are skipped, trailing ones leave an empty last field.
    const m = /^[ \t\n]*(.*)$/s.exec(text)!;
    if (m[1] === '') return [];
    return m[1].split(/[ \t\n]+/);
  }

  private key(l: Line, n: number): string {
    return l.fields[n] ?? '';
  }

  private cmpKeys(a: string, b: string): number {
    if (this.s.fold) {
      a = upper(a);
      b = upper(b);
    }
    return a < b ? -1 : a > b ? 1 : 0;
  }

  private compare(a: Line, b: Line): number {
    return this.cmpKeys(this.key(a, this.s.keys[0]), this.key(b, this.s.keys[1]));
  }

  private field(l: Line, n: number): string {
    const v = l.fields[n];
    return v === undefined || v === '' ? (this.s.empty ?? '') : v;
  }

  private emit(a: Line, b: Line): void {
    const s = this.s;
    const sep = s.tab ?? ' ';
    const parts: string[] = [];
    const [k1, k2] = s.keys;
    if (Array.isArray(s.format)) {
      for (const o of s.format) {
        if (o.file === 0) parts.push(a === BLANK ? this.field(b, k2) : this.field(a, k1));
        else parts.push(this.field(o.file === 1 ? a : b, o.field));
      }
    } else {
      parts.push(a === BLANK ? this.field(b, k2) : this.field(a, k1));
      const rest = (l: Line, key: number, count: number) => {
        for (let i = 0; i < count; i++) if (i !== key) parts.push(this.field(l, i));
      };
      const auto = s.format === 'auto';
      rest(a, k1, auto ? this.auto[0] : a.fields.length);
      rest(b, k2, auto ? this.auto[1] : b.fields.length);
    }
    this.c.out.write(bin(parts.join(sep) + s.eol));
  }
}

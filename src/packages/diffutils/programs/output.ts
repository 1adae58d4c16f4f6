// The output formats of diff: normal, unified (-u), context (-c) and ed (-e),
// printed from an edit script the way GNU diff prints them: hunks joined when
// their contexts touch, -B/-I changes skipped, "\ No newline at end of file"
// after an incomplete last line.

import type { Writer } from '../../../userland/lib/index.js';
import { WS_TRAILING, type Change, type Text } from './analyze.js';

export interface Style {
  context: number;
  initialTab: boolean;
  expandTabs: boolean;
  tabsize: number;
  suppressBlankEmpty: boolean;
  ignoreBlank: boolean;
  white: number;
  /** -I: changes whose lines all match are ignored. */
  ignoreRe: RegExp | null;
  /** -F/-p: the function line shown after @@ / ***************. */
  functionRe: RegExp | null;
}

const OLD = 1;
const NEW = 2;
const NO_NEWLINE = new TextEncoder().encode('\n\\ No newline at end of file\n');
const enc = new TextEncoder();

interface Range {
  first0: number;
  last0: number;
  first1: number;
  last1: number;
  /** OLD | NEW, or 0 when every line of the hunk is ignorable. */
  changes: number;
}

export class Printer {
  private lastSearch = 0;
  private lastMatch = -1;

  constructor(
    private readonly out: Writer,
    private readonly files: [Text, Text],
    private readonly s: Style,
    /** Called once before the first output (writes the file headers). */
    private readonly begin: () => void,
  ) {}

  /** Whether any change survives -B/-I (the exit status). */
  anyChange(script: Change[]): boolean {
    if (!this.ignoring) return script.length > 0;
    return script.some((c) => this.analyze([c]).changes !== 0);
  }

  private get ignoring(): boolean {
    return this.s.ignoreBlank || this.s.ignoreRe !== null;
  }

  normal(script: Change[]): void {
    for (const c of script) {
      const r = this.analyze([c]);
      if (!r.changes) continue;
      this.begin();
      this.put(`${range(r.first0, r.last0, ',')}${' dac'[r.changes]}${range(r.first1, r.last1, ',')}\n`);
      if (r.changes & OLD) for (let i = r.first0; i <= r.last0; i++) this.line(0, i, '<');
      if (r.changes === (OLD | NEW)) this.put('---\n');
      if (r.changes & NEW) for (let i = r.first1; i <= r.last1; i++) this.line(1, i, '>');
    }
  }

  /** ed script (-e): changes last to first so line numbers stay valid. */
  ed(script: Change[]): void {
    for (const c of [...script].reverse()) {
      const r = this.analyze([c]);
      if (!r.changes) continue;
      this.begin();
      this.put(`${range(r.first0, r.last0, ',')}${' dac'[r.changes]}\n`);
      if (r.changes === OLD) continue;
      let insert = true;
      for (let i = r.first1; i <= r.last1; i++) {
        if (!insert) {
          this.put('a\n');
          insert = true;
        }
        if (this.lineText(1, i) === '.') {
          // A lone dot would end insert mode: write "..", end, then strip one dot.
          this.put('..\n.\ns/.//\n');
          insert = false;
        } else this.line(1, i, '');
      }
      if (insert) this.put('.\n');
    }
  }

  /** RCS format (-n): "dN COUNT" and "aN COUNT" followed by the lines. */
  rcs(script: Change[]): void {
    for (const c of script) {
      const r = this.analyze([c]);
      if (!r.changes) continue;
      this.begin();
      if (r.changes & OLD) this.put(`d${r.first0 + 1} ${r.last0 - r.first0 + 1}\n`);
      if (r.changes & NEW) {
        this.put(`a${r.last0 + 1} ${r.last1 - r.first1 + 1}\n`);
        for (let i = r.first1; i <= r.last1; i++) this.line(1, i, '');
      }
    }
  }

  unified(script: Change[]): void {
    this.hunks(script, (h) => this.unifiedHunk(h));
  }

  context(script: Change[]): void {
    this.hunks(script, (h) => this.contextHunk(h));
  }

  /** Group changes whose contexts overlap (GNU's find_hunk) and print each group. */
  private hunks(script: Change[], print: (hunk: Change[]) => void): void {
    if (this.ignoring) for (const c of script) c.ignore = this.analyze([c]).changes === 0;
    const ctx = this.s.context;
    let i = 0;
    while (i < script.length) {
      let j = i;
      for (;;) {
        const top0 = script[j].line0 + script[j].deleted;
        const next = script[j + 1];
        if (!next) break;
        const thresh = next.ignore ? ctx : 2 * ctx + 1;
        if (next.line0 - top0 >= thresh) break;
        j++;
      }
      print(script.slice(i, j + 1));
      i = j + 1;
    }
  }

  private widen(r: Range): void {
    const ctx = this.s.context;
    r.first0 = Math.max(r.first0 - ctx, 0);
    r.first1 = Math.max(r.first1 - ctx, 0);
    r.last0 = Math.min(r.last0 + ctx, this.files[0].lines - 1);
    r.last1 = Math.min(r.last1 + ctx, this.files[1].lines - 1);
  }

  private unifiedHunk(hunk: Change[]): void {
    const r = this.analyze(hunk);
    if (!r.changes) return;
    this.widen(r);
    const fn = this.functionLine(r.first0);
    this.begin();
    this.put(`@@ -${unifiedRange(r.first0, r.last0)} +${unifiedRange(r.first1, r.last1)} @@${fn}\n`);
    let k = 0;
    let i = r.first0;
    let j = r.first1;
    while (i <= r.last0 || j <= r.last1) {
      const next = hunk[k];
      if (!next || i < next.line0) {
        this.unifiedLine(0, i++, this.s.initialTab ? '\t' : ' ', true);
        j++;
        continue;
      }
      for (let n = 0; n < next.deleted; n++) this.unifiedLine(0, i++, '-', false);
      for (let n = 0; n < next.inserted; n++) this.unifiedLine(1, j++, '+', false);
      k++;
    }
  }

  /** A unified line: its mark (context lines: space or tab), -T's tab, the text. */
  private unifiedLine(f: 0 | 1, i: number, mark: string, isContext: boolean): void {
    const empty = this.isEmpty(f, i);
    if (isContext) {
      if (!(this.s.suppressBlankEmpty && empty)) this.put(mark);
    } else {
      this.put(mark);
      if (this.s.initialTab && !(this.s.suppressBlankEmpty && empty)) this.put('\t');
    }
    this.body(f, i, true);
  }

  private contextHunk(hunk: Change[]): void {
    const r = this.analyze(hunk);
    if (!r.changes) return;
    this.widen(r);
    const fn = this.functionLine(r.first0);
    this.begin();
    this.put(`***************${fn}\n*** ${contextRange(r.first0, r.last0)} ****\n`);
    if (r.changes & OLD) {
      let k = 0;
      for (let i = r.first0; i <= r.last0; i++) {
        while (k < hunk.length && hunk[k].line0 + hunk[k].deleted <= i) k++;
        const c = hunk[k];
        this.line(0, i, c && c.line0 <= i ? (c.inserted > 0 ? '!' : '-') : ' ');
      }
    }
    this.put(`--- ${contextRange(r.first1, r.last1)} ----\n`);
    if (r.changes & NEW) {
      let k = 0;
      for (let i = r.first1; i <= r.last1; i++) {
        while (k < hunk.length && hunk[k].line1 + hunk[k].inserted <= i) k++;
        const c = hunk[k];
        this.line(1, i, c && c.line1 <= i ? (c.deleted > 0 ? '!' : '+') : ' ');
      }
    }
  }

  /** First/last lines of a hunk and what it does; 0 when -B/-I make all of it ignorable. */
  private analyze(hunk: Change[]): Range {
    let trivial = this.ignoring;
    let show0 = 0;
    let show1 = 0;
    for (const c of hunk) {
      show0 += c.deleted;
      show1 += c.inserted;
      for (let i = c.line0; trivial && i < c.line0 + c.deleted; i++) trivial = this.trivial(0, i);
      for (let i = c.line1; trivial && i < c.line1 + c.inserted; i++) trivial = this.trivial(1, i);
    }
    const last = hunk[hunk.length - 1];
    return {
      first0: hunk[0].line0,
      first1: hunk[0].line1,
      last0: last.line0 + last.deleted - 1,
      last1: last.line1 + last.inserted - 1,
      changes: trivial ? 0 : (show0 ? OLD : 0) | (show1 ? NEW : 0),
    };
  }

  /** Blank (for -B; all-white counts when white space is ignored) or matching -I. */
  private trivial(f: 0 | 1, i: number): boolean {
    const text = this.lineText(f, i);
    if (this.s.ignoreBlank) {
      if (text === '') return true;
      if (this.s.white >= WS_TRAILING && /^[ \t\n\v\f\r]*$/.test(text)) return true;
    }
    return this.s.ignoreRe !== null && this.s.ignoreRe.test(text);
  }

  /** -p/-F: the nearest earlier line matching, searched back no further than last time. */
  private functionLine(first0: number): string {
    const re = this.s.functionRe;
    if (!re) return '';
    let found = -1;
    for (let i = first0 - 1; i >= this.lastSearch; i--) {
      if (re.test(this.lineText(0, i))) {
        found = i;
        break;
      }
    }
    this.lastSearch = first0;
    if (found >= 0) this.lastMatch = found;
    else if (this.lastMatch >= 0) found = this.lastMatch;
    if (found < 0) return '';
    const t = this.lineText(0, found).replace(/^[ \t\v\f\r]+/, '').slice(0, 40).replace(/[ \t\v\f\r]+$/, '');
    return ` ${t}`;
  }

  private isEmpty(f: 0 | 1, i: number): boolean {
    const t = this.files[f];
    return t.bytes[t.starts[i]] === 10;
  }

  /** The line without its newline, one char per byte. */
  private lineText(f: 0 | 1, i: number): string {
    const t = this.files[f];
    const end = t.starts[i + 1];
    const stop = end > t.starts[i] && t.bytes[end - 1] === 10 ? end - 1 : end;
    let s = '';
    for (let p = t.starts[i]; p < stop; p++) s += String.fromCharCode(t.bytes[p]);
    return s;
  }

  /** A line with its flag: "< x", "! x" (flag, then space or -T's tab), or bare for ed. */
  private line(f: 0 | 1, i: number, flag: string): void {
    if (flag) {
      const blank = this.s.suppressBlankEmpty && this.isEmpty(f, i);
      this.put(blank ? flag.replace(/ $/, '') : flag + (this.s.initialTab ? '\t' : ' '));
    }
    this.body(f, i, flag !== '');
  }

  /** The text and newline; an incomplete line gets GNU's marker when `mark`. */
  private body(f: 0 | 1, i: number, mark: boolean): void {
    const t = this.files[f];
    const start = t.starts[i];
    const end = t.starts[i + 1];
    const complete = t.bytes[end - 1] === 10;
    const text = t.bytes.subarray(start, complete ? end - 1 : end);
    this.out.write(this.s.expandTabs ? expand(text, this.s.tabsize) : text);
    if (complete) this.out.write(NL);
    else if (mark) this.out.write(NO_NEWLINE);
  }

  private put(s: string): void {
    this.out.write(enc.encode(s));
  }
}

const NL = new Uint8Array([10]);

/** -t: tabs to spaces, columns counted from the start of the text. */
function expand(b: Uint8Array, tabsize: number): Uint8Array {
  if (!b.includes(9)) return b;
  const out: number[] = [];
  let col = 0;
  for (const c of b) {
    if (c === 9) {
      const n = tabsize - (col % tabsize);
      for (let k = 0; k < n; k++) out.push(32);
      col += n;
      continue;
    }
    out.push(c);
    if (c === 8) col -= col > 0 ? 1 : 0;
    else if (c === 13) col = 0;
    else col++;
  }
  return Uint8Array.from(out);
}

/** Normal/ed ranges: "a,b", or the one line number (the line before, for empty ranges). */
function range(a: number, b: number, sep: string): string {
  return b > a ? `${a + 1}${sep}${b + 1}` : `${b + 1}`;
}

function unifiedRange(a: number, b: number): string {
  if (b < a) return `${b + 1},0`;
  if (b === a) return `${b + 1}`;
  return `${a + 1},${b - a + 1}`;
}

function contextRange(a: number, b: number): string {
  return b <= a ? `${b + 1}` : `${a + 1},${b + 1}`;
}

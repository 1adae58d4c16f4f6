// fmt [-WIDTH] [-cstu] [-w WIDTH] [-g GOAL] [-p PREFIX] [FILE]...: fill and
// join paragraphs. Line breaks are chosen by GNU fmt's cost model (squared
// distance from the goal width, raggedness, sentence and punctuation bonuses)
// so the output matches GNU's; a paragraph is held only up to 1000 words or
// 5000 bytes, then the part before a cheap break is written (streams).

import { chunks, command, forEachInput, quote, type Applet, type Cmd } from '../../../userland/lib/index.js';
import { bin } from './text.js';

const USAGE = `Usage: fmt [-WIDTH] [OPTION]... [FILE]...
Reformat each paragraph in the FILE(s), writing to standard output.
The option -WIDTH is an abbreviated form of --width=DIGITS.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --crown-margin        preserve indentation of first two lines
  -p, --prefix=STRING       reformat only lines beginning with STRING,
                              reattaching the prefix to reformatted lines
  -s, --split-only          split long lines, but do not refill
  -t, --tagged-paragraph    indentation of first line different from second
  -u, --uniform-spacing     one space between words, two after sentences
  -w, --width=WIDTH         maximum line width (default of 75 columns)
  -g, --goal=WIDTH          goal width (default of 93% of width)
      --help     display this help and exit
      --version  output version information and exit
`;

const MAXCHARS = 5000;
const MAXWORDS = 1000;
const TABWIDTH = 8;
const EOF = -1;
const NL = 10;

// Costs: "equivalent to a line N columns off the goal", squared, times 100.
const equiv = (n: number) => n * n;
const shortCost = (n: number) => equiv(n * 10);
const raggedCost = (n: number) => Math.trunc(shortCost(n) / 2);
const LINE_COST = equiv(70);
const widowCost = (n: number) => Math.trunc(equiv(200) / (n + 2));
const orphanCost = (n: number) => Math.trunc(equiv(150) / (n + 2));
const SENTENCE_BONUS = equiv(50);
const NOBREAK_COST = equiv(600);
const PAREN_BONUS = equiv(40);
const PUNCT_BONUS = equiv(40);
const LINE_CREDIT = equiv(3);

interface Word {
  text: string;
  /** Columns after the word (2 after a sentence end at a line end or with -u). */
  space: number;
  paren: boolean;
  punct: boolean;
  period: boolean;
  final: boolean;
  lineLength: number;
  bestCost: number;
  nextBreak: number;
}

interface Options {
  width: number;
  goal: number;
  crown: boolean;
  tagged: boolean;
  split: boolean;
  uniform: boolean;
  /** The prefix without its leading and trailing spaces, its leading spaces, and its length with trailing spaces. */
  prefix: string;
  prefixLead: number;
  prefixFull: number;
}

const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);
const PUNCT = /[!-/:-@[-`{-~]/;

const run = command(
  {
    name: 'fmt',
    usage: USAGE,
    short: 'cstuw:p:g:0123456789',
    long: {
      'crown-margin': ['c', 'none'], 'split-only': ['s', 'none'], 'tagged-paragraph': ['t', 'none'],
      'uniform-spacing': ['u', 'none'], width: ['w', 'required'], prefix: ['p', 'required'], goal: ['g', 'required'],
    },
  },
  (c) => {
    const digit = c.all.find(([k]) => /\d/.test(k));
    if (digit) {
      c.warn(`invalid option -- ${digit[0]}; -WIDTH is recognized only when it is the first\noption; use -w N instead`);
      c.tryHelp();
    }
    const o = options(c);
    forEachInput(c, c.operands, (fd) => new Formatter(c, o, fd).run(), 'for-reading');
  },
);

/** `fmt -72 ...`: the obsolete width form, only as the first argument. */
export const fmt: Applet = (os, args) => {
  const m = args.length ? /^-(\d.*)$/.exec(args[0]) : null;
  return run(os, m ? ['-w', m[1], ...args.slice(1)] : args);
};

function options(c: Cmd): Options {
  const num = (v: string, max: number): number => {
    if (!/^\d+$/.test(v)) return c.fail(`invalid width: ${quote(v)}`);
    if (Number(v) > max) return c.fail(`invalid width: ${quote(v)}: Numerical result out of range`);
    return Number(v);
  };
  const w = c.get('w');
  let width = w === undefined ? 75 : num(w, MAXCHARS / 2);
  const g = c.get('g');
  let goal: number;
  if (g !== undefined) {
    goal = num(g, width);
    if (w === undefined) width = goal + 10;
  } else goal = Math.trunc((width * (2 * (100 - 7) + 1)) / 200);
  const raw = c.get('p') ?? '';
  const lead = /^ */.exec(raw)![0].length;
  const rest = raw.slice(lead);
  const prefix = rest.replace(/ +$/, '');
  return {
    width, goal, crown: c.has('c'), tagged: c.has('t'), split: c.has('s'), uniform: c.has('u'),
    prefix, prefixLead: lead, prefixFull: rest.length,
  };
}

/** One input file: GNU fmt's reader (column-tracking, one byte at a time) and line breaker. */
class Formatter {
  private readonly input: Generator<Uint8Array>;
  private buf: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private out = '';

  private inColumn = 0;
  private outColumn = 0;
  private tabs = false;
  private nextPrefixIndent = 0;
  private prefixIndent = 0;
  private firstIndent = 0;
  private otherIndent = 0;
  private lastLineLength = 0;
  private nextChar = EOF;
  /** Complete words of the paragraph so far, then the word being read. */
  private words: Word[] = [];
  private partial = '';
  private chars = 0;

  constructor(
    private readonly c: Cmd,
    private readonly o: Options,
    fd: number,
  ) {
    this.input = chunks(c.sys, fd);
  }

  run(): void {
    this.nextChar = this.getPrefix();
    while (this.getParagraph()) {
      this.fmtParagraph();
      this.putParagraph(this.words.length);
      this.words = [];
      this.chars = 0;
    }
    this.emit();
  }

  private getc(): number {
    if (this.pos >= this.buf.byteLength) {
      const r = this.input.next();
      if (r.done) return EOF;
      this.buf = r.value;
      this.pos = 0;
    }
    return this.buf[this.pos++];
  }

  private putc(ch: string): void {
    this.out += ch;
    if (this.out.length >= 65536) this.emit();
  }

  private emit(): void {
    if (this.out) this.c.out.write(bin(this.out));
    this.out = '';
  }

  private getSpace(c: number): number {
    for (;; c = this.getc()) {
      if (c === 32) this.inColumn++;
      else if (c === 9) {
        this.tabs = true;
        this.inColumn = (Math.trunc(this.inColumn / TABWIDTH) + 1) * TABWIDTH;
      } else return c;
    }
  }

  private getPrefix(): number {
    this.inColumn = 0;
    let c = this.getSpace(this.getc());
    const o = this.o;
    if (o.prefix === '') this.nextPrefixIndent = Math.min(o.prefixLead, this.inColumn);
    else {
      this.nextPrefixIndent = this.inColumn;
      for (const p of o.prefix) {
        if (c !== p.charCodeAt(0)) return c;
        this.inColumn++;
        c = this.getc();
      }
      c = this.getSpace(c);
    }
    return c;
  }

  private sameParagraph(c: number): boolean {
    return (
      this.nextPrefixIndent === this.prefixIndent &&
      this.inColumn >= this.nextPrefixIndent + this.o.prefixFull &&
      c !== NL &&
      c !== EOF
    );
  }

  private getParagraph(): boolean {
    const o = this.o;
    this.lastLineLength = 0;
    let c = this.nextChar;
    // Blank lines and lines without the prefix are copied as they are.
    while (c === NL || c === EOF || this.nextPrefixIndent < o.prefixLead || this.inColumn < this.nextPrefixIndent + o.prefixFull) {
      c = this.copyRest(c);
      if (c === EOF) {
        this.nextChar = EOF;
        return false;
      }
      this.putc('\n');
      c = this.getPrefix();
    }
    this.prefixIndent = this.nextPrefixIndent;
    this.firstIndent = this.inColumn;
    this.words = [];
    this.partial = '';
    this.chars = 0;
    c = this.getLine(c);
    this.setOtherIndent(this.sameParagraph(c));
    if (o.split) {
      // each line is its own paragraph
    } else if (o.crown) {
      if (this.sameParagraph(c)) {
        do c = this.getLine(c);
        while (this.sameParagraph(c) && this.inColumn === this.otherIndent);
      }
    } else if (o.tagged) {
      if (this.sameParagraph(c) && this.inColumn !== this.firstIndent) {
        do c = this.getLine(c);
        while (this.sameParagraph(c) && this.inColumn === this.otherIndent);
      }
    } else {
      while (this.sameParagraph(c) && this.inColumn === this.otherIndent) c = this.getLine(c);
    }
    const last = this.words[this.words.length - 1];
    last.period = last.final = true;
    this.nextChar = c;
    return true;
  }

  private setOtherIndent(same: boolean): void {
    const o = this.o;
    if (o.split) this.otherIndent = this.firstIndent;
    else if (o.crown) this.otherIndent = same ? this.inColumn : this.firstIndent;
    else if (o.tagged) {
      if (same && this.inColumn !== this.firstIndent) this.otherIndent = this.inColumn;
      // A one-line paragraph keeps the last secondary indent unless that equals the first.
      else if (this.otherIndent === this.firstIndent) this.otherIndent = this.firstIndent === 0 ? 3 : 0;
    } else this.otherIndent = this.firstIndent;
  }

  /** Copy a line that is not part of a paragraph (its indent re-made by putSpace). */
  private copyRest(c: number): number {
    const o = this.o;
    this.outColumn = 0;
    if (this.inColumn > this.nextPrefixIndent || (c !== NL && c !== EOF)) {
      this.putSpace(this.nextPrefixIndent);
      for (let i = 0; this.outColumn !== this.inColumn && i < o.prefix.length; this.outColumn++) this.putc(o.prefix[i++]);
      if (c !== EOF && c !== NL) this.putSpace(this.inColumn - this.outColumn);
      if (c === EOF && this.inColumn >= this.nextPrefixIndent + o.prefix.length) this.putc('\n');
    }
    while (c !== NL && c !== EOF) {
      this.putc(String.fromCharCode(c));
      c = this.getc();
    }
    return c;
  }

  /** Read one input line's words into the paragraph; returns the first character after the next line's prefix. */
  private getLine(c: number): number {
    do {
      this.partial = '';
      do {
        if (this.chars === MAXCHARS) {
          this.setOtherIndent(true);
          this.flushParagraph();
        }
        this.partial += String.fromCharCode(c);
        this.chars++;
        c = this.getc();
      } while (c !== EOF && !isSpace(c));
      const w = this.makeWord(this.partial);
      this.inColumn += w.text.length;
      const start = this.inColumn;
      c = this.getSpace(c);
      w.space = this.inColumn - start;
      w.final = c === EOF || (w.period && (c === NL || w.space > 1));
      if (c === NL || c === EOF || this.o.uniform) w.space = w.final ? 2 : 1;
      this.partial = '';
      // GNU's word array keeps room for this word and the sentinel.
      if (this.words.length === MAXWORDS - 2) {
        this.setOtherIndent(true);
        this.flushParagraph();
      }
      this.words.push(w);
    } while (c !== NL && c !== EOF);
    return this.getPrefix();
  }

  private makeWord(text: string): Word {
    let end = text.length - 1;
    const punct = PUNCT.test(text[end]);
    while (end > 0 && `)]'"`.includes(text[end])) end--;
    return {
      text, space: 0, paren: `(['\`"`.includes(text[0]), punct, period: '.?!'.includes(text[end]), final: false,
      lineLength: 0, bestCost: 0, nextBreak: 0,
    };
  }

  /**
   * The paragraph outgrew the buffers: lay out what is there, write it up to
   * a cheap break near the end and keep the rest. A complete word may be
   * waiting to join it, or a word may be half read (`partial`).
   */
  private flushParagraph(): void {
    if (this.words.length === 0) {
      this.putc(this.partial);
      this.chars -= this.partial.length;
      this.partial = '';
      return;
    }
    this.fmtParagraph();
    const ws = this.words;
    const n = ws.length;
    let split = n;
    let best = Infinity;
    for (let w = ws[0].nextBreak; w !== n; w = ws[w].nextBreak) {
      const next = ws[w].nextBreak;
      const gain = ws[w].bestCost - (next === n ? 0 : ws[next].bestCost);
      if (gain < best) {
        split = w;
        best = gain;
      }
      best += LINE_CREDIT;
    }
    this.putParagraph(split);
    for (const w of ws.slice(0, split)) this.chars -= w.text.length;
    this.words = ws.slice(split);
  }

  /** Choose line breaks: for each word from the end, the cheapest way to lay out the rest. */
  private fmtParagraph(): void {
    const ws = this.words;
    const n = ws.length;
    const o = this.o;
    const bestAt = (i: number) => (i === n ? 0 : ws[i].bestCost);
    const lineCost = (next: number, len: number): number => {
      if (next === n) return 0;
      const gap = o.goal - len;
      let cost = shortCost(gap);
      if (ws[next].nextBreak !== n) cost += raggedCost(len - ws[next].lineLength);
      return cost;
    };
    for (let start = n - 1; start >= 0; start--) {
      let best = Infinity;
      let len = (start === 0 ? this.firstIndent : this.otherIndent) + ws[start].text.length;
      let w = start;
      do {
        w++;
        let cost = lineCost(w, len) + bestAt(w);
        if (start === 0 && this.lastLineLength > 0) cost += raggedCost(len - this.lastLineLength);
        if (cost < best) {
          best = cost;
          ws[start].nextBreak = w;
          ws[start].lineLength = len;
        }
        if (w === n) break;
        len += ws[w - 1].space + ws[w].text.length;
      } while (len < o.width);
      ws[start].bestCost = best + this.baseCost(start);
    }
  }

  /** The cost of breaking before word i that does not depend on line lengths. */
  private baseCost(i: number): number {
    const ws = this.words;
    const w = ws[i];
    let cost = LINE_COST;
    if (i > 0) {
      const prev = ws[i - 1];
      if (prev.period) cost += prev.final ? -SENTENCE_BONUS : NOBREAK_COST;
      else if (prev.punct) cost -= PUNCT_BONUS;
      else if (i > 1 && ws[i - 2].final) cost += widowCost(prev.text.length);
    }
    if (w.paren) cost -= PAREN_BONUS;
    else if (w.final) cost += orphanCost(w.text.length);
    return cost;
  }

  private putParagraph(finish: number): void {
    const ws = this.words;
    this.putLine(0, this.firstIndent);
    for (let w = ws[0].nextBreak; w !== finish; w = ws[w].nextBreak) this.putLine(w, this.otherIndent);
  }

  private putLine(w: number, indent: number): void {
    const ws = this.words;
    const o = this.o;
    this.outColumn = 0;
    this.putSpace(this.prefixIndent);
    this.putc(o.prefix);
    this.outColumn += o.prefix.length;
    this.putSpace(indent - this.outColumn);
    const end = ws[w].nextBreak - 1;
    for (; w !== end; w++) {
      this.putWord(ws[w]);
      this.putSpace(ws[w].space);
    }
    this.putWord(ws[w]);
    this.lastLineLength = this.outColumn;
    this.putc('\n');
  }

  private putWord(w: Word): void {
    this.putc(w.text);
    this.outColumn += w.text.length;
  }

  /** Spaces up to a column; once the input had tabs, tabs where a whole tab fits. */
  private putSpace(space: number): void {
    const target = this.outColumn + space;
    if (this.tabs) {
      const tabTarget = Math.trunc(target / TABWIDTH) * TABWIDTH;
      if (this.outColumn + 1 < tabTarget) {
        while (this.outColumn < tabTarget) {
          this.putc('\t');
          this.outColumn = (Math.trunc(this.outColumn / TABWIDTH) + 1) * TABWIDTH;
        }
      }
    }
    while (this.outColumn < target) {
      this.putc(' ');
      this.outColumn++;
    }
  }
}

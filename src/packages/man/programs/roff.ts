// A man(7) page rendered to plain text the way man-db and groff's nroff
// (ASCII device, no hyphenation) lay it out: title and footer lines, section
// headings at column 0, text filled and justified at indent 7, tagged and
// indented paragraphs, no-fill blocks. Fonts are dropped (plain text has none).

import { wcwidth } from '../../../userland/lib/utf8.js';

/** Special characters (\(xx, \[xx]) as groff's ASCII device draws them. */
const CHARS: Record<string, string> = {
  em: '--', en: '-', hy: '-', mi: '-', aq: "'", dq: '"', lq: '"', rq: '"', oq: "'", cq: "'", bu: 'o', co: '(C)',
  rg: '(R)', tm: 'tm', mu: 'x', di: '/', '>=': '>=', '<=': '<=', '!=': '!=', '==': '==', ti: '~', ha: '^', ga: '`',
  aa: "'", bv: '|', ba: '|', or: '|', sl: '/', rs: '\\', lB: '[', rB: ']', lC: '{', rC: '}', la: '<', ra: '>',
  Fo: '<<', Fc: '>>', fo: '<', fc: '>', '->': '->', '<-': '<-', pl: '+', eq: '=', sq: '[]', de: '<degree>', ps: '<paragraph>', sc: '<section>',
  dg: '<*>', ct: 'c', Po: 'L', Ye: 'Y', Eu: 'EUR', eu: 'EUR', at: '@', sh: '#', Do: '$', ul: '_', rn: ' ', ', ': ',',
  '12': '1/2', '14': '1/4', '34': '3/4', 'oe': 'oe', ss: 'ss', '+-': '+-',
};
/** Predefined strings (\*(xx) of the man macros. */
const STRINGS: Record<string, string> = { lq: '"', rq: '"', R: '(R)', Tm: 'tm', S: '' };

/** What groff's utf8 device (a UTF-8 locale) draws differently from its ASCII one. */
const UTF8_CHARS: Record<string, string> = {
  em: '—', en: '–', hy: '‐', mi: '−', lq: '“', rq: '”', oq: '‘', cq: '’', bu: '•', co: '©', rg: '®', tm: '™',
  mu: '×', di: '÷', '>=': '≥', '<=': '≤', '!=': '≠', '==': '≡', aa: '´', bv: '⎪', la: '⟨', ra: '⟩', Fo: '«', Fc: '»',
  fo: '‹', fc: '›', '->': '→', '<-': '←', sq: '□', de: '°', ps: '¶', sc: '§', dg: '†', ct: '¢', Po: '£', Ye: '¥',
  Eu: '€', eu: '€', rn: '‾', '12': '½', '14': '¼', '34': '¾', oe: 'œ', ss: 'ß', '+-': '±',
};
const UTF8_STRINGS: Record<string, string> = { lq: '“', rq: '”', R: '®', Tm: '™' };

/** Text as groff's ASCII device shows it (the C locale): typographic marks in ASCII, accents dropped, other characters left out. */
export function asciiText(text: string): string {
  if (!/[^\0-\x7f]/.test(text)) return text;
  const ascii = new Map(Object.entries(UTF8_CHARS).map(([name, glyph]) => [glyph, CHARS[name] ?? '']));
  return text.replace(/[^\0-\x7f]/gu, (c) => ascii.get(c) ?? c.normalize('NFD').replace(/[^\0-\x7f]/g, ''));
}

// Private characters standing for what plain spaces cannot say.
/** An unbreakable, unstretchable space (`\ `, `\~`, `\0`). */
const NBSP = '\u0001';
/** A zero-width mark (`\&`, `\|`): prints nothing, ends a sentence-end run. */
const MARK = '\u0002';
/** The minus sign `\-`: prints as '-', but unlike a hyphen a line cannot break after it. */
const MINUS = '\u0003';

/** Apply the escapes of a line of text; `\c` at the end is reported (the next line continues this one). */
export function escapes(line: string, strings: Record<string, string> = STRINGS, chars = CHARS): { text: string; joined: boolean } {
  let out = '';
  let joined = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = line[++i];
    if (e === undefined) {
      joined = true;
      break;
    }
    const arg = (): string => {
      // \X(xx, \X[name], or \Xx
      if (line[i + 1] === '(') {
        i += 3;
        return line.slice(i - 1, i + 1);
      }
      if (line[i + 1] === '[') {
        const end = line.indexOf(']', i + 2);
        const name = line.slice(i + 2, end < 0 ? line.length : end);
        i = end < 0 ? line.length : end;
        return name;
      }
      i++;
      return line[i] ?? '';
    };
    const quoted = (): string => {
      // \X'...'
      const q = line[i + 1];
      const end = line.indexOf(q, i + 2);
      const v = line.slice(i + 2, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
      return v;
    };
    switch (e) {
      case '"':
        return { text: out, joined };
      case '#':
        return { text: out, joined: true };
      case '-': out += MINUS; break;
      case 'e': case '\\': out += '\\'; break;
      case '&': case '|': case '^': case '%': case ':': case ')': case ',': case '/': out += MARK; break;
      case ' ': case '~': case '0': out += NBSP; break;
      case '.': out += '.'; break;
      case "'": out += "'"; break;
      case '`': out += '`'; break;
      case 't': out += '\t'; break;
      case 'c':
        if (i === line.length - 1) joined = true;
        break;
      case '(': {
        const name = line.slice(i + 1, i + 3);
        i += 2;
        out += chars[name] ?? '';
        break;
      }
      case '[': {
        const end = line.indexOf(']', i + 1);
        const name = line.slice(i + 1, end < 0 ? line.length : end);
        i = end < 0 ? line.length : end;
        out += chars[name] ?? (/^u[0-9A-F]{4,5}$/.test(name) ? (chars === CHARS ? '?' : String.fromCodePoint(parseInt(name.slice(1), 16))) : '');
        break;
      }
      case '*': out += strings[arg()] ?? ''; break;
      case 'f': case 'F': case 'm': case 'M': case 'n': case 'g': case 'k': case 'V': case 'Y': arg(); break;
      case 's': {
        // \s+N, \s-N, \sN, \s(NN, \s[N]
        if (line[i + 1] === '+' || line[i + 1] === '-') i++;
        if (line[i + 1] === '(' || line[i + 1] === '[') arg();
        else while (/[0-9]/.test(line[i + 1] ?? '')) i++;
        break;
      }
      case 'N': {
        const code = Number(quoted());
        if (code > 0 && code < 128) out += String.fromCharCode(code);
        break;
      }
      case 'h': case 'v': case 'w': case 'o': case 'b': case 'l': case 'L': case 'x': case 'D': case 'X': case 'Z': case 'A':
        quoted();
        break;
      case 'z': case 'p': case 'r': case 'u': case 'd': case 'a': case '{': case '}': case 'E':
        break;
      case '$': arg(); break;
      default:
        out += e;
    }
  }
  return { text: out, joined };
}

/**
 * Where a line may break inside a word: after each hyphen between two letters,
 * as groff allows (`@base64-style` stays whole; font marks do not count).
 */
function breakPoints(word: string): number[] {
  const at: number[] = [];
  const letter = (i: number, step: number): boolean => {
    while (word[i] === MARK) i += step;
    return /[A-Za-z]/.test(word[i] ?? '');
  };
  for (let i = 1; i < word.length - 1; i++) if (word[i] === '-' && letter(i - 1, -1) && letter(i + 1, 1)) at.push(i + 1);
  return at;
}

/** Split a macro line's arguments: spaces separate, "double quotes" group ("" is a quote). */
function macroArgs(s: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < s.length) {
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (i >= s.length) break;
    let a = '';
    if (s[i] === '"') {
      i++;
      for (; i < s.length; i++) {
        if (s[i] === '"') {
          if (s[i + 1] === '"') {
            a += '"';
            i++;
            continue;
          }
          i++;
          break;
        }
        a += s[i];
      }
    } else {
      while (i < s.length && s[i] !== ' ' && s[i] !== '\t') a += s[i++];
    }
    args.push(a);
  }
  return args;
}

interface Word {
  text: string;
  /** Spaces before it on the line (0 for the first word). */
  gap: number;
}

const SENTENCE_END = /[.?!][)\]"'*]*$/;
const DEFAULT_HEADS: Record<string, string> = {
  '1': 'General Commands Manual', '2': 'System Calls Manual', '3': 'Library Functions Manual', '4': 'Kernel Interfaces Manual',
  '5': 'File Formats Manual', '6': 'Games Manual', '7': 'Miscellaneous Information Manual', '8': 'System Manager\'s Manual',
  '9': 'Kernel Developer\'s Manual',
};

/** Characters on the page (private marks print as nothing, fixed spaces as spaces). */
const visible = (s: string): string => s.replaceAll(MARK, '').replaceAll(NBSP, ' ').replaceAll(MINUS, '-');
/** Columns a piece of text takes on the terminal (CJK and emoji take two). */
const width = (s: string): number => {
  const v = visible(s);
  if (!/[^\0-\x7f]/.test(v)) return v.length;
  let w = 0;
  for (const ch of v) w += Math.max(0, wcwidth(ch.codePointAt(0)!));
  return w;
};

export class ManFormatter {
  private readonly lines: string[] = [];
  private words: Word[] = [];
  /** Left margin of body text, and the indent stack of .RS. */
  private base = 7;
  private readonly rsStack: number[] = [];
  /** The prevailing indent of tagged paragraphs. */
  private pi = 7;
  /** Indent of the lines being filled. */
  private indent = 7;
  /** Where the next output line starts instead (a heading, .ti, .HP) and the TP/IP tag it begins with. */
  private first: { indent: number; tag: string } | null = null;
  private fill = true;
  private adjust = true;
  /** Blank lines between paragraphs (.PD). */
  private pd = 1;
  /** No-space mode: blank lines are dropped until text is output (after headings). */
  private noSpace = true;
  private nextGap = 1;
  /** Input lines left to read as a TP tag, or as the text of a lone font macro / .SH. */
  private pending: 'tag' | 'sh' | 'ss' | null = null;
  private joinNext = false;
  private title: string[] = [];

  /** Output lines adjusted so far: groff spreads the spaces of alternate lines from alternate ends. */
  private static adjusted = 0;

  private readonly chars: Record<string, string>;

  /** `utf8`: draw as groff's utf8 device (a UTF-8 locale), else as its ASCII one. */
  constructor(private readonly ll: number, utf8 = false) {
    ManFormatter.adjusted = 0;
    this.chars = utf8 ? { ...CHARS, ...UTF8_CHARS } : CHARS;
    if (utf8) Object.assign(this.strings, UTF8_STRINGS);
  }

  render(src: string): string {
    const input = src.replace(/\r\n/g, '\n').split('\n');
    if (input[input.length - 1] === '') input.pop();
    let skipping: string | null = null;
    for (const raw of input) {
      if (skipping !== null) {
        if (raw.trimEnd() === skipping) skipping = null;
        continue;
      }
      if (raw.startsWith('.') || raw.startsWith("'")) {
        const body = raw.slice(1).trimStart();
        if (body.startsWith('\\"') || body === '') continue;
        const m = /^(\S+)\s*(.*)$/.exec(body)!;
        const name = m[1];
        if (name === 'de' || name === 'de1' || name === 'am' || name === 'ig') {
          skipping = name === 'ig' ? `.${macroArgs(m[2])[0] ?? '.'}` : '..';
          continue;
        }
        this.request(name, m[2]);
      } else this.text(raw);
    }
    this.flushLine(false);
    return this.page();
  }

  private page(): string {
    const [name = '', section = '', date = '', source = '', manual = DEFAULT_HEADS[section[0]] ?? ''] = this.title;
    const id = name || section ? `${name}(${section})` : '';
    const head = this.tl(id, manual, id);
    const foot = this.tl(source, date, id);
    // man squeezes runs of blank lines into one.
    const body = this.lines.filter((l, i) => l !== '' || (i > 0 && this.lines[i - 1] !== ''));
    while (body.length && body[body.length - 1] === '') body.pop();
    while (body.length && body[0] === '') body.shift();
    return [head, '', ...body, '', foot].join('\n') + '\n';
  }

  /** A three-part title line: left, centred, right. */
  private tl(left: string, center: string, right: string): string {
    const l = visible(left);
    const c = visible(center);
    const r = visible(right);
    const at = Math.max(l.length, Math.round((this.ll - c.length) / 2 + 0.01));
    const line = l + ' '.repeat(at - l.length) + c;
    return line + ' '.repeat(Math.max(0, this.ll - r.length - line.length)) + r;
  }

  private space(n = this.pd): void {
    this.flushLine(false);
    if (this.noSpace) return;
    for (let i = 0; i < n; i++) this.lines.push('');
  }

  private paragraph(): void {
    this.flushLine(false);
    this.base = this.rsStack.length ? this.base : 7;
    this.pi = 7;
    this.indent = this.base;
    this.first = null;
    this.space();
  }

  private request(name: string, rest: string): void {
    const args = macroArgs(rest);
    const text = (s: string) => this.text(s);
    switch (name) {
      case 'TH':
        this.title = args.map((a) => visible(this.esc(a).text));
        return;
      case 'ds':
        this.strings[args[0] ?? ''] = this.esc(rest.replace(/^\S+\s*"?/, '')).text;
        return;
      case 'SH':
      case 'SS':
        this.flushLine(false);
        this.rsStack.length = 0;
        this.base = 7;
        this.pi = 7;
        this.space();
        this.fill = true;
        if (args.length) this.heading(name, args.join(' '));
        else this.pending = name === 'SH' ? 'sh' : 'ss';
        return;
      case 'PP': case 'LP': case 'P':
        this.paragraph();
        return;
      case 'TP':
      case 'TQ':
        this.flushLine(false);
        if (name === 'TP') this.space();
        if (args[0]) this.pi = this.units(args[0]);
        this.indent = this.base + this.pi;
        this.pending = 'tag';
        return;
      case 'IP':
        this.flushLine(false);
        this.space();
        if (args[1]) this.pi = this.units(args[1]);
        this.indent = this.base + this.pi;
        if (args[0]) this.tag(this.esc(args[0]).text);
        return;
      case 'HP':
        this.paragraph();
        this.indent = this.base + this.pi;
        this.first = { indent: this.base, tag: '' };
        return;
      case 'RS':
        this.flushLine(false);
        this.rsStack.push(this.base);
        this.base += args[0] ? this.units(args[0]) : this.pi;
        this.pi = 7;
        this.indent = this.base;
        return;
      case 'RE':
        this.flushLine(false);
        this.base = this.rsStack.pop() ?? 7;
        this.pi = 7;
        this.indent = this.base;
        return;
      case 'PD':
        this.pd = args[0] ? Math.round(Number(args[0].replace(/[a-z]$/, '')) || 0) : 1;
        return;
      case 'br':
        this.flushLine(false);
        return;
      case 'sp':
        this.space(args[0] ? Math.max(0, Math.round(Number(args[0].replace(/v$/, '')) || 0)) : 1);
        return;
      case 'nf': case 'EX':
        this.flushLine(false);
        this.fill = false;
        return;
      case 'fi': case 'EE':
        this.flushLine(false);
        this.fill = true;
        return;
      case 'na':
        this.adjust = false;
        return;
      case 'ad':
        this.adjust = (args[0] ?? 'b') !== 'l';
        return;
      case 'in':
        this.flushLine(false);
        this.indent = this.base = this.relative(args[0], this.base, 7);
        return;
      case 'ti':
        this.flushLine(false);
        this.first = { indent: this.relative(args[0], this.indent, 0), tag: '' };
        return;
      case 'B': case 'I': case 'SM': case 'SB':
        if (args.length) text(args.join(' '));
        return;
      case 'BR': case 'BI': case 'IB': case 'IR': case 'RI': case 'RB':
        text(args.join(''));
        return;
      case 'OP':
        text(`[${args.join(' ')}]`);
        return;
      case 'UR': case 'MT':
        this.url = args[0] ?? '';
        return;
      case 'UE': case 'ME':
        text(`<${this.url}>${args.join('')}`);
        return;
      default:
        // Requests without an effect on plain text (ft, ne, hy, nh, so, ...).
        return;
    }
  }

  private url = '';
  private tagText = '';
  /** Strings (\*(xx): the man macros' and those defined with .ds. */
  private readonly strings: Record<string, string> = { ...STRINGS };

  private esc(s: string): { text: string; joined: boolean } {
    return escapes(s, this.strings, this.chars);
  }

  private units(v: string): number {
    const m = /^([-+]?[0-9.]+)([a-z]?)$/.exec(v);
    if (!m) return 7;
    const n = Number(m[1]);
    const per: Record<string, number> = { '': 1, n: 1, m: 1, i: 10, c: 3.937, p: 10 / 72, P: 10 / 6, u: 1 / 24, v: 1 };
    return Math.round(n * (per[m[2]] ?? 1));
  }

  /** `.in +N` / `-N` / `N`. */
  private relative(v: string | undefined, from: number, dflt: number): number {
    if (v === undefined) return dflt;
    if (v.startsWith('+')) return from + this.units(v.slice(1));
    if (v.startsWith('-')) return Math.max(0, from - this.units(v.slice(1)));
    return this.units(v);
  }

  /** A heading is filled text: the first line at column 0 (SH) or 3 (SS), any more at the body's indent. */
  private heading(kind: string, title: string): void {
    this.indent = this.base;
    this.first = { indent: kind === 'SH' ? 0 : 3, tag: '' };
    this.nextGap = 1;
    this.joinNext = false;
    this.text(title);
    this.flushLine(false);
    this.first = null;
    this.joinNext = false;
    this.noSpace = true;
  }

  /** A TP/IP tag: in the body's first line when it fits before the body indent, else filled on lines of its own. */
  private tag(t: string): void {
    if (width(t) < this.pi) {
      this.first = { indent: this.base, tag: visible(t).padEnd(this.pi) };
      return;
    }
    const body = this.indent;
    this.indent = this.base;
    this.joinNext = false;
    this.fillWords(t, 0);
    this.flushLine(false);
    this.indent = body;
  }

  private text(raw: string): void {
    const { text, joined } = this.esc(raw);
    if (this.pending === 'sh' || this.pending === 'ss') {
      const kind = this.pending === 'sh' ? 'SH' : 'SS';
      this.pending = null;
      this.heading(kind, raw);
      return;
    }
    if (this.pending === 'tag') {
      // A tag may go on over lines ended by \c.
      this.tagText += text;
      if (joined) return;
      this.pending = null;
      this.tag(this.tagText.trimEnd());
      this.tagText = '';
      return;
    }
    if (!this.fill) {
      this.flushLine(false);
      const f = this.takeFirst();
      this.emit(f ? f.indent : this.indent, f ? f.tag : '', visible(text).trimEnd());
      return;
    }
    if (text.trim() === '' && !joined) {
      this.space(1);
      return;
    }
    if (/^[ \t]/.test(text)) this.flushLine(false);
    this.fillWords(text, this.words.length === 0 ? 0 : this.joinNext ? 0 : this.nextGap);
    this.joinNext = joined;
    this.nextGap = SENTENCE_END.test(visible(text).trimEnd()) && !text.trimEnd().endsWith(MARK) ? 2 : 1;
  }

  /** Add the words of a line of text; `gap` is the space before the first. */
  private fillWords(text: string, gap: number): void {
    const parts = text.split(/( +)/);
    let glue = this.joinNext && this.words.length > 0;
    for (const p of parts) {
      if (p === '') continue;
      if (p.startsWith(' ')) {
        gap = p.length;
        glue = false;
        continue;
      }
      if (glue) {
        this.words[this.words.length - 1].text += p;
        glue = false;
      } else this.addWord(p, this.words.length === 0 ? 0 : gap);
      gap = 1;
    }
  }

  private takeFirst(): { indent: number; tag: string } | null {
    const f = this.first;
    this.first = null;
    return f;
  }

  /** The width available to words on the current line. */
  private room(): number {
    return this.ll - (this.first ? this.first.indent + this.first.tag.length : this.indent);
  }

  private addWord(text: string, gap: number): void {
    const used = this.words.reduce((n, w) => n + w.gap + width(w.text), 0);
    if (this.words.length > 0 && used + gap + width(text) > this.room()) {
      // A line may break after a hyphen inside the word: the longest piece that fits stays.
      const at = breakPoints(text).reverse().find((i) => used + gap + width(text.slice(0, i)) <= this.room());
      if (at !== undefined) {
        this.words.push({ text: text.slice(0, at), gap });
        this.flushLine(true);
        this.addWord(text.slice(at), 0);
        return;
      }
      this.flushLine(true);
    }
    this.words.push({ text, gap: this.words.length === 0 ? 0 : gap });
    // A word longer than the line goes out alone, as an (over)full line.
    if (this.words.length === 1 && width(text) > this.room()) this.flushLine(true);
  }

  /** Output the words gathered; `full` lines are justified (when adjusting). */
  private flushLine(full: boolean): void {
    if (this.words.length === 0) {
      if (this.first?.tag.trim()) this.emit(this.first.indent, this.takeFirst()!.tag, '');
      return;
    }
    const room = this.room();
    const gaps = this.words.slice(1).map((w) => w.gap);
    if (full && this.adjust) {
      const natural = this.words.reduce((n, w) => n + w.gap + width(w.text), 0);
      let extra = room - natural;
      ManFormatter.adjusted++;
      // Odd lines give the extra spaces to the leftmost gaps, even lines to the rightmost.
      const order = gaps.map((_, i) => i);
      if (ManFormatter.adjusted % 2 === 1) order.reverse();
      let left = order.length;
      for (const i of order) {
        const add = left > 0 ? Math.floor(extra / left) : 0;
        gaps[i] += add;
        extra -= add;
        left--;
      }
    }
    let line = this.words[0].text;
    this.words.slice(1).forEach((w, i) => (line += ' '.repeat(gaps[i]) + w.text));
    const f = this.takeFirst();
    this.emit(f ? f.indent : this.indent, f ? f.tag : '', line);
    this.words = [];
  }

  /** An output line: indent, a tag, text. */
  private emit(indent: number, tag: string, text: string): void {
    this.lines.push((' '.repeat(indent) + visible(tag) + visible(text)).trimEnd());
    this.noSpace = false;
  }
}

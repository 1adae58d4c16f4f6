// The sed script parser: the -e/-f pieces joined by newlines become one flat
// command list, with `{`/`}` and branches resolved to indexes. Errors carry
// GNU's wording and location ("-e expression #1, char 3: ...").

import { seqLen } from '../../../userland/lib/utf8.js';
import { compileRx, parseReplacement, RegexError, type Part, type Rx } from './text.js';

export type Addr =
  | { t: 'line'; n: number }
  | { t: 'last' }
  | { t: 're'; re: Rx | null }
  | { t: 'step'; first: number; step: number }
  | { t: 'zero' }
  | { t: 'plus'; n: number }
  | { t: 'mult'; n: number };

export interface Command {
  name: string;
  a1?: Addr;
  a2?: Addr;
  neg: boolean;
  /** Range state: active, and (for numeric ends) the last line of the range. */
  active: boolean;
  endLine: number;
  text: string;
  label: string;
  /** `{`: index of its `}`; b/t/T: target index. */
  jump: number;
  num: number;
  file: string;
  re: Rx | null;
  parts: Part[];
  global: boolean;
  nth: number;
  print: number;
  map: Map<string, string> | null;
  /** `y` maps characters (UTF-8), not bytes. */
  mapChars: boolean;
}

/** A piece of the script and how errors in it are located. */
export interface Chunk {
  text: string;
  /** `-e expression #N` or `file F` (lines counted then). */
  kind: 'e' | 'f';
  name: string;
}

export class ScriptError extends Error {
  constructor(
    msg: string,
    /** GNU exits 4 for some (a missing label is found only after parsing). */
    readonly status = 1,
  ) {
    super(msg);
  }
}

export interface Program {
  cmds: Command[];
  /** The script began with `#n` and a newline: as if -n. */
  quiet: boolean;
  /** w files named by the script, opened (truncated) before any input is read. */
  wfiles: Set<string>;
}

const blank = (c: string) => c === ' ' || c === '\t';

export class Parser {
  private s = '';
  private i = 0;
  /** [start, end) offsets of the chunks in `s`. */
  private bounds: [number, number, Chunk][] = [];
  private cmds: Command[] = [];
  private blocks: number[] = [];
  private wfiles = new Set<string>();

  constructor(
    chunks: Chunk[],
    private readonly ere: boolean,
    /** A UTF-8 locale: regexes match characters, `y` maps characters. */
    private readonly utf8: boolean,
  ) {
    for (const c of chunks) {
      this.bounds.push([this.s.length, this.s.length + c.text.length, c]);
      this.s += `${c.text}\n`;
    }
    if (this.s.endsWith('\n')) this.s = this.s.slice(0, -1);
  }

  private fail(msg: string, at = this.i): never {
    // GNU counts the characters read so far in the current expression.
    let b = this.bounds[0];
    for (const x of this.bounds) if (at > x[0] || (at === x[0] && x === this.bounds[0])) b = x;
    const [start, , chunk] = b;
    if (chunk.kind === 'e') throw new ScriptError(`-e expression #${chunk.name}, char ${Math.max(0, at - start)}: ${msg}`);
    const line = this.s.slice(start, Math.max(start, at - 1)).split('\n').length;
    throw new ScriptError(`file ${chunk.name} line ${line}: ${msg}`);
  }

  private peek(): string {
    return this.s[this.i] ?? '';
  }

  private next(): string {
    return this.i < this.s.length ? this.s[this.i++] : '';
  }

  private skipBlank(): void {
    while (blank(this.peek())) this.i++;
  }

  parse(): Program {
    const quiet = /^#n(\n|$)/.test(this.s) && (this.bounds[0]?.[2].text.startsWith('#n') ?? false);
    for (;;) {
      while (blank(this.peek()) || this.peek() === '\n' || this.peek() === ';') this.i++;
      if (this.i >= this.s.length) break;
      if (this.peek() === '#') {
        while (this.i < this.s.length && this.peek() !== '\n') this.i++;
        continue;
      }
      this.command();
    }
    if (this.blocks.length) this.fail("unmatched `{'", 0);
    this.resolve();
    return { cmds: this.cmds, quiet, wfiles: this.wfiles };
  }

  private resolve(): void {
    const labels = new Map<string, number>();
    this.cmds.forEach((c, k) => {
      if (c.name === ':') {
        if (labels.has(c.label)) throw new ScriptError(`-e expression #1, char 0: duplicate label \`${c.label}'`);
        labels.set(c.label, k);
      }
    });
    for (const c of this.cmds) {
      if (!'btT'.includes(c.name)) continue;
      if (c.label === '') c.jump = this.cmds.length;
      else if (labels.has(c.label)) c.jump = labels.get(c.label)!;
      else throw new ScriptError(`can't find label for jump to \`${c.label}'`, 4);
    }
  }

  private newCmd(): Command {
    return {
      name: '', neg: false, active: false, endLine: 0, text: '', label: '', jump: 0, num: -1,
      file: '', re: null, parts: [], global: false, nth: 1, print: 0, map: null, mapChars: false,
    };
  }

  private number(): number {
    let n = '';
    while (/[0-9]/.test(this.peek())) n += this.next();
    return Number(n);
  }

  /** Read up to an unescaped `delim`; `\delim` becomes delim, other escapes stay. */
  private delimited(delim: string, what: string): string {
    let out = '';
    for (;;) {
      const c = this.next();
      if (c === '') this.fail(what);
      if (c === delim) return out;
      if (c === '\n' && what.startsWith('unterminated address')) this.fail(what);
      if (c === '[') {
        out += this.bracket(what);
        continue;
      }
      if (c === '\\') {
        const d = this.next();
        if (d === '') this.fail(what);
        if (d === delim) out += delim === '&' ? '\\&' : delim;
        else if (d === '\n') out += '\\n';
        else out += `\\${d}`;
        continue;
      }
      out += c;
    }
  }

  /** A bracket expression, copied whole: the delimiter is not special inside (GNU). */
  private bracket(what: string): string {
    let out = '[';
    if (this.peek() === '^') out += this.next();
    if (this.peek() === ']') out += this.next();
    for (;;) {
      const c = this.next();
      if (c === '') this.fail(what);
      out += c;
      if (c === ']') return out;
      if (c === '[' && ':.='.includes(this.peek()) && this.peek() !== '') {
        const kind = this.next();
        out += kind;
        const end = this.s.indexOf(`${kind}]`, this.i);
        if (end < 0) continue;
        out += this.s.slice(this.i, end + 2);
        this.i = end + 2;
      }
    }
  }

  private regexFlags(raw: string, icase: boolean, multi: boolean): Rx | null {
    if (raw === '') return null;
    try {
      return compileRx(raw, this.ere, icase, multi, this.utf8);
    } catch (e) {
      if (e instanceof RegexError) this.fail(e.message);
      throw e;
    }
  }

  private address(): Addr | null {
    const c = this.peek();
    if (/[0-9]/.test(c)) {
      const n = this.number();
      if (this.peek() === '~') {
        this.i++;
        return { t: 'step', first: n, step: this.number() };
      }
      return n === 0 ? { t: 'zero' } : { t: 'line', n };
    }
    if (c === '$') {
      this.i++;
      return { t: 'last' };
    }
    if (c === '/' || c === '\\') {
      this.i++;
      let delim = '/';
      if (c === '\\') delim = this.next();
      const raw = this.delimited(delim, 'unterminated address regex');
      let icase = false;
      let multi = false;
      for (;;) {
        if (this.peek() === 'I') icase = true;
        else if (this.peek() === 'M') multi = true;
        else break;
        this.i++;
      }
      return { t: 're', re: this.regexFlags(raw, icase, multi) };
    }
    return null;
  }

  private command(): void {
    const cmd = this.newCmd();
    const a1 = this.address();
    if (a1) {
      cmd.a1 = a1;
      this.skipBlank();
      if (this.peek() === ',') {
        this.i++;
        this.skipBlank();
        const c = this.peek();
        let a2: Addr | null;
        if (c === '+' || c === '~') {
          this.i++;
          if (!/[0-9]/.test(this.peek())) this.fail("expected newer version of sed");
          a2 = { t: c === '+' ? 'plus' : 'mult', n: this.number() };
        } else a2 = this.address();
        if (!a2) this.fail("unexpected `,'", this.i + (this.i < this.s.length ? 1 : 0));
        if (a2.t === 'zero' || a2.t === 'step') {
          if (a2.t === 'zero') this.fail('invalid usage of line address 0');
          a2 = { t: 'line', n: a2.first };
        }
        cmd.a2 = a2;
      }
    }
    this.skipBlank();
    while (this.peek() === '!') {
      if (cmd.neg) this.fail("multiple `!'s", this.i + 1);
      cmd.neg = true;
      this.i++;
      this.skipBlank();
    }
    const name = this.next();
    cmd.name = name;
    if (name === '') this.fail('missing command');
    if (cmd.a1?.t === 'zero' && cmd.a2?.t !== 're') this.fail('invalid usage of line address 0');
    const noAddr = (what: string) => {
      if (cmd.a1) this.fail(`${what} doesn't want any addresses`);
    };
    switch (name) {
      case '{':
        this.blocks.push(this.cmds.length);
        this.cmds.push(cmd);
        return;
      case '}': {
        if (!this.blocks.length) this.fail("unexpected `}'");
        if (cmd.a1) this.fail("} doesn't want any addresses");
        this.cmds[this.blocks.pop()!].jump = this.cmds.length;
        this.cmds.push(cmd);
        this.end();
        return;
      }
      case ':': {
        noAddr(':');
        this.skipBlank();
        const label = this.label();
        if (label === '') this.fail('":" lacks a label');
        cmd.label = label;
        break;
      }
      case 'b':
      case 't':
      case 'T':
        this.skipBlank();
        cmd.label = this.label();
        break;
      case 'a':
      case 'i':
      case 'c':
        cmd.text = this.text();
        break;
      case 'r':
      case 'R':
      case 'w':
      case 'W':
        cmd.file = this.filename();
        if (name === 'w' || name === 'W') this.wfiles.add(cmd.file);
        break;
      case 'q':
      case 'Q':
      case 'l':
      case 'L':
        if (name === 'q' || name === 'Q') {
          if (cmd.a2) this.fail(`command only uses one address`);
        }
        this.skipBlank();
        if (/[0-9]/.test(this.peek())) cmd.num = this.number();
        this.end();
        break;
      case '=':
      case 'd':
      case 'D':
      case 'g':
      case 'G':
      case 'h':
      case 'H':
      case 'n':
      case 'N':
      case 'p':
      case 'P':
      case 'x':
      case 'z':
      case 'F':
        this.end();
        break;
      case 's':
        this.subst(cmd);
        break;
      case 'y':
        this.translit(cmd);
        break;
      default:
        this.fail(`unknown command: \`${name}'`);
    }
    this.cmds.push(cmd);
  }

  /** After a command: only blanks, then `;`, newline, `}`, `#` or the end. */
  private end(): void {
    this.skipBlank();
    const c = this.peek();
    if (c === '' || c === '}' || c === '#') return;
    if (c === ';' || c === '\n') {
      this.i++;
      return;
    }
    this.fail('extra characters after command', this.i + 1);
  }

  private label(): string {
    let l = '';
    while (this.i < this.s.length && !'\n;'.includes(this.peek())) l += this.next();
    return l.replace(/[ \t]+$/, '');
  }

  private filename(): string {
    this.skipBlank();
    let f = '';
    while (this.i < this.s.length && this.peek() !== '\n') f += this.next();
    if (f === '') this.fail('missing filename in r/R/w/W commands');
    return f;
  }

  /** a/i/c text: GNU one-liner (`a text`) or the classic `a\` newline form. */
  private text(): string {
    this.skipBlank();
    if (this.i >= this.s.length) this.fail("expected \\ after `a', `c' or `i'");
    if (this.peek() === '\\') {
      // `a\` newline text (classic) or `a\text` (GNU keeps the blanks then)
      this.i++;
      if (this.peek() === '\n') this.i++;
    }
    let out = '';
    while (this.i < this.s.length) {
      const c = this.next();
      if (c === '\n') break;
      if (c === '\\') {
        const d = this.next();
        out += d;
        continue;
      }
      out += c;
    }
    return `${out}\n`;
  }

  private subst(cmd: Command): void {
    const delim = this.next();
    if (delim === '' || delim === '\n' || delim === '\\') this.fail("unterminated `s' command");
    const raw = this.delimited(delim, "unterminated `s' command");
    const repl = this.replacement(delim);
    let icase = false;
    let multi = false;
    let nth = false;
    for (;;) {
      const c = this.peek();
      if (c === 'g') {
        if (cmd.global) this.fail("multiple `g' options to `s' command", this.i + 1);
        cmd.global = true;
      } else if (c === 'p') {
        if (cmd.print) this.fail("multiple `p' options to `s' command", this.i + 1);
        cmd.print = 1;
      } else if (c === 'i' || c === 'I') icase = true;
      else if (c === 'm' || c === 'M') multi = true;
      else if (c === 'e') cmd.num = 1;
      else if (/[0-9]/.test(c)) {
        if (nth) this.fail("multiple number options to `s' command", this.i + 1);
        const n = this.number();
        if (n === 0) this.fail("number option to `s' command may not be zero");
        cmd.nth = n;
        nth = true;
        continue;
      } else if (c === 'w') {
        this.i++;
        cmd.file = this.filename();
        this.wfiles.add(cmd.file);
        break;
      } else {
        if (c === '' || c === '\n' || c === ';' || c === '}' || c === '#' || blank(c)) {
          this.end();
          break;
        }
        this.fail("unknown option to `s'", this.i + 1);
      }
      this.i++;
    }
    cmd.re = this.regexFlags(raw, icase, multi);
    const { parts, maxRef } = parseReplacement(repl);
    if (cmd.re && maxRef > cmd.re.groups) this.fail(`invalid reference \\${maxRef} on \`s' command's RHS`);
    cmd.parts = parts;
  }

  /** The replacement keeps its escapes (for parseReplacement); `\delim` is the delimiter itself. */
  private replacement(delim: string): string {
    let out = '';
    for (;;) {
      const c = this.next();
      if (c === '') this.fail("unterminated `s' command");
      if (c === delim) return out;
      if (c === '\\') {
        const d = this.next();
        if (d === '') this.fail("unterminated `s' command");
        out += d === delim && d !== '&' && !/[0-9n]/.test(d) ? d : `\\${d}`;
        continue;
      }
      out += c;
    }
  }

  private translit(cmd: Command): void {
    const delim = this.next();
    if (delim === '' || delim === '\n' || delim === '\\') this.fail("unterminated `y' command");
    const side = (): string[] => {
      const chars: string[] = [];
      for (;;) {
        const c = this.next();
        if (c === '') this.fail("unterminated `y' command");
        if (c === delim) return chars;
        if (c === '\\') {
          const d = this.next();
          if (d === delim) chars.push(d);
          else if (d === '\\') chars.push('\\');
          else if (d === 'n') chars.push('\n');
          else if (d === 't') chars.push('\t');
          else if (d === 'r') chars.push('\r');
          else if (d === '\n') chars.push('\n');
          else this.fail("unknown option to `s'");
          continue;
        }
        // A character is its whole UTF-8 sequence.
        const n = this.utf8 ? seqLen(this.s, this.i - 1) : 1;
        chars.push(n > 1 ? c + this.s.slice(this.i, (this.i += n - 1)) : c);
      }
    };
    const from = side();
    const to = side();
    if (from.length !== to.length) this.fail("strings for `y' command are different lengths");
    cmd.map = new Map(from.map((c, k) => [c, to[k]]));
    cmd.mapChars = this.utf8;
    this.end();
  }
}

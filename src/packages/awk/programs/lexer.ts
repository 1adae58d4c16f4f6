// awk's tokens. Newlines are tokens (they end statements); `/` is handed to
// the parser as division and re-read as a regex when a primary is expected,
// since only the grammar knows which one it is.

export type Tok =
  | 'num' | 'str' | 'ere' | 'name' | 'funcname' | 'builtin' | 'nl' | 'eof'
  | 'kw' | 'op';

export interface Token {
  t: Tok;
  /** Operator/keyword text, name, string value (escapes done), regex source. */
  v: string;
  n: number;
  pos: number;
  line: number;
}

export class AwkSyntaxError extends Error {
  constructor(
    msg: string,
    readonly line: number,
    readonly pos: number,
    /**
     * How gawk reports it: a syntax error with a caret (exit 1), `error:` without
     * one (exit 1), or `fatal:` (exit 2, e.g. an undefined function).
     */
    readonly kind: 'syntax' | 'error' | 'fatal' = 'syntax',
  ) {
    super(msg);
  }
}

const KEYWORDS = new Set([
  'BEGIN', 'END', 'function', 'func', 'if', 'else', 'while', 'for', 'do', 'break', 'continue', 'next', 'nextfile',
  'exit', 'return', 'delete', 'in', 'getline', 'print', 'printf',
]);

/** gawk's own keywords: plain names under --traditional and --posix. */
const GAWK_KEYWORDS = new Set(['BEGINFILE', 'ENDFILE', 'switch', 'case', 'default']);

const POSIX_BUILTINS = [
  'length', 'split', 'sub', 'gsub', 'match', 'substr', 'sprintf', 'index', 'tolower', 'toupper', 'int', 'sqrt', 'exp',
  'log', 'sin', 'cos', 'atan2', 'rand', 'srand', 'system', 'close', 'fflush',
];

/** gawk's built-in functions (user-definable names under --traditional and --posix). */
const GAWK_BUILTINS = [
  'gensub', 'systime', 'strftime', 'mktime', 'asort', 'asorti', 'patsplit', 'and', 'or', 'xor', 'lshift', 'rshift',
  'compl', 'strtonum', 'isarray', 'typeof',
];

export const BUILTINS = new Set([...POSIX_BUILTINS, ...GAWK_BUILTINS]);
const POSIX_BUILTIN_SET = new Set(POSIX_BUILTINS);

// Longest first so `**=` wins over `**` over `*`.
const OPS = [
  '**=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '%=', '^=', '==', '<=', '>=', '!=', '!~', '>>', '**',
  '{', '}', '(', ')', '[', ']', ';', ',', '+', '-', '*', '/', '%', '^', '!', '>', '<', '|', '?', ':', '~', '$', '=',
  '@',
];

const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', '/': '/', a: '\x07', b: '\b', f: '\f', v: '\v' };

export class Lexer {
  pos = 0;
  line = 1;

  constructor(
    readonly src: string,
    /** gawk's extensions (keywords, functions, `**`); off under --traditional/--posix. */
    readonly gawk = true,
  ) {}

  next(): Token {
    const s = this.src;
    for (;;) {
      const c = s[this.pos];
      if (c === ' ' || c === '\t' || c === '\r') this.pos++;
      else if (c === '\\' && s[this.pos + 1] === '\n') {
        this.pos += 2;
        this.line++;
      } else if (c === '\\' && s[this.pos + 1] === '\r' && s[this.pos + 2] === '\n') {
        this.pos += 3;
        this.line++;
      } else if (c === '#') {
        while (this.pos < s.length && s[this.pos] !== '\n') this.pos++;
      } else break;
    }
    const start = this.pos;
    const tok = (t: Tok, v: string, n = 0): Token => ({ t, v, n, pos: start, line: this.line });
    if (this.pos >= s.length) return tok('eof', '');
    const c = s[this.pos];
    if (c === '\n') {
      this.pos++;
      const t = tok('nl', '\n');
      this.line++;
      return t;
    }
    if (/[0-9.]/.test(c) && /^(?:\d|\.\d)/.test(s.slice(this.pos, this.pos + 2))) {
      const m = /^(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/.exec(s.slice(this.pos))!;
      this.pos += m[0].length;
      return tok('num', m[0], Number(m[0]));
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(this.pos))!;
      this.pos += m[0].length;
      const w = m[0];
      if (KEYWORDS.has(w) || (this.gawk && GAWK_KEYWORDS.has(w))) return tok('kw', w === 'func' ? 'function' : w);
      if (this.gawk ? BUILTINS.has(w) : POSIX_BUILTIN_SET.has(w)) return tok('builtin', w);
      return tok(s[this.pos] === '(' ? 'funcname' : 'name', w);
    }
    if (c === '"') return tok('str', this.readString());
    for (const op of OPS) {
      if (s.startsWith(op, this.pos)) {
        this.pos += op.length;
        // `**` is gawk's spelling of `^`.
        return tok('op', op === '**' ? '^' : op === '**=' ? '^=' : op);
      }
    }
    throw new AwkSyntaxError(`invalid char '${c}' in expression`, this.line, start);
  }

  private readString(): string {
    const s = this.src;
    let out = '';
    this.pos++;
    for (;;) {
      if (this.pos >= s.length || s[this.pos] === '\n') throw new AwkSyntaxError('unterminated string', this.line, this.pos);
      const c = s[this.pos++];
      if (c === '"') return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const d = s[this.pos++];
      if (d === '\n') {
        this.line++;
        continue;
      }
      if (d in ESC) out += ESC[d];
      else if (/[0-7]/.test(d)) {
        let oct = d;
        while (oct.length < 3 && /[0-7]/.test(s[this.pos])) oct += s[this.pos++];
        out += String.fromCharCode(parseInt(oct, 8) & 0xff);
      } else if (d === 'x' && /[0-9a-fA-F]/.test(s[this.pos])) {
        let hex = '';
        while (hex.length < 2 && /[0-9a-fA-F]/.test(s[this.pos])) hex += s[this.pos++];
        out += String.fromCharCode(parseInt(hex, 16));
      } else out += `\\${d}`; // gawk warns and keeps both characters
    }
  }

  /** Re-read from a `/` at `start` as a regex literal; returns its source (escapes kept for the regex compiler). */
  readRegex(start: number): Token {
    const s = this.src;
    this.pos = start + 1;
    let out = '';
    let inBracket = false;
    for (;;) {
      if (this.pos >= s.length || s[this.pos] === '\n') throw new AwkSyntaxError('unterminated regexp', this.line, start);
      const c = s[this.pos++];
      if (c === '\\') {
        const d = s[this.pos++];
        if (d === '/') out += '/';
        else if (d === '\n') this.line++;
        else out += `\\${d}`;
        continue;
      }
      if (inBracket) {
        if (c === ']' && !/\[\^?$/.test(out.slice(out.lastIndexOf('[')))) inBracket = false;
        out += c;
        continue;
      }
      if (c === '[') {
        inBracket = true;
        out += c;
        if (s[this.pos] === '^') out += s[this.pos++];
        if (s[this.pos] === ']') out += s[this.pos++];
        continue;
      }
      if (c === '/') break;
      out += c;
    }
    return { t: 'ere', v: out, n: 0, pos: start, line: this.line };
  }
}

/** String-literal escapes applied to a plain string (command-line assignments). */
export function unescape(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const d = s[++i];
    if (d in ESC) out += ESC[d];
    else if (/[0-7]/.test(d)) {
      let oct = d;
      while (oct.length < 3 && /[0-7]/.test(s[i + 1] ?? '')) oct += s[++i];
      out += String.fromCharCode(parseInt(oct, 8) & 0xff);
    } else if (d === 'x' && /[0-9a-fA-F]/.test(s[i + 1] ?? '')) {
      let hex = '';
      while (hex.length < 2 && /[0-9a-fA-F]/.test(s[i + 1] ?? '')) hex += s[++i];
      out += String.fromCharCode(parseInt(hex, 16));
    } else out += `\\${d}`;
  }
  return out;
}

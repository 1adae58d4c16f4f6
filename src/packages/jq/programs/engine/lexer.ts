// The jq lexer: tokens named as jq's bison grammar names them (so syntax
// errors read like jq's), strings split into text and `\(...)` interpolation
// tokens, brackets tracked so an unbalanced closer is INVALID_CHARACTER.

export type TokKind =
  | 'IDENT'
  | 'FIELD'
  | 'VAR'
  | 'LITERAL'
  | 'FORMAT'
  | 'KEYWORD'
  | 'OP'
  | 'QQSTRING_START'
  | 'QQSTRING_TEXT'
  | 'QQSTRING_INTERP_START'
  | 'QQSTRING_INTERP_END'
  | 'QQSTRING_END'
  | 'INVALID_CHARACTER'
  | 'EOF';

export interface Token {
  kind: TokKind;
  /** Identifier, field or variable name, operator text, keyword, format name, or string text. */
  text: string;
  /** Offset of the token in the program. */
  pos: number;
  /** Where jq's lexer saw the token's last part begin (`$x`: the x). */
  tail?: number;
}

export class CompileError {
  constructor(
    readonly msg: string,
    /** Program offset the error points at (-1: unknown). */
    readonly pos: number,
  ) {}
  /** Errors reported after this one (jq's parser recovers and goes on). */
  readonly more: CompileError[] = [];
}

export const KEYWORDS = new Set([
  'def', 'as', 'if', 'then', 'elif', 'else', 'end', 'reduce', 'foreach', 'try', 'catch',
  'label', 'break', 'import', 'include', 'module', 'and', 'or', '__loc__',
]);

// Longest first: the lexer takes the first operator that matches.
const OPS = ['?//=', '?//', '|=', '+=', '-=', '*=', '/=', '%=', '//=', '==', '!=', '<=', '>=', '//', '..',
  '|', ',', '+', '-', '*', '/', '%', '=', '<', '>', '.', '?', '(', ')', '[', ']', '{', '}', ':', ';', '$'];

const identStart = (c: string): boolean => /[A-Za-z_]/.test(c);
const identChar = (c: string): boolean => /[A-Za-z_0-9]/.test(c);

/** Tokenise a whole program. Lexical errors (bad escapes) become CompileErrors. */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  // Open brackets; 'I' marks an interpolation `\(` whose `)` resumes the string.
  const nest: string[] = [];
  let i = 0;
  const n = src.length;

  /** Lex string text from after `start` (its opening quote, or the `)` ending an interpolation). */
  const string = (start: number, resume = false): void => {
    if (!resume) out.push({ kind: 'QQSTRING_START', text: '"', pos: start });
    let j = start + 1;
    let text = '';
    let textPos = j;
    const flush = () => {
      if (text !== '') out.push({ kind: 'QQSTRING_TEXT', text, pos: textPos });
      text = '';
    };
    for (;;) {
      if (j >= n) {
        flush();
        i = n;
        return;
      }
      const c = src[j];
      if (c === '"') {
        flush();
        out.push({ kind: 'QQSTRING_END', text: '"', pos: j });
        i = j + 1;
        return;
      }
      if (c === '\\') {
        const e = src[j + 1];
        if (e === '(') {
          flush();
          out.push({ kind: 'QQSTRING_INTERP_START', text: '\\(', pos: j });
          nest.push('I');
          i = j + 2;
          return;
        }
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && e in simple) {
          text += simple[e];
          j += 2;
          continue;
        }
        if (e === 'u') {
          const h = src.slice(j + 2, j + 6);
          if (/^[0-9a-fA-F]{4}$/.test(h)) {
            let cp = parseInt(h, 16);
            j += 6;
            if (cp >= 0xd800 && cp <= 0xdbff) {
              const m = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(src.slice(j, j + 6));
              if (m) {
                text += String.fromCharCode(cp, parseInt(m[1], 16));
                j += 6;
                continue;
              }
              cp = 0xfffd;
            } else if (cp >= 0xdc00 && cp <= 0xdfff) cp = 0xfffd;
            text += String.fromCharCode(cp);
            continue;
          }
        }
        const end = src.indexOf('"', j + 2);
        const lit = src.slice(start, end < 0 ? n : end + 1);
        throw new CompileError(`Invalid escape at line 1, column ${lit.length} (while parsing '${lit}')`, start + 1);
      }
      if (text === '') textPos = j;
      text += c;
      j++;
    }
  };

  while (i < n) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '"') {
      string(i);
      continue;
    }
    const start = i;
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?/.exec(src.slice(i))!;
      out.push({ kind: 'LITERAL', text: m[0], pos: start });
      i += m[0].length;
      continue;
    }
    if (c === '.' && identStart(src[i + 1] ?? '')) {
      let j = i + 2;
      while (j < n && identChar(src[j])) j++;
      out.push({ kind: 'FIELD', text: src.slice(i + 1, j), pos: start });
      i = j;
      continue;
    }
    if (c === '@' && /[A-Za-z0-9_]/.test(src[i + 1] ?? '')) {
      let j = i + 1;
      while (j < n && identChar(src[j])) j++;
      out.push({ kind: 'FORMAT', text: src.slice(i + 1, j), pos: start });
      i = j;
      continue;
    }
    if (identStart(c)) {
      let j = i;
      for (;;) {
        while (j < n && identChar(src[j])) j++;
        if (src[j] === ':' && src[j + 1] === ':' && identStart(src[j + 2] ?? '')) j += 2;
        else break;
      }
      const word = src.slice(i, j);
      const prev = out[out.length - 1];
      const afterDollar = prev && prev.kind === 'OP' && prev.text === '$';
      if (afterDollar) {
        out.pop();
        out.push({ kind: 'VAR', text: word, pos: prev.pos, tail: start });
      } else out.push({ kind: KEYWORDS.has(word) ? 'KEYWORD' : 'IDENT', text: word, pos: start });
      i = j;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) {
      out.push({ kind: 'INVALID_CHARACTER', text: c, pos: start });
      i++;
      continue;
    }
    if (op === '(' || op === '[' || op === '{') nest.push(op);
    if (op === ')' || op === ']' || op === '}') {
      const want = op === ')' ? '(' : op === ']' ? '[' : '{';
      const top = nest[nest.length - 1];
      if (op === ')' && top === 'I') {
        nest.pop();
        out.push({ kind: 'QQSTRING_INTERP_END', text: ')', pos: start });
        string(i, true);
        continue;
      }
      if (top !== want) {
        out.push({ kind: 'INVALID_CHARACTER', text: op, pos: start });
        i++;
        continue;
      }
      nest.pop();
    }
    out.push({ kind: 'OP', text: op, pos: start });
    i += op.length;
  }
  out.push({ kind: 'EOF', text: '', pos: n });
  return out;
}

/** A token as bison names it in "unexpected ..." messages (jq 1.7 wording for the end). */
export function tokenName(t: Token): string {
  switch (t.kind) {
    case 'EOF':
      return 'end of file';
    case 'OP':
      return t.text.length === 1 ? `'${t.text}'` : t.text;
    case 'KEYWORD':
      return t.text;
    case 'VAR':
      return 'BINDING';
    default:
      return t.kind;
  }
}

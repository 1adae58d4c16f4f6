// The `${x@op}` transformations and the `${x^p}` family of case changes.
import { assocEntries } from '../assoc-order.js';
import type { Var } from '../variable.js';
import { decodeAnsi } from '../syntax/ansi.js';
import type { ExpandContext } from './context.js';
import { matchPattern } from './pattern.js';
import type { Pattern } from './pattern.js';

const isControl = (c: string): boolean => c < ' ' || c === '\x7f';
const ANSI_ESC: Record<string, string> = {
  '\x07': '\\a', '\b': '\\b', '\x1b': '\\E', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v',
  '\\': '\\\\', "'": "\\'",
};

/** `${x@Q}`: reusable single-quoted text, or `$'...'` for control characters (as bash prints them). */
export function shellQuote(s: string): string {
  if ([...s].some(isControl)) {
    const esc = (c: string): string =>
      ANSI_ESC[c] ?? (isControl(c) ? '\\' + c.charCodeAt(0).toString(8).padStart(3, '0') : c);
    return "$'" + [...s].map(esc).join('') + "'";
  }
  return "'" + s.replace(/'/g, "'\\''") + "'";
}

/** Double-quoted as `declare -p` prints array elements. */
export const declQuote = (s: string): string => '"' + s.replace(/[\\"$`]/g, '\\$&') + '"';

/** `${x@a}`: attribute letters in bash's order. */
export function attrFlags(v: Var | undefined): string {
  if (!v) return '';
  let f = '';
  if (v.indexed) f += 'a';
  if (v.assoc) f += 'A';
  if (v.integer) f += 'i';
  if (v.lower) f += 'l';
  if (v.readonly) f += 'r';
  if (v.upper) f += 'u';
  if (v.exported) f += 'x';
  return f;
}

/** `${x@A}`: an assignment (or declare) statement recreating the variable. */
export function assignStatement(name: string, v: Var | undefined, value: string | undefined, whole: boolean): string {
  const flags = attrFlags(v);
  if (whole && v && (v.indexed || v.assoc)) {
    const entries = v.indexed
      ? [...v.indexed.entries()].sort((a, b) => a[0] - b[0]).map(([k, x]) => `[${k}]=${declQuote(x)}`)
      : assocEntries(v.assoc!).map(([k, x]) => `[${k}]=${declQuote(x)} `);
    return `declare -${flags} ${name}=(${entries.join(v.indexed ? ' ' : '')})`;
  }
  const assign = `${name}=${shellQuote(value ?? '')}`;
  return flags === '' ? assign : `declare -${flags} ${assign}`;
}

/** `${a[@]@K}`: key/value pairs, values double-quoted (associative pairs each end in a space, as in bash). */
export function keyValues(v: Var | undefined, fallback: string[]): string {
  if (v?.assoc) return assocEntries(v.assoc).map(([k, x]) => `${k} ${declQuote(x)} `).join('');
  if (v?.indexed) return [...v.indexed.entries()].sort((a, b) => a[0] - b[0]).map(([k, x]) => `${k} ${declQuote(x)}`).join(' ');
  return fallback.map(shellQuote).join(' ');
}

/** `${x@P}`: the common prompt escapes (no command substitution in the result). */
export function promptDecode(s: string, ctx: ExpandContext): string {
  const get = (n: string): string => ctx.special(n) ?? ctx.vars.get(n) ?? '';
  return s.replace(/\\(.)/gs, (all, c: string) => {
    switch (c) {
      case 'u': return get('USER');
      case 'h': return get('HOSTNAME').split('.')[0];
      case 'H': return get('HOSTNAME');
      case 'w': {
        const pwd = get('PWD') || ctx.cwd();
        const home = get('HOME');
        return home !== '' && (pwd === home || pwd.startsWith(home + '/')) ? '~' + pwd.slice(home.length) : pwd;
      }
      case 'W': {
        const pwd = get('PWD') || ctx.cwd();
        return pwd === '/' ? '/' : pwd.slice(pwd.lastIndexOf('/') + 1);
      }
      case 's': return 'agentos-shell';
      case '$': return get('EUID') === '0' ? '#' : '$';
      case 'n': return '\n';
      case 'r': return '\r';
      case 'a': return '\x07';
      case 'e': return '\x1b';
      case '\\': return '\\';
      case '[': case ']': return '';
      default: return all;
    }
  });
}

/** `${x@E}` */
export const expandEscapes = (s: string): string => decodeAnsi(s);

/** `${x^p}` `${x^^p}` `${x,p}` `${x,,p}`: change the case of the characters the pattern matches (all by default). */
export function changeCase(s: string, op: '^' | '^^' | ',' | ',,' | '~' | '~~', pat: Pattern | null, extglob: boolean): string {
  const upper = op[0] === '^';
  // `~`: toggle each letter's case.
  const conv = (c: string) => (op[0] === '~' ? (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) : upper ? c.toUpperCase() : c.toLowerCase());
  const all = op.length === 2;
  const chars = [...s];
  for (let k = 0; k < chars.length; k++) {
    if (k > 0 && !all) break;
    const c = chars[k];
    if (pat === null || matchPattern(pat, c, { extglob, nocase: false })) chars[k] = conv(c);
  }
  return chars.join('');
}

/** `${x@U}` `${x@u}` `${x@L}` */
export function caseTransform(s: string, op: 'U' | 'u' | 'L'): string {
  if (op === 'U') return s.toUpperCase();
  if (op === 'L') return s.toLowerCase();
  const first = s.codePointAt(0);
  if (first === undefined) return s;
  const c = String.fromCodePoint(first);
  return c.toUpperCase() + s.slice(c.length);
}

// GNU's quoting of names and arguments in diagnostics.
// quoteaf(): file names, always quoted in the shell's way ("cannot access 'x'").
// quotef(): file names quoted only when they need it ("cat: x: ...").
// quote(): other arguments, in the locale's quotation marks (gnulib's quote):
// 'x' in the C locale, ‘x’ in a UTF-8 one ("invalid mode ‘999’").

import { isUtf8Locale } from './locale.js';
import { wcwidth } from './utf8.js';

const SAFE = /^[A-Za-z0-9_.,:/@%+=^-]+$/;

let utf8 = false;

/** Set once per process from its environment (the command runner does it). */
export function setQuoteLocale(env: Readonly<Record<string, string | undefined>>): void {
  utf8 = isUtf8Locale(env);
}

const SHELL_ESCAPES: Record<string, string> = { '\x07': 'a', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v' };

/** How the shell-escape style writes an unprintable character ($'...' body), or null if it is printable. */
function shellEscape(ch: string): string | null {
  const c = ch.codePointAt(0)!;
  if (c >= 0x20 && c < 0x7f) return null;
  if (ch in SHELL_ESCAPES) return `\\${SHELL_ESCAPES[ch]}`;
  if (utf8 && c >= 0xa0 && !(c >= 0xdc80 && c <= 0xdcff) && wcwidth(c) >= 0) return null;
  // Its bytes in octal (a lone surrogate stands for one byte that is not UTF-8).
  const bytes = c >= 0xdc80 && c <= 0xdcff ? [c - 0xdc00] : [...new TextEncoder().encode(ch)];
  return bytes.map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('');
}

/** gnulib's shell-escape-always style: '...' with unprintable characters as $'\ooo'. */
function shellQuote(s: string): string {
  const chars = [...s];
  const escapes = chars.map(shellEscape);
  if (escapes.every((e) => e === null)) {
    if (!s.includes("'")) return `'${s}'`;
    if (!/["$`\\]/.test(s)) return `"${s}"`;
    return `'${s.replace(/'/g, `'\\''`)}'`;
  }
  let out = "'";
  let pending = false;
  chars.forEach((ch, i) => {
    const e = escapes[i];
    if (e !== null) {
      if (!pending) out += "'$'";
      pending = true;
      out += e;
    } else if (ch === "'") {
      out += "'\\''";
      pending = false;
    } else {
      if (pending) out += "''";
      pending = false;
      out += ch;
    }
  });
  out += "'";
  // gnulib's second pass, after a quote met before the first escape, leaves an empty '' in front.
  const q = s.indexOf("'");
  return q >= 0 && q < escapes.findIndex((e) => e !== null) ? `''${out}` : out;
}

export function quoteaf(s: string): string {
  return shellQuote(s);
}

export function quotef(s: string): string {
  return s !== '' && [...s].every((ch) => (ch.codePointAt(0)! >= 0x80 ? shellEscape(ch) === null : SAFE.test(ch))) ? s : shellQuote(s);
}

const C_ESCAPES: Record<string, string> = { '\x07': 'a', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v', '\\': '\\' };

/** gnulib's locale quoting style: the locale's marks, C escapes for backslash and unprintable characters. */
export function quote(s: string): string {
  let body = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch in C_ESCAPES) body += `\\${C_ESCAPES[ch]}`;
    else if (ch === "'" && !utf8) body += "\\'"; // the closing mark itself
    else if (c < 0x20 || c === 0x7f || (c >= 0x80 && !utf8) || (c >= 0x80 && c < 0xa0) || (c >= 0xdc80 && c <= 0xdcff)) {
      // Unprintable: its bytes in octal (a lone surrogate stands for one byte that is not UTF-8).
      const bytes = c >= 0xdc80 && c <= 0xdcff ? [c - 0xdc00] : [...new TextEncoder().encode(ch)];
      for (const b of bytes) body += `\\${b.toString(8).padStart(3, '0')}`;
    } else body += ch;
  }
  return utf8 ? `\u2018${body}\u2019` : `'${body}'`;
}

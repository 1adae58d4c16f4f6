// Backslash escapes: `$'...'` bodies (bash's ANSI-C quoting, decoded at parse
// time so the expander sees the final string), echo -e, printf %b and printf
// format strings. They differ only in octal, \c and quote escapes.

import { byteChar, decodeShell, encodeShell } from '../bytes.js';

const SIMPLE: Record<string, string> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/** Decoded in `$'...'` and printf formats; echo and %b leave them as written. */
const QUOTES = ["'", '"', '?'];

const isHex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);

/**
 * - `ansi` (`$'...'`): \NNN octal, \cX a control character, \' \" \? decoded.
 * - `echo` (echo -e): \0NNN octal, \c stops all output (`stop`).
 * - `b` (printf %b): as echo, and \NNN octal too.
 * - `printf` (format strings): \NNN octal, \c left as written.
 */
export function decodeEscapes(raw: string, style: 'ansi' | 'echo' | 'b' | 'printf'): { text: string; stop: boolean } {
  let out = '';
  for (let k = 0; k < raw.length; k++) {
    const c = raw[k];
    if (c !== '\\' || k + 1 >= raw.length) {
      out += c;
      continue;
    }
    const d = raw[++k];
    if (d in SIMPLE && (style === 'ansi' || style === 'printf' || !QUOTES.includes(d))) {
      out += SIMPLE[d];
    } else if (d >= '0' && d <= '7' && (style !== 'echo' || d === '0')) {
      // Three octal digits at most: after echo's and %b's \0, the others counting the first.
      let n = style === 'echo' || (style === 'b' && d === '0') ? '' : d;
      while (n.length < 3 && raw[k + 1] >= '0' && raw[k + 1] <= '7') n += raw[++k];
      out += byteChar(parseInt(n || '0', 8) & 0xff);
    } else if (d === 'x' || d === 'u' || d === 'U') {
      const max = d === 'x' ? 2 : d === 'u' ? 4 : 8;
      let n = '';
      while (n.length < max && isHex(raw[k + 1] ?? '')) n += raw[++k];
      if (n === '') out += '\\' + d;
      else if (d === 'x') out += byteChar(parseInt(n, 16));
      else out += String.fromCodePoint(Math.min(parseInt(n, 16), 0x10ffff));
    } else if (d === 'c' && (style === 'echo' || style === 'b')) {
      return { text: canonical(out), stop: true };
    } else if (d === 'c' && style === 'ansi' && k + 1 < raw.length) {
      // Control character: \cA is 0x01; bash masks with 0x1f.
      out += String.fromCharCode(raw[++k].toUpperCase().charCodeAt(0) & 0x1f);
    } else {
      out += '\\' + d;
    }
  }
  return { text: canonical(out), stop: false };
}

/**
 * Escaped bytes that together spell valid UTF-8 (`$'\xc3\xa9'`) become the
 * character, so the string is the same as one read from bytes: `${#x}` counts
 * one, and a program gets `é` in its argv.
 */
function canonical(s: string): string {
  return /(?<![\ud800-\udbff])[\udc80-\udcff]/.test(s) ? decodeShell(encodeShell(s)) : s;
}

/** $'...': bash's strings end at a NUL byte, so an escaped NUL ends the text. */
export function decodeAnsi(raw: string): string {
  const text = decodeEscapes(raw, 'ansi').text;
  const nul = text.indexOf('\0');
  return nul < 0 ? text : text.slice(0, nul);
}

// Backslash escapes of echo -e and printf %b / format strings.

import { byteChar } from '../../bytes.js';

/** `echoStyle`: \0NNN octal and \c (stop output), as echo -e and %b use them. */
export function decodeEscapes(s: string, echoStyle: boolean): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const n = s[++i];
    switch (n) {
      case 'a': out += '\x07'; break;
      case 'b': out += '\b'; break;
      case 'e': case 'E': out += '\x1b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '\\': out += '\\'; break;
      case 'c':
        if (echoStyle) return { text: out, stop: true };
        out += '\\c';
        break;
      case 'x': {
        const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1));
        if (m) {
          out += byteChar(parseInt(m[0], 16));
          i += m[0].length;
        } else out += '\\x';
        break;
      }
      case 'u': case 'U': {
        const m = new RegExp(`^[0-9a-fA-F]{1,${n === 'u' ? 4 : 8}}`).exec(s.slice(i + 1));
        if (m) {
          out += String.fromCodePoint(parseInt(m[0], 16));
          i += m[0].length;
        } else out += `\\${n}`;
        break;
      }
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        // echo: \0NNN (up to 3 digits after the 0); printf format: \NNN.
        const digits = echoStyle ? (n === '0' ? /^[0-7]{0,3}/ : null) : /^[0-7]{0,2}/;
        if (!digits) {
          out += `\\${n}`;
          break;
        }
        const m = digits.exec(s.slice(i + 1))!;
        const text = echoStyle ? m[0] : n + m[0];
        out += byteChar(parseInt(text || '0', 8) & 0xff);
        i += m[0].length;
        break;
      }
      default:
        out += `\\${n}`;
    }
  }
  return { text: out, stop: false };
}

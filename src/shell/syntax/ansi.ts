// Decoding of `$'...'` bodies (bash's ANSI-C quoting), done at parse time so
// the expander sees the final string.

import { byteChar } from '../bytes.js';

const SIMPLE: Record<string, string> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

const isHex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);

export function decodeAnsi(raw: string): string {
  let out = '';
  for (let k = 0; k < raw.length; k++) {
    const c = raw[k];
    if (c !== '\\' || k + 1 >= raw.length) {
      out += c;
      continue;
    }
    const d = raw[++k];
    if (d in SIMPLE) {
      out += SIMPLE[d];
    } else if (d >= '0' && d <= '7') {
      let n = d;
      while (n.length < 3 && raw[k + 1] >= '0' && raw[k + 1] <= '7') n += raw[++k];
      out += byteChar(parseInt(n, 8) & 0xff);
    } else if (d === 'x' || d === 'u' || d === 'U') {
      const max = d === 'x' ? 2 : d === 'u' ? 4 : 8;
      let n = '';
      while (n.length < max && isHex(raw[k + 1] ?? '')) n += raw[++k];
      if (n === '') out += '\\' + d;
      else if (d === 'x') out += byteChar(parseInt(n, 16));
      else out += String.fromCodePoint(Math.min(parseInt(n, 16), 0x10ffff));
    } else if (d === 'c' && k + 1 < raw.length) {
      // Control character: \cA is 0x01; bash masks with 0x1f.
      out += String.fromCharCode(raw[++k].toUpperCase().charCodeAt(0) & 0x1f);
    } else {
      out += '\\' + d;
    }
  }
  return out;
}

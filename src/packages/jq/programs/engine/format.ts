// `@name` formats: @text @json @html @uri @csv @tsv @sh @base64 @base64d
// @base32 @base32d, applied to a value (string interpolation applies them to
// each interpolated value).

import { toJson } from './json-print.js';
import { describe } from './ops.js';
import { err, isNum, type Json } from './value.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

const tostring = (v: Json): string => (typeof v === 'string' ? v : toJson(v));

const HTML: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };
const URI_KEEP = /[A-Za-z0-9\-_.!~*'()]/;

export function format(name: string, v: Json): string {
  switch (name) {
    case 'text':
      return tostring(v);
    case 'json':
      return toJson(v);
    case 'html':
      return tostring(v).replace(/[<>&'"]/g, (c) => HTML[c]);
    case 'uri': {
      let out = '';
      for (const ch of tostring(v)) {
        if (URI_KEEP.test(ch)) out += ch;
        else for (const b of enc.encode(ch)) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
      }
      return out;
    }
    case 'csv':
    case 'tsv':
      return row(name, v);
    case 'sh':
      return (Array.isArray(v) ? v : [v]).map(shellWord).join(' ');
    case 'base64':
      return base64(enc.encode(tostring(v)));
    case 'base64d':
      return dec.decode(unbase64(tostring(v), v));
    case 'base32':
      return base32(enc.encode(tostring(v)));
    case 'base32d':
      return dec.decode(unbase32(tostring(v)));
    default:
      throw err(`${name} is not a valid format`);
  }
}

function row(kind: 'csv' | 'tsv', v: Json): string {
  if (!Array.isArray(v)) throw err(`${describe(v)} cannot be ${kind}-formatted, only an array can be`);
  const sep = kind === 'csv' ? ',' : '\t';
  return v
    .map((x) => {
      if (x === null) return '';
      if (typeof x === 'boolean' || isNum(x)) return toJson(x);
      if (typeof x === 'string') {
        if (kind === 'csv') return `"${x.replace(/"/g, '""')}"`;
        return x.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
      }
      throw err(`${describe(x)} is not valid in a ${kind} row`);
    })
    .join(sep);
}

function shellWord(x: Json): string {
  if (typeof x === 'string') return `'${x.replace(/'/g, "'\\''")}'`;
  if (x === null || typeof x === 'boolean' || isNum(x)) return toJson(x);
  throw err(`${describe(x)} can not be escaped for shell`);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function base64(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
    out += i + 1 < b.length ? B64[(n >> 6) & 63] : '=';
    out += i + 2 < b.length ? B64[n & 63] : '=';
  }
  return out;
}

function unbase64(s: string, orig: Json): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const c = s[i];
    if (c === '=') break;
    const d = B64.indexOf(c);
    if (d < 0) throw err(`${describe(orig)} is not valid base64 data`);
    acc = (acc << 6) | d;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(b: Uint8Array): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const x of b) {
    acc = (acc << 8) | x;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += B32[(acc >> bits) & 31];
    }
  }
  if (bits > 0) out += B32[(acc << (5 - bits)) & 31];
  while (out.length % 8) out += '=';
  return out;
}

function unbase32(s: string): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const c of s) {
    if (c === '=') break;
    const d = B32.indexOf(c);
    if (d < 0) continue;
    acc = ((acc << 5) | d) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

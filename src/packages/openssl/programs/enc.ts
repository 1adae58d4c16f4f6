// openssl enc -aes-{128,192,256}-{cbc,ecb,ctr} [-d] [-a [-A]] [-pass ARG|-k PASS]
//   [-S SALT|-salt|-nosalt] [-pbkdf2] [-iter N] [-md DIGEST] [-K KEY -iv IV] [-p|-P] [-nopad] [-in F] [-out F]
// and openssl base64 [-d] [-A]: OpenSSL's file format ("Salted__" and the
// salt, unless -nosalt or an explicit -S), PKCS#7 padding, keys from
// PBKDF2 (-pbkdf2/-iter) or the deprecated EVP_BytesToKey (with its warning).

import type { Algo } from '../../../common/digest.js';
import { latin1 } from '../../../userland/lib/bytes.js';
import { Aes } from './aes.js';
import { bytesToKey, fromHex, pbkdf2, toHex } from './kdf.js';
import { parseOpts, type Tool } from './tool.js';

const MAGIC = new TextEncoder().encode('Salted__');
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function base64Lines(b: Uint8Array, wrap: boolean): string {
  let s = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    s += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < b.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < b.length ? B64[n & 63] : '=');
  }
  if (s === '') return '';
  // -A: one line, and (as OpenSSL writes it) no newline at its end.
  return wrap ? `${s.replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n` : s;
}

function base64Decode(text: Uint8Array, oneLine: boolean): Uint8Array | null {
  let str = latin1(text);
  // Line by line, OpenSSL decodes only lines that end: an unterminated last line is dropped.
  if (!oneLine && !str.endsWith('\n')) str = str.slice(0, str.lastIndexOf('\n') + 1);
  const s = str.replace(/[\s]/g, '');
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of s) {
    if (ch === '=') break;
    const v = B64.indexOf(ch);
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

const CIPHER = /^aes-(128|192|256)-(cbc|ecb|ctr)$/;
const DIGESTS = new Set(['md5', 'sha1', 'sha256', 'sha512']);

export function enc(t: Tool, args: string[]): number {
  const ciphers = ['128', '192', '256'].flatMap((b) => ['cbc', 'ecb', 'ctr'].map((m) => `aes-${b}-${m}`));
  const p = parseOpts(t, args,
    new Set(['in', 'out', 'pass', 'k', 'kfile', 'S', 'iter', 'md', 'K', 'iv', 'bufsize', 'engine', 'provider']),
    new Set(['e', 'd', 'a', 'base64', 'A', 'salt', 'nosalt', 'pbkdf2', 'p', 'P', 'nopad', 'v', 'z', 'none', 'debug', ...ciphers]),
    (name) => `Unknown cipher: ${name}`);
  if (!p) return 1;
  if (p.files.length) {
    t.err(`${t.cmd}: Use -help for summary.\n`);
    return 1;
  }
  const o = p.opts;
  const last = (k: string) => o.get(k)?.at(-1);
  const cipherName = [...o.keys()].filter((k) => CIPHER.test(k)).at(-1) ?? null;
  const decrypt = o.has('d') && ![...o.keys()].some((k) => k === 'e' && [...o.keys()].indexOf('e') > [...o.keys()].indexOf('d'));
  const b64 = o.has('a') || o.has('base64');
  const oneLine = o.has('A');
  let data = t.readInput(last('in') ?? null);
  if (data === null) return 1;
  if (!t.openOut(last('out') ?? null)) return 1;
  if (decrypt && b64) {
    const d = base64Decode(data, oneLine);
    if (d === null) {
      t.err('error reading input file\n');
      return 1;
    }
    data = d;
  }
  if (cipherName) {
    const m = CIPHER.exec(cipherName)!;
    const keyLen = Number(m[1]) / 8;
    const mode = m[2];
    const ivLen = mode === 'ecb' ? 0 : 16;
    let key: Uint8Array;
    let iv: Uint8Array = new Uint8Array(16);
    let salt: Uint8Array | null = null;
    const K = last('K');
    if (K !== undefined) {
      key = hexArg(t, K, keyLen);
      const ivArg = last('iv');
      if (ivArg !== undefined && !ivLen) t.err('warning: iv not used by this cipher\n');
      if (ivArg !== undefined && ivLen) iv = hexArg(t, ivArg, 16);
      else if (ivLen && ivArg === undefined) {
        t.err('iv undefined\n');
        return 1;
      }
    } else {
      const pass = password(t, o, `enter ${cipherName.toUpperCase()} ${decrypt ? 'decryption' : 'encryption'} password:`);
      if (pass === null) return 1;
      if (!o.has('nosalt')) {
        const S = last('S');
        if (S !== undefined) salt = hexArg(t, S, 8);
        else if (decrypt) {
          if (data.length < 16) {
            t.err('error reading input file\n');
            return 1;
          }
          if (MAGIC.some((b, i) => data![i] !== b)) {
            t.err('bad magic number\n');
            return 1;
          }
          salt = data.slice(8, 16);
          data = data.subarray(16);
        } else salt = t.random(8);
      }
      const md = (last('md') ?? 'sha256').toLowerCase().replace(/-/g, '');
      if (!DIGESTS.has(md)) {
        t.err(`${t.cmd}: Unknown option or message digest: ${last('md')}\n`);
        return 1;
      }
      const iterArg = last('iter');
      if (iterArg !== undefined && (!/^\d+$/.test(iterArg) || Number(iterArg) < 1)) return t.usage(`Non-positive number "${iterArg}" for option -iter`);
      let kiv: Uint8Array;
      if (o.has('pbkdf2') || iterArg !== undefined) kiv = pbkdf2(md as Algo, pass, salt ?? new Uint8Array(0), Number(iterArg ?? 10000), keyLen + ivLen);
      else {
        t.err('*** WARNING : deprecated key derivation used.\nUsing -iter or -pbkdf2 would be better.\n');
        kiv = bytesToKey(md as Algo, pass, salt, keyLen + ivLen);
      }
      key = kiv.slice(0, keyLen);
      if (ivLen) iv = kiv.slice(keyLen, keyLen + ivLen);
      const ivArg = last('iv');
      if (ivArg !== undefined) iv = hexArg(t, ivArg, 16);
    }
    if (o.has('p') || o.has('P')) {
      let info = '';
      if (salt) info += `salt=${toHex(salt).toUpperCase()}\n`;
      info += `key=${toHex(key).toUpperCase()}\n`;
      if (ivLen) info += `iv =${toHex(iv).toUpperCase()}\n`;
      t.out.write(info);
      if (o.has('P')) return 0;
    }
    const aes = new Aes(key);
    let result: Uint8Array;
    if (mode === 'ctr') result = ctr(aes, iv, data);
    else {
      const r = decrypt ? cbcDecrypt(aes, mode === 'cbc' ? iv : null, data, !o.has('nopad')) : cbcEncrypt(aes, mode === 'cbc' ? iv : null, data, !o.has('nopad'));
      if (r === null) {
        t.err(`bad ${decrypt ? 'decrypt' : 'encrypt'}\n`);
        return 1;
      }
      result = r;
    }
    // A generated salt goes first, after the magic (an explicit -S is not written, as OpenSSL 3.0 does).
    if (!decrypt && salt && last('S') === undefined) result = concat(MAGIC, salt, result);
    data = result;
  }
  if (!decrypt && b64) t.out.write(base64Lines(data, !oneLine));
  else t.out.write(data);
  return 0;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** A hex key, IV or salt: short ones are padded with zeros (with OpenSSL's warning), long ones cut. */
function hexArg(t: Tool, h: string, len: number): Uint8Array {
  const clean = h.replace(/[^0-9a-fA-F]/g, '');
  if (clean.length < len * 2) t.err('hex string is too short, padding with zero bytes to length\n');
  if (clean.length > len * 2) t.err('hex string is too long, ignoring excess\n');
  const b = new Uint8Array(len);
  b.set(fromHex(clean.slice(0, len * 2)).subarray(0, len));
  return b;
}

function password(t: Tool, o: Map<string, string[]>, prompt: string): Uint8Array | null {
  const enc8 = new TextEncoder();
  const k = o.get('k')?.at(-1);
  if (k !== undefined) return enc8.encode(k);
  const kfile = o.get('kfile')?.at(-1);
  const arg = o.get('pass')?.at(-1) ?? (kfile !== undefined ? `file:${kfile}` : undefined);
  if (arg === undefined) {
    // No terminal to ask on here (agentOS openssl reads no password interactively).
    t.err(`${prompt}\nbad password read\n`);
    return null;
  }
  if (arg.startsWith('pass:')) return enc8.encode(arg.slice(5));
  if (arg.startsWith('env:')) {
    const v = t.os.env[arg.slice(4)];
    if (v === undefined) {
      t.err(`No environment variable ${arg.slice(4)}\n`);
      return null;
    }
    return enc8.encode(v);
  }
  if (arg.startsWith('file:')) {
    const d = t.readInput(arg.slice(5));
    if (d === null) return null;
    const text = new TextDecoder().decode(d).split('\n')[0].replace(/\r$/, '');
    return enc8.encode(text);
  }
  if (arg === 'stdin') {
    const text = new TextDecoder().decode(t.sys.readAll(0)).split('\n')[0];
    return enc8.encode(text);
  }
  t.err(`Invalid password argument, missing ':' within the first 5 chars\nError getting password\n`);
  return null;
}

/** CBC (or ECB with iv null) encryption with PKCS#7 padding. */
function cbcEncrypt(aes: Aes, iv: Uint8Array | null, data: Uint8Array, pad: boolean): Uint8Array | null {
  const padLen = pad ? 16 - (data.length % 16) : 0;
  if (!pad && data.length % 16) return null;
  const out = new Uint8Array(data.length + padLen);
  out.set(data);
  out.fill(padLen, data.length);
  const prev = iv ? Uint8Array.from(iv) : null;
  for (let off = 0; off < out.length; off += 16) {
    if (prev) for (let i = 0; i < 16; i++) out[off + i] ^= prev[i];
    aes.block(out, off, false);
    if (prev) prev.set(out.subarray(off, off + 16));
  }
  return out;
}

function cbcDecrypt(aes: Aes, iv: Uint8Array | null, data: Uint8Array, pad: boolean): Uint8Array | null {
  if (data.length % 16 || (pad && data.length === 0)) return null;
  const out = Uint8Array.from(data);
  let prev = iv ? Uint8Array.from(iv) : null;
  for (let off = 0; off < out.length; off += 16) {
    const c = out.slice(off, off + 16);
    aes.block(out, off, true);
    if (prev) for (let i = 0; i < 16; i++) out[off + i] ^= prev[i];
    prev = iv ? c : null;
  }
  if (!pad) return out;
  const n = out[out.length - 1];
  if (n < 1 || n > 16 || out.subarray(out.length - n).some((b) => b !== n)) return null;
  return out.subarray(0, out.length - n);
}

/** CTR: the IV is a 128-bit big-endian counter; the same both ways. */
function ctr(aes: Aes, iv: Uint8Array, data: Uint8Array): Uint8Array {
  const out = Uint8Array.from(data);
  const counter = Uint8Array.from(iv);
  const ks = new Uint8Array(16);
  for (let off = 0; off < out.length; off += 16) {
    ks.set(counter);
    aes.block(ks, 0, false);
    for (let i = 0; i < 16 && off + i < out.length; i++) out[off + i] ^= ks[i];
    for (let i = 15; i >= 0; i--) {
      counter[i] = (counter[i] + 1) & 0xff;
      if (counter[i] !== 0) break;
    }
  }
  return out;
}

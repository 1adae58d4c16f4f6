// Text recognition the way libmagic words it: the encoding (ASCII, UTF-8,
// ISO-8859, ...), the kind of text (scripts by their #! line, JSON, HTML, XML,
// C, diff) and the notes on line terminators, long lines and escapes.

/** A description with its MIME type and charset (null when the buffer is not text). */
export interface Kind {
  desc: string;
  mime: string;
  charset: string;
  /** Only the encoding was recognised (no magic named the kind of text). */
  plain?: boolean;
}

interface Encoding {
  /** "ASCII", "Unicode text, UTF-8", ... as it appears before " text". */
  name: string;
  charset: string;
}

// libmagic's classes: T plain ASCII text, I ISO-8859 text, X other extended ASCII.
const T = 1, I = 2, X = 3;
const CLASS = new Uint8Array(256);
for (const b of [7, 8, 9, 10, 11, 12, 13, 27, 0x85]) CLASS[b] = T;
for (let b = 0x20; b < 0x7f; b++) CLASS[b] = T;
for (let b = 0x80; b < 0xa0; b++) if (b !== 0x85) CLASS[b] = X;
for (let b = 0xa0; b < 0x100; b++) CLASS[b] = I;

function utf8Valid(b: Uint8Array, from: number): { ok: boolean; multi: boolean } {
  let multi = false;
  for (let i = from; i < b.length; i++) {
    const c = b[i];
    if (c < 0x80) {
      if (CLASS[c] !== T) return { ok: false, multi };
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0) return { ok: false, multi };
    for (let k = 1; k <= n; k++) if (i + k >= b.length || (b[i + k] & 0xc0) !== 0x80) return { ok: false, multi };
    i += n;
    multi = true;
  }
  return { ok: true, multi };
}

function encoding(b: Uint8Array): Encoding | null {
  if (b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff))) {
    return { name: `Unicode text, UTF-16, ${b[0] === 0xff ? 'little' : 'big'}-endian`, charset: b[0] === 0xff ? 'utf-16le' : 'utf-16be' };
  }
  let worst = 0;
  for (const c of b) {
    const k = CLASS[c];
    if (k === 0) {
      worst = -1;
      break;
    }
    if (k > worst) worst = k;
  }
  if (worst === T) return { name: 'ASCII', charset: 'us-ascii' };
  const bom = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
  const u = utf8Valid(b, bom ? 3 : 0);
  if (u.ok && (u.multi || bom)) return { name: bom ? 'Unicode text, UTF-8 (with BOM)' : 'Unicode text, UTF-8', charset: 'utf-8' };
  if (worst === I) return { name: 'ISO-8859', charset: 'iso-8859-1' };
  if (worst === X) return { name: 'Non-ISO extended-ASCII', charset: 'unknown-8bit' };
  return null;
}

/** The charset -i reports for any buffer: its text encoding, or binary. */
export function charsetOf(b: Uint8Array): string {
  return encoding(b)?.charset ?? 'binary';
}

/** ", with very long lines (N), with CRLF line terminators, ..." */
function notes(b: Uint8Array): string {
  let crlf = 0, cr = 0, lf = 0, nel = 0, longest = 0, len = 0;
  let escapes = false;
  let backspace = false;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c === 13 && b[i + 1] === 10) {
      crlf++;
      i++;
    } else if (c === 13) cr++;
    else if (c === 10) lf++;
    else if (c === 0x85) nel++;
    else {
      if (c === 27) escapes = true;
      if (c === 8) backspace = true;
      len++;
      if (len > longest) longest = len;
      continue;
    }
    len = 0;
  }
  let s = '';
  if (longest > 300) s += `, with very long lines (${longest})`;
  if (crlf + cr + lf + nel === 0) s += ', with no line terminators';
  else if (crlf || cr || nel) {
    const kinds = [crlf && 'CRLF', cr && 'CR', lf && 'LF', nel && 'NEL'].filter(Boolean);
    s += `, with ${kinds.join(', ')} line terminators`;
  }
  if (escapes) s += ', with escape sequences';
  if (backspace) s += ', with overstriking';
  return s;
}

/** #! interpreters libmagic names; others read "a NAME script". */
const SCRIPTS: [RegExp, string, string][] = [
  [/^bash$/, 'Bourne-Again shell script', 'text/x-shellscript'],
  [/^zsh$/, "Paul Falstad's zsh script", 'text/x-shellscript'],
  [/^ksh$/, 'Korn shell script', 'text/x-shellscript'],
  [/^tcsh$/, 'Tenex C shell script', 'text/x-shellscript'],
  [/^csh$/, 'C shell script', 'text/x-shellscript'],
  [/^python[0-9.]*$/, 'Python script', 'text/x-script.python'],
  [/^node(js)?$/, 'Node.js script', 'application/javascript'],
  [/^perl[0-9.]*$/, 'Perl script', 'text/x-perl'],
  [/^ruby[0-9.]*$/, 'Ruby script', 'text/x-ruby'],
  [/^[gnm]?awk$/, 'awk script', 'text/x-awk'],
  [/^(tclsh|wish)[0-9.]*$/, 'Tcl/Tk script', 'text/x-tcl'],
  [/^lua[0-9.]*$/, 'Lua script', 'text/x-lua'],
];

function script(line: string, enc: string, notes: string): { desc: string; mime: string } | null {
  const m = /^#!\s*(\S+)(?:\s+(.*))?$/.exec(line);
  if (!m) return null;
  const path = m[1];
  const viaEnv = /(^|\/)env$/.test(path);
  const name = viaEnv ? (m[2] ?? '').trim() : path.slice(path.lastIndexOf('/') + 1);
  const prog = name.split(/\s+/)[0];
  const known = SCRIPTS.find(([re]) => re.test(prog));
  // Only /bin/sh named by path is "POSIX shell"; `env sh` is just "a sh script".
  if (!viaEnv && prog === 'sh') return { desc: `POSIX shell script, ${enc} text executable${notes}`, mime: 'text/x-shellscript' };
  if (!known) return { desc: `a ${viaEnv ? name : path} script, ${enc} text executable${notes}`, mime: 'text/plain' };
  const [, what, mime] = known;
  if (what === 'Node.js script') return { desc: `Node.js script executable, ${enc} text${notes}`, mime };
  if (what === 'Perl script') return { desc: 'Perl script text executable', mime };
  return { desc: `${what}, ${enc} text executable${notes}`, mime };
}

/** A strict JSON value parser: true when the whole text is one object or array. */
function isJson(s: string): boolean {
  let i = 0;
  const ws = () => {
    while (i < s.length && ' \t\r\n'.includes(s[i])) i++;
  };
  const value = (): boolean => {
    ws();
    const ch = s[i];
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      i++;
      ws();
      if (s[i] === close) {
        i++;
        return true;
      }
      for (;;) {
        if (ch === '{') {
          ws();
          if (!str()) return false;
          ws();
          if (s[i++] !== ':') return false;
        }
        if (!value()) return false;
        ws();
        if (s[i] === ',') i++;
        else if (s[i] === close) {
          i++;
          return true;
        } else return false;
      }
    }
    if (ch === '"') return str();
    const lit = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?)/.exec(s.slice(i, i + 64));
    if (!lit) return false;
    i += lit[0].length;
    return true;
  };
  const str = (): boolean => {
    if (s[i] !== '"') return false;
    for (i++; i < s.length; i++) {
      if (s[i] === '\\') i++;
      else if (s[i] === '"') {
        i++;
        return true;
      } else if (s.charCodeAt(i) < 0x20) return false;
    }
    return false;
  };
  ws();
  if (s[i] !== '{' && s[i] !== '[') return false;
  if (!value()) return false;
  ws();
  return i === s.length;
}

/** Describe a buffer that holds text; null when it is not text. */
export function textKind(b: Uint8Array): Kind | null {
  const enc = encoding(b);
  if (!enc) return null;
  const latin = String.fromCharCode(...b.subarray(0, Math.min(b.length, 65536)));
  const n = notes(b);
  const base = (what: string, mime: string) => ({ desc: `${what}${enc.name} text${n}`, mime, charset: enc.charset });
  const first = latin.slice(0, latin.search(/\r?\n|$/));
  const s = script(first, enc.name, n);
  if (s) return { ...s, charset: enc.charset };
  if (enc.charset !== 'utf-16le' && enc.charset !== 'utf-16be') {
    if (isJson(latin)) return { desc: 'JSON text data', mime: 'application/json', charset: enc.charset };
    const start = latin.trimStart();
    if (/^<\?xml version="([^"]*)"/.test(start)) {
      return base(`XML ${/^<\?xml version="([^"]*)"/.exec(start)![1]} document, `, 'text/xml');
    }
    if (/^<(!doctype html|html|head|body|title)\b/i.test(start)) return base('HTML document, ', 'text/html');
    if (/^diff (-|--git )/m.test(latin.slice(0, 4096)) && /^diff /.test(latin)) return base('diff output, ', 'text/x-diff');
    if (/^#include\s*[<"]/m.test(latin)) return base('C source, ', 'text/x-c');
  }
  return { ...base('', 'text/plain'), plain: true };
}

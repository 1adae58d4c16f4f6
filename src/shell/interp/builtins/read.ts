// read and mapfile/readarray. Input is read a byte at a time from pipes (so
// nothing past the line is consumed, as in bash), in blocks from files.

import { SysError } from '../../../abi/errno.js';
import type { Shell } from '../shell.js';
import { ShellError } from '../vars.js';
import type { Builtin } from './types.js';

const dec = new TextDecoder();

/** Read up to `delim` (not included); null at EOF with nothing read. */
function readRecord(sh: Shell, fd: number, delim: number, max: number, raw: boolean): { text: string; eof: boolean } | null {
  const bytes: number[] = [];
  let eof = false;
  while (bytes.length < max) {
    let b: Uint8Array;
    try {
      b = sh.sys.read(fd, 1);
    } catch (e) {
      if (e instanceof SysError) throw new ShellError(`read: read error: ${fd}: ${e.message}`);
      throw e;
    }
    if (b.byteLength === 0) {
      eof = true;
      break;
    }
    const c = b[0];
    if (!raw && c === 0x5c) {
      const n = sh.sys.read(fd, 1);
      if (n.byteLength === 0) {
        eof = true;
        break;
      }
      if (n[0] === 0x0a) continue; // line continuation
      bytes.push(0x5c, n[0]);
      continue;
    }
    if (c === delim) break;
    bytes.push(c);
  }
  if (eof && bytes.length === 0) return null;
  let text = dec.decode(new Uint8Array(bytes));
  if (!raw) text = text.replace(/\\(.)/g, '$1');
  return { text, eof };
}

export const read: Builtin = (sh, argv) => {
  let raw = false;
  let delim = 0x0a;
  let max = Infinity;
  let arrayName: string | null = null;
  let prompt = '';
  let fd = 0;
  let silent = false;
  const names: string[] = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-') || a === '-' || names.length) {
      names.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      const val = () => (j + 1 < a.length ? a.slice(j + 1) : args[++i]) ?? '';
      if (c === 'r') raw = true;
      else if (c === 's') silent = true;
      else if (c === 'e') continue;
      else if ('dnNpatu'.includes(c)) {
        const v = val();
        if (c === 'd') delim = v === '' ? 0 : v.charCodeAt(0);
        else if (c === 'n' || c === 'N') max = Number(v);
        else if (c === 'p') prompt = v;
        else if (c === 'a') arrayName = v;
        else if (c === 'u') fd = Number(v);
        // -t: no timeout support without a clock on the fd; a pipe read blocks as in bash -t 0 would not
        j = a.length;
      } else {
        sh.error(`read: -${c}: invalid option`);
        return 2;
      }
    }
  }
  void silent;
  if (prompt) sh.write(2, prompt);
  const rec = readRecord(sh, fd, delim, max, raw);
  if (rec === null) {
    for (const n of names.length ? names : ['REPLY']) sh.vars.set(n, '');
    if (arrayName) sh.vars.setArray(arrayName, []);
    return 1;
  }
  const ifs = sh.vars.get('IFS') ?? ' \t\n';
  if (arrayName) {
    sh.vars.setArray(arrayName, split(rec.text, ifs, Infinity).map((value) => ({ key: null, value })));
  } else if (names.length === 0) {
    sh.vars.set('REPLY', rec.text);
  } else {
    const fields = split(rec.text, ifs, names.length);
    names.forEach((n, i) => sh.vars.set(n, fields[i] ?? ''));
  }
  return rec.eof ? 1 : 0;
};

/** IFS splitting for read: the last name takes the rest of the line (trailing IFS whitespace trimmed). */
function split(text: string, ifs: string, n: number): string[] {
  const ws = [...ifs].filter((c) => ' \t\n'.includes(c)).join('');
  const isWs = (c: string) => ws.includes(c);
  const isSep = (c: string) => ifs.includes(c);
  let i = 0;
  while (i < text.length && isWs(text[i])) i++;
  const out: string[] = [];
  while (i < text.length) {
    if (out.length === n - 1) {
      let rest = text.slice(i);
      let end = rest.length;
      while (end > 0 && isWs(rest[end - 1])) end--;
      rest = rest.slice(0, end);
      out.push(rest);
      return out;
    }
    let j = i;
    while (j < text.length && !isSep(text[j])) j++;
    out.push(text.slice(i, j));
    i = j;
    while (i < text.length && isWs(text[i])) i++;
    if (i < text.length && isSep(text[i]) && !isWs(text[i])) {
      i++;
      while (i < text.length && isWs(text[i])) i++;
    }
  }
  return out;
}

export const mapfile: Builtin = (sh, argv) => {
  let strip = false;
  let delim = 0x0a;
  let count = Infinity;
  let skip = 0;
  let fd = 0;
  let name = 'MAPFILE';
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-t') strip = true;
    else if (a === '-d') delim = (args[++i] ?? '').charCodeAt(0) || 0;
    else if (a === '-n') count = Number(args[++i]) || Infinity;
    else if (a === '-s') skip = Number(args[++i]) || 0;
    else if (a === '-u') fd = Number(args[++i]);
    else if (!a.startsWith('-')) name = a;
  }
  const data = dec.decode(sh.sys.readAll(fd));
  const sep = String.fromCharCode(delim);
  const lines: string[] = [];
  let start = 0;
  while (start < data.length) {
    const at = data.indexOf(sep, start);
    const end = at < 0 ? data.length : at + 1;
    lines.push(strip && at >= 0 ? data.slice(start, at) : data.slice(start, end));
    start = end;
  }
  const chosen = lines.slice(skip, skip + count);
  sh.vars.setArray(name, chosen.map((value) => ({ key: null, value })));
  return 0;
};

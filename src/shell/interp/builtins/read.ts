// read and mapfile/readarray. Input is read a byte at a time from pipes (so
// nothing past the line is consumed, as in bash), in blocks from files.

import { SysError } from '../../../abi/errno.js';
import type { Shell } from '../shell.js';
import { ShellError } from '../../errors.js';
import type { Builtin } from './types.js';
import { decodeShell } from '../../bytes.js';


/** Marks the next character as escaped (backslash-quoted) in a record; NULs are dropped from input, as bash does. */
const ESC = '\0';

/**
 * Read up to `delim` (not included; none when `exact`, read -N); null at EOF
 * with nothing read. Unless `raw`, a backslash quotes the next character
 * (marked with ESC for splitting) and backslash-newline is removed.
 */
function readRecord(sh: Shell, fd: number, delim: number, max: number, raw: boolean, exact = false): { text: string; eof: boolean } | null {
  const bytes: number[] = [];
  let count = 0;
  let eof = false;
  const byte = (): number | null => {
    try {
      const b = sh.sys.read(fd, 1);
      return b.byteLength === 0 ? null : b[0];
    } catch (e) {
      if (e instanceof SysError) throw new ShellError(`read: read error: ${fd}: ${e.message}`);
      throw e;
    }
  };
  while (count < max) {
    const c = byte();
    if (c === null) {
      eof = true;
      break;
    }
    if (c === delim && !exact) break;
    if (c === 0) continue;
    if (!raw && c === 0x5c) {
      const n = byte();
      if (n === null) {
        eof = true;
        break;
      }
      if (n === 0x0a) continue; // line continuation
      if (n === 0) continue;
      bytes.push(0, n);
      count++;
      continue;
    }
    bytes.push(c);
    count++;
  }
  if (eof && bytes.length === 0) return null;
  return { text: decodeShell(new Uint8Array(bytes)), eof };
}

/** Drop the escape marks. */
function unescape(text: string): string {
  return text.replace(/\0(.)/gs, '$1');
}

const READ_USAGE = 'read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n';
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const read: Builtin = (sh, argv) => {
  let raw = false;
  let delim = 0x0a;
  let max = Infinity;
  let exact = false;
  let arrayName: string | null = null;
  let prompt = '';
  let fd = 0;
  let timeout: number | null = null;
  const names: string[] = [];
  const args = argv.slice(1);
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      if (c === 'r') raw = true;
      else if (c === 's' || c === 'e') continue;
      else if ('dnNpatui'.includes(c)) {
        const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (v === undefined) {
          sh.error(`read: -${c}: option requires an argument`);
          sh.write(2, READ_USAGE);
          return 2;
        }
        if (c === 'd') delim = v === '' ? 0 : v.charCodeAt(0);
        else if (c === 'n' || c === 'N') {
          if (!/^\d+$/.test(v)) {
            sh.error(`read: ${v}: invalid number`);
            return 1;
          }
          max = Number(v);
          exact = c === 'N';
        } else if (c === 'p') prompt = v;
        else if (c === 'a') arrayName = v;
        else if (c === 'u') {
          if (!/^\d+$/.test(v)) {
            sh.error(`read: ${v}: invalid file descriptor specification`);
            return 1;
          }
          fd = Number(v);
        } else if (c === 't') {
          if (!/^(\d+\.?\d*|\.\d+)$/.test(v)) {
            sh.error(`read: ${v}: invalid timeout specification`);
            return 1;
          }
          timeout = Number(v);
        }
        // -i: the default text only applies to readline (-e on a terminal).
        j = a.length;
      } else {
        sh.error(`read: -${c}: invalid option`);
        sh.write(2, READ_USAGE);
        return 2;
      }
    }
  }
  names.push(...args.slice(i));
  for (const n of arrayName !== null ? [arrayName] : names) {
    if (!NAME.test(n)) {
      sh.error(`read: \`${n}': not a valid identifier`);
      return 1;
    }
  }
  // -t 0 only asks whether input is available: a file or pipe read never blocks for long here.
  if (timeout === 0) return 0;
  // The prompt is shown only when reading from a terminal.
  if (prompt && isTerminal(sh, fd)) sh.write(2, prompt);
  const rec = readRecord(sh, fd, delim, max, raw, exact);
  if (rec === null) {
    for (const n of names.length ? names : ['REPLY']) sh.vars.set(n, '');
    if (arrayName) sh.vars.setArray(arrayName, []);
    return 1;
  }
  const ifs = sh.vars.get('IFS') ?? ' \t\n';
  if (arrayName) {
    sh.vars.setArray(arrayName, split(rec.text, ifs, Infinity).map((value) => ({ key: null, value })));
  } else if (names.length === 0) {
    // REPLY gets the line as read, without IFS trimming.
    sh.vars.set('REPLY', unescape(rec.text));
  } else if (exact) {
    // -N: no field splitting; the first name gets all of it.
    names.forEach((n, k) => sh.vars.set(n, k === 0 ? unescape(rec.text) : ''));
  } else {
    const fields = split(rec.text, ifs, names.length);
    names.forEach((n, k) => sh.vars.set(n, fields[k] ?? ''));
  }
  return rec.eof ? 1 : 0;
};

function isTerminal(sh: Shell, fd: number): boolean {
  try {
    return sh.sys.isatty(fd);
  } catch {
    return false;
  }
}

/**
 * IFS splitting for read (escaped characters never separate): the last name
 * takes the rest of the line, trailing IFS whitespace trimmed, and a rest that
 * is one field plus one delimiter is just that field.
 */
function split(text: string, ifs: string, n: number): string[] {
  const ws = [...ifs].filter((c) => ' \t\n'.includes(c)).join('');
  const isWs = (k: number) => text[k] !== undefined && ws.includes(text[k]) && text[k - 1] !== ESC;
  const isSep = (k: number) => text[k] !== undefined && ifs.includes(text[k]) && text[k - 1] !== ESC;
  /** End of the field starting at k. */
  const fieldEnd = (k: number) => {
    while (k < text.length && !isSep(k)) k += text[k] === ESC ? 2 : 1;
    return k;
  };
  /** Past the delimiter at k: IFS whitespace, at most one other IFS character, IFS whitespace. */
  const skipDelim = (k: number) => {
    while (isWs(k)) k++;
    if (isSep(k)) {
      k++;
      while (isWs(k)) k++;
    }
    return k;
  };
  let i = 0;
  while (isWs(i)) i++;
  const out: string[] = [];
  while (i < text.length) {
    if (out.length === n - 1) {
      let end = text.length;
      while (end > i && isWs(end - 1)) end--;
      const f = fieldEnd(i);
      out.push(unescape(f < end && skipDelim(f) >= end ? text.slice(i, f) : text.slice(i, end)));
      return out;
    }
    const j = fieldEnd(i);
    out.push(unescape(text.slice(i, j)));
    i = skipDelim(j);
  }
  return out;
}

export const mapfile: Builtin = (sh, argv) => {
  let strip = false;
  let delim = 0x0a;
  let count = Infinity;
  let skip = 0;
  let fd = 0;
  let origin: number | null = null;
  let callback: string | null = null;
  let quantum = 5000;
  let name = 'MAPFILE';
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-t') strip = true;
    else if (a === '-d') delim = (args[++i] ?? '').charCodeAt(0) || 0;
    else if (a === '-n') count = Number(args[++i]) || Infinity;
    else if (a === '-s') skip = Number(args[++i]) || 0;
    else if (a === '-u') fd = Number(args[++i]);
    else if (a === '-O') origin = Number(args[++i]) || 0;
    else if (a === '-C') callback = args[++i] ?? '';
    else if (a === '-c') quantum = Number(args[++i]) || 5000;
    else if (!a.startsWith('-')) name = a;
  }
  let data = '';
  try {
    data = decodeShell(sh.sys.readAll(fd));
  } catch (e) {
    // bash reads nothing from what it cannot read (a directory) and says nothing.
    if (!(e instanceof SysError)) throw e;
  }
  const sep = String.fromCharCode(delim);
  const lines: string[] = [];
  let start = 0;
  while (start < data.length) {
    const at = data.indexOf(sep, start);
    const end = at < 0 ? data.length : at + 1;
    const line = strip && at >= 0 ? data.slice(start, at) : data.slice(start, end);
    // An element is a C string in bash: it ends at a NUL byte (the -d '' delimiter included).
    const nul = line.indexOf('\0');
    lines.push(nul < 0 ? line : line.slice(0, nul));
    start = end;
  }
  const chosen = lines.slice(skip, skip + count);
  // Without -O the array is emptied first; with it, elements from the origin on are overwritten.
  if (origin === null) sh.vars.setArray(name, []);
  else if (!sh.vars.isArray(name)) sh.vars.setArray(name, sh.vars.isSet(name) ? [{ key: null, value: sh.vars.get(name)! }] : []);
  const base = origin ?? 0;
  chosen.forEach((line, k) => {
    // -C: evaluated every -c lines, before the line is stored, with its index and text.
    if (callback !== null && (k + 1) % quantum === 0) sh.runSource(`${callback} ${base + k} ${quoteWord(line)}`);
    sh.vars.setIndex(name, String(base + k), line);
  });
  return 0;
};

function quoteWord(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

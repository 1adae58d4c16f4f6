// -printf FORMAT: backslash escapes and %-directives with optional flags and
// width (%-10p, %5s). The format is compiled once into pieces.

import { S_IFMT, S_IFDIR, S_IFREG, S_IFLNK, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK, type Stat } from '../../../abi/stat.js';
import { groupName, modeString, userName } from '../../../userland/lib/index.js';
import type { Entry } from './find-types.js';

type Piece = string | ((e: Entry) => string);

const TYPE_LETTER: Record<number, string> = {
  [S_IFREG]: 'f', [S_IFDIR]: 'd', [S_IFLNK]: 'l', [S_IFCHR]: 'c', [S_IFBLK]: 'b', [S_IFIFO]: 'p', [S_IFSOCK]: 's',
};

const ESC: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** Everything after the last '/', trailing slashes kept (GNU's %f). */
function lastPart(p: string): string {
  const t = p.replace(/\/+$/, '');
  if (t === '') return p === '' ? '' : '/';
  return p.slice(t.lastIndexOf('/') + 1);
}

/** GNU's %h: the leading directories, trailing slashes ignored; "." when there are none. */
function dirPart(p: string): string {
  const t = p.replace(/\/+$/, '');
  if (t === '') return p.slice(0, -1);
  const i = t.lastIndexOf('/');
  return i < 0 ? '.' : t.slice(0, i).replace(/(.)\/+$/, '$1');
}

function directive(c: string, warn: (m: string) => void): ((e: Entry, st: Stat | null) => string) | null {
  switch (c) {
    case 'p': return (e) => e.path;
    case 'f': return (e) => lastPart(e.path);
    case 'h': return (e) => dirPart(e.path);
    case 'P': return (e) => e.path.slice(e.start.length).replace(/^\//, '');
    case 'H': return (e) => e.start;
    case 'd': return (e) => String(e.depth);
    case 's': return (_e, st) => String(st?.size ?? 0);
    case 'k': return (_e, st) => String(Math.ceil(((st?.blocks ?? 0) * 512) / 1024));
    case 'b': return (_e, st) => String(st?.blocks ?? 0);
    case 'i': return (_e, st) => String(st?.ino ?? 0);
    case 'n': return (_e, st) => String(st?.nlink ?? 0);
    case 'm': return (_e, st) => ((st?.mode ?? 0) & 0o7777).toString(8);
    case 'M': return (_e, st) => modeString(st?.mode ?? 0);
    case 'U': return (_e, st) => String(st?.uid ?? 0);
    case 'G': return (_e, st) => String(st?.gid ?? 0);
    case 'u': return (e, st) => (st ? (userName(e.cmd.sys, st.uid) ?? String(st.uid)) : '');
    case 'g': return (e, st) => (st ? (groupName(e.cmd.sys, st.gid) ?? String(st.gid)) : '');
    case 'y': return (_e, st) => TYPE_LETTER[(st?.mode ?? 0) & S_IFMT] ?? 'U';
    case 'Y': return (e, st) => {
      if (!st || (st.mode & S_IFMT) !== S_IFLNK) return TYPE_LETTER[(st?.mode ?? 0) & S_IFMT] ?? 'U';
      const t = e.target();
      return t ? (TYPE_LETTER[t.mode & S_IFMT] ?? 'U') : 'N';
    };
    case 'l': return (e, st) => {
      if (!st || (st.mode & S_IFMT) !== S_IFLNK) return '';
      try {
        return e.cmd.sys.readlink(e.path);
      } catch {
        return '';
      }
    };
    default:
      warn(`warning: unrecognized format directive \`%${c}'`);
      return null;
  }
}

/** Apply a printf-style flag/width spec (only '-' and width matter for strings). */
function pad(s: string, flags: string, width: string): string {
  const w = width ? Number(width) : 0;
  if (s.length >= w) return s;
  return flags.includes('-') ? s.padEnd(w) : s.padStart(w, flags.includes('0') && /^\d+$/.test(s) ? '0' : ' ');
}

/** Compile FORMAT; `warn` reports unknown escapes and directives once, as GNU does at parse time. */
export function compilePrintf(fmt: string, warn: (m: string) => void): (e: Entry) => { text: string; stop: boolean } {
  const pieces: Piece[] = [];
  let stopAt = -1;
  let lit = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i];
    if (c === '\\' && i + 1 < fmt.length) {
      const d = fmt[++i];
      if (d in ESC) lit += ESC[d];
      else if (d === 'c') {
        stopAt = pieces.length + 1;
        break;
      } else if (/[0-7]/.test(d)) {
        const m = /^[0-7]{1,3}/.exec(fmt.slice(i))![0];
        lit += String.fromCharCode(parseInt(m, 8) & 0xff);
        i += m.length - 1;
      } else {
        warn(`warning: unrecognized escape \`\\${d}'`);
        lit += `\\${d}`;
      }
    } else if (c === '%') {
      const m = /^([-+ #0]*)(\d*)(?:\.(\d+))?(.?)/.exec(fmt.slice(i + 1))!;
      const [all, flags, width, prec, letter] = m;
      i += all.length;
      if (letter === '%') {
        lit += '%';
        continue;
      }
      if (letter === '') {
        warn('warning: format directive `%\' is incomplete');
        lit += '%';
        continue;
      }
      const f = directive(letter, warn);
      if (!f) {
        lit += `%${letter}`;
        continue;
      }
      pieces.push(lit);
      lit = '';
      pieces.push((e) => {
        let s = f(e, e.stat());
        if (prec !== undefined) s = s.slice(0, Number(prec));
        return pad(s, flags, width);
      });
    } else lit += c;
  }
  pieces.push(lit);
  const stop = stopAt >= 0;
  return (e) => ({ text: pieces.map((p) => (typeof p === 'string' ? p : p(e))).join(''), stop });
}

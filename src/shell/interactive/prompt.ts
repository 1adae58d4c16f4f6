// PS1/PS2 as bash decodes them: backslash escapes first (\u \h \w \$ ...),
// then parameter, command and arithmetic expansion (shopt promptvars).
// Text between \[ and \] takes no columns on the screen; it is returned
// wrapped in \x01...\x02 (readline's markers) so the editor can measure.

import { expandHeredoc } from '../expand/index.js';
import { expandContext } from '../interp/context.js';
import type { Shell } from '../interp/shell.js';
import { parseHeredocBody } from '../syntax/index.js';

export const NONPRINT_START = '\x01', NONPRINT_END = '\x02';
/** Debian's default for a terminal without colours. */
export const DEFAULT_PS1 = '\\u@\\h:\\w\\$ ';

const VERSION = '5.2', RELEASE = '5.2.15';
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface PromptInfo {
  /** History number of the command being read (\!) and command number in this session (\#). */
  histNumber: number;
  cmdNumber: number;
  tty: string;
}

const pad = (n: number): string => String(n).padStart(2, '0');

export function decodePrompt(sh: Shell, text: string, info: PromptInfo): string {
  const home = sh.vars.get('HOME') ?? '';
  const pwd = sh.vars.get('PWD') ?? '';
  const tilde = (p: string) => (home && (p === home || p.startsWith(home + '/')) ? '~' + p.slice(home.length) : p);
  const host = hostname(sh);
  const now = new Date();
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '\\' || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const e = text[++i];
    switch (e) {
      case 'u': out += sh.vars.get('USER') ?? user(sh); break;
      case 'h': out += host.split('.')[0]; break;
      case 'H': out += host; break;
      case 'w': out += trimDirs(tilde(pwd), Number(sh.vars.get('PROMPT_DIRTRIM') ?? 0)); break;
      case 'W': out += pwd === home ? '~' : pwd === '/' ? '/' : pwd.slice(pwd.lastIndexOf('/') + 1); break;
      case '$': out += sh.sys.getuid() === 0 ? '#' : '$'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 'a': out += '\x07'; break;
      case 'e': out += '\x1b'; break;
      case 's': out += 'bash'; break; // the shell's name as bash reports it (sh.name is agentos-shell)
      case 'v': out += VERSION; break;
      case 'V': out += RELEASE; break;
      case 'j': out += String(sh.jobs.length); break;
      case 'l': out += info.tty.replace(/^\/dev\//, '').replace(/^pts\//, ''); break;
      case '!': out += String(info.histNumber); break;
      case '#': out += String(info.cmdNumber); break;
      case 'd': out += `${DAYS[now.getDay()]} ${MONTHS[now.getMonth()]} ${pad(now.getDate())}`; break;
      case 't': out += `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`; break;
      case 'T': out += `${pad(now.getHours() % 12 || 12)}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`; break;
      case '@': out += `${pad(now.getHours() % 12 || 12)}:${pad(now.getMinutes())} ${now.getHours() < 12 ? 'AM' : 'PM'}`; break;
      case 'A': out += `${pad(now.getHours())}:${pad(now.getMinutes())}`; break;
      case '[': out += NONPRINT_START; break;
      case ']': out += NONPRINT_END; break;
      case '\\': out += '\\\\'; break; // stays escaped for the expansion that follows
      default: {
        const oct = /^[0-7]{3}/.exec(text.slice(i));
        if (oct) {
          out += String.fromCharCode(parseInt(oct[0], 8));
          i += 2;
        } else out += '\\' + e;
      }
    }
  }
  if (!sh.opts.shoptOn('promptvars')) return out.replace(/\\\\/g, '\\');
  try {
    return expandHeredoc(parseHeredocBody(out), expandContext(sh));
  } catch {
    return out; // a bad expansion in PS1 must not stop the prompt
  }
}

function trimDirs(p: string, n: number): string {
  if (!(n > 0)) return p;
  const parts = p.split('/');
  const head = parts[0] === '~' ? '~' : '';
  const rest = parts.slice(1);
  return rest.length > n ? `${head}/.../${rest.slice(-n).join('/')}` : p;
}

function hostname(sh: Shell): string {
  try {
    return sh.sys.uname().nodename;
  } catch {
    return 'localhost';
  }
}

function user(sh: Shell): string {
  return sh.sys.getuid() === 0 ? 'root' : String(sh.sys.getuid());
}

/** The prompt as shown (markers removed) and the columns its last line takes. */
export function promptLayout(p: string): { text: string; lastWidth: number } {
  let text = '';
  let visible = '';
  let hidden = false;
  for (const ch of p) {
    if (ch === NONPRINT_START) hidden = true;
    else if (ch === NONPRINT_END) hidden = false;
    else {
      text += ch;
      if (!hidden) visible += ch;
    }
  }
  const last = visible.slice(visible.lastIndexOf('\n') + 1);
  return { text, lastWidth: stringWidth(stripEscapes(last)) };
}

/** Escape sequences outside \[ \] still take no columns. */
function stripEscapes(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x1b && s[i + 1] === '[') {
      i += 2;
      while (i < s.length && !/[A-Za-z]/.test(s[i])) i++;
    } else if (c === 0x1b && s[i + 1] === ']') {
      while (i < s.length && s.charCodeAt(i) !== 0x07) i++;
    } else if (c >= 0x20 && c !== 0x7f) out += s[i];
  }
  return out;
}

/** Terminal columns of a string: wide East Asian characters take two, combining marks none. */
export function stringWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!);
  return w;
}

export function charWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) || (cp >= 0x20000 && cp <= 0x3fffd)
  ) return 2;
  return 1;
}

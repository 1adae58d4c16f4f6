// Ex commands typed after `:` — :w [FILE], :q, :q!, :wq, :x, :e FILE, :N,
// :[range]d, :[range]s/RE/REPLACEMENT/[gi] (RE in JavaScript RegExp syntax;
// & and \1 in the replacement as in vi), :set nu/nonu — with vim's messages.

import type { Editor } from './editor.js';

/** The editor's way to files; errors are thrown as Errors carrying vim's message. */
export interface Files {
  /** The file's text, or null when it does not exist. */
  read(path: string): string | null;
  exists(path: string): boolean;
  write(path: string, text: string): void;
}

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

/** `"f" 3L, 12B` (with [New], [noeol]) as vim says when it reads or writes a file. */
export function fileMessage(name: string, text: string | null, suffix = ''): string {
  if (text === null) return `"${name}" [New]${suffix}`;
  const noeol = text !== '' && !text.endsWith('\n') ? ' [noeol]' : '';
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return `"${name}"${noeol} ${lines}L, ${utf8Length(text)}B${suffix}`;
}

const modifiedError = () => new Error('E37: No write since last change (add ! to override)');

/** Parse `[range]` at the start of an ex command: the lines (0-based) and the rest. */
function range(ed: Editor, cmd: string): { from: number; to: number; given: boolean; rest: string } {
  const last = ed.lines.length - 1;
  if (cmd.startsWith('%')) return { from: 0, to: last, given: true, rest: cmd.slice(1) };
  const addrs: number[] = [];
  let s = cmd;
  for (;;) {
    const m = /^(\.|\$|\d+)?(([+-]\d*)*)/.exec(s)!;
    if (m[0] === '') break;
    let n = m[1] === undefined || m[1] === '.' ? ed.cur.y : m[1] === '$' ? last : Number(m[1]) - 1;
    for (const off of m[2].match(/[+-]\d*/g) ?? []) n += (off[0] === '-' ? -1 : 1) * (off.length > 1 ? Number(off.slice(1)) : 1);
    addrs.push(n);
    s = s.slice(m[0].length);
    if (!s.startsWith(',')) break;
    s = s.slice(1);
  }
  if (addrs.length === 0) return { from: ed.cur.y, to: ed.cur.y, given: false, rest: s };
  const from = addrs[0];
  const to = addrs[addrs.length - 1];
  if (from < 0 || to > last || to < 0) throw new Error('E16: Invalid range');
  if (from > to) throw new Error('E493: Backwards range given');
  return { from, to, given: true, rest: s };
}

/** Run one ex command line. */
export function ex(ed: Editor, line: string): void {
  const r = range(ed, line.trim());
  const m = /^([a-zA-Z]*)(!?)\s*(.*)$/.exec(r.rest);
  if (!m) throw new Error(`E492: Not an editor command: ${line.trim()}`);
  const [, name, bang, arg] = m;
  const force = bang === '!';
  switch (name) {
    case '':
      if (r.given) ed.gotoLine(r.to);
      return;
    case 'w':
    case 'write':
      write(ed, arg, force, r.given ? [r.from, r.to] : null);
      return;
    case 'wq':
    case 'x':
    case 'xit':
    case 'exit':
    case 'wqa':
    case 'wqall':
    case 'xa':
    case 'xall':
      if (name.startsWith('w') || ed.buf.modified || (arg && arg !== ed.file)) write(ed, arg, force, null);
      ed.quit = true;
      return;
    case 'q':
    case 'quit':
    case 'qa':
    case 'qall':
      if (ed.buf.modified && !force) throw modifiedError();
      ed.quit = true;
      return;
    case 'e':
    case 'edit':
      edit(ed, arg, force);
      return;
    case 'd':
    case 'delete':
      ed.buf.save(ed.cur);
      ed.lines.splice(r.from, r.to - r.from + 1);
      if (ed.lines.length === 0) ed.lines.push('');
      if (r.to - r.from + 1 > 2) ed.message = `${r.to - r.from + 1} fewer lines`;
      ed.gotoLine(r.from);
      return;
    case 'se':
    case 'set':
      for (const opt of arg.split(/\s+/).filter(Boolean)) set(ed, opt);
      return;
    default:
      if (name === 's' && /^s[^a-zA-Z0-9\s]/.test(r.rest)) return substitute(ed, r.from, r.to, r.rest.slice(1));
      throw new Error(`E492: Not an editor command: ${line.trim()}`);
  }
}

function write(ed: Editor, arg: string, force: boolean, lines: [number, number] | null): void {
  const target = arg || ed.file;
  if (!target) throw new Error('E32: No file name');
  const other = target !== ed.file;
  const existed = ed.files.exists(target);
  if (other && existed && !force) throw new Error('E13: File exists (add ! to override)');
  const text = lines ? ed.lines.slice(lines[0], lines[1] + 1).join('\n') + '\n' : ed.buf.text();
  ed.files.write(target, text);
  if (!ed.file) ed.file = target;
  if (target === ed.file && !lines) ed.buf.modified = false;
  const name = fileMessage(target, text, ' written');
  ed.message = existed ? name : name.replace(/^("[^"]*")/, '$1 [New]');
}

function edit(ed: Editor, arg: string, force: boolean): void {
  if (ed.buf.modified && !force && (arg === '' || arg !== ed.file)) throw modifiedError();
  const file = arg || ed.file;
  if (!file) throw new Error('E32: No file name');
  const text = ed.files.read(file);
  ed.load(file, text ?? '');
  ed.message = fileMessage(file, text);
}

function set(ed: Editor, opt: string): void {
  const on = ['nu', 'number'];
  const off = ['nonu', 'nonumber'];
  const flip = ['nu!', 'number!', 'invnu', 'invnumber'];
  if (on.includes(opt)) ed.number = true;
  else if (off.includes(opt)) ed.number = false;
  else if (flip.includes(opt)) ed.number = !ed.number;
  else throw new Error(`E518: Unknown option: ${opt}`);
}

/** :s/RE/REP/FLAGS over lines from..to (vi's & and \N become JavaScript's $& and $N). */
function substitute(ed: Editor, from: number, to: number, spec: string): void {
  const sep = spec[0];
  const parts: string[] = [''];
  for (let i = 1; i < spec.length; i++) {
    if (spec[i] === '\\' && spec[i + 1] === sep) {
      parts[parts.length - 1] += sep;
      i++;
    } else if (spec[i] === sep && parts.length < 3) parts.push('');
    else parts[parts.length - 1] += spec[i];
  }
  const [pat, rep = '', flags = ''] = parts;
  let re: RegExp;
  try {
    re = new RegExp(pat, (flags.includes('g') ? 'g' : '') + (flags.includes('i') ? 'i' : ''));
  } catch {
    throw new Error(`E486: Pattern not found: ${pat}`);
  }
  const js = rep.replace(/\$/g, '$$$$').replace(/\\(\d)|\\&|&/g, (t, d: string | undefined) => (d ? `$${d}` : t === '&' ? '$&' : '&'));
  let subs = 0;
  let lines = 0;
  let lastLine = -1;
  const all = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
  const next = ed.lines.slice();
  for (let y = from; y <= to; y++) {
    const found = [...next[y].matchAll(all)].length;
    const n = re.global ? found : Math.min(1, found);
    if (!n) continue;
    next[y] = next[y].replace(re, js);
    subs += n;
    lines++;
    lastLine = y;
  }
  if (!subs) throw new Error(`E486: Pattern not found: ${pat}`);
  ed.buf.save(ed.cur);
  ed.buf.lines = next;
  ed.gotoLine(lastLine);
  if (subs > 2) ed.message = `${subs} substitution${subs === 1 ? '' : 's'} on ${lines} line${lines === 1 ? '' : 's'}`;
}

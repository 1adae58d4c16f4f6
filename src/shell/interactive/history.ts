// Command history: the list the editor walks with the arrows, loaded from and
// saved to $HISTFILE (~/.bash_history), bounded by HISTSIZE/HISTFILESIZE,
// HISTCONTROL (ignorespace, ignoredups, erasedups), and history expansion
// (!!, !n, !-n, !string, !$ and ^old^new) as bash does it before running a line.

import { O_APPEND, O_CREAT, O_WRONLY } from '../../abi/fcntl.js';
import type { Shell } from '../interp/shell.js';

const dec = new TextDecoder();

export class History {
  entries: string[] = [];
  /** History number of entries[0] (numbers keep counting when old entries fall off). */
  base = 1;
  /** Entries added in this session, for `history -a` and the save at exit. */
  private fresh = 0;

  constructor(private readonly sh: Shell) {}

  private limit(name: string, dflt: number): number {
    const v = Number.parseInt(this.sh.vars.get(name) ?? '', 10);
    return Number.isFinite(v) ? v : dflt;
  }

  get file(): string | null {
    const f = this.sh.vars.get('HISTFILE');
    return f === undefined ? `${this.sh.vars.get('HOME') ?? ''}/.bash_history` : f || null;
  }

  get next(): number {
    return this.base + this.entries.length;
  }

  load(): void {
    const file = this.file;
    if (!file) return;
    let text: string;
    try {
      text = dec.decode(this.sh.sys.readFile(file));
    } catch {
      return;
    }
    for (const line of text.split('\n')) if (line && !line.startsWith('#')) this.entries.push(line);
    this.trim(this.limit('HISTSIZE', 500));
  }

  add(line: string): void {
    const text = oneLine(line.replace(/\n+$/, ''));
    if (!text.trim()) return;
    const control = (this.sh.vars.get('HISTCONTROL') ?? '').split(':');
    const ignoreSpace = control.includes('ignorespace') || control.includes('ignoreboth');
    const ignoreDups = control.includes('ignoredups') || control.includes('ignoreboth');
    if (ignoreSpace && /^\s/.test(text)) return;
    if (ignoreDups && this.entries.at(-1) === text) return;
    if (control.includes('erasedups')) this.entries = this.entries.filter((e) => e !== text);
    this.entries.push(text);
    this.fresh++;
    this.trim(this.limit('HISTSIZE', 500));
  }

  private trim(max: number): void {
    if (max < 0 || this.entries.length <= max) return;
    const drop = this.entries.length - max;
    this.entries.splice(0, drop);
    this.base += drop;
  }

  /** At exit (and `history -w`): the file gets the session's lines, kept to HISTFILESIZE. */
  save(): void {
    const file = this.file;
    if (!file) return;
    try {
      const max = this.limit('HISTFILESIZE', this.limit('HISTSIZE', 500));
      const keep = max >= 0 ? this.entries.slice(-max) : this.entries;
      this.sh.sys.writeFile(file, keep.map((e) => e + '\n').join(''), 0o600);
      this.fresh = 0;
    } catch {
      /* a read-only home must not stop the shell from exiting */
    }
  }

  /** `history -a`: append this session's new lines. */
  append(): void {
    const file = this.file;
    if (!file || !this.fresh) return;
    try {
      const fd = this.sh.sys.open(file, O_WRONLY | O_CREAT | O_APPEND, 0o600);
      try {
        this.sh.sys.writeAll(fd, this.entries.slice(-this.fresh).map((e) => e + '\n').join(''));
      } finally {
        this.sh.sys.close(fd);
      }
      this.fresh = 0;
    } catch {
      /* as save() */
    }
  }

  clear(): void {
    this.base += this.entries.length;
    this.entries = [];
  }

  /** History expansion of a line; throws Error with bash's message for an event not found. */
  expand(line: string): { text: string; changed: boolean } {
    if (!line.includes('!') && !line.startsWith('^')) return { text: line, changed: false };
    const last = this.entries.at(-1);
    const sub = /^\^([^^]*)\^([^^\n]*)\^?(.*)$/s.exec(line);
    if (sub) {
      if (last === undefined || !last.includes(sub[1])) throw new Error(':s' + sub[1] + ': substitution failed');
      return { text: last.replace(sub[1], sub[2]) + sub[3], changed: true };
    }
    let out = '';
    let changed = false;
    let quote = '';
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (c === '\\' && quote !== "'") {
        out += c + (line[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === "'" && quote !== '"') quote = quote ? '' : "'";
      else if (c === '"' && quote !== "'") quote = quote ? '' : '"';
      if (c !== '!' || quote === "'" || i + 1 >= line.length || /[\s=(]/.test(line[i + 1])) {
        out += c;
        continue;
      }
      const rest = line.slice(i + 1);
      let m: RegExpExecArray | null;
      let event: string | undefined;
      let len: number;
      if (rest[0] === '!') {
        event = last;
        len = 1;
      } else if ((m = /^-?\d+/.exec(rest))) {
        const n = Number(m[0]);
        event = n < 0 ? this.entries.at(n) : this.entries[n - this.base];
        len = m[0].length;
      } else if (rest[0] === '$') {
        event = last === undefined ? undefined : (last.trim().split(/\s+/).at(-1) ?? '');
        len = 1;
      } else if ((m = /^\?([^?\n]*)\??/.exec(rest))) {
        const needle = m[1];
        event = [...this.entries].reverse().find((e) => e.includes(needle));
        len = m[0].length;
      } else if ((m = /^[^\s;&|()<>"'`]+/.exec(rest))) {
        const prefix = m[0];
        event = [...this.entries].reverse().find((e) => e.startsWith(prefix));
        len = prefix.length;
      } else {
        out += c;
        continue;
      }
      if (event === undefined) throw new Error(`!${rest.slice(0, len)}: event not found`);
      out += event;
      changed = true;
      i += len;
    }
    return { text: out, changed };
  }
}

/**
 * bash's cmdhist: a command typed on several lines is kept as one line,
 * joined with "; " — or a space after words and operators that continue it.
 */
function oneLine(text: string): string {
  const lines = text.split('\n');
  let out = lines[0];
  for (const l of lines.slice(1)) {
    const joiner = /(^|[\s;])(do|then|else|in|\{)\s*$|[|&(;]\s*$|^\s*$/.test(out) ? ' ' : '; ';
    out += joiner + l.trim();
  }
  return out;
}

// Tab completion as bash does it without programmable completion: the first
// word of a command completes to aliases, keywords, functions, builtins and
// executables on $PATH; a word starting with $ to variable names; anything
// else (or a word with a /) to file names, directories ending in '/'.

import { isDir } from '../../abi/stat.js';
import type { Shell } from '../interp/shell.js';
import { BUILTINS, SPECIAL_BUILTINS } from '../interp/builtins/index.js';
import type { Completion } from './editor.js';

const KEYWORDS = ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc'];
/** Characters that must be escaped in an inserted file name. */
const SPECIAL = /[\s'"\\$`()<>|;&*?[\]#~{}!]/g;

export function complete(sh: Shell, line: string, cursor: number): Completion | null {
  const before = [...line].slice(0, cursor).join('');
  const { start, word } = currentWord(before);
  const startChars = [...before.slice(0, start)].length;
  const prefix = before.slice(0, start);
  if (word.startsWith('$') && !word.includes('/')) {
    const name = word.slice(1).replace(/^\{/, '');
    const brace = word.startsWith('${');
    const names = sh.vars.names().filter((n) => n.startsWith(name)).sort();
    return { start: startChars, candidates: names.map((n) => (brace ? '${' + n + '}' : '$' + n)), suffix: '' };
  }
  if (isCommandPosition(prefix) && !word.includes('/')) {
    const names = commandNames(sh, unescape(word));
    return { start: startChars, candidates: names.map(escape), suffix: ' ' };
  }
  const onlyDirs = /^\s*(cd|pushd|rmdir)\s+$/.test(prefix);
  return fileCompletion(sh, word, startChars, onlyDirs);
}

/** The word the cursor is in: from the last unquoted blank or operator. */
function currentWord(s: string): { start: number; word: string } {
  let start = 0;
  let quote = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && quote !== "'") {
      i++;
      continue;
    }
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (/[\s|;&()<>]/.test(c)) start = i + 1;
  }
  return { start, word: s.slice(start) };
}

/** At the start of a command: nothing but blanks, or an operator (| ; & && || ( `) before it. */
function isCommandPosition(prefix: string): boolean {
  const t = prefix.trimEnd();
  return t === '' || /(\|\||&&|[|;&(`{]|\bthen|\bdo|\belse|\btime|!)$/.test(t) || /^\s*(sudo|command|exec|env|nohup|time)\s+$/.test(prefix);
}

function commandNames(sh: Shell, word: string): string[] {
  const out = new Set<string>();
  const add = (n: string) => {
    if (n.startsWith(word)) out.add(n);
  };
  sh.aliases.forEach((_v, n) => add(n));
  KEYWORDS.forEach(add);
  sh.functions.forEach((_f, n) => add(n));
  Object.keys(BUILTINS).forEach(add);
  SPECIAL_BUILTINS.forEach(add);
  for (const dir of (sh.vars.get('PATH') ?? '').split(':')) {
    let entries;
    try {
      entries = sh.sys.readdir(dir || '.');
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!e.name.startsWith(word) || out.has(e.name)) continue;
      try {
        const st = sh.sys.stat(`${dir || '.'}/${e.name}`);
        if (!isDir(st.mode) && st.mode & 0o111) out.add(e.name);
      } catch {
        /* a dangling link */
      }
    }
  }
  return [...out].sort();
}

function fileCompletion(sh: Shell, word: string, start: number, onlyDirs: boolean): Completion | null {
  const raw = unescape(word);
  const slash = raw.lastIndexOf('/');
  const dirPart = slash >= 0 ? raw.slice(0, slash + 1) : '';
  const base = slash >= 0 ? raw.slice(slash + 1) : raw;
  const home = sh.vars.get('HOME') ?? '';
  const dirPath = (dirPart.startsWith('~/') ? home + dirPart.slice(1) : dirPart) || '.';
  let entries;
  try {
    entries = sh.sys.readdir(dirPath);
  } catch {
    return null;
  }
  let names = entries
    .map((e) => e.name)
    .filter((n) => n.startsWith(base) && (base.startsWith('.') || !n.startsWith('.')))
    .sort();
  const dirs = new Set(names.filter((n) => {
    try {
      return isDir(sh.sys.stat(`${dirPath}/${n}`).mode);
    } catch {
      return false;
    }
  }));
  if (onlyDirs) names = names.filter((n) => dirs.has(n));
  const candidates = names.map((n) => escape(dirPart) + escape(n) + (dirs.has(n) ? '/' : ''));
  const single = names.length === 1 && dirs.has(names[0]);
  return { start, candidates, suffix: single ? '' : ' ', display: names.map((n) => n + (dirs.has(n) ? '/' : '')) };
}

function escape(s: string): string {
  return s.replace(SPECIAL, (c) => (c === '~' && s.startsWith('~') ? c : '\\' + c));
}

function unescape(s: string): string {
  return s.replace(/\\(.)/g, '$1').replace(/^['"]/, '');
}

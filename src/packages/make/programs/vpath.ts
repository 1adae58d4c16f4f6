// Directory search: `vpath PATTERN DIRS` directives (in order) and the VPATH
// variable, for files not found where they are named.

import type { Make } from './context.js';
import { fileExists } from './mtime.js';
import { matchPattern, words } from './text.js';

/** Directories from a vpath/VPATH list: blanks or colons separate them. */
export function dirList(text: string): string[] {
  return words(text.replace(/:/g, ' '));
}

/** `vpath PATTERN DIRS`, `vpath PATTERN` (forget it) or `vpath` (forget all). */
export function vpathDirective(mk: Make, rest: string): void {
  const w = words(mk.expand(rest));
  if (w.length === 0) mk.vpaths.length = 0;
  else if (w.length === 1) {
    for (let i = mk.vpaths.length - 1; i >= 0; i--) if (mk.vpaths[i].pattern === w[0]) mk.vpaths.splice(i, 1);
  } else mk.vpaths.push({ pattern: w[0], dirs: dirList(w.slice(1).join(' ')) });
}

/** Where `name` is found by directory search, or null (absolute names are not searched). */
export function vpathSearch(mk: Make, name: string): string | null {
  if (name.startsWith('/')) return null;
  const dirs = [...mk.vpaths.filter((v) => matchPattern(v.pattern, name) !== null).flatMap((v) => v.dirs), ...dirList(mk.value('VPATH'))];
  for (const d of dirs) {
    const p = `${d.replace(/\/+$/, '')}/${name}`;
    if (fileExists(mk, p)) return p;
  }
  return null;
}

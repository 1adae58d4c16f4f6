// fnmatch(3)-style globs for --include / --exclude / --exclude-dir.

import { lit } from './regex.js';

const cache = new Map<string, RegExp>();

/** `*`, `?`, `[...]` (with `!` or `^` negation) and backslash escapes; no special meaning for `/`. */
export function globToRegExp(glob: string): RegExp {
  const hit = cache.get(glob);
  if (hit) return hit;
  let src = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') src += '[^]*';
    else if (c === '?') src += '[^]';
    else if (c === '\\' && i + 1 < glob.length) src += lit(glob[++i]);
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        src += lit(c);
        continue;
      }
      let body = glob.slice(i + 1, close);
      let neg = '';
      if (body[0] === '!' || body[0] === '^') {
        neg = '^';
        body = body.slice(1);
      }
      src += `[${neg}${[...body].map((ch) => (ch === '-' ? '-' : lit(ch))).join('')}]`;
      i = close;
    } else src += lit(c);
  }
  const re = new RegExp(`^(?:${src})$`);
  cache.set(glob, re);
  return re;
}

export interface FileFilter {
  kind: 'include' | 'exclude';
  glob: string;
}

/**
 * GNU's rule for --include/--exclude: the last option whose glob matches the
 * name wins; if none matches, the file is searched unless the first such
 * option was an --include.
 */
export function fileExcluded(names: string[], filters: FileFilter[]): boolean {
  if (filters.length === 0) return false;
  for (let k = filters.length - 1; k >= 0; k--) {
    const re = globToRegExp(filters[k].glob);
    if (names.some((n) => re.test(n))) return filters[k].kind === 'exclude';
  }
  return filters[0].kind === 'include';
}

/** The names a command-line path is matched by: the whole path and each suffix after a `/`. */
export function suffixes(path: string): string[] {
  const out = [path];
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) if (i + 1 < path.length) out.push(path.slice(i + 1));
  return out;
}

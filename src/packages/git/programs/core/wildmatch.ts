// git's wildmatch as regular expressions: `*` and `?` stop at '/' when
// matching paths (gitignore), `**` spans directories, `[...]` classes,
// backslash escapes. Pathspecs match without the path flag (`*` crosses '/').

import { globSource } from '../../../../common/glob.js';

const cache = new Map<string, RegExp>();

export const hasGlob = (s: string): boolean => /[*?[\\]/.test(s);

export function wildRegExp(pat: string, pathname: boolean, fold = false): RegExp {
  const key = `${pathname ? 'p' : 'n'}${fold ? 'i' : 's'}${pat}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const re = new RegExp(`^${globSource(pat, { pathname, negatedPrefix: '(?!/)' })}$`, fold ? 'i' : '');
  cache.set(key, re);
  return re;
}

export const wildmatch = (pat: string, s: string, pathname: boolean): boolean => wildRegExp(pat, pathname).test(s);

// fnmatch(3)-style globs: grep's --include / --exclude / --exclude-dir, find's
// -name / -path, diff's --exclude, tar's and zip's member patterns.
// `*` and `?` match any character including `/` and a leading dot; `[...]`
// classes with `!`/`^` negation, ranges and [:alpha:]-style names; backslash
// quotes.

import { globSource } from '../../common/glob.js';

const cache = new Map<string, RegExp>();

export function globRegExp(glob: string, fold: boolean): RegExp {
  const key = `${fold ? 'i' : 's'}${glob}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const re = new RegExp(`^(?:${globSource(glob, { wholeChars: true })})$`, fold ? 'i' : '');
  cache.set(key, re);
  return re;
}

export const fnmatch = (glob: string, s: string, fold = false): boolean => globRegExp(glob, fold).test(s);

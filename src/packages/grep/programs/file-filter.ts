// grep's --include / --exclude / --exclude-dir: which files a recursive search skips.

import { globRegExp } from '../../../userland/lib/glob.js';

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
    const re = globRegExp(filters[k].glob, false);
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

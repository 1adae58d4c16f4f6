// Member names: GNU's safer_name_suffix (no leading '/', nothing up to a '..'
// component), --strip-components, matching the names given on the command
// line (exact or leading-directory; patterns with --wildcards) and
// --exclude patterns (wildcards that may match any trailing part of a name).

import { globRegExp } from '../../../userland/lib/glob.js';
import type { Tar } from './context.js';

/** The prefix GNU removes from a member name: leading slashes and everything up to the last '..' component. */
export function unsafePrefix(name: string): string {
  let cut = 0;
  for (let p = 0; p < name.length; ) {
    if (name.startsWith('..', p) && (p + 2 === name.length || name[p + 2] === '/')) cut = p + 2;
    const slash = name.indexOf('/', p);
    if (slash < 0) break;
    p = slash + 1;
  }
  while (name[cut] === '/') cut++;
  return name.slice(0, cut);
}

/** safer_name_suffix: the name without its unsafe prefix (said once per prefix), or '.' if nothing is left. */
export function saferName(t: Tar, name: string, linkTarget: boolean): string {
  if (t.opts.absoluteNames) return name;
  const prefix = unsafePrefix(name);
  if (prefix) t.once(`Removing leading \`${prefix}' from ${linkTarget ? 'hard link targets' : 'member names'}`);
  const rest = name.slice(prefix.length);
  if (rest === '') {
    if (prefix === '') t.once(`Substituting '.' for empty ${linkTarget ? 'hard link target' : 'member name'}`);
    return '.';
  }
  return rest;
}

/** The name with `n` leading components removed; null when nothing would be left. */
export function stripComponents(name: string, n: number): string | null {
  if (n === 0) return name;
  let p = 0;
  while (name[p] === '/') p++;
  for (let k = 0; k < n; k++) {
    const slash = name.indexOf('/', p);
    if (slash < 0) return null;
    p = slash + 1;
    while (name[p] === '/') p++;
  }
  return p < name.length ? name.slice(p) : null;
}

const leadingDirCache = new Map<string, RegExp>();

/** fnmatch with FNM_LEADING_DIR: the pattern matches the name or a leading directory part of it. */
function leadingDirMatch(pattern: string, name: string): boolean {
  let re = leadingDirCache.get(pattern);
  if (!re) {
    const whole = globRegExp(pattern, false).source;
    re = new RegExp(`${whole.slice(0, -1)}(?:/[^]*)?$`);
    leadingDirCache.set(pattern, re);
  }
  return re.test(name);
}

const trimSlashes = (s: string): string => (s.length > 1 ? s.replace(/\/+$/, '') : s);

export const hasWildcards = (s: string): boolean => /[*?[\\]/.test(s);

/** A name given for -t/-x, with the directory -C made current before it (absolute). */
export interface Wanted {
  name: string;
  dir: string;
}

/** The names given on the command line for -t/-x, each remembered once found. */
export class NameList {
  private readonly names: (Wanted & { found: boolean })[];

  constructor(
    names: Wanted[],
    private readonly wildcards: boolean,
  ) {
    this.names = names.map((n) => ({ name: trimSlashes(n.name), dir: n.dir, found: false }));
  }

  /** The name the member matches, marked found (the first one that matches); `all` when no names were given. */
  match(member: string, all: Wanted): Wanted | null {
    if (this.names.length === 0) return all;
    const m = trimSlashes(member);
    const hit = this.names.find((n) => (this.wildcards ? leadingDirMatch(n.name, m) : m === n.name || m.startsWith(`${n.name}/`)));
    if (!hit) return null;
    hit.found = true;
    return hit;
  }

  unfound(): string[] {
    return this.names.filter((n) => !n.found).map((n) => n.name);
  }
}

/** --exclude: wildcards by default, matched against the name and every part after a '/'. */
export function excluded(patterns: string[], name: string, wildcards: boolean): boolean {
  if (patterns.length === 0) return false;
  const n = trimSlashes(name);
  const tails = [n];
  for (let i = n.indexOf('/'); i >= 0; i = n.indexOf('/', i + 1)) if (i + 1 < n.length) tails.push(n.slice(i + 1));
  return patterns.some((p) => tails.some((s) => (wildcards ? leadingDirMatch(p, s) : s === p || s.startsWith(`${p}/`))));
}

// GNU gzip's file-name rules: which suffixes mark a compressed file, the
// name a file gets when compressed or decompressed, and the names tried when
// `gunzip NAME` names no existing file.

import { dirName, joinPath } from '../../../userland/lib/fs.js';

const KNOWN = ['.gz', '.z', '.taz', '.tgz', '-gz', '-z', '_z'];

/** The compressed-file suffix `name` ends with (the -S suffix first), case-insensitively; null if none. */
export function getSuffix(name: string, zsuffix: string): string | null {
  const lower = name.toLowerCase();
  for (const s of [zsuffix, ...KNOWN]) {
    if (!s) continue;
    const n = s.length;
    if (lower.length > n && lower.endsWith(s.toLowerCase()) && lower[lower.length - n - 1] !== '/') return name.slice(-n);
  }
  return null;
}

/** The decompressed name: the suffix removed, `.tgz`/`.taz` becoming `.tar`. */
export function stripSuffix(name: string, suffix: string): string {
  const base = name.slice(0, name.length - suffix.length);
  return /^\.t[ag]z$/i.test(suffix) ? `${base}.tar` : base;
}

/** The names `gunzip NAME` tries, in order, when NAME itself does not exist. */
export function candidates(name: string, zsuffix: string): string[] {
  return [...new Set([zsuffix, '.gz', '.z', '-z', '.Z'])].map((s) => name + s);
}

/** A stored name (-N) lands beside the compressed file. */
export const joinDir = (input: string, name: string): string => (input.includes('/') ? joinPath(dirName(input), name) : name);

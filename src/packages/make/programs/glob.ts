// Shell-style file name globbing for $(wildcard) and wildcards in rules:
// `*`, `?`, `[...]` per path component, dot files only when the component
// starts with a dot, results sorted as glibc's glob sorts them.

import type { Sys } from '../../../libc/sys.js';

const MAGIC = /[*?[]/;

export const hasMagic = (s: string): boolean => MAGIC.test(s);

function toRegExp(pat: string): RegExp {
  let re = '';
  for (let i = 0; i < pat.length; i++) {
    const c = pat[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = pat.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let set = pat.slice(i + 1, end);
        if (set[0] === '!' || set[0] === '^') set = `^${set.slice(1)}`;
        re += `[${set.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '\\' && i + 1 < pat.length) re += `\\${pat[++i]}`;
    else re += c.replace(/[.+^${}()|\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

function exists(sys: Sys, p: string): boolean {
  try {
    sys.lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Paths matching `pattern` (a pattern without magic: itself if it exists). */
export function glob(sys: Sys, pattern: string): string[] {
  if (!hasMagic(pattern)) {
    const plain = pattern.replace(/\\(.)/g, '$1');
    return exists(sys, plain) ? [plain] : [];
  }
  const abs = pattern.startsWith('/');
  const parts = pattern.split('/').filter((p, i) => p !== '' || i === 0);
  let found: string[] = [abs ? '/' : ''];
  for (let pi = abs ? 1 : 0; pi < parts.length; pi++) {
    const part = parts[pi];
    const last = pi === parts.length - 1;
    const next: string[] = [];
    for (const base of found) {
      const join = (n: string) => (base === '' ? n : base.endsWith('/') ? base + n : `${base}/${n}`);
      if (!hasMagic(part)) {
        const p = join(part.replace(/\\(.)/g, '$1'));
        if (exists(sys, p)) next.push(p);
        continue;
      }
      const re = toRegExp(part);
      let names: string[];
      try {
        names = sys.readdir(base === '' ? '.' : base).map((e) => e.name);
      } catch {
        continue;
      }
      for (const n of names.sort()) {
        if (n.startsWith('.') && !part.startsWith('.')) continue;
        if (!re.test(n)) continue;
        const p = join(n);
        if (!last) {
          try {
            if ((sys.stat(p).mode & 0o170000) !== 0o040000) continue;
          } catch {
            continue;
          }
        }
        next.push(p);
      }
    }
    found = next;
  }
  return found;
}

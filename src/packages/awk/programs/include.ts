// The program text from -f/-E files, -i includes and -e texts, in order, with
// gawk's `@include "file"` lines replaced by the file (each file once).
// -i and @include look in AWKPATH (default .:/usr/share/awk), trying ".awk".

import { SysError, strerror } from '../../../abi/errno.js';

/** A source that cannot be read: `fatal:` (exit 2) for -f, an `error:` (exit 1) for @include. */
export class SourceError extends Error {
  constructor(
    msg: string,
    readonly status = 2,
  ) {
    super(msg);
  }
}

export interface Source {
  kind: 'f' | 'e' | 'i';
  v: string;
}

const DEFAULT_AWKPATH = '.:/usr/share/awk';

export function expandIncludes(sources: Source[], read: (path: string) => string, awkpath = DEFAULT_AWKPATH): string {
  const seen = new Set<string>();
  const dirs = awkpath.split(':').map((d) => d || '.');

  /** `directive`: named by @include, which makes a missing file an error rather than fatal. */
  const readOrFail = (path: string, directive: boolean): string => {
    try {
      return read(path);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      const msg = `cannot open source file \`${path}' for reading: ${strerror(e.errno)}`;
      throw directive ? new SourceError(`cmd. line:1: error: ${msg}`, 1) : new SourceError(`fatal: ${msg}`);
    }
  };

  /** An include's file: as named if it has a slash, else the first hit in AWKPATH (name, then name.awk). */
  const find = (name: string): string => {
    const names = name.endsWith('.awk') ? [name] : [name, `${name}.awk`];
    if (name.includes('/')) return names.find((n) => exists(n)) ?? name;
    for (const d of dirs) for (const n of names) if (exists(`${d}/${n}`)) return `${d}/${n}`;
    return name;
  };
  const exists = (path: string): boolean => {
    try {
      read(path);
      return true;
    } catch {
      return false;
    }
  };

  const expand = (text: string): string =>
    text.replace(/^[ \t]*@(include|load)[ \t]+"([^"\n]*)"[ \t]*;?[ \t]*(#.*)?$/gm, (_all, what: string, name: string) => {
      if (what === 'load') throw new SourceError(`fatal: @load "${name}": dynamic extensions are not supported by this awk`);
      return include(name, true);
    });

  const include = (name: string, directive: boolean): string => {
    const path = find(name);
    if (seen.has(path)) return '';
    seen.add(path);
    return expand(readOrFail(path, directive));
  };

  return sources
    .map((s) => {
      if (s.kind === 'e') return expand(s.v);
      if (s.kind === 'i') return include(s.v, false);
      seen.add(s.v);
      return expand(readOrFail(s.v, false));
    })
    .join('\n');
}

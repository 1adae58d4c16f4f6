// Glob patterns (`* ? [...] \`) as RegExp source, shared by fnmatch-style
// globs (grep, find, diff, tar, zip), git's wildmatch and the shell's pattern
// matching. The callers differ in what `*` and `?` may cross, in `**`, and in
// how strictly bracket expressions follow bash; those are the options. Pure
// code every layer may use (docs/architecture.md).

import { isPosixClass, POSIX_CLASSES } from './posix-classes.js';

export interface BracketOptions {
  /** `[:name:]` classes, as RegExp class text. */
  classes: Readonly<Record<string, string>>;
  /**
   * bash's brackets: an unknown `[:name:]` makes the expression match nothing
   * and `[=c=]`/`[.c.]` stand for c. Otherwise (fnmatch, wildmatch) these are
   * plain characters of the set.
   */
  bash?: boolean;
  /** Put before a negated set (wildmatch: `(?!/)`, it never matches a slash). */
  negatedPrefix?: string;
}

/** A character inside a RegExp class (valid with and without the `u` flag). */
const classEsc = (c: string): string => (/[\\\]^[-]/.test(c) ? '\\' + c : c);

/**
 * The bracket expression at src[i] === '[' as a RegExp, and the index after
 * its `]`; null when it is not closed (then the `[` is literal). A reversed
 * range matches nothing, as in bash and glibc (RegExp would reject it).
 */
export function bracketSource(src: string, i: number, opts: BracketOptions): { source: string; end: number } | null {
  let j = i + 1;
  let neg = false;
  if (src[j] === '!' || src[j] === '^') {
    neg = true;
    j++;
  }
  let body = '';
  let first = true;
  let empty = false;
  for (;;) {
    if (j >= src.length) return null;
    let c = src[j];
    if (c === ']' && !first) {
      j++;
      break;
    }
    first = false;
    const kind = src[j + 1];
    if (c === '[' && (kind === ':' || (opts.bash && (kind === '=' || kind === '.')))) {
      const close = src.indexOf(kind + ']', j + 2);
      const name = close < 0 ? '' : src.slice(j + 2, close);
      if (close >= 0 && (opts.bash || isPosixClass(opts.classes, name))) {
        j = close + 2;
        if (kind !== ':') body += [...name].map(classEsc).join('');
        else if (isPosixClass(opts.classes, name)) body += opts.classes[name];
        else empty = true;
        continue;
      }
    }
    if (c === '\\' && j + 1 < src.length) c = src[++j];
    j++;
    if (src[j] === '-' && j + 1 < src.length && src[j + 1] !== ']') {
      let e = src[j + 1];
      j += 2;
      if (e === '\\' && j < src.length) e = src[j++];
      if (c.codePointAt(0)! <= e.codePointAt(0)!) body += classEsc(c) + '-' + classEsc(e);
      continue;
    }
    body += classEsc(c);
  }
  let source: string;
  if (body === '' || empty) source = neg ? '[^]' : '(?!)';
  else source = neg ? `${opts.negatedPrefix ?? ''}[^${body}]` : `[${body}]`;
  return { source, end: j };
}

export interface GlobOptions {
  /** `*` and `?` stop at '/', and a `**` path component spans directories (wildmatch's WM_PATHNAME). */
  pathname?: boolean;
  /** wildmatch: a negated set never matches '/'. */
  negatedPrefix?: string;
  /** `?` and a negated set match a whole astral character (a surrogate pair: 4 bytes in UTF-8), as fnmatch in a UTF-8 locale does. */
  wholeChars?: boolean;
}

/** One character: a surrogate pair or one code unit. */
const ANY = '(?:[\\ud800-\\udbff][\\udc00-\\udfff]|[^])';

/** A character outside a class (no `u` flag). */
const lit = (c: string): string => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** A whole glob as RegExp source (unanchored): fnmatch's `* ? [...] \` and, with `pathname`, git's `**`. */
export function globSource(pat: string, opts: GlobOptions = {}): string {
  const { pathname = false } = opts;
  const any = pathname ? '[^/]' : opts.wholeChars ? ANY : '[^]';
  const brackets: BracketOptions = { classes: POSIX_CLASSES, negatedPrefix: opts.negatedPrefix };
  let src = '';
  for (let i = 0; i < pat.length; i++) {
    const c = pat[i];
    if (c === '*') {
      let j = i;
      while (pat[j + 1] === '*') j++;
      const atStart = i === 0 || pat[i - 1] === '/';
      const atEnd = j + 1 === pat.length || pat[j + 1] === '/';
      if (pathname && j > i && atStart && atEnd) {
        if (j + 1 === pat.length) src += '[^]*';
        else {
          src += '(?:[^]*/)?';
          j++; // the slash is part of the match
        }
      } else src += `${any}*`;
      i = j;
    } else if (c === '?') src += any;
    else if (c === '\\' && i + 1 < pat.length) src += lit(pat[++i]);
    else if (c === '[') {
      const b = bracketSource(pat, i, brackets);
      if (b) {
        const negated = opts.wholeChars && b.source.startsWith('[^');
        src += negated ? `(?:(?!${b.source.replace('[^', '[')})${ANY})` : b.source;
        i = b.end - 1;
      } else src += '\\[';
    } else src += lit(c);
  }
  return src;
}

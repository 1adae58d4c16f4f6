// git's wildmatch as regular expressions: `*` and `?` stop at '/' when
// matching paths (gitignore), `**` spans directories, `[...]` classes,
// backslash escapes. Pathspecs match without the path flag (`*` crosses '/').

const CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', xdigit: '0-9A-Fa-f', cntrl: '\\x00-\\x1f\\x7f', print: ' -~', graph: '!-~',
};

const lit = (c: string): string => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

const cache = new Map<string, RegExp>();

export const hasGlob = (s: string): boolean => /[*?[\\]/.test(s);

export function wildRegExp(pat: string, pathname: boolean, fold = false): RegExp {
  const key = `${pathname ? 'p' : 'n'}${fold ? 'i' : 's'}${pat}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const any = pathname ? '[^/]' : '[^]';
  let src = '';
  for (let i = 0; i < pat.length; i++) {
    const c = pat[i];
    if (c === '*') {
      let j = i;
      while (pat[j + 1] === '*') j++;
      const double = j > i;
      const atStart = i === 0 || pat[i - 1] === '/';
      const atEnd = j + 1 === pat.length || pat[j + 1] === '/';
      if (pathname && double && atStart && atEnd) {
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
      let j = i + 1;
      let neg = false;
      if (pat[j] === '!' || pat[j] === '^') {
        neg = true;
        j++;
      }
      let body = '';
      let first = true;
      let closed = false;
      for (; j < pat.length; j++) {
        const d = pat[j];
        if (d === ']' && !first) {
          closed = true;
          break;
        }
        first = false;
        if (d === '[' && pat[j + 1] === ':') {
          const end = pat.indexOf(':]', j + 2);
          const name = end < 0 ? '' : pat.slice(j + 2, end);
          if (name in CLASSES) {
            body += CLASSES[name];
            j = end + 1;
            continue;
          }
        }
        if (d === '\\' && j + 1 < pat.length) body += lit(pat[++j]);
        else if (d === '-' && body !== '' && pat[j + 1] !== ']') body += '-';
        else body += lit(d);
      }
      if (closed) {
        src += neg ? `(?!/)[^${body}]` : `[${body}]`;
        i = j;
      } else src += '\\[';
    } else src += lit(c);
  }
  const re = new RegExp(`^${src}$`, fold ? 'i' : '');
  cache.set(key, re);
  return re;
}

export const wildmatch = (pat: string, s: string, pathname: boolean): boolean => wildRegExp(pat, pathname).test(s);

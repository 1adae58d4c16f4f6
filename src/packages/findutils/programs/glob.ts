// fnmatch(3) without flags, as -name/-path use it: `*` and `?` match any
// character including `/` and a leading dot; `[...]` classes with `!`/`^`
// negation, ranges and [:alpha:]-style names; backslash quotes.

const cache = new Map<string, RegExp>();

const CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', xdigit: '0-9A-Fa-f', cntrl: '\\x00-\\x1f\\x7f', print: ' -~', graph: '!-~',
};

const lit = (c: string): string => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** Parse a bracket expression at glob[i] === '['; null when it is not closed (then '[' is literal). */
function bracket(glob: string, i: number): { src: string; end: number } | null {
  let j = i + 1;
  let neg = false;
  if (glob[j] === '!' || glob[j] === '^') {
    neg = true;
    j++;
  }
  let body = '';
  let first = true;
  for (; j < glob.length; j++) {
    const c = glob[j];
    if (c === ']' && !first) return { src: `[${neg ? '^' : ''}${body}]`, end: j };
    first = false;
    if (c === '[' && glob[j + 1] === ':') {
      const close = glob.indexOf(':]', j + 2);
      const name = close < 0 ? '' : glob.slice(j + 2, close);
      if (name in CLASSES) {
        body += CLASSES[name];
        j = close + 1;
        continue;
      }
    }
    if (c === '\\' && j + 1 < glob.length) body += lit(glob[++j]);
    else if (c === '-' && body !== '' && glob[j + 1] !== ']') body += '-';
    else body += lit(c);
  }
  return null;
}

export function globRegExp(glob: string, fold: boolean): RegExp {
  const key = `${fold ? 'i' : 's'}${glob}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let src = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') src += '[^]*';
    else if (c === '?') src += '[^]';
    else if (c === '\\' && i + 1 < glob.length) src += lit(glob[++i]);
    else if (c === '[') {
      const b = bracket(glob, i);
      if (b) {
        src += b.src;
        i = b.end;
      } else src += '\\[';
    } else src += lit(c);
  }
  const re = new RegExp(`^(?:${src})$`, fold ? 'i' : '');
  cache.set(key, re);
  return re;
}

export const fnmatch = (glob: string, s: string, fold = false): boolean => globRegExp(glob, fold).test(s);

// fnmatch(3)-style globs: grep's --include / --exclude / --exclude-dir and
// find's -name / -path (findutils imports this, as sed and awk import regex.ts).
// `*` and `?` match any character including `/` and a leading dot; `[...]`
// classes with `!`/`^` negation, ranges and [:alpha:]-style names; backslash
// quotes.

const cache = new Map<string, RegExp>();

const CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', xdigit: '0-9A-Fa-f', cntrl: '\\x00-\\x1f\\x7f', print: ' -~', graph: '!-~',
};

/** One character: a surrogate pair (an astral character, 4 bytes in UTF-8) or one code unit. */
const ANY = '(?:[\\ud800-\\udbff][\\udc00-\\udfff]|[^])';

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
    else if (c === '?') src += ANY;
    else if (c === '\\' && i + 1 < glob.length) src += lit(glob[++i]);
    else if (c === '[') {
      const b = bracket(glob, i);
      if (b) {
        // A negated class matches one character too, not half of a surrogate pair.
        src += b.src.startsWith('[^') ? `(?:(?!${b.src.replace('[^', '[')})${ANY})` : b.src;
        i = b.end;
      } else src += '\\[';
    } else src += lit(c);
  }
  const re = new RegExp(`^(?:${src})$`, fold ? 'i' : '');
  cache.set(key, re);
  return re;
}

export const fnmatch = (glob: string, s: string, fold = false): boolean => globRegExp(glob, fold).test(s);

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

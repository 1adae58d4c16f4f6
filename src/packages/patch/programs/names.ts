// File names in patch headers, as GNU patch reads them: C-quoted or bare
// (spaces allowed when a tab separates the date), "/dev/null" meaning no
// file, leading components stripped by -p (all of them without -p), and the
// choice among the old, new and Index: names of the file to patch.

/** What a header's timestamp says: absent, the epoch (a file that does not exist), or a real time. */
export const NO_STAMP = -1;
export const EPOCH = 0;
export const STAMPED = 1;

export interface HeaderName {
  name: string | null;
  /** What follows the name on the header line (a tab and the date), without the newline. */
  timestr: string | null;
  stamp: number;
}

const isSpace = (c: string | undefined): boolean => c !== undefined && ' \t\n\v\f\r'.includes(c);

/** Parse a "quoted" C string at s[0]; returns the string and the index after it, or null. */
function cString(s: string): { value: string; end: number } | null {
  let out = '';
  const esc: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"' };
  for (let i = 1; i < s.length; i++) {
    const c = s[i];
    if (c === '"') return { value: out, end: i + 1 };
    if (c === '\n') return null;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const d = s[++i];
    if (d !== undefined && d in esc) out += esc[d];
    else if (d !== undefined && d >= '0' && d <= '7') {
      const m = /^[0-7]{1,3}/.exec(s.slice(i)) as RegExpExecArray;
      out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else return null;
  }
  return null;
}

/** Strip `strip` leading components (all directories when negative); null when there are too few. */
export function stripName(name: string, strip: number): string | null {
  let s = strip;
  let n = 0;
  for (let p = 0; p < name.length; p++) {
    if (name[p] !== '/') continue;
    while (name[p + 1] === '/') p++;
    if (strip < 0 || --s >= 0) n = p + 1;
  }
  if ((strip < 0 || s <= 0) && n < name.length) return name.slice(n);
  return null;
}

/** The epoch within a day either way (a local-time epoch): diff -N's marker for an absent file. */
function stampOf(t: string): number {
  const s = t.trim();
  if (s === '') return NO_STAMP;
  if (/^(1970-01-01|1969-12-31)\b/.test(s) || /\b(Jan\s+1|Dec\s+31)\s+\d\d:\d\d:\d\d(\.\d+)?\s+(1970|1969)\b/.test(s)) return EPOCH;
  return /\d/.test(s) ? STAMPED : NO_STAMP;
}

/** GNU's fetchname: the name after "--- ", "+++ ", "*** " or "Index:". */
export function fetchName(at: string, strip: number, withStamp: boolean): HeaderName | null {
  let i = 0;
  while (isSpace(at[i])) i++;
  const s = at.slice(i);
  let name: string;
  let t: number;
  if (s[0] === '"') {
    const q = cString(s);
    if (!q) return null;
    name = q.value;
    t = q.end;
  } else {
    t = 0;
    for (; t < s.length; t++) {
      if (!isSpace(s[t])) continue;
      // Internal spaces are allowed when a tab separates the name from the date.
      let u = t;
      while (s[u] !== '\t' && isSpace(s[u + 1])) u++;
      if (s[u] !== '\t' && s.indexOf(withStamp ? '\t' : '\n', u + 1) >= 0) continue;
      break;
    }
    name = s.slice(0, t);
  }
  if (name === '/dev/null') return { name: null, timestr: null, stamp: EPOCH };
  const stripped = stripName(name, strip);
  if (stripped === null) return null;
  const rest = s.slice(t).replace(/\r?\n$/, '');
  const stamp = withStamp && s[t] !== '\n' && t < s.length ? stampOf(rest) : NO_STAMP;
  return { name: stripped, timestr: rest, stamp };
}

/** How many directory components precede the last one. */
export function prefixComponents(name: string): number {
  let n = 0;
  for (let i = 1; i < name.length; i++) if (name[i] === '/' && name[i - 1] !== '/') n++;
  return n;
}

const lastComponent = (name: string): string => name.slice(name.replace(/\/+$/, '').lastIndexOf('/') + 1);

/** GNU's best_name: fewest components, then shortest basename, then shortest name, then first. */
export function bestName(names: (string | null)[], ignore: boolean[]): number {
  let compMin = Infinity;
  let baseMin = Infinity;
  let lenMin = Infinity;
  const comp: number[] = [];
  const base: number[] = [];
  const len: number[] = [];
  names.forEach((n, i) => {
    if (n === null || ignore[i]) return;
    comp[i] = prefixComponents(n);
    if (compMin < comp[i]) return;
    compMin = comp[i];
    base[i] = lastComponent(n).length;
    if (baseMin < base[i]) return;
    baseMin = base[i];
    len[i] = n.length;
    if (lenMin < len[i]) return;
    lenMin = len[i];
  });
  return names.findIndex((n, i) => n !== null && !ignore[i] && safeName(n) && comp[i] === compMin && base[i] === baseMin && len[i] === lenMin);
}

/** Relative and free of ".." components (GNU refuses others unless run from /). */
export function safeName(name: string): boolean {
  if (name.startsWith('/')) return false;
  return !name.split('/').includes('..');
}

// Version ordering (sort -V): GNU's filevercmp — Debian version comparison on
// the names with their file suffixes set aside, hidden names first.

const order = (ch: string): number => {
  if (ch === '~') return -1;
  if (ch === '' || (ch >= '0' && ch <= '9')) return 0;
  if (/[A-Za-z]/.test(ch)) return ch.charCodeAt(0);
  return ch.charCodeAt(0) + 256;
};

const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9';

function verrevcmp(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let first = 0;
    while ((i < a.length && !isDigit(a[i])) || (j < b.length && !isDigit(b[j]))) {
      const ac = i < a.length ? order(a[i]) : 0;
      const bc = j < b.length ? order(b[j]) : 0;
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    while (isDigit(a[i]) && isDigit(b[j])) {
      if (!first) first = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a[i])) return 1;
    if (isDigit(b[j])) return -1;
    if (first) return first;
  }
  return 0;
}

/** Length of the name without its suffix (`(\.[A-Za-z~][A-Za-z0-9~]*)*$`). */
function prefixLen(s: string): number {
  const m = /(?:\.[A-Za-z~][A-Za-z0-9~]*)*$/.exec(s);
  return m ? m.index : s.length;
}

export function versionCompare(a: string, b: string): number {
  if (a === b) return 0;
  const special = (s: string) => (s === '' ? 0 : s === '.' ? 1 : s === '..' ? 2 : 3);
  const sa = special(a);
  const sb = special(b);
  if (sa !== 3 || sb !== 3) return sa - sb;
  const ha = a.startsWith('.');
  const hb = b.startsWith('.');
  if (ha !== hb) return ha ? -1 : 1;
  const ia = ha ? 1 : 0;
  const ib = hb ? 1 : 0;
  const pa = a.slice(ia, prefixLen(a.slice(ia)) + ia);
  const pb = b.slice(ib, prefixLen(b.slice(ib)) + ib);
  const r = pa === pb ? 0 : verrevcmp(pa, pb);
  return r || verrevcmp(a.slice(ia), b.slice(ib));
}

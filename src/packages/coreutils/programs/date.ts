// Date strings for touch -d / -t (a practical subset of GNU's parser), in UTC.
// Accepted: @SECONDS, YYYY-MM-DD, YYYY-MM-DD[ T]HH:MM[:SS[.frac]] [Z|UTC|+HH:MM], and
// "now", "today", "yesterday", "tomorrow".

export function parseDate(s: string): number | null {
  const t = s.trim();
  if (/^@-?\d+(\.\d+)?$/.test(t)) return Number(t.slice(1)) * 1000;
  const now = Date.now();
  const rel: Record<string, number> = { now: 0, today: 0, yesterday: -86400e3, tomorrow: 86400e3 };
  if (t.toLowerCase() in rel) return now + rel[t.toLowerCase()];
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i.exec(t);
  if (!m) return null;
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return null;
  let ms = Date.UTC(y, mo - 1, d, h, mi, sec) + (m[7] ? Number(m[7]) * 1000 : 0);
  const z = m[8];
  if (z && /^[+-]/.test(z)) {
    const zz = z.replace(':', '');
    const off = (Number(zz.slice(1, 3)) * 60 + Number(zz.slice(3, 5))) * 60e3;
    ms -= z[0] === '+' ? off : -off;
  }
  return ms;
}

/** touch -t [[CC]YY]MMDDhhmm[.ss]. */
export function parseStamp(s: string): number | null {
  const m = /^(\d{8}|\d{10}|\d{12})(?:\.(\d{2}))?$/.exec(s);
  if (!m) return null;
  let digits = m[1];
  let year = new Date().getUTCFullYear();
  if (digits.length === 12) {
    year = Number(digits.slice(0, 4));
    digits = digits.slice(4);
  } else if (digits.length === 10) {
    const yy = Number(digits.slice(0, 2));
    year = yy < 69 ? 2000 + yy : 1900 + yy;
    digits = digits.slice(2);
  }
  const [mo, d, h, mi] = [0, 2, 4, 6].map((i) => Number(digits.slice(i, i + 2)));
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  return Date.UTC(year, mo - 1, d, h, mi, Number(m[2] ?? 0));
}

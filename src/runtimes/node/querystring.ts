// The `querystring` module.

const esc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const unesc = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s.replace(/\+/g, ' ');
  }
};

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' && isFinite(v) ? String(v) : typeof v === 'bigint' || typeof v === 'boolean' ? String(v) : '');

export function makeQuerystring() {
  const parse = (s: string, sep = '&', eq = '=', o: { maxKeys?: number } = {}) => {
    const out = Object.create(null) as Record<string, string | string[]>;
    if (typeof s !== 'string' || s === '') return out;
    let parts = s.split(sep);
    if ((o.maxKeys ?? 1000) > 0) parts = parts.slice(0, o.maxKeys ?? 1000);
    for (const part of parts) {
      if (!part) continue;
      const i = part.indexOf(eq);
      const k = unesc(i < 0 ? part : part.slice(0, i));
      const v = i < 0 ? '' : unesc(part.slice(i + eq.length));
      const cur = out[k];
      if (cur === undefined) out[k] = v;
      else if (Array.isArray(cur)) cur.push(v);
      else out[k] = [cur, v];
    }
    return out;
  };
  const stringify = (o: Record<string, unknown>, sep = '&', eq = '=') => {
    if (!o || typeof o !== 'object') return '';
    return Object.keys(o).map((k) => {
      const v = o[k];
      if (Array.isArray(v)) return v.map((x) => `${esc(k)}${eq}${esc(str(x))}`).join(sep);
      return `${esc(k)}${eq}${esc(str(v))}`;
    }).filter(Boolean).join(sep);
  };
  return { parse, stringify, decode: parse, encode: stringify, escape: esc, unescape: unesc };
}

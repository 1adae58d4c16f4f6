// The `url` module: WHATWG URL plus fileURLToPath/pathToFileURL and the legacy parse/format/resolve.

import { nodeError } from './errors.js';

export function fileURLToPath(u: string | URL): string {
  const url = typeof u === 'string' ? new URL(u) : u;
  if (url.protocol !== 'file:') throw nodeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (url.hostname) throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  if (/%2f/i.test(url.pathname)) throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
  return decodeURIComponent(url.pathname);
}

export function makeUrl(resolve: (p: string) => string) {
  const pathToFileURL = (p: string) => {
    let abs = resolve(p);
    if (p.endsWith('/') && !abs.endsWith('/')) abs += '/';
    return new URL(`file://${abs.split('/').map((s) => encodeURIComponent(s)).join('/')}`);
  };
  const parse = (s: string, parseQuery = false) => {
    const m = /^(?:([a-z][a-z0-9+.-]*:))?(?:\/\/(?:([^@/?#]*)@)?([^:/?#]*)(?::(\d+))?)?([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(s)!;
    const search = m[6] ?? null;
    const query = search ? search.slice(1) : null;
    return {
      protocol: m[1]?.toLowerCase() ?? null, slashes: s.includes('//') || null, auth: m[2] ?? null,
      host: m[3] ? `${m[3].toLowerCase()}${m[4] ? `:${m[4]}` : ''}` : null, port: m[4] ?? null, hostname: m[3]?.toLowerCase() ?? null,
      hash: m[7] ?? null, search, query: parseQuery ? Object.fromEntries(new URLSearchParams(query ?? '')) : query,
      pathname: m[5] || (m[3] ? '/' : null), path: `${m[5] ?? ''}${search ?? ''}` || null, href: s,
    };
  };
  const format = (u: URL | Record<string, unknown> | string) => {
    if (typeof u === 'string') return u;
    if (u instanceof URL) return u.href;
    const proto = (u.protocol as string) ?? '';
    const host = (u.host as string) ?? `${u.hostname ?? ''}${u.port ? `:${u.port}` : ''}`;
    const q = u.search ?? (u.query && typeof u.query === 'object' ? `?${new URLSearchParams(u.query as Record<string, string>)}` : '');
    return `${proto}${proto && host ? '//' : ''}${u.auth ? `${u.auth}@` : ''}${host}${u.pathname ?? ''}${q}${u.hash ?? ''}`;
  };
  return {
    URL, URLSearchParams, fileURLToPath, pathToFileURL, parse, format,
    resolve: (from: string, to: string) => new URL(to, new URL(from, 'resolve://')).href.replace(/^resolve:\/\//, ''),
    domainToASCII: (d: string) => new URL(`http://${d}`).hostname,
    domainToUnicode: (d: string) => d,
  };
}

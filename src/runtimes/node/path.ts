// The `path` module (POSIX only, as on Linux); `resolve` uses the process's cwd.

function normalizeParts(path: string, absolute: boolean): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
    } else out.push(seg);
  }
  return out.join('/');
}

function str(p: unknown, name = 'path'): string {
  if (typeof p !== 'string') {
    const e = new TypeError(`The "${name}" argument must be of type string. Received ${p === null ? 'null' : typeof p === 'object' ? 'an instance of ' + ((p as object).constructor?.name ?? 'Object') : `type ${typeof p} (${String(p)})`}`) as TypeError & { code: string };
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  return p;
}

export function makePath(cwd: () => string) {
  const path = {
    sep: '/',
    delimiter: ':',
    normalize(p: string): string {
      str(p);
      if (p === '') return '.';
      const abs = p.startsWith('/');
      const trail = p.endsWith('/');
      let r = normalizeParts(p, abs);
      if (r === '' && !abs) r = '.';
      if (r !== '' && trail) r += '/';
      return abs ? '/' + r : r;
    },
    join(...parts: string[]): string {
      for (const p of parts) str(p);
      const j = parts.filter((p) => p !== '').join('/');
      return j === '' ? '.' : path.normalize(j);
    },
    resolve(...parts: string[]): string {
      let r = '';
      for (let i = parts.length - 1; i >= 0 && !r.startsWith('/'); i--) {
        const p = str(parts[i], `paths[${i}]`);
        if (p !== '') r = r ? `${p}/${r}` : p;
      }
      if (!r.startsWith('/')) r = `${cwd()}/${r}`;
      return '/' + normalizeParts(r, true);
    },
    isAbsolute: (p: string): boolean => str(p).startsWith('/'),
    relative(from: string, to: string): string {
      const f = path.resolve(from).split('/').filter(Boolean);
      const t = path.resolve(to).split('/').filter(Boolean);
      let i = 0;
      while (i < f.length && i < t.length && f[i] === t[i]) i++;
      return [...f.slice(i).map(() => '..'), ...t.slice(i)].join('/');
    },
    dirname(p: string): string {
      str(p);
      if (p === '') return '.';
      const s = p.replace(/\/+$/, '');
      if (s === '') return '/';
      const i = s.lastIndexOf('/');
      if (i < 0) return '.';
      const d = s.slice(0, i).replace(/\/+$/, '');
      return d === '' ? '/' : d;
    },
    basename(p: string, ext?: string): string {
      str(p);
      const s = p.replace(/\/+$/, '');
      let b = s.slice(s.lastIndexOf('/') + 1);
      if (ext !== undefined && b.endsWith(ext) && b !== ext) b = b.slice(0, b.length - ext.length);
      return b;
    },
    extname(p: string): string {
      const b = path.basename(p);
      const i = b.lastIndexOf('.');
      return i <= 0 ? '' : b.slice(i);
    },
    parse(p: string) {
      str(p);
      const root = p.startsWith('/') ? '/' : '';
      const base = path.basename(p);
      const ext = path.extname(p);
      let dir = path.dirname(p);
      if (dir === '.' && !p.includes('/')) dir = '';
      return { root, dir, base, ext, name: ext ? base.slice(0, -ext.length) : base };
    },
    format(o: { root?: string; dir?: string; base?: string; name?: string; ext?: string }): string {
      const dir = o.dir || o.root || '';
      const ext = o.ext ? (o.ext.startsWith('.') ? o.ext : `.${o.ext}`) : '';
      const base = o.base || `${o.name ?? ''}${ext}`;
      return dir ? (dir === o.root ? `${dir}${base}` : `${dir}/${base}`) : base;
    },
    toNamespacedPath: (p: string): string => p,
    posix: null as unknown,
    win32: null as unknown,
  };
  path.posix = path;
  path.win32 = path;
  return path;
}

export type PathModule = ReturnType<typeof makePath>;

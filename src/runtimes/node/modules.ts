// CommonJS modules over the VFS with Node's resolution: relative and absolute
// paths with .js/.json/.cjs extensions and directory index files, node_modules
// walking up from the requiring file, package.json "main" and "exports"
// (strings, subpaths, conditions), the cache, cycles, require.resolve, and the
// hand-over to ES modules (esm.ts) for .mjs files and "type": "module".

import { SysError } from '../../abi/errno.js';
import { programKey } from '../../abi/runtime.js';
import { isDir, isReg } from '../../abi/stat.js';
import { nodeError } from './errors.js';
import { rewriteDynamicImports } from './esm-transform.js';
import { evaluateGuest } from '../js/compile.js';
import type { Rt } from './rt.js';

export const BUILTIN_NAMES = new Set([
  'assert', 'assert/strict', 'buffer', 'child_process', 'console', 'constants', 'crypto', 'events', 'fs', 'fs/promises',
  'module', 'os', 'path', 'path/posix', 'process', 'querystring', 'readline', 'readline/promises', 'stream',
  'stream/promises', 'string_decoder', 'timers', 'timers/promises', 'tty', 'url', 'util', 'util/types', 'worker_threads',
  'perf_hooks', 'vm', 'zlib', 'net', 'http', 'http2', 'https', 'v8', 'dns', 'dns/promises', 'tls',
]);

/** Node built-ins this runtime does not provide (no threads or inspector): a clear error, not a node_modules search. */
const MISSING = new Set(['dgram', 'cluster', 'inspector', 'async_hooks',
  'trace_events', 'diagnostics_channel', 'repl', 'wasi', 'sea', 'test', 'sqlite']);

/** `node:x` or a bare built-in name → the built-in's name; otherwise null. */
export function builtinName(req: string): string | null {
  if (req.startsWith('node:')) return req.slice(5);
  return BUILTIN_NAMES.has(req) || MISSING.has(req) ? req : null;
}

export interface ModuleRecord {
  id: string;
  filename: string;
  path: string;
  exports: unknown;
  loaded: boolean;
  parent: ModuleRecord | null | undefined;
  children: ModuleRecord[];
  paths: string[];
  require: RequireFn;
}

export interface RequireFn {
  (id: string): unknown;
  resolve: ((id: string, opts?: { paths?: string[] }) => string) & { paths: (id: string) => string[] | null };
  cache: Record<string, ModuleRecord>;
  main: ModuleRecord | undefined;
}

type Wrapper = (...a: unknown[]) => unknown;

/** Compiled wrappers by file identity and path, kept per worker so re-runs skip parsing. */
const compiled = new Map<string, Wrapper>();

/** Names the wrapper passes in, shadowing the worker's own globals for guest code. */
export const WRAP_PARAMS = ['exports', 'require', 'module', '__filename', '__dirname', 'process', 'Buffer', 'console', 'setTimeout',
  'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'global', 'fetch'];

/** Bounded per-worker caches: edited files leave old versions behind. */
export function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= 1000) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}

const utf8 = new TextDecoder();

/** Compile `body` as the function body with `params`, keeping the source's line numbers. */
export function compileFunction(body: string, params: string[], filename: string, async = false): Wrapper {
  if (body.startsWith('#!')) body = '//' + body.slice(2);
  const src = `(${async ? 'async ' : ''}function (${params.join(', ')}) {${body}\n})\n//# sourceURL=${filename}`;
  return evaluateGuest(src, filename) as Wrapper;
}

/**
 * A CommonJS module: Node's five-parameter wrapper inside one that takes the runtime's globals, so a
 * module may declare its own `const process = require('process')` as it can under Node.
 */
export function compileCjs(source: string, filename: string): (...globals: unknown[]) => Wrapper {
  if (source.startsWith('#!')) source = '//' + source.slice(2);
  return compileFunction(`return function (${WRAP_PARAMS.slice(0, 5).join(', ')}) {${source}\n}`, [...WRAP_PARAMS.slice(5), '__import'], filename) as (...globals: unknown[]) => Wrapper;
}

export class Loader {
  cache: Record<string, ModuleRecord> = Object.create(null) as Record<string, ModuleRecord>;
  main: ModuleRecord | undefined;
  /** Guest sources by filename, for the uncaught-exception source line. */
  sources = new Map<string, string>();
  private pkgCache = new Map<string, Record<string, unknown> | null>();
  /** Set by the runtime: the values of WRAP_PARAMS after the first five. */
  globals: unknown[] = [];
  /** ES module support, attached by esm.ts. */
  esm!: {
    importFile(file: string): Promise<Record<string, unknown>>;
    import(spec: string, from: string, fromIsDir?: boolean): Promise<Record<string, unknown>>;
    requireFile(file: string): Record<string, unknown>;
    isEsm(file: string): boolean;
  };

  constructor(private rt: Rt) {}

  private stat(p: string) {
    try {
      return this.rt.sys.stat(p);
    } catch (e) {
      if (e instanceof SysError) return null;
      throw e;
    }
  }
  isFile(p: string): boolean { const s = this.stat(p); return !!s && isReg(s.mode); }
  isDirectory(p: string): boolean { const s = this.stat(p); return !!s && isDir(s.mode); }

  readText(p: string): string {
    return utf8.decode(this.rt.sys.readFile(p));
  }

  /** The parsed package.json in `dir`, or null. */
  pkg(dir: string): Record<string, unknown> | null {
    if (this.pkgCache.has(dir)) return this.pkgCache.get(dir)!;
    let v: Record<string, unknown> | null = null;
    try {
      v = JSON.parse(this.readText(`${dir === '/' ? '' : dir}/package.json`)) as Record<string, unknown>;
    } catch (e) {
      if (e instanceof SyntaxError) throw Object.assign(new Error(`Invalid package config ${dir}/package.json.`), { code: 'ERR_INVALID_PACKAGE_CONFIG' });
      if (!(e instanceof SysError)) throw e;
    }
    this.pkgCache.set(dir, v);
    return v;
  }

  /** The nearest package.json's "type" for a file. */
  packageType(file: string): string {
    for (let dir = this.rt.path.dirname(file); ; dir = this.rt.path.dirname(dir)) {
      const p = this.pkg(dir);
      if (p) return typeof p.type === 'string' ? p.type : 'commonjs';
      if (dir === '/') return 'commonjs';
    }
  }

  private tryFile(p: string): string | null {
    if (this.isFile(p)) return p;
    for (const ext of ['.js', '.json', '.cjs', '.mjs']) if (ext !== '.mjs' && this.isFile(p + ext)) return p + ext;
    return null;
  }

  private tryDir(p: string): string | null {
    const pj = this.pkg(p);
    if (pj && typeof pj.main === 'string' && pj.main) {
      const m = this.rt.path.resolve(p, pj.main);
      const hit = this.tryFile(m) ?? this.tryIndex(m);
      if (hit) return hit;
    }
    return this.tryIndex(p);
  }

  private tryIndex(p: string): string | null {
    for (const f of ['index.js', 'index.json', 'index.cjs']) if (this.isFile(`${p}/${f}`)) return `${p}/${f}`;
    return null;
  }

  /** Directories searched for bare names, as module.paths. */
  nodePaths(from: string): string[] {
    const out: string[] = [];
    for (let dir = from; ; dir = this.rt.path.dirname(dir)) {
      if (!dir.endsWith('/node_modules')) out.push(`${dir === '/' ? '' : dir}/node_modules`);
      if (dir === '/') break;
    }
    // Then $NODE_PATH's directories, as Node's global folders.
    for (const d of (this.rt.ctx.env.find((kv) => kv.startsWith('NODE_PATH='))?.slice(10) ?? '').split(':')) if (d) out.push(d);
    return out;
  }

  /** Resolve a request from a directory; `conditions` pick "exports" branches (require or import). */
  resolve(req: string, fromDir: string, conditions: string[], parent?: string, paths?: string[]): string {
    if (builtinName(req) !== null) return req.startsWith('node:') ? req : `node:${req}`;
    if (req.startsWith('file://')) req = decodeURIComponent(new URL(req).pathname);
    if (req.startsWith('#')) return this.resolveImports(req, fromDir, conditions, parent);
    if (req.startsWith('./') || req.startsWith('../') || req.startsWith('/') || req === '.' || req === '..') {
      const abs = this.rt.path.resolve(fromDir, req);
      const hit = (req.endsWith('/') ? null : this.tryFile(abs)) ?? this.tryDir(abs);
      if (hit) return this.real(hit);
    } else {
      const m = /^((?:@[^/]+\/)?[^/]+)(\/.*)?$/.exec(req);
      if (m) {
        const [, name, sub = ''] = m;
        for (const nm of paths ?? this.nodePaths(fromDir)) {
          const dir = `${nm}/${name}`;
          if (!this.isDirectory(dir)) continue;
          const pj = this.pkg(dir);
          if (pj && pj.exports !== undefined && pj.exports !== null) {
            const target = this.exportsTarget(pj.exports, `.${sub}`, conditions);
            if (target === null) {
              throw Object.assign(new Error(`Package subpath '.${sub}' is not defined by "exports" in ${dir}/package.json${parent ? ` imported from ${parent}` : ''}`), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
            }
            const abs = this.rt.path.resolve(dir, target);
            if (this.isFile(abs)) return this.real(abs);
            break;
          }
          const abs = `${dir}${sub}`;
          const hit = (sub ? this.tryFile(abs) : null) ?? this.tryDir(abs);
          if (hit) return this.real(hit);
        }
      }
    }
    const e = new Error(`Cannot find module '${req}'${parent ? `\nRequire stack:\n- ${parent}` : ''}`) as Error & { code: string; requireStack: string[] };
    e.code = 'MODULE_NOT_FOUND';
    e.requireStack = parent ? [parent] : [];
    throw e;
  }

  private real(p: string): string {
    try {
      return this.rt.sys.realpath(p);
    } catch {
      return p;
    }
  }

  /** `#name` specifiers: the nearest package.json's "imports" map (to a file in the package, or to another package). */
  private resolveImports(req: string, fromDir: string, conditions: string[], parent?: string): string {
    for (let dir = fromDir; ; dir = this.rt.path.dirname(dir)) {
      const pj = this.pkg(dir);
      if (pj) {
        const target = typeof pj.imports === 'object' && pj.imports !== null ? this.mapTarget(pj.imports as Record<string, unknown>, req, conditions) : null;
        if (target === null) {
          throw nodeError(TypeError, 'ERR_PACKAGE_IMPORT_NOT_DEFINED', `Package import specifier "${req}" is not defined in package ${dir}/package.json${parent ? ` imported from ${parent}` : ''}`);
        }
        return target.startsWith('./') ? this.real(this.rt.path.resolve(dir, target)) : this.resolve(target, dir, conditions, parent);
      }
      if (dir === '/') break;
    }
    throw nodeError(TypeError, 'ERR_PACKAGE_IMPORT_NOT_DEFINED', `Package import specifier "${req}" is not defined${parent ? ` imported from ${parent}` : ''}`);
  }

  /** package.json "exports": the target for a subpath ('.' or './x'), or null. */
  private exportsTarget(exp: unknown, sub: string, conditions: string[]): string | null {
    const isMap = typeof exp === 'object' && exp !== null && !Array.isArray(exp) && Object.keys(exp).some((k) => k.startsWith('.'));
    if (!isMap) return sub === '.' ? this.condTarget(exp, conditions, '') : null;
    return this.mapTarget(exp as Record<string, unknown>, sub, conditions);
  }

  /** A subpath map (exports or imports): exact keys, then the longest `*` pattern or `/` prefix. */
  private mapTarget(map: Record<string, unknown>, sub: string, conditions: string[]): string | null {
    if (Object.hasOwn(map, sub)) return this.condTarget(map[sub], conditions, '');
    let best: [string, string] | null = null;
    for (const key of Object.keys(map)) {
      const star = key.indexOf('*');
      if (star >= 0) {
        const pre = key.slice(0, star);
        const post = key.slice(star + 1);
        if (sub.startsWith(pre) && sub.endsWith(post) && sub.length >= key.length - 1 && (!best || pre.length > best[0].length)) {
          best = [key, sub.slice(pre.length, sub.length - post.length)];
        }
      } else if (key.endsWith('/') && sub.startsWith(key) && (!best || key.length > best[0].length)) best = [key, sub.slice(key.length)];
    }
    if (!best) return null;
    const t = this.condTarget(map[best[0]], conditions, best[1]);
    return t;
  }

  private condTarget(t: unknown, conditions: string[], star: string): string | null {
    if (typeof t === 'string') return t.includes('*') ? t.split('*').join(star) : t + (star && t.endsWith('/') ? star : '');
    if (Array.isArray(t)) {
      for (const x of t) {
        const r = this.condTarget(x, conditions, star);
        if (r !== null) return r;
      }
      return null;
    }
    if (typeof t === 'object' && t !== null) {
      for (const [k, v] of Object.entries(t)) {
        if (k === 'default' || conditions.includes(k)) {
          const r = this.condTarget(v, conditions, star);
          if (r !== null) return r;
        }
      }
    }
    return null;
  }

  /** import() for CommonJS code in `file` (or [eval] code: `from` is then a directory). */
  dynamicImport(from: string, fromIsDir = false): (spec: unknown) => Promise<unknown> {
    return (spec) => this.esm.import(String(spec), from, fromIsDir);
  }

  /** A `require` function for code in `mod` (or for [eval] code in a directory). */
  makeRequire(mod: ModuleRecord | null, dir: string): RequireFn {
    const parent = mod?.filename;
    const req = ((id: string) => {
      if (typeof id !== 'string') {
        throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "id" argument must be of type string. Received ${id === null ? 'null' : typeof id}`);
      }
      if (id === '') throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'id' must be a non-empty string. Received ''");
      const b = builtinName(id);
      if (b !== null) return this.rt.builtin(b);
      const file = this.resolve(id, dir, ['require', 'module-sync', 'node'], parent);
      return this.load(file, mod).exports;
    }) as RequireFn;
    const resolve = ((id: string, opts?: { paths?: string[] }) => {
      const b = builtinName(id);
      if (b !== null) return id;
      const paths = opts?.paths?.flatMap((p) => this.nodePaths(this.rt.path.resolve(p)));
      return this.resolve(id, dir, ['require', 'module-sync', 'node'], parent, paths);
    }) as RequireFn['resolve'];
    resolve.paths = (id: string) => (builtinName(id) !== null ? null : this.nodePaths(dir));
    req.resolve = resolve;
    req.cache = this.cache;
    Object.defineProperty(req, 'main', { get: () => this.main, enumerable: true });
    return req;
  }

  newModule(filename: string, parent: ModuleRecord | null | undefined): ModuleRecord {
    const dir = this.rt.path.dirname(filename);
    const m: ModuleRecord = {
      id: filename, filename, path: dir, exports: {}, loaded: false, parent, children: [], paths: this.nodePaths(dir),
      require: null as unknown as RequireFn,
    };
    m.require = this.makeRequire(m, dir);
    Object.defineProperty(m, 'isPreloading', { value: false });
    return m;
  }

  /** Load (or fetch from the cache) a CommonJS module or JSON file. */
  load(file: string, parent: ModuleRecord | null | undefined): ModuleRecord {
    const cached = this.cache[file];
    if (cached) {
      if (parent && !parent.children.includes(cached)) parent.children.push(cached);
      return cached;
    }
    if (this.esm.isEsm(file)) {
      // Node 20.19: require() of an ES module without top-level await gives its namespace.
      const m = this.newModule(file, parent);
      m.exports = this.esm.requireFile(file);
      m.loaded = true;
      this.cache[file] = m;
      return m;
    }
    const m = this.newModule(file, parent);
    this.cache[file] = m;
    if (parent) parent.children.push(m);
    let ok = false;
    try {
      if (file.endsWith('.json')) {
        const text = this.readText(file);
        try {
          m.exports = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
        } catch (e) {
          (e as Error).message = `${file}: ${(e as Error).message}`;
          throw e;
        }
      } else this.runCjs(m, file);
      ok = true;
    } finally {
      if (!ok) delete this.cache[file];
    }
    m.loaded = true;
    return m;
  }

  /** Compile (or reuse) the wrapper for a file and run it as a module. */
  runCjs(m: ModuleRecord, file: string, source?: string): void {
    let fn: Wrapper | undefined;
    let key = '';
    if (source === undefined) {
      const fd = this.rt.sys.open(file);
      try {
        const st = this.rt.sys.fstat(fd);
        key = `${programKey(st)}:${file}`;
        fn = compiled.get(key);
        if (!fn || !this.sources.has(file)) source = utf8.decode(this.rt.sys.readAll(fd));
      } finally {
        this.rt.sys.close(fd);
      }
    }
    if (source !== undefined) this.sources.set(file, source);
    if (!fn) {
      fn = compileCjs(rewriteDynamicImports(source!), file);
      if (key) remember(compiled, key, fn);
    }
    (fn(...this.globals, this.dynamicImport(file)) as Wrapper).call(m.exports, m.exports, m.require, m, file, this.rt.path.dirname(file));
  }
}


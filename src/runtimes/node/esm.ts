// ES modules from the VFS: each module is transformed (esm-transform.ts) into
// an async function and linked by this loader; CommonJS modules, JSON and
// built-ins are imported as namespaces { default: exports, ...exports }.

import { compileFunction, type Loader, WRAP_PARAMS, builtinName } from './modules.js';
import type { Rt } from './rt.js';
import { transformEsm } from './esm-transform.js';
import { nodeError } from './errors.js';

type Ns = Record<string, unknown>;
type Body = (...a: unknown[]) => Promise<unknown>;

interface Rec {
  ns: Ns;
  done: boolean;
  promise: Promise<Ns>;
}

const ESM_PARAMS = ['__export', '__deps', '__ns', '__meta', '__import', ...WRAP_PARAMS.slice(5)];
/** Transformed and compiled modules by file identity, per worker. */
const compiled = new Map<string, Body>();
const utf8 = new TextDecoder();

function newNs(): Ns {
  const ns = Object.create(null) as Ns;
  Object.defineProperty(ns, Symbol.toStringTag, { value: 'Module' });
  return ns;
}

/** A namespace for CommonJS exports: default plus its own enumerable keys. */
export function cjsNamespace(exports: unknown): Ns {
  const ns = newNs();
  if (exports !== null && (typeof exports === 'object' || typeof exports === 'function')) {
    for (const k of Object.keys(exports)) if (k !== 'default') ns[k] = (exports as Ns)[k];
  }
  ns.default = exports;
  return ns;
}

/** In a cycle, reading a binding that is not initialised yet gives undefined instead of throwing. */
function lenient(ns: Ns): Ns {
  return new Proxy(ns, { get: (t, k) => { try { return Reflect.get(t, k); } catch { return undefined; } } });
}

export class EsmLoader {
  private recs = new Map<string, Rec>();
  private builtinNs = new Map<string, Ns>();

  constructor(private rt: Rt, private cjs: Loader) {
    cjs.esm = this;
  }

  isEsm(file: string): boolean {
    if (file.endsWith('.mjs')) return true;
    if (file.endsWith('.cjs') || file.endsWith('.json')) return false;
    return this.cjs.packageType(file) === 'module';
  }

  /** import(spec) from a module file (or a directory, for [eval] code). */
  async import(spec: string, from: string, fromIsDir = false): Promise<Ns> {
    const b = builtinName(spec);
    if (b !== null) return this.builtin(b);
    return this.importFile(this.resolve(spec, fromIsDir ? from : this.rt.path.dirname(from), from));
  }

  /** Resolve an import specifier, failing as Node's ESM loader does. */
  private resolve(spec: string, dir: string, from: string): string {
    try {
      return this.cjs.resolve(spec, dir, ['import', 'node'], undefined);
    } catch (e) {
      if ((e as { code?: string }).code !== 'MODULE_NOT_FOUND') throw e;
      const bare = !/^[./]|^file:/.test(spec);
      const target = bare ? spec : this.rt.path.resolve(dir, spec);
      const err = nodeError(Error, 'ERR_MODULE_NOT_FOUND', `Cannot find ${bare ? 'package' : 'module'} '${target}' imported from ${from}`);
      if (!bare) Object.assign(err, { url: `file://${target}` });
      throw err;
    }
  }

  private builtin(name: string): Ns {
    let ns = this.builtinNs.get(name);
    if (!ns) this.builtinNs.set(name, (ns = cjsNamespace(this.rt.builtin(name))));
    return ns;
  }

  importFile(file: string): Promise<Ns> {
    const rec = this.recs.get(file);
    if (rec) return rec.promise;
    if (!this.isEsm(file)) {
      const p = Promise.resolve().then(() => cjsNamespace(this.cjs.load(file, null).exports));
      this.recs.set(file, { ns: newNs(), done: true, promise: p });
      return p;
    }
    return this.evaluate(file);
  }

  private evaluate(file: string, fn = this.compile(file)): Promise<Ns> {
    const ns = newNs();
    const rec: Rec = { ns, done: false, promise: null as unknown as Promise<Ns> };
    this.recs.set(file, rec);
    const nsArr: Ns[] = [];
    let deps: string[] = [];
    const exp = (getters: Record<string, () => unknown>, stars: number[]) => {
      for (const [k, g] of Object.entries(getters)) Object.defineProperty(ns, k, { get: g, enumerable: true });
      starList = stars;
    };
    let starList: number[] = [];
    const loadDeps = async () => {
      for (const [i, spec] of deps.entries()) {
        const b = builtinName(spec);
        if (b !== null) { nsArr[i] = this.builtin(b); continue; }
        const target = this.resolve(spec, this.rt.path.dirname(file), file);
        const r = this.recs.get(target);
        if (r && !r.done) nsArr[i] = lenient(r.ns);
        else nsArr[i] = await this.importFile(target);
      }
      for (const k of starList) {
        for (const key of Object.keys(nsArr[k])) {
          if (key !== 'default' && !(key in ns)) Object.defineProperty(ns, key, { get: () => nsArr[k][key], enumerable: true });
        }
      }
    };
    const meta = {
      url: `file://${file}`,
      filename: file,
      dirname: this.rt.path.dirname(file),
      resolve: (s: string) => `file://${this.cjs.resolve(s, this.rt.path.dirname(file), ['import', 'node'])}`,
    };
    const dyn = (spec: string) => this.import(String(spec), file);
    deps = (fn as Body & { deps: string[] }).deps;
    rec.promise = fn(exp, loadDeps, nsArr, meta, dyn, ...this.cjs.globals).then(() => {
      rec.done = true;
      return ns;
    });
    return rec.promise;
  }

  private compile(file: string): Body & { deps: string[] } {
    const fd = this.rt.sys.open(file);
    try {
      const st = this.rt.sys.fstat(fd);
      const key = `${st.dev}:${st.ino}:${st.mtimeMs}:${st.size}:${file}`;
      const hit = compiled.get(key) as (Body & { deps: string[] }) | undefined;
      if (hit && this.cjs.sources.has(file)) return hit;
      const src = utf8.decode(this.rt.sys.readAll(fd));
      this.cjs.sources.set(file, src);
      if (hit) return hit;
      const t = transformEsm(src);
      const fn = compileFunction(t.code, ESM_PARAMS, file, true) as Body & { deps: string[] };
      fn.deps = t.deps;
      compiled.set(key, fn);
      return fn;
    } finally {
      this.rt.sys.close(fd);
    }
  }

  /** Run source text as an ES module (node --input-type=module, -e with import syntax). */
  evalModule(src: string, name: string): Promise<Ns> {
    const t = transformEsm(src);
    const fn = compileFunction(t.code, ESM_PARAMS, name, true) as Body & { deps: string[] };
    fn.deps = t.deps;
    this.cjs.sources.set(name, src);
    // A module file in the cwd as far as resolution goes, so relative imports work.
    const dir = this.rt.sys.getcwd();
    return this.evaluate(`${dir === '/' ? '' : dir}/${name}`, fn);
  }
}

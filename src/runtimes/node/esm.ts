// ES modules from the VFS: each module is transformed (esm-transform.ts) into
// a function and linked by this loader; CommonJS modules, JSON and built-ins
// are imported as namespaces { default: exports, ...exports }. import runs
// the async form; require() of an ES module (as Node 20.19) runs a sync form,
// which exists only for modules without top-level await.

import { compileFunction, type Loader, WRAP_PARAMS, builtinName, remember } from './modules.js';
import { programKey } from '../../abi/runtime.js';
import type { Rt } from './rt.js';
import { transformEsm, type Transformed } from './esm-transform.js';
import { nodeError } from './errors.js';

type Ns = Record<string, unknown>;
type Body = (...a: unknown[]) => unknown;

interface Rec {
  ns: Ns;
  done: boolean;
  esm: boolean;
  promise: Promise<Ns>;
}

interface Compiled extends Transformed {
  async: Body;
  /** The sync form, compiled on first require(); null when the module has top-level await. */
  sync?: Body | null;
}

const ESM_PARAMS = ['__export', '__deps', '__ns', '__meta', '__import', ...WRAP_PARAMS.slice(5)];
/** Transformed and compiled modules by file identity, per worker. */
const compiled = new Map<string, Compiled>();
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
      return this.cjs.resolve(spec, dir, ['import', 'module-sync', 'node'], undefined);
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
      this.recs.set(file, { ns: newNs(), done: true, esm: false, promise: p });
      return p;
    }
    return this.evaluate(file, this.compile(file), false) as Promise<Ns>;
  }

  /** require() of an ES module: its namespace (marked __esModule when it has a default export, as Node), evaluated synchronously. */
  requireFile(file: string): Ns {
    const ns = this.requireNs(file);
    if (!('default' in ns) || '__esModule' in ns) return ns;
    const o = Object.create(null) as Ns;
    Object.defineProperty(o, '__esModule', { value: true, enumerable: true });
    for (const k of Object.keys(ns)) Object.defineProperty(o, k, { get: () => ns[k], enumerable: true });
    Object.defineProperty(o, Symbol.toStringTag, { value: 'Module' });
    return o;
  }

  private requireNs(file: string): Ns {
    const rec = this.recs.get(file);
    if (rec) {
      if (rec.done || rec.esm) return rec.ns;
      throw nodeError(Error, 'ERR_REQUIRE_CYCLE_MODULE', `Cannot require() ES Module ${file} in a cycle.`);
    }
    return this.evaluate(file, this.compile(file), true) as Ns;
  }

  /** Link and run a module: its namespace (sync) or a promise of it (async). */
  private evaluate(file: string, c: Compiled, sync: boolean): Ns | Promise<Ns> {
    const ns = newNs();
    const rec: Rec = { ns, done: false, esm: true, promise: null as unknown as Promise<Ns> };
    let fn: Body = c.async;
    if (sync) {
      if (c.sync === undefined) {
        try {
          c.sync = compileFunction(c.code.replace('await __deps();', '__deps();'), ESM_PARAMS, file);
        } catch (e) {
          if (!(e instanceof SyntaxError)) throw e;
          c.sync = null;
        }
      }
      if (!c.sync) {
        throw nodeError(Error, 'ERR_REQUIRE_ASYNC_MODULE', 'require() cannot be used on an ESM graph with top-level await. Use import() instead.');
      }
      fn = c.sync;
    }
    this.recs.set(file, rec);
    const nsArr: Ns[] = [];
    let stars: number[] = [];
    const exp = (getters: Record<string, () => unknown>, starList: number[]) => {
      // Namespace keys are in code-unit order, as a real module namespace's.
      for (const k of Object.keys(getters).sort()) Object.defineProperty(ns, k, { get: getters[k], enumerable: true, configurable: true });
      stars = starList;
    };
    const dir = this.rt.path.dirname(file);
    const link = (i: number, spec: string, target: Ns | null, checked: boolean) => {
      if (target) nsArr[i] = target;
      if (!checked) return;
      for (const name of c.names[i] ?? []) {
        if (!(name in nsArr[i])) {
          throw new SyntaxError(`The requested module '${spec}' does not provide an export named '${name}'`);
        }
      }
    };
    const finishLink = () => {
      if (!stars.length) return;
      const all = Object.getOwnPropertyDescriptors(ns) as Record<string, PropertyDescriptor>;
      for (const k of stars) {
        for (const key of Object.keys(nsArr[k])) {
          if (key !== 'default' && !(key in all)) all[key] = { get: () => nsArr[k][key], enumerable: true, configurable: true };
        }
      }
      for (const key of Object.keys(all)) delete ns[key];
      for (const key of Object.keys(all).sort()) Object.defineProperty(ns, key, all[key]);
    };
    /** Per dependency: [namespace now, or null to wait for it; whether its export list is final]. */
    const dep = (spec: string): [Ns | null, boolean, string] => {
      const b = builtinName(spec);
      if (b !== null) return [this.builtin(b), false, ''];
      const target = this.resolve(spec, dir, file);
      const r = this.recs.get(target);
      if (r && !r.done && r.esm) return [lenient(r.ns), false, target];
      if (!this.isEsm(target)) return [null, false, target];
      return [null, true, target];
    };
    const loadSync = () => {
      for (const [i, spec] of c.deps.entries()) {
        const [now, checked, target] = dep(spec);
        const ns2 = now ?? (this.isEsm(target) ? this.requireNs(target) : cjsNamespace(this.cjs.load(target, null).exports));
        link(i, spec, ns2, checked);
      }
      finishLink();
    };
    const loadAsync = async () => {
      for (const [i, spec] of c.deps.entries()) {
        const [now, checked, target] = dep(spec);
        link(i, spec, now ?? (await this.importFile(target)), checked);
      }
      finishLink();
    };
    const meta = {
      url: `file://${file}`,
      filename: file,
      dirname: dir,
      resolve: (s: string) => `file://${this.cjs.resolve(s, dir, ['import', 'module-sync', 'node'])}`,
    };
    const dyn = (spec: unknown) => this.import(String(spec), file);
    const args = [exp, sync ? loadSync : loadAsync, nsArr, meta, dyn, ...this.cjs.globals];
    if (sync) {
      try {
        fn(...args);
      } catch (e) {
        this.recs.delete(file);
        throw e;
      }
      rec.done = true;
      rec.promise = Promise.resolve(ns);
      return ns;
    }
    rec.promise = (fn(...args) as Promise<unknown>).then(() => {
      rec.done = true;
      return ns;
    });
    return rec.promise;
  }

  private compile(file: string): Compiled {
    const fd = this.rt.sys.open(file);
    try {
      const st = this.rt.sys.fstat(fd);
      const key = `${programKey(st)}:${file}`;
      const hit = compiled.get(key);
      if (hit && this.cjs.sources.has(file)) return hit;
      const src = utf8.decode(this.rt.sys.readAll(fd));
      this.cjs.sources.set(file, src);
      if (hit) return hit;
      const c = this.compileSource(src, file);
      remember(compiled, key, c);
      return c;
    } finally {
      this.rt.sys.close(fd);
    }
  }

  private compileSource(src: string, name: string): Compiled {
    const t = transformEsm(src);
    return { ...t, async: compileFunction(t.code, ESM_PARAMS, name, true) };
  }

  /** Run source text as an ES module (node --input-type=module, -e with import syntax). */
  evalModule(src: string, name: string): Promise<Ns> {
    this.cjs.sources.set(name, src);
    // A module file in the cwd as far as resolution goes, so relative imports work.
    const dir = this.rt.sys.getcwd();
    return this.evaluate(`${dir === '/' ? '' : dir}/${name}`, this.compileSource(src, name), false) as Promise<Ns>;
  }
}

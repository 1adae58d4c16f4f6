// Shell variables: scalars, indexed and associative arrays, attributes, and
// dynamic scoping (function `local`s shadow outer variables until return).

import { ShellError } from '../errors.js';
import type { ExpandVars } from '../expand/index.js';
import type { Var } from '../variable.js';
import { assocEntries } from '../assoc-order.js';

type Scope = Map<string, Var>;

export class Vars implements ExpandVars {
  /** scopes[0] is global; each function call pushes one. */
  private scopes: Scope[] = [new Map()];
  /** Evaluates `declare -i` values; provided by the interpreter. */
  arith: (expr: string) => number = (e) => Number(e) || 0;
  /** Expands a subscript written in a nameref's target (`a[$k]`); provided by the interpreter. */
  subscript: (text: string) => string = (t) => t;
  /** Reports a non-fatal diagnostic (an out-of-range read); the interpreter points it at sh.error. */
  warn: (message: string) => void = () => {};

  /** The scopes of prefix assignments (`tmp= local x` declares x in the function's scope below). */
  private temps = new WeakSet<Scope>();
  /** Actions to run when a scope ends (`local -` restoring options), by scope. */
  private onExit = new WeakMap<Scope, (() => void)[]>();

  /** Each scope's own records, global first (a child shell's copy of the function scopes). */
  scopeEntries(): [string, Var][][] {
    return this.scopes.map((scope) => [...scope]);
  }

  /** A function's scope, or with `temp` one holding a command's prefix assignments (`x=1 cmd`). */
  pushScope(temp = false): void {
    const scope: Scope = new Map();
    if (temp) this.temps.add(scope);
    this.scopes.push(scope);
  }

  /** `x=1 cmd`: the record of x in the innermost (prefix-assignment) scope. */
  tempVar(name: string): void {
    const scope = this.scopes[this.scopes.length - 1];
    if (!scope.has(name)) scope.set(name, {});
  }

  /** The running function's scope (or the global one): where `local` and `declare` put variables, past prefix-assignment scopes. */
  private fnScope(): Scope {
    for (let i = this.scopes.length - 1; i > 0; i--) if (!this.temps.has(this.scopes[i])) return this.scopes[i];
    return this.scopes[0];
  }

  popScope(): void {
    if (this.scopes.length <= 1) return;
    const scope = this.scopes.pop()!;
    for (const fn of this.onExit.get(scope) ?? []) fn();
  }

  /** Run `fn` when the innermost scope (the running function's) ends. */
  atScopeExit(fn: () => void): void {
    const scope = this.scopes[this.scopes.length - 1];
    const list = this.onExit.get(scope) ?? [];
    list.push(fn);
    this.onExit.set(scope, list);
  }

  get depth(): number {
    return this.scopes.length - 1;
  }

  /** The visible variable record (namerefs followed), innermost scope first. */
  lookup(name: string): Var | undefined {
    return this.lookupRef(this.resolve(name));
  }

  /** The visible record of `name` itself, not following a nameref. */
  lookupRef(name: string): Var | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = this.scopes[i].get(name);
      if (v) return v;
    }
    return undefined;
  }

  /** The name a (chain of) nameref(s) ends at; `name` itself when it is not one. */
  resolve(name: string): string {
    let n = name;
    for (let hops = 0; hops < 10; hops++) {
      const v = this.lookupRef(n);
      if (!v?.nameref) return n;
      n = v.nameref.replace(/\[.*$/, '');
    }
    return n;
  }

  /**
   * A nameref chain that ends at one array element (declare -n r='a[2]'): the
   * array and the subscript, expanded now as bash does at each use.
   */
  private element(name: string): { name: string; index: string } | null {
    let n = name;
    let sub: string | null = null;
    for (let hops = 0; hops < 10; hops++) {
      const v = this.lookupRef(n);
      if (!v?.nameref) break;
      const m = /^([^[]*)\[(.*)\]$/s.exec(v.nameref);
      n = m ? m[1] : v.nameref;
      sub = m ? m[2] : null;
    }
    return sub === null || sub === '@' || sub === '*' ? null : { name: n, index: this.subscript(sub) };
  }

  /** Variables of the innermost function scope (`local` with no names), in creation order. */
  localNames(): string[] {
    const scope = this.fnScope();
    return scope === this.scopes[0] ? [] : [...scope.keys()];
  }

  /** The record to write: the visible one, or a new global (or local with `local`). */
  private writable(name: string, local = false): Var {
    name = this.resolve(name);
    const scope = local ? this.fnScope() : undefined;
    let v = scope ? this.localRecord(name) : this.lookup(name);
    if (!v) {
      v = {};
      (scope ?? this.scopes[0]).set(name, v);
    }
    if (v.readonly) throw new ShellError(`${name}: readonly variable`);
    return v;
  }

  /** A record in the innermost scopes down to the function's (a prefix assignment's, or a local). */
  private localRecord(name: string): Var | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = this.scopes[i].get(name);
      if (v || !this.temps.has(this.scopes[i])) return v;
    }
    return undefined;
  }

  /** `local name`: a fresh variable in the current function scope. */
  declareLocal(name: string): Var {
    const scope = this.fnScope();
    let v = scope.get(name);
    if (!v) {
      const outer = this.lookup(name);
      v = { declaredOnly: true, exported: outer?.exported };
      scope.set(name, v);
    }
    return v;
  }

  /**
   * export/readonly in a function: the visible variable, whichever scope holds
   * it (dynamic scope), or a new global one — as bash does.
   */
  declareVisible(name: string): Var {
    return this.lookupRef(name) ?? this.declare(name, true);
  }

  /** Declare in the global scope (declare -g) or current scope. */
  declare(name: string, global: boolean): Var {
    const scope = global ? this.scopes[0] : this.fnScope();
    let v = scope.get(name);
    if (!v) {
      v = { declaredOnly: true };
      scope.set(name, v);
    }
    return v;
  }

  isSet(name: string): boolean {
    const own = this.lookupRef(name);
    const el = own?.nameref ? this.element(name) : null;
    if (el) return this.getIndex(el.name, el.index) !== undefined;
    const v = own?.nameref ? this.lookup(name) : own;
    if (!v || v.declaredOnly) return false;
    if (v.indexed) return v.indexed.has(0) || v.indexed.size > 0;
    if (v.assoc) return v.assoc.size > 0;
    return v.value !== undefined;
  }

  /** $name: a scalar, or element 0 of an indexed array (bash). */
  get(name: string): string | undefined {
    // One scope walk for a plain variable (this is every $x).
    const own = this.lookupRef(name);
    const el = own?.nameref ? this.element(name) : null;
    if (el) return this.getIndex(el.name, el.index);
    const v = own?.nameref ? this.lookup(name) : own;
    if (!v || v.declaredOnly) return undefined;
    if (v.indexed) return v.indexed.get(0);
    if (v.assoc) return v.assoc.get('0');
    return v.value;
  }

  getIndex(name: string, index: string): string | undefined {
    const v = this.lookup(name);
    if (!v || v.declaredOnly) return undefined;
    if (v.assoc) return v.assoc.get(index);
    const i = this.relIndex(index, v);
    if (i < 0) {
      // Reading out of range is only a warning in bash: the expansion is empty.
      this.warn(`${name}: bad array subscript`);
      return undefined;
    }
    if (v.indexed) return v.indexed.get(i);
    return i === 0 ? v.value : undefined;
  }

  /** ${name[@]}: values in index order (a scalar is a one-element array). */
  values(name: string): string[] {
    const v = this.lookup(name);
    if (!v || v.declaredOnly) return [];
    if (v.indexed) return [...v.indexed.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    if (v.assoc) return assocEntries(v.assoc).map((e) => e[1]);
    return v.value === undefined ? [] : [v.value];
  }

  /** ${!name[@]}: indices or keys. */
  keys(name: string): string[] {
    const v = this.lookup(name);
    if (!v || v.declaredOnly) return [];
    if (v.indexed) return [...v.indexed.keys()].sort((a, b) => a - b).map(String);
    if (v.assoc) return assocEntries(v.assoc).map((e) => e[0]);
    return v.value === undefined ? [] : ['0'];
  }

  isArray(name: string): boolean {
    const v = this.lookup(name);
    return !!(v?.indexed || v?.assoc);
  }

  isAssoc(name: string): boolean {
    return !!this.lookup(name)?.assoc;
  }

  private transform(v: Var, value: string): string {
    if (v.integer) value = String(this.arith(value));
    if (v.lower) value = value.toLowerCase();
    if (v.upper) value = value.toUpperCase();
    return value;
  }

  /** A negative index counts back from the end; still negative means out of range (bash: `NAME[I]: bad array subscript`). */
  private arithIndex(index: string, v: Var, name: string): number {
    const i = this.relIndex(index, v);
    if (i < 0) throw new ShellError(`${name}[${index}]: bad array subscript`);
    return i;
  }

  private relIndex(index: string, v: Var): number {
    let i = /^-?\d+$/.test(index) ? Number(index) : this.arith(index);
    if (i < 0) {
      const max = v.indexed?.size ? Math.max(...v.indexed.keys()) : v.value !== undefined ? 0 : -1;
      i = max + 1 + i;
    }
    return i;
  }

  set(name: string, value: string, opts: { append?: boolean; local?: boolean } = {}): void {
    const el = opts.local ? null : this.element(name);
    if (el) return this.setIndex(el.name, el.index, value, opts.append);
    const v = this.writable(name, opts.local);
    if (v.nameref === '') {
      // A nameref without a target (declare -n ref): the assignment gives it one.
      v.nameref = value;
      v.declaredOnly = false;
      return;
    }
    v.declaredOnly = false;
    if (v.indexed || v.assoc) return this.setIndex(name, '0', value, opts.append);
    const base = opts.append ? (v.integer ? '' : (v.value ?? '')) : '';
    v.value = opts.append && v.integer ? String(this.arith(`${v.value ?? 0}+(${value})`)) : this.transform(v, base + value);
  }

  setIndex(name: string, index: string, value: string, append = false): void {
    const v = this.writable(name);
    v.declaredOnly = false;
    if (v.assoc) {
      v.assoc.set(index, this.transform(v, (append ? (v.assoc.get(index) ?? '') : '') + value));
      return;
    }
    if (!v.indexed) {
      v.indexed = new Map();
      if (v.value !== undefined) v.indexed.set(0, v.value);
      v.value = undefined;
    }
    const i = this.arithIndex(index, v, name);
    v.indexed.set(i, this.transform(v, (append ? (v.indexed.get(i) ?? '') : '') + value));
  }

  /**
   * Whether `name` already is the plain indexed array `values` (0..n-1, no
   * attributes that transform a value, not readonly): then assigning it would
   * change nothing. PIPESTATUS is assigned after every command, nearly always
   * with what it held.
   */
  holdsArray(name: string, values: string[]): boolean {
    const v = this.lookupRef(name);
    if (!v?.indexed || v.indexed.size !== values.length || v.value !== undefined || v.assoc || v.nameref !== undefined || v.readonly || v.declaredOnly
      || v.integer || v.lower || v.upper) return false;
    for (let i = 0; i < values.length; i++) if (v.indexed.get(i) !== values[i]) return false;
    return true;
  }

  /** name=(a b c) / name+=(d e) / declare -A name=([k]=v). */
  setArray(name: string, items: { key: string | null; value: string }[], opts: { append?: boolean; assoc?: boolean; local?: boolean } = {}): void {
    const v = this.writable(name, opts.local);
    v.declaredOnly = false;
    if (opts.assoc || v.assoc) {
      if (!opts.append || !v.assoc) v.assoc = new Map();
      v.value = undefined;
      for (const it of items) {
        if (it.key === null) throw new ShellError(`${name}: ${it.value}: must use subscript when assigning associative array`);
        v.assoc.set(it.key, this.transform(v, it.value));
      }
      return;
    }
    if (!opts.append || !v.indexed) {
      const old = opts.append && v.value !== undefined ? v.value : undefined;
      v.indexed = new Map();
      if (old !== undefined) v.indexed.set(0, old);
    }
    v.value = undefined;
    let next = v.indexed.size ? Math.max(...v.indexed.keys()) + 1 : 0;
    for (const it of items) {
      const i = it.key === null ? next : this.arithIndex(it.key, v, name);
      v.indexed.set(i, this.transform(v, it.value));
      next = i + 1;
    }
  }

  /** unset NAME (through a nameref unless `ref`: unset -n). */
  unset(name: string, ref = false): void {
    if (!ref) name = this.resolve(name);
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const v = this.scopes[i].get(name);
      if (!v) continue;
      if (v.readonly) throw new ShellError(`${name}: cannot unset: readonly variable`);
      // A local of the running function stays local (and unset), still hiding outer ones, as in bash.
      if (i > 0 && i === this.scopes.length - 1) this.scopes[i].set(name, { declaredOnly: true });
      else this.scopes[i].delete(name);
      return;
    }
  }

  unsetIndex(name: string, index: string): void {
    const v = this.lookup(name);
    if (!v) return;
    if (v.readonly) throw new ShellError(`${name}: cannot unset: readonly variable`);
    if (v.assoc) v.assoc.delete(index);
    else if (v.indexed) v.indexed.delete(this.arithIndex(index, v, name));
    else if (this.arithIndex(index, v, name) === 0) v.value = undefined;
    else throw new ShellError(`${name}: not an array variable`);
  }

  /** Every visible variable name (innermost wins), sorted. */
  names(): string[] {
    const seen = new Set<string>();
    for (const s of this.scopes) for (const k of s.keys()) seen.add(k);
    return [...seen].filter((n) => this.lookupRef(n)).sort();
  }

  /** `BASH_FUNC_name%%=...` entries of exported functions: the shell, which owns the functions, sets this. */
  functionEnv: () => string[] = () => [];

  /** KEY=VALUE for exported, set scalars (arrays are not exported, as in bash), then exported functions. */
  environ(): string[] {
    const out: string[] = [];
    for (const n of this.names()) {
      const v = this.lookupRef(n)!;
      if (v.exported && !v.declaredOnly && v.value !== undefined && !v.indexed && !v.assoc) out.push(`${n}=${v.value}`);
    }
    out.push(...this.functionEnv());
    return out;
  }

  /** A deep copy, for subshells run in-process ($(...)) and for serialising to child shells. */
  snapshot(): Scope[] {
    return this.scopes.map((s) => {
      const copy: Scope = new Map([...s].map(([k, v]) => [k, cloneVar(v)]));
      const exit = this.onExit.get(s);
      if (exit) this.onExit.set(copy, [...exit]);
      return copy;
    });
  }

  restore(scopes: Scope[]): void {
    this.scopes = scopes;
  }
}

function cloneVar(v: Var): Var {
  return {
    ...v,
    indexed: v.indexed ? new Map(v.indexed) : undefined,
    assoc: v.assoc ? new Map(v.assoc) : undefined,
  };
}

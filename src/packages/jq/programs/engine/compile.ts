// From syntax tree to evaluator nodes. Names resolve lexically at compile
// time: a variable becomes (frames up, slot), a call becomes a call to a
// definition (with closures for its filter arguments), to a filter parameter
// of an enclosing definition, or to a native builtin. Builtins written in jq
// (the prelude) compile on first use.

import type { Ast, FuncDef, Pattern } from './ast.js';
import { fmtNumber } from './number.js';
import { format } from './format.js';
import {
  Alt, And, ArrayCons, As, Binder, Binop, Break, Closure, Comma, Empty, Foreach, Frame, Identity, If, Index, Interp,
  Iterate, Label, Level, Literal, nextEpoch, Node, TailCall, ObjectCons, Or, Pipe, RecurseAll, Reduce, Slice, Try, Unary, Var, walk,
  type Bind, type K, type PK, type Path,
} from './interp.js';
import { CompileError } from './lexer.js';
import { add, cmpOp, divide, index, modulo, multiply, negate, subtract } from './ops.js';
import { Assign } from './assign.js';
import type { Native, Runtime } from './natives.js';
import { Lit, type Json } from './value.js';

/** A jq-defined function. */
export class Fn {
  body: Node | null = null;
  /** Result of the singleness fixpoint (see Node.single). */
  single = true;
  /** Slot of each `$param` in the body frame (-1 for filter parameters). */
  valueSlots: number[] = [];
  readonly level: Level;
  constructor(
    readonly def: FuncDef,
    readonly defLevel: Level,
  ) {
    this.level = new Level(defLevel.depth + 1, defLevel);
  }
}

interface VarB {
  name: string;
  level: Level;
  slot: number;
  next: VarB | null;
}

type FnTarget = { kind: 'def'; fn: Fn } | { kind: 'param'; level: Level; index: number };

interface FnB {
  key: string;
  t: FnTarget;
  next: FnB | null;
}

interface Scope {
  level: Level;
  vars: VarB | null;
  fns: FnB | null;
}

/** How a call passes one filter argument. */
type ArgSpec = { pass: true; hops: number; index: number } | { pass: false; node: Node; level: Level };

export class CallDef extends Node {
  constructor(
    readonly fn: Fn,
    readonly args: ArgSpec[],
    readonly hops: number,
  ) {
    super();
  }

  private frame(f: Frame): Frame {
    let sl = f;
    for (let h = this.hops; h > 0; h--) sl = sl.up!;
    const closures = this.args.length
      ? this.args.map((a) => (a.pass ? walk(f, a.hops).args![a.index] : new Closure(a.node, f, a.level)))
      : null;
    return new Frame(sl, closures, this.fn.level.n);
  }

  /** Bind `$param`s: every combination of their values, the first parameter outermost. */
  private bindValues(v: Json, fr: Frame, run: () => void): void {
    const slots = this.fn.valueSlots;
    const go = (i: number): void => {
      while (i < slots.length && slots[i] < 0) i++;
      if (i === slots.length) {
        run();
        return;
      }
      fr.args![i].ev(v, (x) => {
        fr.l[slots[i]] = x;
        go(i + 1);
      });
    };
    go(0);
  }

  protected override isSingle(): boolean {
    const slots = this.fn.valueSlots;
    return this.fn.single && this.args.every((a, i) => !(slots[i] >= 0) || (!a.pass && a.node.single));
  }

  override val(v: Json, f: Frame): Json {
    // Calls in tail position come back here instead of nesting.
    let r = this.enter(v, f);
    while (r instanceof TailCall) r = (r.call as CallDef).enter(r.input, r.frame);
    return r;
  }

  /** Run the body once; a call in its tail position is returned, not made. */
  private enter(v: Json, f: Frame): Json | TailCall {
    const fr = this.frame(f);
    const slots = this.fn.valueSlots;
    for (let i = 0; i < slots.length; i++) if (slots[i] >= 0) fr.l[slots[i]] = fr.args![i].val(v);
    return this.fn.body!.tail(v, fr);
  }

  override tail(v: Json, f: Frame): Json | TailCall {
    return new TailCall(this, v, f);
  }

  ev(v: Json, f: Frame, k: K): void {
    if (this.single) {
      k(this.val(v, f));
      return;
    }
    const fr = this.frame(f);
    const body = this.fn.body!;
    if (this.fn.valueSlots.length === 0) body.ev(v, fr, k);
    else this.bindValues(v, fr, () => body.ev(v, fr, k));
  }

  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    const fr = this.frame(f);
    const body = this.fn.body!;
    if (this.fn.valueSlots.length === 0) body.paths(v, p, fr, k);
    else this.bindValues(v, fr, () => body.paths(v, p, fr, k));
  }
}

export class CallParam extends Node {
  constructor(
    readonly hops: number,
    readonly index: number,
  ) {
    super();
  }
  ev(v: Json, f: Frame, k: K): void {
    walk(f, this.hops).args![this.index].ev(v, k);
  }
  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    walk(f, this.hops).args![this.index].paths(v, p, k);
  }
}

export class CallNative extends Node {
  constructor(
    readonly native: Native,
    readonly args: Node[],
    readonly rt: Runtime,
  ) {
    super();
  }

  protected override isSingle(): boolean {
    const nat = this.native;
    if (nat.gen) return !!nat.single && this.args.every((a) => a.single);
    return this.args.every((a) => a.single);
  }

  override val(v: Json, f: Frame): Json {
    const nat = this.native;
    if (nat.gen) return super.val(v, f);
    const args = this.args;
    const vals: Json[] = new Array(args.length);
    for (let i = args.length - 1; i >= 0; i--) vals[i] = args[i].val(v, f);
    return nat.fn!(v, vals, this.rt);
  }

  ev(v: Json, f: Frame, k: K): void {
    const nat = this.native;
    if (!nat.gen && this.single) {
      k(this.val(v, f));
      return;
    }
    if (nat.gen) {
      nat.gen(v, this.args, f, k, this.rt);
      return;
    }
    const fn = nat.fn!;
    const args = this.args;
    const n = args.length;
    if (n === 0) {
      k(fn(v, [], this.rt));
      return;
    }
    // C builtins take every combination of their arguments, the last one outermost.
    const vals: Json[] = new Array(n);
    const go = (i: number): void => {
      if (i < 0) {
        k(fn(v, vals.slice(), this.rt));
        return;
      }
      args[i].ev(v, f, (x) => {
        vals[i] = x;
        go(i - 1);
      });
    };
    go(n - 1);
  }

  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    if (this.native.paths) this.native.paths(v, p, this.args, f, k, this.rt);
    else super.paths(v, p, f, k);
  }
}

const BINOPS: Record<string, (a: Json, b: Json) => Json> = {
  '+': add,
  '-': subtract,
  '*': multiply,
  '/': divide,
  '%': modulo,
};

export class Compiler {
  private readonly prelude = new Map<string, Fn>();
  /** Level 0: the main program's frame, holding the global variables first. */
  readonly root = new Level(0, null);
  private readonly rootScope: Scope;

  constructor(
    private readonly natives: Map<string, Native>,
    preludeDefs: FuncDef[],
    globals: string[],
    private readonly rt: Runtime,
  ) {
    let vars: VarB | null = null;
    for (const name of globals) vars = { name, level: this.root, slot: this.root.n++, next: vars };
    this.rootScope = { level: this.root, vars, fns: null };
    for (const d of preludeDefs) this.prelude.set(`${d.name}/${d.params.length}`, new Fn(d, this.root));
  }

  /** Every definition compiled, for the singleness fixpoint. */
  private readonly fns: Fn[] = [];

  /** Compile the main program (its definitions wrap the body). */
  program(defs: FuncDef[], body: Ast | null): Node {
    let scope = this.rootScope;
    for (const d of defs) scope = this.defineFn(d, scope);
    const node = body ? this.compile(body, scope) : new Identity();
    this.singleness();
    return node;
  }

  /**
   * Which definitions always give exactly one output: assume all do, then
   * drop those whose body (given the others) may not, until nothing changes.
   */
  private singleness(): void {
    for (const fn of this.fns) fn.single = true;
    for (let changed = true; changed; ) {
      changed = false;
      nextEpoch();
      for (const fn of this.fns) {
        if (fn.single && !fn.body!.single) {
          fn.single = false;
          changed = true;
        }
      }
    }
    nextEpoch();
  }

  /** Names of every builtin, as `builtins` lists them. */
  builtinNames(): string[] {
    const names = new Set<string>();
    for (const k of this.prelude.keys()) if (!k.startsWith('_')) names.add(k);
    for (const k of this.natives.keys()) if (!k.startsWith('_')) names.add(k);
    return [...names];
  }

  private defineFn(d: FuncDef, scope: Scope): Scope {
    const fn = new Fn(d, scope.level);
    const withFn: Scope = { ...scope, fns: { key: `${d.name}/${d.params.length}`, t: { kind: 'def', fn }, next: scope.fns } };
    this.compileFn(fn, withFn);
    return withFn;
  }

  /** Compile a definition's body in `scope` (which already holds the definition itself). */
  private compileFn(fn: Fn, scope: Scope): void {
    const level = fn.level;
    let fns = scope.fns;
    let vars = scope.vars;
    fn.valueSlots = [];
    fn.def.params.forEach((p, i) => {
      const name = p.startsWith('$') ? p.slice(1) : p;
      fns = { key: `${name}/0`, t: { kind: 'param', level, index: i }, next: fns };
      if (p.startsWith('$')) {
        const slot = level.n++;
        vars = { name, level, slot, next: vars };
        fn.valueSlots.push(slot);
      } else fn.valueSlots.push(-1);
    });
    if (fn.valueSlots.every((s) => s < 0)) fn.valueSlots = [];
    fn.body = this.compile(fn.def.body, { level, vars, fns });
    this.fns.push(fn);
  }

  private lookupFn(name: string, arity: number, scope: Scope): FnTarget | Native | null {
    const key = `${name}/${arity}`;
    for (let b = scope.fns; b; b = b.next) if (b.key === key) return b.t;
    const p = this.prelude.get(key);
    if (p) {
      if (!p.body) {
        p.body = new Empty();
        this.compileFn(p, this.rootScope);
      }
      return { kind: 'def', fn: p };
    }
    return this.natives.get(key) ?? null;
  }

  compile(a: Ast, scope: Scope): Node {
    switch (a.k) {
      case 'identity':
        return new Identity();
      case 'recurse_default':
        return new RecurseAll();
      case 'literal':
        return new Literal(a.value);
      case 'loc':
        return new Literal(
          new Map<string, Json>([
            ['file', '<top-level>'],
            ['line', a.line],
          ]),
        );
      case 'index': {
        const key = this.compile(a.key, scope);
        const ck = a.key.k === 'literal' ? a.key.value : undefined;
        return new Index(this.compile(a.target, scope), key, a.opt, ck);
      }
      case 'slice':
        return new Slice(
          this.compile(a.target, scope),
          a.from ? this.compile(a.from, scope) : null,
          a.to ? this.compile(a.to, scope) : null,
          a.opt,
        );
      case 'iterate':
        return new Iterate(this.compile(a.target, scope), a.opt);
      case 'string': {
        const fmt = a.format ?? 'text';
        const parts = a.parts.map((p) => (typeof p === 'string' ? p : this.compile(p, scope)));
        return new Interp(parts, (v) => toStringFormat(fmt, v));
      }
      case 'format': {
        const name = a.name;
        return new Unary(new Identity(), (v) => toStringFormat(name, v));
      }
      case 'array':
        return a.body ? new ArrayCons(this.compile(a.body, scope)) : new Literal([]);
      case 'object':
        return new ObjectCons(a.entries.map((e) => ({ key: this.compile(e.key, scope), value: this.compile(e.value, scope) })));
      case 'neg':
        return new Unary(this.compile(a.body, scope), negate);
      case 'pipe':
        return new Pipe(this.compile(a.left, scope), this.compile(a.right, scope));
      case 'comma':
        return new Comma(this.compile(a.left, scope), this.compile(a.right, scope));
      case 'binop': {
        const fn = BINOPS[a.op] ?? ((x: Json, y: Json) => cmpOp(a.op, x, y));
        return new Binop(this.compile(a.left, scope), this.compile(a.right, scope), fn);
      }
      case 'and':
        return new And(this.compile(a.left, scope), this.compile(a.right, scope));
      case 'or':
        return new Or(this.compile(a.left, scope), this.compile(a.right, scope));
      case 'alt':
        return new Alt(this.compile(a.left, scope), this.compile(a.right, scope));
      case 'assign':
        return new Assign(a.op, this.compile(a.left, scope), this.compile(a.right, scope));
      case 'if':
        return new If(this.compile(a.cond, scope), this.compile(a.then, scope), a.else ? this.compile(a.else, scope) : null);
      case 'try':
        return new Try(this.compile(a.body, scope), a.catch ? this.compile(a.catch, scope) : null);
      case 'reduce': {
        const source = this.compile(a.source, scope);
        const init = this.compile(a.init, scope);
        const [binder, inner] = this.patterns(a.patterns, scope);
        const u = a.update;
        const append = u.k === 'binop' && u.op === '+' && u.left.k === 'identity' && !readsInput(u.right) ? this.compile(u.right, inner) : null;
        return new Reduce(source, binder, init, this.compile(u, inner), append);
      }
      case 'foreach': {
        const source = this.compile(a.source, scope);
        const init = this.compile(a.init, scope);
        const [binder, inner] = this.patterns(a.patterns, scope);
        const update = this.compile(a.update, inner);
        return new Foreach(source, binder, init, update, a.extract ? this.compile(a.extract, inner) : null);
      }
      case 'def':
        return this.compile(a.rest, this.defineFn(a.def, scope));
      case 'call':
        return this.call(a.name, a.args, a.pos, scope);
      case 'var':
        return this.variable(a.name, a.pos, scope);
      case 'as': {
        const source = this.compile(a.source, scope);
        const [binder, inner] = this.patterns(a.patterns, scope);
        return new As(source, binder, this.compile(a.body, inner));
      }
      case 'label': {
        const slot = scope.level.n++;
        const inner: Scope = { ...scope, vars: { name: `*label-${a.name}`, level: scope.level, slot, next: scope.vars } };
        return new Label(slot, this.compile(a.body, inner));
      }
      case 'break': {
        const b = this.findVar(`*label-${a.name}`, scope);
        if (!b) throw new CompileError(`$*label-${a.name} is not defined`, a.pos);
        return new Break(scope.level.depth - b.level.depth, b.slot);
      }
    }
  }

  private findVar(name: string, scope: Scope): VarB | null {
    for (let b = scope.vars; b; b = b.next) if (b.name === name) return b;
    return null;
  }

  private variable(name: string, pos: number, scope: Scope): Node {
    const b = this.findVar(name, scope);
    if (b) return new Var(scope.level.depth - b.level.depth, b.slot);
    if (name === 'ENV') return this.call('env', [], pos, scope);
    throw new CompileError(`$${name} is not defined`, pos);
  }

  private call(name: string, args: Ast[], pos: number, scope: Scope): Node {
    const t = this.lookupFn(name, args.length, scope);
    if (!t) throw new CompileError(`${name}/${args.length} is not defined`, pos);
    if ('kind' in t) {
      if (t.kind === 'param') return new CallParam(scope.level.depth - t.level.depth, t.index);
      const specs = args.map((arg) => this.argSpec(arg, scope));
      return new CallDef(t.fn, specs, scope.level.depth - t.fn.defLevel.depth);
    }
    return new CallNative(t, args.map((arg) => this.compile(arg, scope)), this.rt);
  }

  /** A filter argument: a parameter passes through; anything else becomes a closure with its own frame. */
  private argSpec(arg: Ast, scope: Scope): ArgSpec {
    if (arg.k === 'call' && arg.args.length === 0) {
      const t = this.lookupFn(arg.name, 0, scope);
      if (t && 'kind' in t && t.kind === 'param') return { pass: true, hops: scope.level.depth - t.level.depth, index: t.index };
    }
    const level = new Level(scope.level.depth + 1, scope.level);
    const node = this.compile(arg, { ...scope, level });
    return { pass: false, node, level };
  }

  /** Compile destructuring patterns (with `?//` alternatives) into a Binder and the scope of the body. */
  private patterns(pats: Pattern[], scope: Scope): [Binder, Scope] {
    const names: string[] = [];
    const collect = (p: Pattern): void => {
      if (p.k === 'pvar') {
        if (!names.includes(p.name)) names.push(p.name);
      }
      else if (p.k === 'parray') p.elems.forEach(collect);
      else
        for (const e of p.entries) {
          if (e.bind !== null && !names.includes(e.bind)) names.push(e.bind);
          if (e.pat) collect(e.pat);
        }
    };
    pats.forEach(collect);
    let vars = scope.vars;
    const slots = new Map<string, number>();
    for (const n of names) {
      const slot = scope.level.n++;
      slots.set(n, slot);
      vars = { name: n, level: scope.level, slot, next: vars };
    }
    // Key expressions see the variables bound so far.
    const inner: Scope = { ...scope, vars };
    const keys: Node[] = [];
    const binds = pats.map((p) => this.pattern(p, slots, inner, keys));
    return [new Binder(binds, [...slots.values()], keys), inner];
  }

  private pattern(p: Pattern, slots: Map<string, number>, scope: Scope, keys: Node[]): Bind {
    if (p.k === 'pvar') {
      const slot = slots.get(p.name)!;
      return (value, f, cont) => {
        f.l[slot] = value;
        cont();
      };
    }
    if (p.k === 'parray') {
      const elems = p.elems.map((e) => this.pattern(e, slots, scope, keys));
      return (value, f, cont) => {
        const go = (i: number): void => {
          if (i === elems.length) cont();
          else elems[i](index(value, i), f, () => go(i + 1));
        };
        go(0);
      };
    }
    const entries = p.entries.map((e) => ({
      key: e.key ? this.compile(e.key, scope) : new Literal(e.bind),
      bindSlot: e.bind !== null ? slots.get(e.bind)! : -1,
      sub: e.pat ? this.pattern(e.pat, slots, scope, keys) : null,
    }));
    for (const e of entries) keys.push(e.key);
    return (value, f, cont) => {
      const go = (i: number): void => {
        if (i === entries.length) {
          cont();
          return;
        }
        const e = entries[i];
        e.key.ev(value, f, (key) => {
          const x = index(value, key);
          if (e.bindSlot >= 0) f.l[e.bindSlot] = x;
          if (e.sub) e.sub(x, f, () => go(i + 1));
          else go(i + 1);
        });
      };
      go(0);
    };
  }
}

/** A value through a format (string interpolation, `@base64`, ...). */
function toStringFormat(name: string, v: Json): string {
  if (name === 'text') return typeof v === 'string' ? v : typeof v === 'number' || v instanceof Lit ? fmtNumber(v) : format('text', v);
  return format(name, v);
}

/**
 * Could the expression read its input `.`? Conservative: calls and formats
 * are assumed to; variables, literals and constructors of such do not.
 */
function readsInput(a: Ast): boolean {
  switch (a.k) {
    case 'literal':
    case 'var':
    case 'loc':
    case 'break':
      return false;
    case 'array':
      return a.body !== null && readsInput(a.body);
    case 'object':
      return a.entries.some((e) => readsInput(e.key) || readsInput(e.value));
    case 'string':
      return a.parts.some((p) => typeof p !== 'string' && readsInput(p));
    case 'pipe':
      return readsInput(a.left);
    case 'comma':
    case 'binop':
    case 'and':
    case 'or':
    case 'alt':
      return readsInput(a.left) || readsInput(a.right);
    case 'neg':
      return readsInput(a.body);
    case 'index':
      return readsInput(a.target) || readsInput(a.key);
    case 'slice':
      return readsInput(a.target) || (a.from !== null && readsInput(a.from)) || (a.to !== null && readsInput(a.to));
    case 'iterate':
      return readsInput(a.target);
    case 'if':
      return readsInput(a.cond) || readsInput(a.then) || a.else === null || readsInput(a.else);
    default:
      return true;
  }
}

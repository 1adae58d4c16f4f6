// The evaluator. Programs compile to trees of Nodes evaluated in
// continuation-passing style: `ev(input, frame, k)` calls k once per output,
// so backtracking is simply "return and let the caller call k again", and
// `empty` is a node that never calls k. Path expressions (path(f), |=, del)
// run the same nodes through `paths`, which passes each output's path along
// (null for an output that is not a path: `path(1)` fails on it).
//
// Frames hold the variables of one function invocation (or one invocation
// of a closure argument); nested functions reach outer frames through `up`,
// a static link. Errors are JqError exceptions; `try` tags what its body's
// downstream throws so it only catches errors raised inside the body (jq 1.7).

import { add, describe, index, iterError, slice, trunc } from './ops.js';
import { JqError, err, truthy, type Json } from './value.js';

export type K = (v: Json) => void;
export type Path = Json[] | null;
export type PK = (v: Json, p: Path) => void;

const NO_LOCALS: Json[] = [];

/** Per-level compile information: how many local slots a frame of that level needs. */
export class Level {
  n = 0;
  constructor(
    readonly depth: number,
    readonly parent: Level | null,
  ) {}
}

export class Frame {
  readonly l: unknown[];
  constructor(
    readonly up: Frame | null,
    readonly args: Closure[] | null,
    n: number,
  ) {
    this.l = n === 0 ? NO_LOCALS : new Array(n);
  }
}

/** A filter argument: its code and the frame it was written in. */
export class Closure {
  constructor(
    readonly node: Node,
    readonly frame: Frame,
    readonly level: Level,
  ) {}

  ev(v: Json, k: K): void {
    this.node.ev(v, new Frame(this.frame, null, this.level.n), k);
  }

  val(v: Json): Json {
    return this.node.val(v, new Frame(this.frame, null, this.level.n));
  }

  paths(v: Json, p: Path, k: PK): void {
    this.node.paths(v, p, new Frame(this.frame, null, this.level.n), k);
  }
}

export const walk = (f: Frame, hops: number): Frame => {
  while (hops-- > 0) f = f.up!;
  return f;
};

/** A call left for the caller to make (see Node.tail). */
export class TailCall {
  constructor(
    readonly call: Node,
    readonly input: Json,
    readonly frame: Frame,
  ) {}
}

/** `break $label`: unwinds to the label evaluation that made `tag`. */
export class BreakSignal {
  constructor(readonly tag: object) {}
}

/** An error raised downstream of a `try` body, passing through that try untouched. */
class Passthrough {
  constructor(
    readonly error: JqError,
    readonly tag: object,
  ) {}
}

/** Wrap k so JqErrors it raises pass through the catch tagged `tag`. */
export function guard(k: K, tag: object): K {
  return (x) => {
    try {
      k(x);
    } catch (e) {
      if (e instanceof JqError) throw new Passthrough(e, tag);
      throw e;
    }
  };
}

function guardP(k: PK, tag: object): PK {
  return (x, p) => {
    try {
      k(x, p);
    } catch (e) {
      if (e instanceof JqError) throw new Passthrough(e, tag);
      throw e;
    }
  };
}

/** The JqError a body raised (null: the exception is not ours to handle, rethrow it). */
export function caught(e: unknown, tag: object): JqError | null {
  if (e instanceof Passthrough) {
    if (e.tag === tag) throw e.error;
    return null;
  }
  return e instanceof JqError ? e : null;
}

export const invalidPath = (v: Json): JqError => err(`Invalid path expression with result ${trunc(v, 30)}`);

/** Generation of the singleness analysis: bumping it invalidates every cached answer. */
let epoch = 0;
export const nextEpoch = (): void => {
  epoch++;
};

export abstract class Node {
  private sEpoch = -1;
  private sVal = false;

  abstract ev(v: Json, f: Frame, k: K): void;

  /**
   * Does every evaluation give exactly one output (or raise)? Such nodes are
   * evaluated in direct style with `val`, which keeps the JavaScript stack
   * shallow where continuation passing would nest (recursion like fib).
   */
  get single(): boolean {
    if (this.sEpoch !== epoch) {
      this.sEpoch = epoch;
      this.sVal = false;
      this.sVal = this.isSingle();
    }
    return this.sVal;
  }

  protected isSingle(): boolean {
    return false;
  }

  /** The one output of a single node. */
  val(v: Json, f: Frame): Json {
    let r: Json = null;
    this.ev(v, f, (x) => {
      r = x;
    });
    return r;
  }

  /**
   * `val` in tail position of a function body: a call there comes back as a
   * TailCall for the caller's loop to make, so tail recursion runs in
   * constant stack (jq optimises tail calls too).
   */
  tail(v: Json, f: Frame): Json | TailCall {
    return this.val(v, f);
  }

  /**
   * Path mode; by default the outputs are not paths — unless an output is
   * the input itself (jq tracks paths by identity: `null | path(null)` is []).
   */
  paths(v: Json, p: Path, f: Frame, k: PK): void {
    this.ev(v, f, (x) => k(x, x === v ? p : null));
  }
}

export class Identity extends Node {
  protected override isSingle(): boolean {
    return true;
  }
  override val(v: Json): Json {
    return v;
  }
  ev(v: Json, _f: Frame, k: K): void {
    k(v);
  }
  override paths(v: Json, p: Path, _f: Frame, k: PK): void {
    k(v, p);
  }
}

export class Empty extends Node {
  ev(): void {}
  override paths(): void {}
}

export class Literal extends Node {
  constructor(readonly value: Json) {
    super();
  }
  protected override isSingle(): boolean {
    return true;
  }
  override val(): Json {
    return this.value;
  }
  ev(_v: Json, _f: Frame, k: K): void {
    k(this.value);
  }
}

export class Pipe extends Node {
  constructor(
    readonly left: Node,
    readonly right: Node,
  ) {
    super();
  }
  protected override isSingle(): boolean {
    return this.left.single && this.right.single;
  }
  override val(v: Json, f: Frame): Json {
    return this.right.val(this.left.val(v, f), f);
  }
  override tail(v: Json, f: Frame): Json | TailCall {
    return this.right.tail(this.left.val(v, f), f);
  }
  ev(v: Json, f: Frame, k: K): void {
    const right = this.right;
    if (this.left.single) right.ev(this.left.val(v, f), f, k);
    else this.left.ev(v, f, (x) => right.ev(x, f, k));
  }
  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    const right = this.right;
    this.left.paths(v, p, f, (x, q) => right.paths(x, q, f, k));
  }
}

export class Comma extends Node {
  constructor(
    readonly left: Node,
    readonly right: Node,
  ) {
    super();
  }
  ev(v: Json, f: Frame, k: K): void {
    this.left.ev(v, f, k);
    this.right.ev(v, f, k);
  }
  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    this.left.paths(v, p, f, k);
    this.right.paths(v, p, f, k);
  }
}

const pathStep = (p: Path, t: Json, key: Json): Json[] => {
  if (p === null) throw err(`Invalid path expression near attempt to access element ${trunc(key)} of ${trunc(t, 30)}`);
  return [...p, key];
};

/** `t[key]`, `.key`, `.[e]`; `opt` (`?`) drops the error of the index itself. */
export class Index extends Node {
  constructor(
    readonly target: Node,
    readonly key: Node,
    readonly opt: boolean,
    /** The key when it is a literal (`.a`). */
    readonly constKey: Json | undefined,
  ) {
    super();
  }

  private get(t: Json, key: Json): Json | undefined {
    if (!this.opt) return index(t, key);
    try {
      return index(t, key);
    } catch (e) {
      if (e instanceof JqError) return undefined;
      throw e;
    }
  }

  protected override isSingle(): boolean {
    return !this.opt && this.key.single && this.target.single;
  }
  override val(v: Json, f: Frame): Json {
    const key = this.constKey !== undefined ? this.constKey : this.key.val(v, f);
    return index(this.target.val(v, f), key);
  }
  ev(v: Json, f: Frame, k: K): void {
    if (this.single) {
      k(this.val(v, f));
      return;
    }
    const ck = this.constKey;
    if (ck !== undefined) {
      if (this.target instanceof Identity) {
        const r = this.get(v, ck);
        if (r !== undefined) k(r);
        return;
      }
      this.target.ev(v, f, (t) => {
        const r = this.get(t, ck);
        if (r !== undefined) k(r);
      });
      return;
    }
    this.key.ev(v, f, (key) =>
      this.target.ev(v, f, (t) => {
        const r = this.get(t, key);
        if (r !== undefined) k(r);
      }),
    );
  }

  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    this.key.ev(v, f, (key) =>
      this.target.paths(v, p, f, (t, tp) => {
        const q = pathStep(tp, t, key);
        const r = this.get(t, key);
        if (r !== undefined) k(r, q);
      }),
    );
  }
}

/** `t[from:to]`. */
export class Slice extends Node {
  constructor(
    readonly target: Node,
    readonly from: Node | null,
    readonly to: Node | null,
    readonly opt: boolean,
  ) {
    super();
  }

  private bounds(v: Json, f: Frame, each: (a: Json, b: Json) => void): void {
    const to = this.to;
    const inner = (a: Json) => (to ? to.ev(v, f, (b) => each(a, b)) : each(a, null));
    if (this.from) this.from.ev(v, f, inner);
    else inner(null);
  }

  private get(t: Json, a: Json, b: Json): Json | undefined {
    if (!this.opt) return slice(t, a, b);
    try {
      return slice(t, a, b);
    } catch (e) {
      if (e instanceof JqError) return undefined;
      throw e;
    }
  }

  protected override isSingle(): boolean {
    return !this.opt && this.target.single && (this.from?.single ?? true) && (this.to?.single ?? true);
  }
  override val(v: Json, f: Frame): Json {
    const a = this.from ? this.from.val(v, f) : null;
    const b = this.to ? this.to.val(v, f) : null;
    return slice(this.target.val(v, f), a, b);
  }
  ev(v: Json, f: Frame, k: K): void {
    if (this.single) {
      k(this.val(v, f));
      return;
    }
    this.bounds(v, f, (a, b) =>
      this.target.ev(v, f, (t) => {
        const r = this.get(t, a, b);
        if (r !== undefined) k(r);
      }),
    );
  }

  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    this.bounds(v, f, (a, b) =>
      this.target.paths(v, p, f, (t, tp) => {
        const key = new Map<string, Json>([
          ['start', a],
          ['end', b],
        ]);
        const q = pathStep(tp, t, key);
        const r = this.get(t, a, b);
        if (r !== undefined) k(r, q);
      }),
    );
  }
}

/** `t[]`. */
export class Iterate extends Node {
  constructor(
    readonly target: Node,
    readonly opt: boolean,
  ) {
    super();
  }

  private each(t: Json, k: K): void {
    if (Array.isArray(t)) {
      for (let i = 0; i < t.length; i++) k(t[i]);
    } else if (t instanceof Map) {
      for (const x of t.values()) k(x);
    } else if (!this.opt) throw iterError(t);
  }

  ev(v: Json, f: Frame, k: K): void {
    if (this.target instanceof Identity) this.each(v, k);
    else this.target.ev(v, f, (t) => this.each(t, k));
  }

  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    this.target.paths(v, p, f, (t, tp) => {
      if (tp === null) throw err(`Invalid path expression near attempt to iterate through ${trunc(t, 30)}`);
      if (Array.isArray(t)) {
        for (let i = 0; i < t.length; i++) k(t[i], [...tp, i]);
      } else if (t instanceof Map) {
        for (const [key, x] of t) k(x, [...tp, key]);
      } else if (!this.opt) throw iterError(t);
    });
  }
}

/** `..`: the input and everything inside it, depth first (iteratively: deep data must not exhaust the stack). */
export class RecurseAll extends Node {
  ev(v: Json, _f: Frame, k: K): void {
    const stack: Json[] = [v];
    while (stack.length) {
      const x = stack.pop()!;
      k(x);
      if (Array.isArray(x)) for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
      else if (x instanceof Map) {
        const vals = [...x.values()];
        for (let i = vals.length - 1; i >= 0; i--) stack.push(vals[i]);
      }
    }
  }
  override paths(v: Json, p: Path, _f: Frame, k: PK): void {
    if (p === null) {
      this.ev(v, _f, (x) => k(x, null));
      return;
    }
    const stack: [Json, Json[]][] = [[v, p]];
    while (stack.length) {
      const [x, q] = stack.pop()!;
      k(x, q);
      if (Array.isArray(x)) for (let i = x.length - 1; i >= 0; i--) stack.push([x[i], [...q, i]]);
      else if (x instanceof Map) {
        const es = [...x];
        for (let i = es.length - 1; i >= 0; i--) stack.push([es[i][1], [...q, es[i][0]]]);
      }
    }
  }
}

export class ArrayCons extends Node {
  constructor(readonly body: Node) {
    super();
  }
  protected override isSingle(): boolean {
    return true;
  }
  override val(v: Json, f: Frame): Json {
    const out: Json[] = [];
    if (this.body.single) out.push(this.body.val(v, f));
    else
      this.body.ev(v, f, (x) => {
        out.push(x);
      });
    return out;
  }
  ev(v: Json, f: Frame, k: K): void {
    k(this.val(v, f));
  }
}

export class ObjectCons extends Node {
  constructor(readonly entries: { key: Node; value: Node }[]) {
    super();
  }
  protected override isSingle(): boolean {
    return this.entries.every((e) => e.key.single && e.value.single);
  }
  override val(v: Json, f: Frame): Json {
    const m: Map<string, Json> = new Map();
    for (const e of this.entries) {
      const key = e.key.val(v, f);
      if (typeof key !== 'string') throw err(`Cannot use ${describe(key)} as object key`);
      m.set(key, e.value.val(v, f));
    }
    return m;
  }
  ev(v: Json, f: Frame, k: K): void {
    if (this.single) {
      k(this.val(v, f));
      return;
    }
    const es = this.entries;
    const acc: [string, Json][] = [];
    const build = (i: number): void => {
      if (i === es.length) {
        k(new Map(acc));
        return;
      }
      es[i].key.ev(v, f, (key) => {
        if (typeof key !== 'string') throw err(`Cannot use ${describe(key)} as object key`);
        es[i].value.ev(v, f, (val) => {
          acc.push([key, val]);
          build(i + 1);
          acc.pop();
        });
      });
    };
    build(0);
  }
}

export class If extends Node {
  constructor(
    readonly cond: Node,
    readonly then: Node,
    readonly otherwise: Node | null,
  ) {
    super();
  }
  protected override isSingle(): boolean {
    return this.cond.single && this.then.single && (this.otherwise?.single ?? true);
  }
  override val(v: Json, f: Frame): Json {
    if (truthy(this.cond.val(v, f))) return this.then.val(v, f);
    return this.otherwise ? this.otherwise.val(v, f) : v;
  }
  override tail(v: Json, f: Frame): Json | TailCall {
    if (truthy(this.cond.val(v, f))) return this.then.tail(v, f);
    return this.otherwise ? this.otherwise.tail(v, f) : v;
  }
  ev(v: Json, f: Frame, k: K): void {
    const branch = (c: Json): void => {
      if (truthy(c)) this.then.ev(v, f, k);
      else if (this.otherwise) this.otherwise.ev(v, f, k);
      else k(v);
    };
    if (this.cond.single) branch(this.cond.val(v, f));
    else this.cond.ev(v, f, branch);
  }
  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    this.cond.ev(v, f, (c) => {
      if (truthy(c)) this.then.paths(v, p, f, k);
      else if (this.otherwise) this.otherwise.paths(v, p, f, k);
      else k(v, p);
    });
  }
}

export class And extends Node {
  constructor(
    readonly left: Node,
    readonly right: Node,
  ) {
    super();
  }
  protected override isSingle(): boolean {
    return this.left.single && this.right.single;
  }
  override val(v: Json, f: Frame): Json {
    return truthy(this.left.val(v, f)) && truthy(this.right.val(v, f));
  }
  ev(v: Json, f: Frame, k: K): void {
    if (this.single) {
      k(this.val(v, f));
      return;
    }
    this.left.ev(v, f, (a) => {
      if (!truthy(a)) k(false);
      else this.right.ev(v, f, (b) => k(truthy(b)));
    });
  }
}

export class Or extends Node {
  constructor(
    readonly left: Node,
    readonly right: Node,
  ) {
    super();
  }
  protected override isSingle(): boolean {
    return this.left.single && this.right.single;
  }
  override val(v: Json, f: Frame): Json {
    return truthy(this.left.val(v, f)) || truthy(this.right.val(v, f));
  }
  ev(v: Json, f: Frame, k: K): void {
    if (this.single) {
      k(this.val(v, f));
      return;
    }
    this.left.ev(v, f, (a) => {
      if (truthy(a)) k(true);
      else this.right.ev(v, f, (b) => k(truthy(b)));
    });
  }
}

/** `a // b`: the truthy outputs of a, or else the outputs of b. */
export class Alt extends Node {
  constructor(
    readonly left: Node,
    readonly right: Node,
  ) {
    super();
  }
  protected override isSingle(): boolean {
    return this.left.single && this.right.single;
  }
  override val(v: Json, f: Frame): Json {
    const a = this.left.val(v, f);
    return truthy(a) ? a : this.right.val(v, f);
  }
  ev(v: Json, f: Frame, k: K): void {
    if (this.single) {
      k(this.val(v, f));
      return;
    }
    let found = false;
    this.left.ev(v, f, (x) => {
      if (truthy(x)) {
        found = true;
        k(x);
      }
    });
    if (!found) this.right.ev(v, f, k);
  }
  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    let found = false;
    this.left.paths(v, p, f, (x, q) => {
      if (truthy(x)) {
        found = true;
        k(x, q);
      }
    });
    if (!found) this.right.paths(v, p, f, k);
  }
}

/** A binary operator: the right operand is the outer loop, as in jq. */
export class Binop extends Node {
  constructor(
    readonly left: Node,
    readonly right: Node,
    readonly fn: (a: Json, b: Json) => Json,
  ) {
    super();
  }
  protected override isSingle(): boolean {
    return this.left.single && this.right.single;
  }
  override val(v: Json, f: Frame): Json {
    const b = this.right.val(v, f);
    return this.fn(this.left.val(v, f), b);
  }
  ev(v: Json, f: Frame, k: K): void {
    const { left, fn } = this;
    if (this.single) {
      k(this.val(v, f));
      return;
    }
    if (this.right instanceof Literal) {
      const b = this.right.value;
      left.ev(v, f, (a) => k(fn(a, b)));
      return;
    }
    this.right.ev(v, f, (b) => left.ev(v, f, (a) => k(fn(a, b))));
  }
}

export class Unary extends Node {
  constructor(
    readonly body: Node,
    readonly fn: (a: Json) => Json,
  ) {
    super();
  }
  protected override isSingle(): boolean {
    return this.body.single;
  }
  override val(v: Json, f: Frame): Json {
    return this.fn(this.body.val(v, f));
  }
  ev(v: Json, f: Frame, k: K): void {
    if (this.body.single) k(this.fn(this.body.val(v, f)));
    else this.body.ev(v, f, (a) => k(this.fn(a)));
  }
}

export class Try extends Node {
  constructor(
    readonly body: Node,
    readonly handler: Node | null,
  ) {
    super();
  }
  ev(v: Json, f: Frame, k: K): void {
    const tag = {};
    try {
      this.body.ev(v, f, guard(k, tag));
    } catch (e) {
      const je = caught(e, tag);
      if (!je) throw e;
      // error(null) behaves like empty, even for catch.
      if (this.handler && je.value !== null) this.handler.ev(je.value, f, k);
    }
  }
  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    const tag = {};
    try {
      this.body.paths(v, p, f, guardP(k, tag));
    } catch (e) {
      const je = caught(e, tag);
      if (!je) throw e;
      if (this.handler && je.value !== null) this.handler.paths(je.value, null, f, k);
    }
  }
}

/** `label $x | body`: the label's tag lives in a local slot for `break $x`. */
export class Label extends Node {
  constructor(
    readonly slot: number,
    readonly body: Node,
  ) {
    super();
  }
  ev(v: Json, f: Frame, k: K): void {
    const tag = {};
    f.l[this.slot] = tag;
    try {
      this.body.ev(v, f, k);
    } catch (e) {
      if (!(e instanceof BreakSignal) || e.tag !== tag) throw e;
    }
  }
  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    const tag = {};
    f.l[this.slot] = tag;
    try {
      this.body.paths(v, p, f, k);
    } catch (e) {
      if (!(e instanceof BreakSignal) || e.tag !== tag) throw e;
    }
  }
}

export class Break extends Node {
  constructor(
    readonly hops: number,
    readonly slot: number,
  ) {
    super();
  }
  ev(_v: Json, f: Frame): void {
    throw new BreakSignal(walk(f, this.hops).l[this.slot] as object);
  }
  override paths(v: Json, _p: Path, f: Frame): void {
    this.ev(v, f);
  }
}

export class Var extends Node {
  constructor(
    readonly hops: number,
    readonly slot: number,
  ) {
    super();
  }
  protected override isSingle(): boolean {
    return true;
  }
  override val(_v: Json, f: Frame): Json {
    let fr = f;
    for (let h = this.hops; h > 0; h--) fr = fr.up!;
    return fr.l[this.slot] as Json;
  }
  ev(v: Json, f: Frame, k: K): void {
    k(this.val(v, f));
  }
}

/** Destructuring: binds pattern variables into local slots, possibly several times (key generators). */
export type Bind = (value: Json, f: Frame, cont: () => void) => void;

/** `src as $x | body` (also the patterns of reduce/foreach): alternatives `?//` retry on errors. */
export class Binder {
  constructor(
    readonly alternatives: Bind[],
    /** Every variable slot of every alternative (reset to null before each try). */
    readonly slots: number[],
    /** Object-pattern key expressions (a generator there binds several times). */
    readonly keys: Node[],
  ) {}

  /** One binding per value: a single alternative whose keys are single. */
  get single(): boolean {
    return this.alternatives.length === 1 && this.keys.every((k) => k.single);
  }

  run(value: Json, f: Frame, body: (guardTag: object | null) => void): void {
    const alts = this.alternatives;
    if (alts.length === 1) {
      alts[0](value, f, () => body(null));
      return;
    }
    for (let i = 0; i < alts.length; i++) {
      for (const s of this.slots) f.l[s] = null;
      const last = i === alts.length - 1;
      const tag = {};
      try {
        alts[i](value, f, () => body(last ? null : tag));
        return;
      } catch (e) {
        if (last) throw e;
        if (!caught(e, tag)) throw e;
      }
    }
  }
}

export class As extends Node {
  constructor(
    readonly source: Node,
    readonly binder: Binder,
    readonly body: Node,
  ) {
    super();
  }
  protected override isSingle(): boolean {
    return this.source.single && this.binder.single && this.body.single;
  }
  override val(v: Json, f: Frame): Json {
    let r: Json = null;
    this.binder.run(this.source.val(v, f), f, () => {
      r = this.body.val(v, f);
    });
    return r;
  }
  override tail(v: Json, f: Frame): Json | TailCall {
    let r: Json | TailCall = null;
    this.binder.run(this.source.val(v, f), f, () => {
      r = this.body.tail(v, f);
    });
    return r;
  }
  ev(v: Json, f: Frame, k: K): void {
    const bind = (x: Json): void => this.binder.run(x, f, (tag) => this.body.ev(v, f, tag ? guard(k, tag) : k));
    if (this.source.single) bind(this.source.val(v, f));
    else this.source.ev(v, f, bind);
  }
  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    this.source.ev(v, f, (x) => this.binder.run(x, f, (tag) => this.body.paths(v, p, f, tag ? guardP(k, tag) : k)));
  }
}

export class Reduce extends Node {
  constructor(
    readonly source: Node,
    readonly binder: Binder,
    readonly init: Node,
    readonly update: Node,
    /** The update is `. + append` with `append` not reading its input: the state can grow in place. */
    readonly append: Node | null = null,
  ) {
    super();
  }
  protected override isSingle(): boolean {
    return this.init.single;
  }
  override val(v: Json, f: Frame): Json {
    return this.fold(v, f, this.init.val(v, f));
  }
  private fold(v: Json, f: Frame, acc0: Json): Json {
    if (this.append?.single) return this.foldAppend(v, f, acc0, this.append);
    let acc = acc0;
    const update = this.update;
    const step = (): void => {
      // jq takes the last output of the update; none leaves null.
      const cur = acc;
      acc = null;
      if (update.single) acc = update.val(cur, f);
      else
        update.ev(cur, f, (y) => {
          acc = y;
        });
    };
    this.source.ev(v, f, (x) => this.binder.run(x, f, step));
    return acc;
  }
  /**
   * `reduce ... (init; . + e)`: once the state is a container this reduce
   * made itself, nothing else can see it (e cannot read it), so it grows in
   * place, as jq's reference counting lets it: collecting stays linear.
   */
  private foldAppend(v: Json, f: Frame, acc0: Json, append: Node): Json {
    let acc = acc0;
    let own: Json = null;
    this.source.ev(v, f, (x) =>
      this.binder.run(x, f, () => {
        const e = append.val(acc, f);
        if (own !== null && own === acc) {
          if (Array.isArray(acc) && Array.isArray(e)) {
            for (let i = 0; i < e.length; i++) acc.push(e[i]);
            return;
          }
          if (acc instanceof Map && e instanceof Map) {
            for (const [key, y] of e) acc.set(key, y);
            return;
          }
        }
        const r = add(acc, e);
        own = r !== acc && r !== e && r !== null && typeof r === 'object' ? r : null;
        acc = r;
      }),
    );
    return acc;
  }

  ev(v: Json, f: Frame, k: K): void {
    if (this.init.single) k(this.fold(v, f, this.init.val(v, f)));
    else this.init.ev(v, f, (acc0) => k(this.fold(v, f, acc0)));
  }
  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    this.init.paths(v, p, f, (acc0, p0) => {
      let acc = acc0;
      let ap = p0;
      this.source.ev(v, f, (x) =>
        this.binder.run(x, f, () => {
          const cur = acc;
          const cp = ap;
          acc = null;
          ap = null;
          this.update.paths(cur, cp, f, (y, q) => {
            acc = y;
            ap = q;
          });
        }),
      );
      k(acc, ap);
    });
  }
}

export class Foreach extends Node {
  constructor(
    readonly source: Node,
    readonly binder: Binder,
    readonly init: Node,
    readonly update: Node,
    readonly extract: Node | null,
  ) {
    super();
  }
  ev(v: Json, f: Frame, k: K): void {
    this.init.ev(v, f, (s0) => {
      let st = s0;
      this.source.ev(v, f, (x) =>
        this.binder.run(x, f, (tag) => {
          const out = tag ? guard(k, tag) : k;
          const cur = st;
          st = null;
          this.update.ev(cur, f, (y) => {
            st = y;
            if (this.extract) this.extract.ev(y, f, out);
            else out(y);
          });
        }),
      );
    });
  }
  override paths(v: Json, p: Path, f: Frame, k: PK): void {
    this.init.paths(v, p, f, (s0, p0) => {
      let st = s0;
      let sp = p0;
      this.source.ev(v, f, (x) =>
        this.binder.run(x, f, () => {
          const cur = st;
          const cp = sp;
          st = null;
          sp = null;
          this.update.paths(cur, cp, f, (y, q) => {
            st = y;
            sp = q;
            if (this.extract) this.extract.paths(y, q, f, k);
            else k(y, q);
          });
        }),
      );
    });
  }
}

/** String interpolation: the last interpolation is the outer loop (jq builds it from `+`). */
export class Interp extends Node {
  constructor(
    readonly parts: (string | Node)[],
    readonly format: (v: Json) => string,
  ) {
    super();
  }
  protected override isSingle(): boolean {
    return this.parts.every((p) => typeof p === 'string' || p.single);
  }
  override val(v: Json, f: Frame): Json {
    const parts = this.parts;
    const vals: string[] = new Array(parts.length);
    for (let i = parts.length - 1; i >= 0; i--) {
      const p = parts[i];
      vals[i] = typeof p === 'string' ? p : this.format(p.val(v, f));
    }
    return vals.join('');
  }
  ev(v: Json, f: Frame, k: K): void {
    if (this.single) {
      k(this.val(v, f));
      return;
    }
    const parts = this.parts;
    const vals: string[] = new Array(parts.length);
    const go = (i: number): void => {
      if (i < 0) {
        k(vals.join(''));
        return;
      }
      const p = parts[i];
      if (typeof p === 'string') {
        vals[i] = p;
        go(i - 1);
      } else
        p.ev(v, f, (x) => {
          vals[i] = this.format(x);
          go(i - 1);
        });
    };
    go(parts.length - 1);
  }
}

/** Describe a path-mode failure for `path(f)`: outputs that are not paths. */
export function requirePath(x: Json, p: Path): Json[] {
  if (p === null) throw invalidPath(x);
  return p;
}


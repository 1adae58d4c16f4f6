// Assignment operators. The paths of the left side are computed on the
// original input; `=` sets each to a value of the right side (one result per
// right-side output); `|=` replaces each with the first output of the update
// and deletes it when there is none (jq 1.7, deletions applied together at
// the end); `+=`, `//=` and friends are `|=` with the right side evaluated
// once against the original input.

import type { AssignOp } from './ast.js';
import { Frame, Node, requirePath, type K } from './interp.js';
import { add, divide, modulo, multiply, subtract } from './ops.js';
import { delpaths, getpath, setpath, type Owned } from './paths.js';
import { truthy, type Json } from './value.js';

const ARITH: Record<string, (a: Json, b: Json) => Json> = {
  '+=': add,
  '-=': subtract,
  '*=': multiply,
  '/=': divide,
  '%=': modulo,
};

/** Ends an update after its first output. */
class First {}

export class Assign extends Node {
  constructor(
    readonly op: AssignOp,
    readonly lhs: Node,
    readonly rhs: Node,
  ) {
    super();
  }

  protected override isSingle(): boolean {
    return this.op === '|=' || this.rhs.single;
  }

  override val(v: Json, f: Frame): Json {
    const { op, lhs, rhs } = this;
    if (op === '|=') return modify(v, lhs, f, (old, out) => (rhs.single ? out(rhs.val(old, f)) : rhs.ev(old, f, out)));
    const val = rhs.val(v, f);
    if (op === '=') return assignAll(v, lhs, f, val);
    if (op === '//=') return modify(v, lhs, f, (old, out) => out(truthy(old) ? old : val));
    const fn = ARITH[op];
    return modify(v, lhs, f, (old, out) => out(fn(old, val)));
  }

  ev(v: Json, f: Frame, k: K): void {
    if (this.single) {
      k(this.val(v, f));
      return;
    }
    const { op, lhs, rhs } = this;
    if (op === '=') {
      rhs.ev(v, f, (val) => k(assignAll(v, lhs, f, val)));
      return;
    }
    if (op === '|=') {
      k(modify(v, lhs, f, (old, out) => rhs.ev(old, f, out)));
      return;
    }
    if (op === '//=') {
      rhs.ev(v, f, (val) => k(modify(v, lhs, f, (old, out) => out(truthy(old) ? old : val))));
      return;
    }
    const fn = ARITH[op];
    rhs.ev(v, f, (val) => k(modify(v, lhs, f, (old, out) => out(fn(old, val)))));
  }
}

/** `lhs = val`: every path set to the value. */
function assignAll(v: Json, lhs: Node, f: Frame, val: Json): Json {
  let r = v;
  const owned: Owned = new Set();
  lhs.paths(v, [], f, (x, p) => {
    r = setpath(r, requirePath(x, p), val, owned);
  });
  return r;
}

/** jq's _modify: each path gets the first output of update, or is deleted when update is empty. */
export function modify(v: Json, lhs: Node, f: Frame, update: (old: Json, out: K) => void): Json {
  let r = v;
  const dels: Json[][] = [];
  const owned: Owned = new Set();
  lhs.paths(v, [], f, (x, p) => {
    const path = requirePath(x, p);
    const old = getpath(r, path);
    const stop = new First();
    let got = false;
    let out: Json = null;
    try {
      update(old, (y) => {
        got = true;
        out = y;
        throw stop;
      });
    } catch (e) {
      if (e !== stop) throw e;
    }
    // An update that saw one of our own containers may have kept it: stop trusting ownership.
    if (got && out !== old && old !== null && typeof old === 'object' && owned.has(old)) owned.clear();
    if (got) r = setpath(r, path, out, owned);
    else dels.push(path);
  });
  return dels.length ? delpaths(r, dels) : r;
}

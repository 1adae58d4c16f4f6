// YAML nodes ↔ jq values. Converted containers remember the node they came
// from, so a result that still holds them (jq values are never mutated) is
// written back through those nodes, with their comments and styles; changed
// parts are rebuilt around them.

import { Document, isAlias, isMap, isPair, isScalar, isSeq, Pair, Scalar, YAMLMap, YAMLSeq, type Node as YNode } from 'yaml';
import { toJson as jsonText } from '../../../jq/programs/engine/json-print.js';
import { numberLiteral } from '../../../jq/programs/engine/number.js';
import { isObj, Lit, num, type JObject, type Json } from '../../../jq/programs/engine/value.js';

export class Converter {
  private readonly origin = new WeakMap<object, YNode>();
  private readonly seen = new Map<YNode, Json>();

  /** A document's contents as a jq value. */
  fromDoc(doc: Document): Json {
    return this.fromNode(doc.contents as YNode | null, doc);
  }

  private fromNode(node: YNode | null | undefined, doc: Document): Json {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return this.fromNode(node.resolve(doc) as YNode | undefined, doc);
    const hit = this.seen.get(node);
    if (hit !== undefined) return hit;
    let v: Json;
    if (isScalar(node)) v = scalarValue(node.value, node.source);
    else if (isMap(node)) {
      const m: JObject = new Map();
      const merges: Json[] = [];
      for (const p of node.items) {
        const key = this.fromNode(p.key as YNode, doc);
        const k = typeof key === 'string' ? key : key === null ? 'null' : jsonText(key);
        if (k === '<<' && isScalar(p.key) && p.key.value === '<<') {
          const src = this.fromNode(p.value as YNode, doc);
          merges.push(...(Array.isArray(src) ? src : [src]));
          continue;
        }
        m.set(k, this.fromNode(p.value as YNode, doc));
      }
      // Merge keys (<<) add what the map does not already say.
      for (const src of merges) if (isObj(src)) for (const [k, x] of src) if (!m.has(k)) m.set(k, x);
      v = m;
    } else if (isSeq(node)) v = node.items.map((x) => this.fromNode(x as YNode, doc));
    else v = null;
    if (v !== null && typeof v === 'object') {
      this.origin.set(v, node);
      this.seen.set(node, v);
    }
    return v;
  }

  /** A jq value as a YAML node, reusing `orig` (the node it replaces) and remembered nodes. */
  toNode(v: Json, orig: YNode | null | undefined, pretty: boolean): YNode {
    if (v !== null && typeof v === 'object' && !(v instanceof Lit)) {
      const from = this.origin.get(v);
      if (from && from === orig && !pretty) return orig;
      if (from && !pretty) return from.clone() as YNode;
      const base = orig ?? from;
      if (Array.isArray(v)) {
        const seq = new YAMLSeq();
        const old = base && isSeq(base) ? base : null;
        v.forEach((x, i) => seq.items.push(this.toNode(x, old ? (old.items[i] as YNode) : null, pretty)));
        if (old) copyDecor(old, seq, pretty);
        else seq.flow = v.length === 0;
        return seq;
      }
      const map = new YAMLMap();
      const old = base && isMap(base) ? base : null;
      for (const [k, x] of v as JObject) {
        const op = old?.items.find((p) => isPair(p) && keyText(p.key) === k);
        const key = op && isScalar(op.key) && !pretty ? op.key : new Scalar(k);
        if (op && isScalar(op.key) && pretty) {
          key.comment = op.key.comment;
          key.commentBefore = op.key.commentBefore;
        }
        map.items.push(new Pair(key, this.toNode(x, op ? (op.value as YNode) : null, pretty)));
      }
      if (old) copyDecor(old, map, pretty);
      else map.flow = map.items.length === 0;
      return map;
    }
    const value = v instanceof Lit ? num(v) : v;
    if (orig && isScalar(orig) && orig.value === value) {
      if (!pretty || typeof value !== 'string') return orig;
      orig.type = undefined;
      return orig;
    }
    const s = new Scalar(value);
    // 1.0 keeps its fraction digits.
    if (v instanceof Lit) {
      const m = /^-?\d+\.(\d+)$/.exec(v.s);
      if (m) s.minFractionDigits = m[1].length;
    }
    if (orig && isScalar(orig)) {
      s.comment = orig.comment;
      s.commentBefore = orig.commentBefore;
      s.spaceBefore = orig.spaceBefore;
      if (!pretty && typeof value === 'string' && typeof orig.value === 'string') s.type = orig.type;
    }
    return s;
  }
}

function keyText(k: unknown): string | null {
  if (isScalar(k)) return k.value === null ? 'null' : String(k.value);
  return null;
}

function copyDecor(from: YAMLMap | YAMLSeq, to: YAMLMap | YAMLSeq, pretty: boolean): void {
  to.comment = from.comment;
  to.commentBefore = from.commentBefore;
  to.spaceBefore = from.spaceBefore;
  to.flow = pretty ? to.items.length === 0 : from.flow;
}

function scalarValue(x: unknown, source: string | undefined): Json {
  if (x === null || x === undefined) return null;
  // Numbers keep their text (1.0 stays 1.0), as jq 1.7 keeps literals.
  if (typeof x === 'number' && source !== undefined && Number.isFinite(x)) return numberLiteral(source.replace(/^\+/, '')) ?? x;
  if (typeof x === 'string' || typeof x === 'boolean' || typeof x === 'number') return x;
  if (typeof x === 'bigint') return Number(x);
  if (x instanceof Date) return x.toISOString();
  return String(x);
}

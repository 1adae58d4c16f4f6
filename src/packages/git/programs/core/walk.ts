// The revision walk behind log: commits reachable from the positive tips
// and not from the negative ones, newest committer date first (ties in
// discovery order, as git's date-ordered list keeps them), with path
// limiting and git's default history simplification for merges.

import { ancestors } from './graph.js';
import type { Commit, FlatTree, Store } from './objects.js';

export interface WalkOptions {
  include: string[];
  exclude: string[];
  firstParent?: boolean;
  /** Keep only commits touching these paths. */
  paths?: ((p: string) => boolean) | null;
  /** Whether to show a commit (filters); walking continues either way. */
  filter?: (c: Commit) => boolean;
  maxCount?: number;
  skip?: number;
  reverse?: boolean;
  /** Topological order as git's --topo-order and --graph give it: no parent before all its children. */
  topo?: boolean;
}

function sameFor(a: FlatTree, b: FlatTree, keep: (p: string) => boolean): boolean {
  for (const [p, x] of a) {
    if (!keep(p)) continue;
    const y = b.get(p);
    if (!y || y.oid !== x.oid || y.mode !== x.mode) return false;
  }
  for (const p of b.keys()) if (keep(p) && !a.has(p)) return false;
  return true;
}

export async function walk(store: Store, o: WalkOptions): Promise<Commit[]> {
  const excluded = o.exclude.length ? await ancestors(store, o.exclude) : new Set<string>();
  const queue: Commit[] = [];
  const queued = new Set<string>();
  const insert = (c: Commit) => {
    let i = 0;
    while (i < queue.length && queue[i].committer.time >= c.committer.time) i++;
    queue.splice(i, 0, c);
  };
  const tips: Commit[] = [];
  for (const oid of o.include) {
    if (excluded.has(oid) || queued.has(oid)) continue;
    queued.add(oid);
    tips.push(await store.commit(oid));
  }
  // tips sorted by date, stable
  tips.sort((a, b) => b.committer.time - a.committer.time);
  queue.push(...tips);
  const shown: Commit[] = [];
  // In topological order every commit is walked first and sorted; filters and limits apply after.
  const walked: Commit[] = [];
  let skip = o.topo ? 0 : (o.skip ?? 0);
  const limit = o.reverse || o.topo ? Infinity : (o.maxCount ?? Infinity);
  while (queue.length && shown.length < limit) {
    const c = queue.shift()!;
    let parents = o.firstParent ? c.parents.slice(0, 1) : c.parents;
    let show = true;
    if (o.paths) {
      const mine = await store.flatTree(c.tree);
      if (parents.length === 0) show = [...mine.keys()].some(o.paths);
      else {
        const same: string[] = [];
        for (const p of parents) if (sameFor(mine, await store.flatTree((await store.commit(p)).tree), o.paths)) same.push(p);
        if (parents.length === 1) show = same.length === 0;
        else if (same.length) {
          show = false;
          parents = [same[0]];
        }
      }
    }
    if (show && o.filter && !o.filter(c)) show = false;
    if (o.topo) walked.push(c);
    if (show) {
      if (skip > 0) skip--;
      else shown.push(c);
    }
    for (const p of parents) {
      if (excluded.has(p) || queued.has(p)) continue;
      queued.add(p);
      insert(await store.commit(p));
    }
  }
  let out = shown;
  if (o.topo) {
    const keep = new Set(shown);
    out = topoOrder(walked, o.firstParent ?? false).filter((c) => keep.has(c)).slice(o.skip ?? 0);
    if (!o.reverse && o.maxCount !== undefined) out = out.slice(0, o.maxCount);
  }
  if (o.reverse) {
    const r = o.maxCount !== undefined ? out.slice(0, o.maxCount) : out;
    return r.reverse();
  }
  return out;
}

/**
 * Sort date-ordered commits so that none comes before all its children: the
 * tips in their given order, then depth first — a commit's last parent is
 * taken up first once all that parent's children are out (git's graph order).
 */
export function topoOrder(commits: Commit[], firstParent: boolean): Commit[] {
  const byOid = new Map(commits.map((c) => [c.oid, c]));
  const parentsOf = (c: Commit) => (firstParent ? c.parents.slice(0, 1) : c.parents).filter((p) => byOid.has(p));
  // In-degree + 1 for listed commits: 1 means every child is out.
  const indegree = new Map(commits.map((c) => [c.oid, 1]));
  for (const c of commits) for (const p of parentsOf(c)) indegree.set(p, indegree.get(p)! + 1);
  const stack = commits.filter((c) => indegree.get(c.oid) === 1).reverse();
  const out: Commit[] = [];
  for (let c = stack.pop(); c; c = stack.pop()) {
    for (const p of parentsOf(c)) {
      const n = indegree.get(p)! - 1;
      indegree.set(p, n);
      if (n === 1) stack.push(byOid.get(p)!);
    }
    out.push(c);
  }
  return out;
}

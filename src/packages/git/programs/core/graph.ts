// Walking the commit graph: ancestors, merge bases, ahead/behind counts.

import type { Store } from './objects.js';

/** Every commit reachable from `tips` (tips included). */
export async function ancestors(store: Store, tips: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const todo = [...tips];
  while (todo.length) {
    const oid = todo.pop()!;
    if (seen.has(oid)) continue;
    seen.add(oid);
    for (const p of (await store.commit(oid)).parents) if (!seen.has(p)) todo.push(p);
  }
  return seen;
}

export async function isAncestor(store: Store, maybe: string, of: string): Promise<boolean> {
  if (maybe === of) return true;
  return (await ancestors(store, [of])).has(maybe);
}

/** The best common ancestors of a and b (those not reachable from another common one). */
export async function mergeBases(store: Store, a: string, b: string): Promise<string[]> {
  const fromA = await ancestors(store, [a]);
  const fromB = await ancestors(store, [b]);
  const common = [...fromA].filter((x) => fromB.has(x));
  // a common ancestor of another common ancestor is not a best one
  const parents: string[] = [];
  for (const c of common) parents.push(...(await store.commit(c)).parents);
  const redundant = await ancestors(store, parents);
  const bases = common.filter((c) => !redundant.has(c));
  // newest first, as git lists them
  const withTime = await Promise.all(bases.map(async (c) => [c, (await store.commit(c)).committer.time] as const));
  return withTime.sort((x, y) => y[1] - x[1]).map(([c]) => c);
}

/** Commits in `a` not in `b`, and in `b` not in `a`. */
export async function aheadBehind(store: Store, a: string, b: string): Promise<[number, number]> {
  const fromA = await ancestors(store, [a]);
  const fromB = await ancestors(store, [b]);
  let ahead = 0;
  let behind = 0;
  for (const x of fromA) if (!fromB.has(x)) ahead++;
  for (const x of fromB) if (!fromA.has(x)) behind++;
  return [ahead, behind];
}

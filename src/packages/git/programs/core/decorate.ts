// Ref decorations for log: which refs point at each commit, in git's order
// (HEAD first as `HEAD -> branch`, then tags, remote-tracking and local
// branches, each group by name, last first).

import * as git from 'isomorphic-git';
import type { Ctx } from './ctx.js';
import type { Store } from './objects.js';
import { listRefs, readHead } from './refs.js';

export type Decorations = Map<string, string[]>;

export async function loadDecorations(ctx: Ctx, store: Store): Promise<Decorations> {
  // every ref decorates (refs/stash, refs/bisect/... by their full names)
  const refs = (await listRefs(ctx)).map((r) => r.name);
  const by = new Map<string, string[]>();
  const add = (oid: string, name: string) => {
    const l = by.get(oid) ?? [];
    l.unshift(name);
    by.set(oid, l);
  };
  for (const r of refs) {
    let oid: string;
    try {
      oid = await git.resolveRef({ ...ctx.iso(), ref: r });
    } catch {
      continue;
    }
    const short = r.startsWith('refs/heads/') ? r.slice(11) : r.startsWith('refs/remotes/') ? r.slice(13) : r.startsWith('refs/tags/') ? `tag: ${r.slice(10)}` : r;
    if (r.startsWith('refs/tags/')) {
      // annotated tags decorate the commit they point at
      const peeled = await store.peelToCommit(oid);
      if (peeled && peeled !== oid) add(peeled, short);
    }
    add(oid, short);
  }
  const head = await readHead(ctx);
  if (head.oid) {
    const l = by.get(head.oid) ?? [];
    const branch = head.ref?.slice(11);
    if (branch !== undefined && l.includes(branch)) {
      l.splice(l.indexOf(branch), 1);
      l.unshift(`HEAD -> ${branch}`);
    } else l.unshift('HEAD');
    by.set(head.oid, l);
  }
  return by;
}

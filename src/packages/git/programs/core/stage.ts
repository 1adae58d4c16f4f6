// Updating the index from the working tree: blobs are stored through
// isomorphic-git's object writer, the entries (with their stat data) go
// into the index in one write.

import { SysError } from '../../../../abi/errno.js';
import type { Ctx } from './ctx.js';
import { makeEntry, reindex } from './index-file.js';
import { Store } from './objects.js';
import type { Stat } from '../../../../abi/stat.js';
import { gitMode, readContent } from './worktree.js';

/** Stage the working-tree versions of `add` and drop `remove` (top-relative paths); `stats` saves the lstat of files just seen. */
export async function updateIndex(ctx: Ctx, add: string[], remove: string[] = [], stats?: Map<string, Stat>): Promise<void> {
  if (!add.length && !remove.length) return;
  const top = ctx.worktree().dir;
  const store = new Store(ctx);
  const idx = ctx.readIndex();
  const drop = new Set(remove);
  const fresh = new Map<string, ReturnType<typeof makeEntry>>();
  for (const p of add) {
    let st = stats?.get(p);
    try {
      st ??= ctx.sys.lstat(`${top}/${p}`);
    } catch (e) {
      if (e instanceof SysError) {
        drop.add(p);
        continue;
      }
      throw e;
    }
    const mode = gitMode(st);
    if (mode === null) continue;
    const data = readContent(ctx, `${top}/${p}`, mode, st.size);
    const oid = await store.write('blob', data);
    fresh.set(p, makeEntry(p, mode, oid, st));
  }
  // a new file replaces any directory of that name in the index, and the other way round
  const parents = new Set<string>();
  for (const p of fresh.keys()) for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) parents.add(p.slice(0, i));
  const under = (path: string) => {
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) if (fresh.has(path.slice(0, i))) return true;
    return false;
  };
  idx.entries = idx.entries.filter((e) => !fresh.has(e.path) && !drop.has(e.path) && !parents.has(e.path) && !under(e.path));
  idx.entries.push(...fresh.values());
  reindex(idx);
  await ctx.writeIndex(idx);
}

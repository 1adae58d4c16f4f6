// Where diff content comes from: objects in the store, or files in the
// working tree for the side that is the working tree.

import type { FileChange } from '../core/changes.js';
import type { Store } from '../core/objects.js';
import type { Worktree } from '../core/worktree.js';
import { diffFile, type FileDiff, type Loader } from './format.js';

/** Both sides are objects (trees, the index). */
export const storeLoader =
  (store: Store): Loader =>
  (c, side) =>
    store.blob((side === 'old' ? c.old : c.new)!.oid);

/** One side (`work`) is the working tree, the other objects. */
export const worktreeLoader =
  (store: Store, wt: Worktree, work: 'old' | 'new' = 'new'): Loader =>
  async (c, side) => {
    const item = (side === 'old' ? c.old : c.new)!;
    if (side !== work) return store.blob(item.oid);
    const f = wt.files.get(side === 'old' ? c.oldPath : c.newPath);
    return f ? wt.content(f) : store.blob(item.oid);
  };

export async function diffAll(changes: FileChange[], load: Loader): Promise<FileDiff[]> {
  const out: FileDiff[] = [];
  for (const c of changes) out.push(await diffFile(c, load));
  return out;
}

// The three trees compared: HEAD, the index and the working tree — what
// status, commit and add all start from.

import { compareSnapshots, type FileChange, type Snapshot } from './changes.js';
import type { Ctx } from './ctx.js';
import type { GitIndex, IndexEntry } from './index-file.js';
import { Store, type FlatTree } from './objects.js';
import { readHead, type Head } from './refs.js';
import { inexactRenames } from './renames.js';
import { Worktree, type ScanOptions } from './worktree.js';

export interface State {
  head: Head;
  headTree: FlatTree;
  index: GitIndex;
  wt: Worktree;
  /** HEAD → index (renames paired). */
  staged: FileChange[];
  /** index → working tree, unmerged paths excluded. */
  unstaged: FileChange[];
  unmerged: Map<string, IndexEntry[]>;
}

/** The index's stage-0 entries as a snapshot. */
export function indexSnapshot(index: GitIndex): Snapshot {
  const m: Snapshot = new Map();
  for (const e of index.byPath.values()) if (!e.intentToAdd) m.set(e.path, { mode: e.mode, oid: e.oid });
  return m;
}

/** The working tree's versions of the index's paths (hashing only what stat data cannot vouch for). */
export async function worktreeSnapshot(wt: Worktree, paths: Iterable<string>): Promise<Snapshot> {
  const m: Snapshot = new Map();
  for (const p of paths) {
    const f = wt.files.get(p);
    if (f) m.set(p, { mode: wt.modeOf(f), oid: await wt.oidOf(f) });
  }
  return m;
}

export async function loadState(ctx: Ctx, store: Store, scan: ScanOptions | null, filter?: (p: string) => boolean): Promise<State> {
  const repo = ctx.worktree();
  const head = await readHead(ctx);
  const headTree = await store.commitTree(head.oid);
  const index = ctx.readIndex();
  const wt = new Worktree(ctx, repo.dir, index);
  if (scan) wt.scan(scan);
  else wt.trackedOnly();
  const idx = indexSnapshot(index);
  // intent-to-add entries count as new files in the index
  const renames = ctx.configBool('status.renames', ctx.configBool('diff.renames', true));
  let staged = compareSnapshots(headTree, idx, { renames, filter: (p) => !index.unmerged.has(p) && (!filter || filter(p)) });
  if (renames) staged = await inexactRenames(staged, (c, side) => store.blob((side === 'old' ? c.old : c.new)!.oid));
  const paths = [...index.byPath.keys()].filter((p) => !filter || filter(p));
  const work = await worktreeSnapshot(wt, paths);
  const base: Snapshot = new Map();
  for (const p of paths) {
    const e = index.byPath.get(p)!;
    base.set(p, { mode: e.mode, oid: e.intentToAdd ? '' : e.oid });
  }
  const unstaged = compareSnapshots(base, work, { renames: false });
  return { head, headTree, index, wt, staged, unstaged, unmerged: index.unmerged };
}

// Repair of a damaged layer, when the user asks for it (decision 0033): the
// layer becomes what its intact commits before the damage make — a state it
// really had — and the damaged checkpoint and journal are kept beside it, so
// the commits after the damage are set aside, not destroyed. Commits after a
// damaged one are not replayed: they may build on it (a file's later bytes,
// a directory's entry for a file it created), and applying them without it
// would give a tree that never existed.

import { MemFs } from '../fs/memfs.js';
import { encodeFrame } from './format.js';
import { fullState } from './journal.js';
import { readLayer, type LayerDamage } from './read.js';
import { replay } from './replay.js';
import type { LayerStore } from './store.js';

export interface RepairReport {
  /** Where the layer lives. */
  where: string;
  /** What was damaged, and where (null: nothing was, and nothing was changed). */
  damage: (LayerDamage & { at: string }) | null;
  /** Where the damaged checkpoint and journal were kept. */
  keptAs: string | null;
  /** Commits the repaired layer holds (its old checkpoint counts as one). */
  commitsKept: number;
  /** Intact commits after the damage, left in the damaged copy. */
  commitsSetAside: number;
}

export async function repairLayer(store: LayerStore): Promise<RepairReport> {
  const bytes = await store.load();
  const layer = readLayer(bytes);
  const damage = layer.damage;
  if (!damage) return { where: store.where, damage: null, keptAs: null, commitsKept: layer.commits.length, commitsSetAside: 0 };
  const at = store.locate(damage.part, damage.offset);
  const keptAs = await store.keepDamaged();
  const state = replay(layer.commits);
  const fs = new MemFs();
  if (state.records.has(1)) fs.importTree(state.records, state.nextIno);
  // Newer than any frame left in the journal, so none is replayed over it.
  const seq = Math.max(state.seq, damage.maxSeq) + 1;
  await store.checkpoint([encodeFrame({ seq, imageId: state.imageId ?? '', ...fullState(fs) })]);
  return { where: store.where, damage: { ...damage, at }, keptAs, commitsKept: layer.commits.length, commitsSetAside: damage.later };
}

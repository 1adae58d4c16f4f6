// A stored layer read back: the commits to replay (the checkpoint, then the
// journal frames after it), whether the journal ended torn, and where it is
// damaged if it is (scan.ts). Persister.open refuses a damaged layer;
// repair.ts keeps what comes before the damage.

import type { Commit } from './format.js';
import { LayerFormatError } from './format.js';
import { scanFrames } from './scan.js';
import type { LayerBytes, LayerStore } from './store.js';

export interface LayerDamage {
  part: 'checkpoint' | 'journal';
  offset: number;
  reason: string;
  /** Intact commits after the damage that cannot be replayed without it. */
  later: number;
  /** The highest sequence number found in the stored bytes. */
  maxSeq: number;
}

export interface StoredLayer {
  /** Intact commits before any damage, in replay order. */
  commits: Commit[];
  /** Journal frames read (replayed or skipped as older than the checkpoint). */
  journalFrames: number;
  /** Where the intact journal ends. */
  journalBytes: number;
  torn: boolean;
  damage: LayerDamage | null;
  /** Written (partly) in schema 1. */
  legacy: boolean;
}

export function readLayer(bytes: LayerBytes): StoredLayer {
  const commits: Commit[] = [];
  let base = -Infinity;
  let legacy = false;
  if (bytes.checkpoint) {
    // The checkpoint's bytes become the files' storage (the store read them for this alone).
    const cp = scanFrames(bytes.checkpoint, -Infinity, true);
    if (cp.frames.length !== 1 || cp.validBytes !== bytes.checkpoint.length) {
      const d = cp.damage ?? { offset: cp.validBytes, reason: cp.torn ? 'cut short' : 'more than one frame', later: 0, maxSeq: 0 };
      // Nothing after a damaged checkpoint can be replayed: every frame builds on it.
      return { commits, journalFrames: 0, journalBytes: 0, torn: false, legacy, damage: { ...d, part: 'checkpoint', later: d.later + scanFrames(bytes.journal).frames.length } };
    }
    legacy = cp.legacy;
    commits.push(cp.frames[0].commit);
    base = cp.frames[0].commit.seq;
  }
  const j = scanFrames(bytes.journal, base);
  let damage: LayerDamage | null = j.damage && { ...j.damage, part: 'journal' };
  // The frames after the checkpoint must follow it one by one: a gap is a lost commit.
  let expect = base + 1;
  for (const f of j.frames) {
    const seq = f.commit.seq;
    if (seq <= base) continue;
    if (Number.isFinite(expect) && seq !== expect) {
      const maxSeq = j.frames.reduce((m, g) => Math.max(m, g.commit.seq), damage?.maxSeq ?? 0);
      damage = { part: 'journal', offset: f.offset, reason: `commit ${expect} is missing (the next is ${seq})`, later: j.frames.length - j.frames.indexOf(f) + (damage?.later ?? 0), maxSeq };
      break;
    }
    commits.push(f.commit);
    expect = seq + 1;
  }
  return { commits, journalFrames: j.frames.length, journalBytes: j.validBytes, torn: j.torn, damage, legacy: legacy || j.legacy };
}

/** A layer that cannot be opened as it is: its store, where the damage is, and how to repair it. */
export class LayerDamagedError extends LayerFormatError {
  constructor(readonly damage: LayerDamage, store: LayerStore) {
    const later = damage.later ? `; ${damage.later} later commit(s) depend on it and cannot be replayed without it` : '';
    super(
      `the layer's ${damage.part} is damaged at ${store.locate(damage.part, damage.offset)} (${damage.reason})${later}. ` +
      `Nothing was changed. To keep the layer as it was before the damage, with the damaged ${damage.part} kept beside it, repair it: ${store.repairHint}`,
    );
  }
}

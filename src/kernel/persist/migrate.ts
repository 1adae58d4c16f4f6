// A layer written over another base image: its paths, whiteouts and opaque
// directories still mean the same, but the overlay's inode-origin records name
// inodes of the old image. Drop them (copied-up files get new st_ino values;
// nothing else changes) — the overlay then treats every upper file as its own.

import type { InodeRecord } from '../fs/memfs.js';
import { DIR_ORIGIN, META_DIR } from '../fs/overlay/upper.js';

const ROOT_INO = 1;

export function migrate(records: Map<number, InodeRecord>): void {
  const meta = entry(records.get(ROOT_INO), META_DIR);
  const index = meta === undefined ? undefined : records.get(entry(records.get(meta), 'index') ?? -1);
  if (index?.entries) index.entries = [];
  for (const r of records.values()) {
    if (r.entries) r.entries = r.entries.filter(([name]) => name !== DIR_ORIGIN);
  }
}

function entry(dir: InodeRecord | undefined, name: string): number | undefined {
  return dir?.entries?.find(([n]) => n === name)?.[1];
}

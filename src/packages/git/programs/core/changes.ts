// Comparing two snapshots (a tree, the index, the working tree) as path →
// (mode, oid) maps: added, deleted, modified and type-changed paths, with
// exact renames paired as git's rename detection pairs identical content.

import { S_IFMT } from '../../../../abi/stat.js';
import { basename, comparePaths } from './path.js';

export interface Side {
  mode: number;
  oid: string;
}

export type Snapshot = Map<string, Side>;

export type Status = 'A' | 'D' | 'M' | 'T' | 'R' | 'U';

export interface FileChange {
  status: Status;
  oldPath: string;
  newPath: string;
  old: Side | null;
  new: Side | null;
  /** Rename similarity in percent. */
  score?: number;
}

export interface CompareOptions {
  renames?: boolean;
  /** Only paths for which this is true. */
  filter?: (path: string) => boolean;
}

const sameType = (a: number, b: number) => (a & S_IFMT) === (b & S_IFMT);

export function compareSnapshots(a: Snapshot, b: Snapshot, opts: CompareOptions = {}): FileChange[] {
  const out: FileChange[] = [];
  const keep = opts.filter ?? (() => true);
  for (const [p, x] of a) {
    if (!keep(p)) continue;
    const y = b.get(p);
    if (!y) out.push({ status: 'D', oldPath: p, newPath: p, old: x, new: null });
    else if (x.oid !== y.oid || x.mode !== y.mode) out.push({ status: sameType(x.mode, y.mode) ? 'M' : 'T', oldPath: p, newPath: p, old: x, new: y });
  }
  for (const [p, y] of b) if (keep(p) && !a.has(p)) out.push({ status: 'A', oldPath: p, newPath: p, old: null, new: y });
  const res = opts.renames ? pairRenames(out) : out;
  return res.sort((x, y) => comparePaths(x.newPath, y.newPath));
}

/** Pair deletions and additions of identical content (and file type) into renames. */
function pairRenames(changes: FileChange[]): FileChange[] {
  const sources = new Map<string, FileChange[]>();
  for (const c of changes) {
    if (c.status !== 'D') continue;
    const key = `${c.old!.oid}:${c.old!.mode & S_IFMT}`;
    const list = sources.get(key) ?? [];
    list.push(c);
    sources.set(key, list);
  }
  if (sources.size === 0) return changes;
  const used = new Set<FileChange>();
  const out: FileChange[] = [];
  const adds = changes.filter((c) => c.status === 'A').sort((x, y) => comparePaths(x.newPath, y.newPath));
  const renamed = new Map<FileChange, FileChange>();
  for (const add of adds) {
    const cands = (sources.get(`${add.new!.oid}:${add.new!.mode & S_IFMT}`) ?? []).filter((s) => !used.has(s));
    if (cands.length === 0) continue;
    const src = cands.find((s) => basename(s.oldPath) === basename(add.newPath)) ?? cands.sort((x, y) => comparePaths(x.oldPath, y.oldPath))[0];
    used.add(src);
    renamed.set(add, { status: 'R', oldPath: src.oldPath, newPath: add.newPath, old: src.old, new: add.new, score: 100 });
  }
  for (const c of changes) {
    if (used.has(c)) continue;
    out.push(renamed.get(c) ?? c);
  }
  return out;
}

// Patch identity: two commits that make the same change (whatever their
// context and whitespace) have the same id — how rebase recognises commits
// already applied upstream (git's --cherry-pick, diff_get_patch_id).

import { compareSnapshots } from './changes.js';
import type { Commit, Store } from './objects.js';
import { diffLines, splitLines } from '../diff/xdiff.js';

const latin1 = (b: Uint8Array) => {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return s;
};

/** The change a single-parent commit makes, as a key (null for merges). */
export async function patchId(store: Store, c: Commit): Promise<string | null> {
  if (c.parents.length > 1) return null;
  const before = await store.commitTree(c.parents[0] ?? null);
  const after = await store.flatTree(c.tree);
  const parts: string[] = [];
  for (const ch of compareSnapshots(before, after)) {
    parts.push(`${ch.oldPath}\0${ch.newPath}\0${ch.old?.mode ?? 0}\0${ch.new?.mode ?? 0}`);
    const a = ch.old ? await store.blob(ch.old.oid) : new Uint8Array(0);
    const b = ch.new ? await store.blob(ch.new.oid) : new Uint8Array(0);
    if (a.subarray(0, 8000).includes(0) || b.subarray(0, 8000).includes(0)) {
      parts.push(`${ch.old?.oid ?? ''}-${ch.new?.oid ?? ''}`);
      continue;
    }
    const x = splitLines(latin1(a));
    const y = splitLines(latin1(b));
    // the changed lines, whitespace removed, in order; positions do not count
    for (const e of diffLines(x, y)) {
      for (let i = e.i1; i < e.i1 + e.chg1; i++) parts.push(`-${x[i].replace(/\s+/g, '')}`);
      for (let i = e.i2; i < e.i2 + e.chg2; i++) parts.push(`+${y[i].replace(/\s+/g, '')}`);
    }
  }
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(parts.join('\n')));
  return [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, '0')).join('');
}

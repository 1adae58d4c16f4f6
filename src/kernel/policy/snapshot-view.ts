// A snapshot as the guest may take it out of the VM (the in-VM `agentos
// snapshot export`): the layer without what the guest could not read in it.
//
// The snapshot is opened as a scratch overlay over the base image and the
// VM's filesystem rules are applied to it as a boot would (by path, then by
// object identity), so a hidden file is left out under every name it has —
// a hard link elsewhere, the overlay's copy-up index — and so is everything
// under a hidden directory. A file the caller may not read, or a directory
// it may not list and search, is left out too (under that name; what else
// links to it is reached, or not, by its own path). Names go with the
// objects; records no longer reachable from the root are dropped. Objects
// under `ask` rules stay, and their rules are reported so the caller can ask
// before they leave the VM.

import { isDir, isReg } from '../../abi/stat.js';
import type { InodeRecord, MemInode } from '../fs/memfs.js';
import { KERNEL_CRED, META_DIR } from '../fs/overlay/upper.js';
import type { OverlayFs } from '../fs/overlayfs.js';
import type { DataRecord } from '../persist/format.js';
import { fullState } from '../persist/journal.js';
import { MAY_EXEC, MAY_READ, allowed } from '../vfs/perm.js';
import type { Cred, Inode } from '../vfs/types.js';
import { Vfs } from '../vfs/vfs.js';
import type { Approvals } from './approval.js';
import type { AuditLog } from './audit.js';
import { FsGuard } from './fs-guard.js';
import type { FsPolicy } from '../../api/policy.js';

export interface GuestLayer {
  /** Whether anything was left out (if not, the snapshot may leave as it is). */
  filtered: boolean;
  meta: InodeRecord[];
  data: DataRecord[];
  /** The `ask` rules (approval rule names) some exported object is under. */
  asks: string[];
}

/** The records of `layer`'s upper layer that `cred` may read under `rules` (none when that is all of them). */
export function guestLayer(layer: OverlayFs, rules: FsPolicy, cred: Cred, audit: AuditLog, approvals: Approvals): GuestLayer {
  const guard = new FsGuard(new Vfs(layer), rules, audit, approvals);
  /** Inodes left out, under every name. */
  const out = new Set<number>();
  const asks = new Set<string>();
  // Walk the upper tree beside the merged one: only what the layer holds can leave in it.
  const stack: [Inode, MemInode][] = [[layer.root(), layer.upper.root()]];
  while (stack.length) {
    const [dir, udir] = stack.pop()!;
    for (const [name, u] of udir.children ?? []) {
      // Whiteouts and the overlay's own entries have no merged inode; they go or stay with their directory.
      const o = layer.lookup(dir, name, KERNEL_CRED);
      if (!o || out.has(u.ino)) continue;
      if (guard.hides(o)) {
        for (const n of subtree(u)) out.add(n.ino);
        continue;
      }
      if (!readable(cred, o)) {
        out.add(u.ino);
        continue;
      }
      for (const rule of guard.asking(o)) asks.add(rule);
      if (u.children) stack.push([o, u]);
    }
  }
  if (!out.size) return { filtered: false, meta: [], data: [], asks: [...asks] };
  const { meta, data } = fullState(layer.upper);
  const byIno = new Map(meta.map((r) => [r.ino, r]));
  const keep = new Set<number>();
  const reach = (from: number, entryOk: (name: string, ino: number) => boolean) => {
    const todo = [from];
    while (todo.length) {
      const r = byIno.get(todo.pop()!);
      if (!r || keep.has(r.ino)) continue;
      keep.add(r.ino);
      if (!r.entries) continue;
      r.entries = r.entries.filter(([name, ino]) => !out.has(ino) && entryOk(name, ino));
      for (const [, ino] of r.entries) todo.push(ino);
    }
  };
  // The overlay's index links copies of lower files by number: it must not make reachable what the names no longer do.
  const root = layer.upper.root().ino;
  const meta0 = byIno.get(root)?.entries?.find(([name]) => name === META_DIR)?.[1];
  reach(root, (name) => name !== META_DIR);
  const named = new Set(keep);
  if (meta0 !== undefined) {
    byIno.get(root)!.entries!.push([META_DIR, meta0]);
    reach(meta0, (_, ino) => named.has(ino) || byIno.get(ino)?.entries !== undefined);
  }
  return { filtered: true, meta: meta.filter((r) => keep.has(r.ino)), data: data.filter((d) => keep.has(d.ino)), asks: [...asks] };
}

/** What `tar` run by `cred` could take: a file's bytes, a directory's names (with search). */
function readable(cred: Cred, o: Inode): boolean {
  if (isDir(o.mode)) return allowed(cred, o, MAY_READ | MAY_EXEC);
  return !isReg(o.mode) || allowed(cred, o, MAY_READ);
}

function* subtree(top: MemInode): Generator<MemInode> {
  const stack = [top];
  while (stack.length) {
    const n = stack.pop()!;
    yield n;
    if (n.children) stack.push(...n.children.values());
  }
}

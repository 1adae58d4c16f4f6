// The path checks of narrowed capabilities (restrict's readOnly and hidden):
// the VM policy's own FsGuard, one per set of capabilities, consulted for the
// processes that hold it, after the VM's rules. Installed as the VFS's guard
// the first time a process restricts its filesystem, so a VM where none does
// pays nothing on its lookups.

import { SysError } from '../../abi/errno.js';
import type { Kernel } from '../kernel.js';
import type { Cred, Inode, PathGuard } from '../vfs/types.js';
import { FsGuard } from './fs-guard.js';
import { agentAbove } from './restrict.js';

/** Guards kept for `created` (new objects inside a marked subtree are marked too); pruned to the live ones past this. */
const PRUNE_AT = 64;

export class CapsGuard implements PathGuard {
  private readonly guards = new Set<FsGuard>();

  constructor(private readonly k: Kernel) {}

  /** A guard for these rules, marked now (a process restricting its filesystem). */
  make(readOnly: string[] | undefined, hidden: string[] | undefined): FsGuard {
    if (this.guards.size >= PRUNE_AT) this.prune();
    const g = new FsGuard(this.k.vfs, { readOnly, hidden }, this.k.policy.audit, this.k.policy.approvals);
    this.guards.add(g);
    return g;
  }

  /** Be the VFS's guard (again after a snapshot restore put the VM's alone back). */
  install(): void {
    this.k.vfs.setGuard(this);
  }

  private prune(): void {
    const live = new Set<FsGuard>();
    for (const p of this.k.procs.all()) if (p.alive && p.caps?.fs) live.add(p.caps.fs);
    for (const g of this.guards) if (!live.has(g)) this.guards.delete(g);
  }

  private own(cred: Cred): FsGuard | null {
    if (cred.pid <= 1) return null;
    return this.k.procs.get(cred.pid)?.caps?.fs ?? null;
  }

  /** Run a check of the process's own guard; a refusal also goes to its agent's trace (REFUSED). */
  private check(cred: Cred, f: (g: FsGuard) => void): void {
    const g = this.own(cred);
    if (!g) return;
    try {
      f(g);
    } catch (e) {
      const p = e instanceof SysError ? this.k.procs.get(cred.pid) : undefined;
      const agent = p ? agentAbove(this.k, p) : 0;
      if (agent) this.k.agents.record(agent, { type: 'refused', exit: 'REFUSED', pid: cred.pid, rule: 'capabilities.fs', reason: (e as SysError).message });
      throw e;
    }
  }

  lookup(cred: Cred, inode: Inode, name: string): void {
    this.k.policy.fs?.lookup(cred, inode, name);
    this.check(cred, (g) => g.lookup(cred, inode, name));
  }

  listable(cred: Cred, dir: Inode, ino: number): boolean {
    if (this.k.policy.fs && !this.k.policy.fs.listable(cred, dir, ino)) return false;
    return this.own(cred)?.listable(cred, dir, ino) ?? true;
  }

  create(cred: Cred, dir: Inode, name: string): void {
    this.k.policy.fs?.create(cred, dir, name);
    this.check(cred, (g) => g.create(cred, dir, name));
  }

  remove(cred: Cred, dir: Inode, victim: Inode, name: string): void {
    this.k.policy.fs?.remove(cred, dir, victim, name);
    this.check(cred, (g) => g.remove(cred, dir, victim, name));
  }

  modify(cred: Cred, inode: Inode, what: string, ask?: boolean): void {
    this.k.policy.fs?.modify(cred, inode, what, ask);
    this.check(cred, (g) => g.modify(cred, inode, what, ask));
  }

  read(cred: Cred, inode: Inode, path: string): void {
    this.k.policy.fs?.read(cred, inode, path);
  }

  mount(cred: Cred, dir: Inode, path: string): void {
    this.k.policy.fs?.mount(cred, dir, path);
    this.check(cred, (g) => g.mount(cred, dir, path));
  }

  created(dir: Inode, inode: Inode): void {
    this.k.policy.fs?.created(dir, inode);
    for (const g of this.guards) g.created(dir, inode);
  }

  changed(): void {
    this.k.policy.fs?.changed();
    for (const g of this.guards) g.changed();
  }
}

const guards = new WeakMap<Kernel, CapsGuard>();

/** The kernel's caps guard, installed as the VFS's guard. */
export function capsGuard(k: Kernel): CapsGuard {
  let g = guards.get(k);
  if (!g) guards.set(k, (g = new CapsGuard(k)));
  g.install();
  return g;
}

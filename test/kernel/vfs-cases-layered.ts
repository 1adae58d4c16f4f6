// Runs a vfs-cases.ts case with its setup split across two targets: a prefix
// builds a tree on the first (which the caller then freezes, e.g. as the
// read-only lower layer of an overlay); the rest of the setup, the op and its
// checks run on a second target over that tree. So the files the op touches
// already exist "below", and the layering under test must carry it through.

import { runCase } from './vfs-cases-runner.js';
import type { CaseResult, CaseTarget } from './vfs-cases-runner.js';
import type { VfsCase } from './vfs-cases.js';

export interface LayeredTargets<T extends CaseTarget> {
  /** A fresh target, cwd = its scratch dir, on which the setup prefix runs. */
  build(): T;
  /** A fresh target over what `built` holds (frozen), with cwd `cwd` (absolute). */
  layer(built: T, cwd: string): CaseTarget;
}

export type LayeredResult = (CaseResult & { below: number }) | { skip: string };

/**
 * How many setup ops may run below: the longest prefix that leaves no fd
 * open (open fds and pipes belong to the first target's processes, not to
 * the tree, so what uses them must run on the second target).
 */
export function lowerPrefix(c: VfsCase): number {
  const open = new Set<string>();
  let k = 0;
  (c.setup ?? []).forEach(([name, ...a], i) => {
    if (name === 'open') open.add(String(a[3] ?? 'fd'));
    else if (name === 'dup') open.add(String(a[1]));
    else if (name === 'pipe') a.slice(0, 2).forEach((x) => open.add(String(x)));
    else if (name === 'close') open.delete(String(a[0]));
    if (open.size === 0) k = i + 1;
  });
  return k;
}

/**
 * Run `c` with as much of its setup below as can be: a prefix from
 * lowerPrefix(), shortened further while it would leave the cwd in a removed
 * directory (which has no path to carry over). `below` says how many ran there.
 */
export function runLayeredCase<T extends CaseTarget>(c: VfsCase, targets: LayeredTargets<T>): LayeredResult {
  const setup = c.setup ?? [];
  for (let k = lowerPrefix(c); k >= 0; k--) {
    const built = targets.build();
    // runCase wants an op after the setup: a trivial one.
    const r = runCase(built, { name: c.name, mount: c.mount, setup: setup.slice(0, k), op: ['stat', '.'], expect: 'ok' });
    if (!r.pass) return { pass: false, detail: `building the lower tree: ${r.detail}`, below: k };
    let cwd: string;
    try {
      cwd = built.getcwd();
    } catch {
      continue;
    }
    const rest: VfsCase = { name: c.name, user: c.user, setup: setup.slice(k), op: c.op, expect: c.expect, after: c.after };
    return { ...runCase(targets.layer(built, cwd), rest), below: k };
  }
  return { skip: 'no setup prefix leaves the cwd at a path' };
}

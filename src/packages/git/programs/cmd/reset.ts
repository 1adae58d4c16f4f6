// git reset [--soft | --mixed | --hard] [-q] [<commit>]
// git reset [-q] [<tree-ish>] [--] <pathspec>...
//
// Move the current branch (and HEAD) to a commit, resetting the index
// (--mixed, the default) and the working tree (--hard) to match; or reset
// index entries for some paths.

import { compareSnapshots } from '../core/changes.js';
import { applyHard, applyResetMerge, resetIndexPaths } from '../core/checkout.js';
import type { Ctx } from '../core/ctx.js';
import { subjectOf } from '../core/message.js';
import { Store, type FlatTree } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { pathspec } from '../core/pathspec.js';
import { logRefUpdate } from '../core/reflog.js';
import { readHead, writeRef } from '../core/refs.js';
import { commitOrDie } from '../core/revargs.js';
import { indexSnapshot, worktreeSnapshot } from '../core/state.js';
import { Worktree } from '../core/worktree.js';
import { removeBranchState } from '../core/wtstate.js';

const USAGE = `usage: git reset [--mixed | --soft | --hard | --merge | --keep] [-q] [<commit>]
   or: git reset [-q] [<tree-ish>] [--] <pathspec>...

    -q, --quiet           be quiet, only report errors
    --mixed               reset HEAD and index
    --soft                reset only HEAD
    --hard                reset HEAD, index and working tree
    --merge               reset HEAD, index and working tree
    --keep                reset HEAD but keep local changes
`;

/** After a mixed reset: what differs between the index and the work tree. */
async function unstagedAfterReset(ctx: Ctx, top: string): Promise<void> {
  const idx = ctx.readIndex();
  const wt = new Worktree(ctx, top, idx).trackedOnly();
  const changes = compareSnapshots(indexSnapshot(idx), await worktreeSnapshot(wt, idx.byPath.keys()), { renames: false });
  if (changes.length) ctx.print(`Unstaged changes after reset:\n${changes.map((c) => `${c.status}\t${c.newPath}\n`).join('')}`);
}

export async function reset(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { '|soft': 'bool', '|mixed': 'bool', '|hard': 'bool', '|merge': 'bool', '|keep': 'bool', 'q|quiet': 'bool', 'N|intent-to-add': 'bool', 'p|patch': 'bool', '|no-refresh': 'bool', '|refresh': 'bool' }, USAGE);
  const repo = ctx.repo();
  const store = new Store(ctx);
  const modes = ['soft', 'mixed', 'hard', 'merge', 'keep'].filter((m) => o.has(m));
  if (modes.length > 1) ctx.fatal(`options '--${modes[0]}' and '--${modes[1]}' cannot be used together`);
  const head = await readHead(ctx);
  // the first operand is a commit if it resolves (and no -- says otherwise)
  let rev = 'HEAD';
  let paths = o.afterDashdash;
  const before = o.beforeDashdash;
  if (before.length) {
    const oid = await commitOrDie(ctx, store, before[0]);
    if (oid) {
      rev = before[0];
      paths = [...before.slice(1), ...paths];
    } else if (o.dashdash >= 0 && before.length === 1) ctx.fatal(`Failed to resolve '${before[0]}' as a valid revision.`);
    else paths = [...before, ...paths];
  }
  const target = rev === 'HEAD' && !head.oid ? null : await commitOrDie(ctx, store, rev);
  if (rev !== 'HEAD' && !target) ctx.fatal(`Failed to resolve '${rev}' as a valid revision.`);
  const tree: FlatTree = await store.commitTree(target);

  if (paths.length) {
    if (modes.length && modes[0] !== 'mixed') ctx.fatal(`Cannot do ${modes[0]} reset with paths.`);
    const r = ctx.worktree();
    const ps = pathspec(ctx, paths);
    const idx = ctx.readIndex();
    const hit = new Set<string>([...tree.keys(), ...idx.byPath.keys(), ...idx.unmerged.keys()].filter((p) => ps.match(p)));
    resetIndexPaths(idx, tree, hit);
    await ctx.writeIndex(idx);
    if (!o.has('quiet')) await unstagedAfterReset(ctx, r.dir);
    return 0;
  }

  const mode = modes[0] ?? 'mixed';
  if (mode !== 'soft' && !repo.dir) ctx.fatal(`${mode} reset is not allowed in a bare repository`);
  if (mode === 'soft' && ctx.exists(`${repo.gitdir}/MERGE_HEAD`)) ctx.fatal('Cannot do a soft reset in the middle of a merge.');
  if (mode === 'hard') {
    const idx = ctx.readIndex();
    await applyHard(ctx, store, repo.dir!, idx, tree);
    await ctx.writeIndex(idx);
  } else if (mode === 'merge' || mode === 'keep') {
    const idx = ctx.readIndex();
    const errors = await applyResetMerge(ctx, store, repo.dir!, idx, await store.commitTree(head.oid), tree, mode === 'keep');
    if (errors.length) {
      for (const e of errors) ctx.error(e);
      ctx.fatal(`Could not reset index file to revision '${rev}'.`);
    }
    await ctx.writeIndex(idx);
  } else if (mode === 'mixed') {
    const idx = ctx.readIndex();
    resetIndexPaths(idx, tree, new Set([...tree.keys(), ...idx.byPath.keys(), ...idx.unmerged.keys()]));
    await ctx.writeIndex(idx);
  }
  if (target) {
    if (head.oid) ctx.sys.writeFile(`${repo.gitdir}/ORIG_HEAD`, `${head.oid}\n`);
    await writeRef(ctx, head.ref ?? 'HEAD', target);
    // an unchanged ref is not logged, except a symbolic HEAD (git's ref transactions)
    const logged = head.oid !== target ? (head.ref ? ['HEAD', head.ref] : ['HEAD']) : head.ref ? ['HEAD'] : [];
    logRefUpdate(ctx, logged, head.oid, target, `reset: moving to ${rev}`);
  }
  await removeBranchState(ctx);
  if (o.has('quiet')) return 0;
  if (mode === 'hard' && target) ctx.print(`HEAD is now at ${target.slice(0, 7)} ${subjectOf((await store.commit(target)).message)}\n`);
  else if (mode === 'mixed') await unstagedAfterReset(ctx, repo.dir!);
  return 0;
}

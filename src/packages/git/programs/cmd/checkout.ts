// git checkout [-q] [-f] [-m] [<branch>]
// git checkout [-q] [-f] [-m] --detach [<commit>]
// git checkout [-q] [-f] [-m] [[-b|-B] <new-branch>] [<start-point>]
// git checkout [-f] [<tree-ish>] [--] <pathspec>...
//
// Switch branches (carrying local changes, refusing to lose them) or
// restore files from the index or a commit.

import { compareSnapshots } from '../core/changes.js';
import { applyHard, applySwitch, deleteWorkFile, resetIndexPaths, setEntry, switchConflicts, writeWorkFile } from '../core/checkout.js';
import type { Ctx } from '../core/ctx.js';
import { GitExit } from '../core/errors.js';
import { reindex } from '../core/index-file.js';
import { subjectOf } from '../core/message.js';
import { Store, type FlatTree } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { pathspec } from '../core/pathspec.js';
import { logRefUpdate, previousBranch } from '../core/reflog.js';
import { readHead, remotes, resolveRef, validRefName, writeRef, writeSymref } from '../core/refs.js';
import { commitOrDie } from '../core/revargs.js';
import { resolveTree } from '../core/revs.js';
import { indexSnapshot, worktreeSnapshot } from '../core/state.js';
import { tracking, trackingLines } from '../core/tracking.js';
import { Worktree } from '../core/worktree.js';
import { checkedOutElsewhere } from '../core/worktrees.js';

const USAGE = `usage: git checkout [<options>] <branch>
   or: git checkout [<options>] [<branch>] -- <file>...

    -b <branch>           create and checkout a new branch
    -B <branch>           create/reset and checkout a branch
    -l                    create reflog for new branch
    --detach              detach HEAD at named commit
    -t, --track[=(direct|inherit)]
                          set branch tracking configuration
    -f, --force           force checkout (throw away local modifications)
    -q, --quiet           suppress progress reporting
`;

const DETACHED_ADVICE = `
You are in 'detached HEAD' state. You can look around, make experimental
changes and commit them, and you can discard any commits you make in this
state without impacting any branches by switching back to a branch.

If you want to create a new branch to retain commits you create, you may
do so (now or later) by using -c with the switch command. Example:

  git switch -c <new-branch-name>

Or undo this operation with:

  git switch -

Turn off this advice by setting config variable advice.detachedHead to false

`;

export interface SwitchTarget {
  /** The branch to be on (`refs/heads/x`), or null to detach. */
  ref: string | null;
  oid: string;
  /** As the user named it (for messages). */
  name: string;
  /** Create or reset the branch to `oid` first. */
  create?: 'new' | 'reset';
  /** Set up tracking of this remote-tracking ref. */
  track?: string;
  force?: boolean;
  quiet?: boolean;
  /** --detach given: no advice about the detached state. */
  explicitDetach?: boolean;
  command: 'checkout' | 'switch';
}

/** Switch HEAD (and the work tree) to a branch or commit, with git's messages. */
export async function switchTo(ctx: Ctx, store: Store, t: SwitchTarget): Promise<number> {
  const repo = ctx.worktree();
  const elsewhere = t.ref && !t.force ? checkedOutElsewhere(ctx, t.ref) : null;
  if (elsewhere) ctx.fatal(`'${t.ref!.slice(11)}' is already checked out at '${elsewhere.path}'`);
  const head = await readHead(ctx);
  const from: FlatTree = await store.commitTree(head.oid);
  const to: FlatTree = await store.commitTree(t.oid);
  const idx = ctx.readIndex();
  if (idx.unmerged.size && !t.force) {
    ctx.err(`${[...idx.unmerged.keys()].sort().map((p) => `${p}: needs merge\n`).join('')}`);
    ctx.error('you need to resolve your current index first');
    return 1;
  }
  const wt = new Worktree(ctx, repo.dir, idx).trackedOnly();
  if (!t.force) {
    const c = await switchConflicts(ctx, wt, idx, from, to);
    if (c.local.length) {
      ctx.error(`Your local changes to the following files would be overwritten by ${t.command}:\n${c.local.map((p) => `\t${p}\n`).join('')}Please commit your changes or stash them before you switch branches.\nAborting`);
      return 1;
    }
    if (c.untracked.length) {
      ctx.error(`The following untracked working tree files would be overwritten by ${t.command}:\n${c.untracked.map((p) => `\t${p}\n`).join('')}Please move or remove them before you switch branches.\nAborting`);
      return 1;
    }
    await applySwitch(ctx, store, repo.dir, idx, from, to);
  } else {
    await applyHard(ctx, store, repo.dir, idx, to);
  }
  await ctx.writeIndex(idx);

  // refs
  const prevName = head.ref ? head.ref.slice(11) : head.oid ?? '';
  if (t.create && t.ref) {
    await writeRef(ctx, t.ref, t.oid);
    logRefUpdate(ctx, [t.ref], null, t.oid, `branch: Created from ${t.name}`);
    const m = t.track ? /^refs\/remotes\/([^/]+)\/(.*)$/.exec(t.track) : null;
    if (m) {
      const branch = t.ref.slice(11);
      ctx.editConfig('local', (f) => {
        f.set(`branch.${branch}.remote`, m[1]);
        f.set(`branch.${branch}.merge`, `refs/heads/${m[2]}`);
      });
      if (!t.quiet) ctx.print(`branch '${branch}' set up to track '${m[1]}/${m[2]}'.\n`);
    }
  }
  if (t.ref) await writeSymref(ctx, 'HEAD', t.ref);
  else await writeRef(ctx, 'HEAD', t.oid);
  const newName = t.ref ? t.ref.slice(11) : t.name;
  logRefUpdate(ctx, ['HEAD'], head.oid, t.oid, `checkout: moving from ${prevName} to ${newName}`);

  if (t.quiet) return 0;
  const c = t.oid ? await store.commit(t.oid) : null;
  if (!head.ref && head.oid && head.oid !== t.oid) ctx.err(`Previous HEAD position was ${head.oid.slice(0, 7)} ${subjectOf((await store.commit(head.oid)).message)}\n`);
  if (!t.ref) {
    if (head.ref || head.oid !== t.oid) {
      if (head.ref && !t.explicitDetach && ctx.configBool('advice.detachedHead', true)) ctx.err(`Note: switching to '${t.name}'.\n${DETACHED_ADVICE}`);
    }
    ctx.err(`HEAD is now at ${t.oid.slice(0, 7)} ${subjectOf(c!.message)}\n`);
  } else if (t.create === 'new') ctx.err(`Switched to a new branch '${t.ref.slice(11)}'\n`);
  else if (t.create === 'reset') ctx.err(`Switched to and reset branch '${t.ref.slice(11)}'\n`);
  else if (head.ref === t.ref) ctx.err(`Already on '${t.ref.slice(11)}'\n`);
  else ctx.err(`Switched to branch '${t.ref.slice(11)}'\n`);
  // local changes that came along, and where the branch stands against its upstream
  if (!(t.create === 'new' && head.oid === t.oid)) await showLocalChanges(ctx, store, t.oid);
  // (git reads the branch configuration before creating one, so a new branch reports no tracking)
  if (t.ref && !t.create) {
    const tr = await tracking(ctx, store, t.ref.slice(11), t.oid);
    if (tr) ctx.print(trackingLines(tr).join('\n') + '\n');
  }
  return 0;
}

async function showLocalChanges(ctx: Ctx, store: Store, oid: string): Promise<void> {
  const repo = ctx.worktree();
  const idx = ctx.readIndex();
  const wt = new Worktree(ctx, repo.dir, idx).trackedOnly();
  const work = await worktreeSnapshot(wt, idx.byPath.keys());
  const headTree = await store.commitTree(oid);
  const changes = compareSnapshots(headTree, work, { renames: false, filter: (p) => idx.byPath.has(p) || headTree.has(p) });
  for (const c of changes) ctx.print(`${c.status}\t${c.newPath}\n`);
}

/**
 * Restore paths in the work tree (and, from a commit, the index) —
 * checkout's and restore's file mode. Only files that differ are written;
 * checkout without `--` then says how many.
 */
export async function restorePaths(ctx: Ctx, store: Store, args: string[], opts: { source: string | null; staged: boolean; worktree: boolean; command: string; overlay: boolean; report?: boolean; stage?: 2 | 3 }): Promise<number> {
  const repo = ctx.worktree();
  const ps = pathspec(ctx, args);
  const idx = ctx.readIndex();
  let src: FlatTree;
  let from = 'the index';
  if (opts.source !== null) {
    const tree = await resolveTree(ctx, store, opts.source);
    if (!tree) ctx.fatal(opts.command === 'restore' ? `could not resolve ${opts.source}` : `reference is not a tree: ${opts.source}`);
    src = await store.flatTree(tree);
    from = tree.slice(0, 7);
  } else src = indexSnapshot(idx);
  const cands = new Set<string>([...src.keys()].filter((p) => ps.match(p)));
  const unmerged = [...idx.unmerged.keys()].filter((p) => ps.match(p));
  if (!opts.overlay) for (const p of idx.byPath.keys()) if (ps.match(p)) cands.add(p);
  const bad = ps.unmatched();
  if (bad.length) {
    for (const b of bad) ctx.error(`pathspec '${b.raw}' did not match any file(s) known to git`);
    throw new GitExit(1);
  }
  const wt = new Worktree(ctx, repo.dir, idx).trackedOnly();
  let written = 0;
  let status = 0;
  if (unmerged.length && opts.source === null && opts.worktree) {
    if (!opts.stage) {
      for (const p of unmerged) ctx.error(`path '${p}' is unmerged`);
      return 1;
    }
    // --ours / --theirs: that side's version into the work tree; the index stays unmerged
    for (const p of unmerged.sort()) {
      const e = idx.unmerged.get(p)!.find((x) => x.stage === opts.stage);
      if (!e) {
        ctx.error(`path '${p}' does not have ${opts.stage === 2 ? 'our' : 'their'} version`);
        status = 1;
        continue;
      }
      await writeWorkFile(ctx, store, repo.dir, p, { mode: e.mode, oid: e.oid });
      written++;
    }
  }
  for (const p of [...cands].sort()) {
    const item = src.get(p) ?? null;
    if (opts.worktree) {
      const f = wt.files.get(p) ?? null;
      const same = item && f && wt.modeOf(f) === item.mode && (await wt.oidOf(f)) === item.oid;
      if (item && !same) {
        await writeWorkFile(ctx, store, repo.dir, p, item);
        written++;
      } else if (!item && (f || ctx.exists(`${repo.dir}/${p}`))) {
        deleteWorkFile(ctx, repo.dir, p);
        written++;
      }
    }
    if (opts.staged) {
      // stat data may only vouch for what is really on disk
      if (opts.worktree) setEntry(ctx, idx, repo.dir, p, item);
      else resetIndexPaths(idx, src, [p]);
    } else if (opts.source === null && item && idx.byPath.has(p)) setEntry(ctx, idx, repo.dir, p, idx.byPath.get(p)!);
  }
  reindex(idx);
  await ctx.writeIndex(idx);
  if (opts.report) ctx.err(`Updated ${written} path${written === 1 ? '' : 's'} from ${from}\n`);
  return status;
}

/** A remote-tracking branch `<remote>/<name>` for `git checkout <name>` to create a branch from (--guess). */
export async function guessRemote(ctx: Ctx, name: string): Promise<string | null> {
  const hits: string[] = [];
  for (const r of await remotes(ctx)) if (await resolveRef(ctx, `refs/remotes/${r.remote}/${name}`)) hits.push(`refs/remotes/${r.remote}/${name}`);
  return hits.length === 1 ? hits[0] : null;
}

export async function checkout(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { 'b': 'str', 'B': 'str', '|detach': 'bool', 'f|force': 'bool', 'q|quiet': 'bool', 't|track': 'opt', '|no-track': 'bool', 'l': 'bool', 'm|merge': 'bool', '|guess': 'bool', '|overlay': 'bool', '|progress': 'bool', '|orphan': 'str', 'p|patch': 'bool', '|ours': 'bool', '|theirs': 'bool', '2': 'bool', '3': 'bool' }, USAGE);
  const stage = o.has('ours') || o.has('2') ? 2 : o.has('theirs') || o.has('3') ? 3 : undefined;
  ctx.worktree();
  const store = new Store(ctx);
  const before = o.beforeDashdash;
  const after = o.afterDashdash;
  const newBranch = o.get('b') ?? o.get('B');
  if (o.given('orphan')) ctx.fatal('--orphan is not supported by agentOS git');
  // `checkout <tree-ish> -- paths`, `checkout -- paths`, or `checkout paths`
  if (after.length || (o.dashdash >= 0 && before.length === 0 && !newBranch)) {
    // `checkout --` alone names no paths: like a plain `git checkout`
    if (!after.length) {
      const head = await readHead(ctx);
      if (head.oid) await showLocalChanges(ctx, store, head.oid);
      return 0;
    }
    if (before.length > 1) ctx.fatal(`only one reference expected, ${before.length} given.`);
    return restorePaths(ctx, store, after, { source: before[0] ?? null, staged: before.length === 1, worktree: true, command: 'checkout', overlay: true, stage });
  }
  let name = before[0] ?? (newBranch ? 'HEAD' : undefined);
  if (name === undefined) {
    if (o.has('detach')) name = 'HEAD';
    else {
      // plain `git checkout`: report local changes
      const head = await readHead(ctx);
      if (head.oid) await showLocalChanges(ctx, store, head.oid);
      return 0;
    }
  }
  if (name === '-' || /^@\{-(\d+)\}$/.test(name)) {
    const n = name === '-' ? 1 : Number(/\d+/.exec(name)![0]);
    const prev = previousBranch(ctx, n);
    if (!prev) ctx.fatal(name === '-' ? "no previous branch to check out" : `invalid reference: ${name}`);
    name = prev;
  }
  if (newBranch) {
    if (!validRefName(newBranch)) ctx.fatal(`'${newBranch}' is not a valid branch name`);
    const exists = await resolveRef(ctx, `refs/heads/${newBranch}`);
    if (exists && o.get('b') !== undefined) ctx.fatal(`a branch named '${newBranch}' already exists`);
    const oid = await commitOrDie(ctx, store, name);
    if (!oid) ctx.fatal(`'${name}' is not a commit and a branch '${newBranch}' cannot be created from it`);
    const track = (o.given('track') && !o.has('no-track')) || (ctx.config('branch.autoSetupMerge') ?? 'true') !== 'false' ? await remoteRef(ctx, name) : null;
    return switchTo(ctx, store, { ref: `refs/heads/${newBranch}`, oid, name, create: exists ? 'reset' : 'new', track: track ?? undefined, force: o.has('force'), quiet: o.has('quiet'), command: 'checkout' });
  }
  if (before.length > 1) {
    // `checkout <tree-ish> paths...` without --
    const oid = await commitOrDie(ctx, store, name);
    const report = !o.has('quiet');
    if (oid) return restorePaths(ctx, store, before.slice(1), { source: name, staged: true, worktree: true, command: 'checkout', overlay: true, report });
    return restorePaths(ctx, store, before, { source: null, staged: false, worktree: true, command: 'checkout', overlay: true, report, stage });
  }
  const branchOid = !o.has('detach') && name !== 'HEAD' ? await resolveRef(ctx, `refs/heads/${name}`) : null;
  if (branchOid) return switchTo(ctx, store, { ref: `refs/heads/${name}`, oid: branchOid, name, force: o.has('force'), quiet: o.has('quiet'), command: 'checkout' });
  const oid = await commitOrDie(ctx, store, name);
  if (oid) {
    if (name === 'HEAD' && !o.has('detach')) {
      const head = await readHead(ctx);
      if (head.ref) {
        await showLocalChanges(ctx, store, oid);
        return 0;
      }
    }
    return switchTo(ctx, store, { ref: null, oid, name, force: o.has('force'), quiet: o.has('quiet'), explicitDetach: o.has('detach'), command: 'checkout' });
  }
  // a remote branch of that name: create a tracking branch
  const guess = await guessRemote(ctx, name);
  if (guess && !o.has('detach')) {
    const goid = (await resolveRef(ctx, guess))!;
    return switchTo(ctx, store, { ref: `refs/heads/${name}`, oid: goid, name, create: 'new', track: guess, force: o.has('force'), quiet: o.has('quiet'), command: 'checkout' });
  }
  // finally: a path
  return restorePaths(ctx, store, before, { source: null, staged: false, worktree: true, command: 'checkout', overlay: true, report: !o.has('quiet'), stage });
}

/** The remote-tracking ref a start point names (`origin/x`), for tracking setup. */
async function remoteRef(ctx: Ctx, name: string): Promise<string | null> {
  for (const r of await remotes(ctx)) {
    if (name.startsWith(`${r.remote}/`) && (await resolveRef(ctx, `refs/remotes/${name}`))) return `refs/remotes/${name}`;
  }
  return null;
}

// git merge [--no-commit] [--no-ff | --ff-only] [-m <msg>] [--no-edit] [-q] <commit>
// git merge --abort | --continue
//
// Fast-forward when possible; otherwise a three-way merge by isomorphic-git
// (with git's conflict markers), committed when clean, or left with the
// conflicts in the index and the working tree, as git leaves them.

import * as git from 'isomorphic-git';
import { compareSnapshots } from '../core/changes.js';
import { applyHard, applySwitch, deleteWorkFile, setEntry, switchConflicts, writeWorkFile } from '../core/checkout.js';
import type { Ctx } from '../core/ctx.js';
import { mergeBases, isAncestor } from '../core/graph.js';
import { isoIdent, whoIs } from '../core/ident.js';
import { makeEntry, reindex, type GitIndex } from '../core/index-file.js';
import { cleanupMessage } from '../core/message.js';
import { Store, type FlatTree, type TreeItem } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { logRefUpdate } from '../core/reflog.js';
import { readHead, resolveRef, writeRef } from '../core/refs.js';
import { inexactRenames } from '../core/renames.js';
import { commitOrDie } from '../core/revargs.js';
import { Worktree, MODE_LINK } from '../core/worktree.js';
import { diffAll, storeLoader } from '../diff/engine.js';
import { statOf, summaryOf } from '../diff/format.js';
import { merge3 } from '../diff/merge3.js';
import { commit as commitCmd } from './commit.js';

const USAGE = `usage: git merge [<options>] [<commit>...]
   or: git merge --abort
   or: git merge --continue

    -n                    do not show a diffstat at the end of the merge
    --stat                show a diffstat at the end of the merge
    --commit              perform a commit if the merge succeeds (default)
    -e, --edit            edit message before committing
    --ff                  allow fast-forward (default)
    --ff-only             abort if fast-forward is not possible
    -m, --message <message>
                          merge commit message (for a non-fast-forward merge)
    -q, --quiet           be more quiet
    --abort               abort the current in-progress merge
    --continue            continue the current in-progress merge
    --allow-unrelated-histories
                          allow merging unrelated histories
`;

const latin1 = (b: Uint8Array) => {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return s;
};
const fromLatin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const same = (a?: TreeItem, b?: TreeItem) => (!a && !b) || (!!a && !!b && a.oid === b.oid && a.mode === b.mode);

/** The default message: `Merge branch 'x'` (`into y` unless y is master or main). */
async function defaultMessage(ctx: Ctx, name: string, oid: string, current: string | null): Promise<string> {
  let what: string;
  if (await resolveRef(ctx, `refs/heads/${name}`)) what = `branch '${name}'`;
  else if (await resolveRef(ctx, `refs/tags/${name}`)) what = `tag '${name}'`;
  else if (await resolveRef(ctx, `refs/remotes/${name}`)) what = `remote-tracking branch '${name}'`;
  else what = `commit '${/^[0-9a-f]{4,40}$/.test(name) ? name : oid}'`;
  const into = current && !['master', 'main'].includes(current) ? ` into ${current}` : '';
  return `Merge ${what}${into}`;
}

export async function merge(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      n: 'bool', '|stat': 'bool', '|commit': 'bool', 'e|edit': 'bool', '|ff': 'bool', '|ff-only': 'bool', 'm|message': 'str', 'q|quiet': 'bool', 'v|verbose': 'bool',
      '|abort': 'bool', '|continue': 'bool', '|allow-unrelated-histories': 'bool', 's|strategy': 'str', 'X|strategy-option': 'str', '|squash': 'bool', '|log': 'opt', '|progress': 'bool', '|verify': 'bool', '|signoff': 'bool', 'F|file': 'str',
    },
    USAGE,
  );
  const repo = ctx.worktree();
  const store = new Store(ctx);
  const gitdir = repo.gitdir;
  const head = await readHead(ctx);
  const merging = ctx.exists(`${gitdir}/MERGE_HEAD`);
  if (o.has('abort')) {
    if (!merging) ctx.fatal('There is no merge to abort (MERGE_HEAD missing).');
    const idx = ctx.readIndex();
    await applyHard(ctx, store, repo.dir, idx, await store.commitTree(head.oid));
    await ctx.writeIndex(idx);
    for (const f of ['MERGE_HEAD', 'MERGE_MSG', 'MERGE_MODE']) if (ctx.exists(`${gitdir}/${f}`)) ctx.sys.unlink(`${gitdir}/${f}`);
    return 0;
  }
  if (o.has('continue')) {
    if (!merging) ctx.fatal('There is no merge in progress (MERGE_HEAD missing).');
    return commitCmd(ctx, ['--no-edit']);
  }
  if (merging) {
    ctx.err('error: Merging is not possible because you have unmerged files.\n');
    ctx.hint(["Fix them up in the work tree, and then use 'git add/rm <file>'", 'as appropriate to mark resolution and make a commit.']);
    ctx.fatal('Exiting because of an unresolved conflict.');
  }
  if (o.has('squash')) ctx.fatal('--squash is not supported by agentOS git');
  const strategy = o.get('strategy');
  if (strategy && !['ort', 'recursive', 'resolve'].includes(strategy)) ctx.fatal(`Could not find merge strategy '${strategy}'.`);
  if (o.operands.length === 0) {
    const up = head.ref ? ctx.config(`branch.${head.ref.slice(11)}.merge`) : undefined;
    if (!up) ctx.fatal('No remote for the current branch.');
    o.operands.push(up.replace(/^refs\/heads\//, `${ctx.config(`branch.${head.ref!.slice(11)}.remote`)}/`));
  }
  if (o.operands.length > 1) ctx.fatal('merging more than one commit (an octopus merge) is not supported by agentOS git');
  const name = o.operands[0];
  const theirs = await commitOrDie(ctx, store, name);
  if (!theirs) {
    ctx.err(`merge: ${name} - not something we can merge\n`);
    return 1;
  }
  const quiet = o.has('quiet');
  const showStat = !o.has('n') && !quiet && ctx.configBool('merge.stat', true);
  const current = head.ref?.slice(11) ?? null;
  const idx = ctx.readIndex();
  if (idx.unmerged.size) {
    ctx.error('Merging is not possible because you have unmerged files.');
    ctx.fatal('Exiting because of an unresolved conflict.');
  }
  const wt = new Worktree(ctx, repo.dir, idx).trackedOnly();

  // unborn branch: just take theirs
  if (!head.oid) {
    const to = await store.commitTree(theirs);
    await applySwitch(ctx, store, repo.dir, idx, new Map(), to);
    await ctx.writeIndex(idx);
    await writeRef(ctx, head.ref ?? 'HEAD', theirs);
    return 0;
  }
  if (await isAncestor(store, theirs, head.oid)) {
    if (!quiet) ctx.print('Already up to date.\n');
    return 0;
  }
  const from = await store.commitTree(head.oid);
  const localConflicts = async (to: FlatTree): Promise<boolean> => {
    const c = await switchConflicts(ctx, wt, idx, from, to);
    const list = [...c.local, ...c.untracked];
    if (!list.length) return false;
    if (c.local.length) ctx.error(`Your local changes to the following files would be overwritten by merge:\n${c.local.map((p) => `\t${p}\n`).join('')}Please commit your changes or stash them before you merge.`);
    if (c.untracked.length) ctx.error(`The following untracked working tree files would be overwritten by merge:\n${c.untracked.map((p) => `\t${p}\n`).join('')}Please move or remove them before you merge.`);
    ctx.err('Aborting\n');
    return true;
  };

  // fast-forward
  const ffPossible = await isAncestor(store, head.oid, theirs);
  const ffMode = o.has('ff-only') ? 'only' : o.given('ff') && !o.has('ff') ? 'no' : (ctx.config('merge.ff') === 'false' ? 'no' : ctx.config('merge.ff') === 'only' ? 'only' : 'yes');
  if (ffPossible && ffMode !== 'no') {
    const to = await store.commitTree(theirs);
    if (await localConflicts(to)) return 1;
    if (!quiet) ctx.print(`Updating ${head.oid.slice(0, 7)}..${theirs.slice(0, 7)}\nFast-forward\n`);
    await applySwitch(ctx, store, repo.dir, idx, from, to);
    await ctx.writeIndex(idx);
    ctx.sys.writeFile(`${gitdir}/ORIG_HEAD`, `${head.oid}\n`);
    await writeRef(ctx, head.ref ?? 'HEAD', theirs);
    logRefUpdate(ctx, head.ref ? ['HEAD', head.ref] : ['HEAD'], head.oid, theirs, `merge ${name}: Fast-forward`);
    if (showStat) await printStat(ctx, store, from, to);
    return 0;
  }
  if (ffMode === 'only') ctx.fatal('Not possible to fast-forward, aborting.');

  const bases = await mergeBases(store, head.oid, theirs);
  if (!bases.length && !o.has('allow-unrelated-histories')) ctx.fatal('refusing to merge unrelated histories');
  if (bases.length > 1) ctx.fatal('merging histories with more than one merge base (a criss-cross merge) is not supported by agentOS git');
  let msg = o.given('message') ? o.all('message').join('\n\n') : await defaultMessage(ctx, name, theirs, current);
  if (o.given('file')) msg = ctx.readText(ctx.abs(o.get('file')!)) ?? ctx.fatal(`could not read file '${o.get('file')}'`);
  msg = cleanupMessage(msg, 'whitespace');
  const author = whoIs(ctx, 'author');
  const committer = whoIs(ctx, 'committer');
  let result: { oid: string; tree?: string } | null = null;
  try {
    const r = await git.merge({
      ...ctx.iso(),
      ours: head.ref ?? head.oid,
      theirs,
      fastForward: false,
      noUpdateBranch: true,
      abortOnConflict: true,
      allowUnrelatedHistories: o.has('allow-unrelated-histories'),
      message: msg,
      author: isoIdent(author),
      committer: isoIdent(committer),
      mergeDriver: ({ contents }) => {
        const [b, x, y] = contents;
        if (/\0/.test(x) || /\0/.test(y)) return { cleanMerge: false, mergedText: x };
        const m = merge3(b, x, y, 'HEAD', name);
        return { cleanMerge: m.conflicts === 0, mergedText: m.text };
      },
    });
    result = { oid: r.oid!, tree: r.tree };
  } catch (e) {
    if ((e as { code?: string }).code !== 'MergeConflictError') throw e;
  }
  const base = await store.commitTree(bases[0] ?? null);
  const theirTree = await store.commitTree(theirs);
  if (result?.tree) {
    const to = await store.flatTree(result.tree);
    if (await localConflicts(to)) {
      ctx.err('Merge with strategy ort failed.\n');
      return 2;
    }
    autoMerging(ctx, base, from, theirTree);
    await applySwitch(ctx, store, repo.dir, idx, from, to);
    await ctx.writeIndex(idx);
    ctx.sys.writeFile(`${gitdir}/ORIG_HEAD`, `${head.oid}\n`);
    if (o.given('commit') && !o.has('commit')) {
      ctx.sys.writeFile(`${gitdir}/MERGE_HEAD`, `${theirs}\n`);
      ctx.sys.writeFile(`${gitdir}/MERGE_MSG`, `${msg}`);
      ctx.sys.writeFile(`${gitdir}/MERGE_MODE`, '');
      if (!quiet) ctx.err('Automatic merge went well; stopped before committing as requested\n');
      return 0;
    }
    await writeRef(ctx, head.ref ?? 'HEAD', result.oid);
    logRefUpdate(ctx, head.ref ? ['HEAD', head.ref] : ['HEAD'], head.oid, result.oid, `merge ${name}: Merge made by the 'ort' strategy.`);
    if (!quiet) ctx.print("Merge made by the 'ort' strategy.\n");
    if (showStat) await printStat(ctx, store, from, to);
    return 0;
  }

  // conflicts: isomorphic-git found some; lay out the index and work tree the way git leaves them
  const changedByThem = compareSnapshots(base, theirTree).map((c) => c.newPath).concat(compareSnapshots(base, theirTree).map((c) => c.oldPath));
  const conflictsTo = new Map(from);
  for (const p of changedByThem) {
    const t = theirTree.get(p);
    if (t) conflictsTo.set(p, t);
  }
  if (await localConflicts(conflictsTo)) {
    ctx.err('Merge with strategy ort failed.\n');
    return 2;
  }
  const conflicted = await applyConflicts(ctx, store, repo.dir, idx, base, from, theirTree, name);
  await ctx.writeIndex(idx);
  ctx.sys.writeFile(`${gitdir}/ORIG_HEAD`, `${head.oid}\n`);
  ctx.sys.writeFile(`${gitdir}/MERGE_HEAD`, `${theirs}\n`);
  ctx.sys.writeFile(`${gitdir}/MERGE_MSG`, `${msg}\n# Conflicts:\n${conflicted.map((p) => `#\t${p}\n`).join('')}`);
  ctx.sys.writeFile(`${gitdir}/MERGE_MODE`, '');
  ctx.print('Automatic merge failed; fix conflicts and then commit the result.\n');
  return 1;
}

async function printStat(ctx: Ctx, store: Store, from: FlatTree, to: FlatTree): Promise<void> {
  const renames = ctx.configBool('diff.renames', true);
  let changes = compareSnapshots(from, to, { renames });
  if (renames) changes = await inexactRenames(changes, storeLoader(store));
  const fmt = { context: 3, abbrev: 7, quotePath: ctx.configBool('core.quotePath', true), srcPrefix: 'a/', dstPrefix: 'b/' };
  const fds = await diffAll(changes, storeLoader(store));
  ctx.print(statOf(fds, fmt) + summaryOf(changes, fmt));
}

/** The "Auto-merging" lines for paths both sides changed (clean merges print them too). */
function autoMerging(ctx: Ctx, base: FlatTree, ours: FlatTree, theirs: FlatTree): void {
  for (const p of [...new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])].sort()) {
    const b = base.get(p);
    const x = ours.get(p);
    const y = theirs.get(p);
    if (x && y && !same(x, y) && !same(x, b) && !same(y, b)) ctx.print(`Auto-merging ${p}\n`);
  }
}

/** Per path: take the side that changed; merge contents both changed; record conflicts in stages 1-3. */
async function applyConflicts(ctx: Ctx, store: Store, top: string, idx: GitIndex, base: FlatTree, ours: FlatTree, theirs: FlatTree, name: string): Promise<string[]> {
  const paths = [...new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])].sort();
  const conflicted: string[] = [];
  // git prints these even with -q
  const say = (s: string) => ctx.print(`${s}\n`);
  const stage = (p: string, entries: [number, TreeItem | undefined][]) => {
    idx.entries = idx.entries.filter((e) => e.path !== p);
    for (const [n, item] of entries) if (item) idx.entries.push(makeEntry(p, item.mode, item.oid, null, n));
  };
  for (const p of paths) {
    const b = base.get(p);
    const x = ours.get(p);
    const y = theirs.get(p);
    if (same(x, y) || same(y, b)) continue;
    if (same(x, b)) {
      // only they changed it
      if (y) await writeWorkFile(ctx, store, top, p, y);
      else deleteWorkFile(ctx, top, p);
      setEntry(ctx, idx, top, p, y ?? null);
      continue;
    }
    if (x && y) {
      say(`Auto-merging ${p}`);
      const bytes = async (i?: TreeItem) => (i ? store.blob(i.oid) : new Uint8Array(0));
      const [bb, xb, yb] = [await bytes(b), await bytes(x), await bytes(y)];
      const binary = [bb, xb, yb].some((d) => d.subarray(0, 8000).includes(0)) || x.mode === MODE_LINK || y.mode === MODE_LINK;
      if (binary) {
        say(`warning: Cannot merge binary files: ${p} (HEAD vs. ${name})`);
        say(`CONFLICT (content): Merge conflict in ${p}`);
        stage(p, [[1, b], [2, x], [3, y]]);
        conflicted.push(p);
        continue;
      }
      const m = merge3(latin1(bb), latin1(xb), latin1(yb), 'HEAD', name);
      const data = fromLatin1(m.text);
      const mode = x.mode === (b?.mode ?? x.mode) ? y.mode : x.mode;
      if (m.conflicts === 0) {
        const oid = await store.write('blob', data);
        await writeWorkFile(ctx, store, top, p, { mode, oid });
        setEntry(ctx, idx, top, p, { mode, oid });
        continue;
      }
      say(`CONFLICT (${b ? 'content' : 'add/add'}): Merge conflict in ${p}`);
      const oid = await store.write('blob', data);
      await writeWorkFile(ctx, store, top, p, { mode, oid });
      stage(p, [[1, b], [2, x], [3, y]]);
      conflicted.push(p);
      continue;
    }
    // modified on one side, deleted on the other
    if (!x && y) {
      say(`CONFLICT (modify/delete): ${p} deleted in HEAD and modified in ${name}.  Version ${name} of ${p} left in tree.`);
      await writeWorkFile(ctx, store, top, p, y);
      stage(p, [[1, b], [3, y]]);
    } else {
      say(`CONFLICT (modify/delete): ${p} deleted in ${name} and modified in HEAD.  Version HEAD of ${p} left in tree.`);
      stage(p, [[1, b], [2, x]]);
    }
    conflicted.push(p);
  }
  reindex(idx);
  return conflicted;
}

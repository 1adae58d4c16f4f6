// git rebase [-q | -v] [-f | --force-rebase] [--onto <newbase>] [<upstream> [<branch>]]
// git rebase (--continue | --skip | --abort | --quit)
//
// Replay the commits of a branch on top of another base, as git's "merge"
// backend does: the plan and the progress live in .git/rebase-merge in
// git's own format (so a rebase stopped here can be continued by git and
// the other way round), each commit is picked by the sequencer, and the
// branch moves to the result at the end.

import type { Ctx } from '../core/ctx.js';
import { abbrevUnique } from '../core/abbrev.js';
import { applyHard, applySwitch } from '../core/checkout.js';
import { compareSnapshots } from '../core/changes.js';
import { GitExit } from '../core/errors.js';
import { removeTree } from '../core/fsutil.js';
import { ancestors, mergeBases } from '../core/graph.js';
import { subjectOf } from '../core/message.js';
import { EMPTY_TREE, Store, type Commit } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { relative } from '../core/path.js';
import { patchId } from '../core/patch-id.js';
import { logRefUpdate } from '../core/reflog.js';
import { deleteRef, readHead, resolveRef, writeRef, writeSymref } from '../core/refs.js';
import { commitOrDie } from '../core/revargs.js';
import { defaultOpts, doPick, indexTree, PickFailed, type ReplayOpts } from '../core/sequencer.js';
import { loadState } from '../core/state.js';
import { walk } from '../core/walk.js';
import { removeBranchState } from '../core/wtstate.js';
import { diffAll, storeLoader } from '../diff/engine.js';
import { patchOf } from '../diff/format.js';
import { switchTo } from './checkout.js';
import { commit as commitCmd } from './commit.js';
import { show } from './show.js';

const USAGE = `usage: git rebase [-i] [options] [--exec <cmd>] [--onto <newbase> | --keep-base] [<upstream> [<branch>]]
   or: git rebase [-i] [options] [--exec <cmd>] [--onto <newbase>] --root [<branch>]
   or: git rebase --continue | --abort | --skip | --edit-todo

    --onto <revision>     rebase onto given branch instead of upstream
    --keep-base           use the merge-base of upstream and branch as the current base
    --no-verify           allow pre-rebase hook to run
    -q, --quiet           be quiet. implies --no-stat
    -v, --verbose         display a diffstat of what changed upstream
    -n, --no-stat         do not show diffstat of what changed upstream
    --signoff             add a Signed-off-by trailer to each commit
    -f, --force-rebase    make rebase always replay commits (even if the base is up to date)
    --continue            continue
    --skip                skip current patch and continue
    --abort               abort and check out the original branch
    --quit                abort but keep HEAD where it is
    --show-current-patch  show the patch file being applied or merged
    -m, --merge           use merging strategies to rebase
    -i, --interactive     let the user edit the list of commits to rebase

`;

const DIR = 'rebase-merge';

/** The help git appends to the todo list it would have let the user edit (kept in git-rebase-todo.backup). */
const TODO_HELP = `
# Commands:
# p, pick <commit> = use commit
# r, reword <commit> = use commit, but edit the commit message
# e, edit <commit> = use commit, but stop for amending
# s, squash <commit> = use commit, but meld into previous commit
# f, fixup [-C | -c] <commit> = like "squash" but keep only the previous
#                    commit's log message, unless -C is used, in which case
#                    keep only this commit's message; -c is same as -C but
#                    opens the editor
# x, exec <command> = run command (the rest of the line) using shell
# b, break = stop here (continue rebase later with 'git rebase --continue')
# d, drop <commit> = remove commit
# l, label <label> = label current HEAD with a name
# t, reset <label> = reset HEAD to a label
# m, merge [-C <commit> | -c <commit>] <label> [# <oneline>]
#         create a merge commit using the original merge commit's
#         message (or the oneline, if no original merge commit was
#         specified); use -c <commit> to reword the commit message
# u, update-ref <ref> = track a placeholder for the <ref> to be updated
#                       to this position in the new commits. The <ref> is
#                       updated at the end of the rebase
#
# These lines can be re-ordered; they are executed from top to bottom.
#
# If you remove a line here THAT COMMIT WILL BE LOST.
#
# However, if you remove everything, the rebase will be aborted.
#
`;
const TERM_CLEAR = `\r${' '.repeat(80)}\r`;

interface State {
  headName: string;
  onto: string;
  origHead: string;
  quiet: boolean;
}

const path = (ctx: Ctx, f = '') => `${ctx.repo().gitdir}/${DIR}${f ? `/${f}` : ''}`;
const read1 = (ctx: Ctx, f: string) => (ctx.readText(path(ctx, f)) ?? '').replace(/\n$/, '');

function readState(ctx: Ctx): State {
  return { headName: read1(ctx, 'head-name'), onto: read1(ctx, 'onto'), origHead: read1(ctx, 'orig-head'), quiet: ctx.exists(path(ctx, 'quiet')) };
}

function todoLines(ctx: Ctx, f: string): string[] {
  return (ctx.readText(path(ctx, f)) ?? '').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
}

/** The commits to replay (upstream...head, right side only, no merges, none already upstream), oldest first. */
async function planPicks(store: Store, upstream: string, head: string): Promise<{ picks: Commit[]; skipped: Commit[] }> {
  const bases = await mergeBases(store, upstream, head);
  const mine = (await walk(store, { include: [head], exclude: [upstream] })).reverse();
  const theirs = await walk(store, { include: [upstream], exclude: [head, ...bases] });
  const upstreamIds = new Set<string>();
  for (const c of theirs) {
    const id = await patchId(store, c);
    if (id) upstreamIds.add(id);
  }
  const picks: Commit[] = [];
  const skipped: Commit[] = [];
  for (const c of mine) {
    if (c.parents.length > 1) continue;
    // commits that were empty to begin with are left out (no --keep-empty)
    if (c.tree === (c.parents[0] ? (await store.commit(c.parents[0])).tree : EMPTY_TREE)) continue;
    const id = await patchId(store, c);
    if (id && upstreamIds.has(id)) skipped.push(c);
    else picks.push(c);
  }
  return { picks, skipped };
}

function rebaseOpts(ctx: Ctx): ReplayOpts {
  const o = defaultOpts('rebase');
  o.allowEmpty = true;
  o.dropRedundant = true;
  o.allowFf = !ctx.exists(path(ctx, 'force-rebase'));
  o.reflogAction = `${ctx.env.GIT_REFLOG_ACTION ?? 'rebase'} (pick)`;
  return o;
}

/** The patch of a commit against its parent (rebase-merge/patch). */
async function patchText(store: Store, c: Commit): Promise<Uint8Array> {
  const changes = compareSnapshots(await store.commitTree(c.parents[0] ?? null), await store.flatTree(c.tree), { renames: true });
  let s = '';
  for (const fd of await diffAll(changes, storeLoader(store))) {
    const p = patchOf(fd, { context: 3, abbrev: 7, quotePath: true, srcPrefix: 'a/', dstPrefix: 'b/' });
    s += p.header + p.body;
  }
  return Uint8Array.from(s, (ch) => ch.charCodeAt(0));
}

/** Pick the remaining todo items (pick_commits for a rebase); finish when none are left. */
async function pickCommits(ctx: Ctx, store: Store): Promise<number> {
  const st = readState(ctx);
  const total = Number(read1(ctx, 'end') || '0');
  for (;;) {
    const todo = todoLines(ctx, 'git-rebase-todo');
    if (!todo.length) break;
    const [line, ...rest] = todo;
    ctx.writeAtomic(path(ctx, 'git-rebase-todo'), rest.map((l) => `${l}\n`).join(''));
    const done = (ctx.readText(path(ctx, 'done')) ?? '') + `${line}\n`;
    ctx.sys.writeFile(path(ctx, 'done'), done);
    const m = /^(\S+)\s+(\S+)/.exec(line);
    if (!m || !['pick', 'p', 'noop'].includes(m[1])) ctx.fatal(`unsupported rebase command: ${line} (agentOS git rebases non-interactively)`);
    if (m[1] === 'noop') continue;
    const doneNr = done.split('\n').filter((l) => l.trim() && !l.startsWith('#')).length;
    ctx.sys.writeFile(path(ctx, 'msgnum'), `${doneNr}\n`);
    if (!st.quiet) ctx.err(`Rebasing (${doneNr}/${total})\r`);
    for (const f of ['message', 'author-script', 'stopped-sha', 'amend']) if (ctx.exists(path(ctx, f))) ctx.sys.unlink(path(ctx, f));
    for (const f of ['MERGE_HEAD', 'AUTO_MERGE']) if (ctx.exists(`${ctx.repo().gitdir}/${f}`)) ctx.sys.unlink(`${ctx.repo().gitdir}/${f}`);
    await deleteRef(ctx, 'REBASE_HEAD');
    const oid = (await commitOrDie(ctx, store, m[2]))!;
    let r;
    try {
      r = await doPick(ctx, store, 'pick', oid, rebaseOpts(ctx));
    } catch (e) {
      if (e instanceof PickFailed) throw new GitExit(1);
      throw e;
    }
    if (r.status) {
      const c = await store.commit(oid);
      ctx.sys.writeFile(path(ctx, 'stopped-sha'), `${oid}\n`);
      await writeRef(ctx, 'REBASE_HEAD', oid);
      ctx.sys.writeFile(path(ctx, 'patch'), await patchText(store, c));
      if (!ctx.exists(path(ctx, 'message'))) ctx.sys.writeFile(path(ctx, 'message'), `${c.message.replace(/^\n+/, '')}\n`);
      ctx.err(`Could not apply ${await abbrevUnique(ctx, oid, 7)}... ${subjectOf(c.message).split('\n')[0]}\n`);
      return 1;
    }
    const head = (await readHead(ctx)).oid!;
    const rw = ctx.readText(path(ctx, 'rewritten-list')) ?? '';
    ctx.sys.writeFile(path(ctx, 'rewritten-list'), `${rw}${oid} ${head}\n`);
  }
  return finish(ctx, st);
}

/** Move the branch to where HEAD ended up, go back to it, and clean up. */
async function finish(ctx: Ctx, st: State): Promise<number> {
  const head = (await readHead(ctx)).oid!;
  const action = ctx.env.GIT_REFLOG_ACTION ?? 'rebase';
  if (st.headName.startsWith('refs/')) {
    const old = await resolveRef(ctx, st.headName);
    await writeRef(ctx, st.headName, head);
    logRefUpdate(ctx, [st.headName], old, head, `${action} (finish): ${st.headName} onto ${st.onto}`);
    await writeSymref(ctx, 'HEAD', st.headName);
    logRefUpdate(ctx, ['HEAD'], head, head, `${action} (finish): returning to ${st.headName}`);
  }
  removeTree(ctx, path(ctx));
  await deleteRef(ctx, 'REBASE_HEAD');
  if (!st.quiet) ctx.err(`${TERM_CLEAR}Successfully rebased and updated ${st.headName}.\n`);
  return 0;
}

/** Import the author of the stopped commit for the commit --continue makes. */
function authorScript(ctx: Ctx): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (ctx.readText(path(ctx, 'author-script')) ?? '').matchAll(/^(GIT_AUTHOR_[A-Z]+)='((?:[^']|'\\'')*)'$/gm)) out[m[1]] = m[2].replace(/'\\''/g, "'");
  return out;
}

async function continueRebase(ctx: Ctx, store: Store, skip: boolean): Promise<number> {
  const head = (await readHead(ctx)).oid;
  if (!skip) {
    const idxTree = await indexTree(ctx, store);
    const headTree = head ? (await store.commit(head)).tree : null;
    if (idxTree !== headTree) {
      // commit the resolution with the stopped commit's author and message (commit_staged_changes)
      const saved = { ...ctx.env };
      Object.assign(ctx.env, authorScript(ctx), { GIT_REFLOG_ACTION: `${ctx.env.GIT_REFLOG_ACTION ?? 'rebase'} (continue)` });
      let st: number;
      try {
        st = await commitCmd(ctx, ['-n', '-F', path(ctx, 'message'), '-e', '--allow-empty']);
      } finally {
        for (const k of Object.keys(ctx.env)) if (!(k in saved)) delete ctx.env[k];
        Object.assign(ctx.env, saved);
      }
      if (st) {
        ctx.error('could not commit staged changes.');
        return 1;
      }
    } else {
      await deleteRef(ctx, 'CHERRY_PICK_HEAD');
      if (ctx.exists(`${ctx.repo().gitdir}/MERGE_MSG`)) ctx.sys.unlink(`${ctx.repo().gitdir}/MERGE_MSG`);
    }
    const stopped = read1(ctx, 'stopped-sha');
    if (stopped) {
      const now = (await readHead(ctx)).oid!;
      const rw = ctx.readText(path(ctx, 'rewritten-list')) ?? '';
      ctx.sys.writeFile(path(ctx, 'rewritten-list'), `${rw}${stopped} ${now}\n`);
    }
  }
  return pickCommits(ctx, store);
}

export async function rebase(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      '|onto': 'str', '|keep-base': 'bool', '|no-verify': 'bool', '|verify': 'bool', 'q|quiet': 'bool', 'v|verbose': 'bool', 'n|no-stat': 'bool', '|stat': 'bool',
      '|signoff': 'bool', 'f|force-rebase': 'bool', '|no-ff': 'bool', '|continue': 'bool', '|skip': 'bool', '|abort': 'bool', '|quit': 'bool', '|edit-todo': 'bool',
      '|show-current-patch': 'bool', 'm|merge': 'bool', 'i|interactive': 'bool', 'x|exec': 'str', '|root': 'bool', '|autostash': 'bool', '|fork-point': 'bool',
      'r|rebase-merges': 'opt', '|apply': 'bool', '|empty': 'str', '|reapply-cherry-picks': 'bool', 's|strategy': 'str', 'X|strategy-option': 'str',
    },
    USAGE,
  );
  const repo = ctx.worktree();
  const store = new Store(ctx);
  for (const k of ['interactive', 'exec', 'root', 'rebase-merges', 'apply', 'edit-todo', 'autostash', 'signoff']) {
    if (o.given(k) && o.has(k)) ctx.fatal(`--${k} is not supported by agentOS git`);
  }
  const inProgress = ctx.exists(path(ctx)) || ctx.exists(`${repo.gitdir}/rebase-apply`);
  const action = ['continue', 'skip', 'abort', 'quit', 'show-current-patch'].find((k) => o.has(k));
  if (action && !inProgress) ctx.fatal('No rebase in progress?');
  if (action === 'quit') {
    removeTree(ctx, path(ctx));
    return 0;
  }
  if (action === 'show-current-patch') {
    return show(ctx, ['REBASE_HEAD', '--']);
  }
  if (action === 'abort') {
    const st = readState(ctx);
    const head = await readHead(ctx);
    const idx = ctx.readIndex();
    await applyHard(ctx, store, repo.dir, idx, await store.commitTree(st.origHead));
    await ctx.writeIndex(idx);
    const msg = `${ctx.env.GIT_REFLOG_ACTION ?? 'rebase'} (abort): returning to ${st.headName.startsWith('refs/') ? st.headName : st.origHead}`;
    if (st.headName.startsWith('refs/')) {
      await writeRef(ctx, st.headName, st.origHead);
      await writeSymref(ctx, 'HEAD', st.headName);
    } else await writeRef(ctx, 'HEAD', st.origHead);
    logRefUpdate(ctx, ['HEAD'], head.oid, st.origHead, msg);
    await removeBranchState(ctx);
    await deleteRef(ctx, 'REBASE_HEAD');
    removeTree(ctx, path(ctx));
    return 0;
  }
  if (action === 'continue' || action === 'skip') {
    if (action === 'continue') {
      const state = await loadState(ctx, store, null);
      if (state.unstaged.length || state.unmerged.size) {
        // refresh_index reports unmerged paths on its way
        for (const p of [...state.unmerged.keys()].sort()) ctx.print(`${p}: needs merge\n`);
        ctx.print('You must edit all merge conflicts and then\nmark them as resolved using git add\n');
        return 1;
      }
    } else {
      const head = (await readHead(ctx)).oid!;
      const idx = ctx.readIndex();
      await applyHard(ctx, store, repo.dir, idx, await store.commitTree(head));
      await ctx.writeIndex(idx);
      await removeBranchState(ctx);
    }
    return continueRebase(ctx, store, action === 'skip');
  }
  if (inProgress) {
    const base = ctx.exists(path(ctx)) ? DIR : 'rebase-apply';
    const rel = relative(ctx.cwd, `${repo.gitdir}/${base}`);
    ctx.fatal(
      `It seems that there is already a ${base} directory, and\nI wonder if you are in the middle of another rebase.  If that is the\ncase, please try\n\tgit rebase (--continue | --abort | --skip)\n` +
        `If that is not the case, please\n\trm -fr "${rel}"\nand run me again.  I am stopping in case you still have something\nvaluable there.\n`,
    );
  }

  // what to rebase, onto what
  const head = await readHead(ctx);
  let upstreamName = o.operands[0];
  if (upstreamName === undefined) {
    const branch = head.ref?.replace(/^refs\/heads\//, '') ?? null;
    const remote = branch ? ctx.config(`branch.${branch}.remote`) : undefined;
    const merge = branch ? ctx.config(`branch.${branch}.merge`) : undefined;
    if (!remote || !merge) {
      ctx.print(
        `${branch ? 'There is no tracking information for the current branch.' : 'You are not currently on a branch.'}\nPlease specify which branch you want to rebase against.\nSee git-rebase(1) for details.\n\n    git rebase '<branch>'\n\n` +
          (branch ? `If you wish to set tracking information for this branch you can do so with:\n\n    git branch --set-upstream-to=${remote ?? '<remote>'}/<branch> ${branch}\n\n` : ''),
      );
      return 1;
    }
    upstreamName = remote === '.' ? merge.replace(/^refs\/heads\//, '') : `${remote}/${merge.replace(/^refs\/heads\//, '')}`;
  } else if (upstreamName === '-') upstreamName = '@{-1}';
  const upstream = await commitOrDie(ctx, store, upstreamName);
  if (!upstream) ctx.fatal(`invalid upstream '${upstreamName}'`);
  let headName: string | null = head.ref;
  let origHead = head.oid;
  let branchName = head.ref ? head.ref.replace(/^refs\/heads\//, '') : 'HEAD';
  if (o.operands[1] !== undefined) {
    branchName = o.operands[1];
    const local = await resolveRef(ctx, `refs/heads/${branchName}`);
    if (local) {
      headName = `refs/heads/${branchName}`;
      origHead = local;
    } else {
      headName = null;
      origHead = await commitOrDie(ctx, store, branchName);
    }
    if (!origHead) ctx.fatal(`no such branch/commit '${branchName}'`);
  }
  if (!origHead) ctx.fatal('Could not resolve HEAD to a commit');
  let ontoName = o.get('onto') ?? upstreamName;
  if (o.has('keep-base')) ontoName = `${upstreamName}...${branchName}`;
  let onto: string | null;
  const sym = /^(.*)\.\.\.(.*)$/.exec(ontoName);
  if (sym) {
    const bases = await mergeBases(store, (await commitOrDie(ctx, store, sym[1] || 'HEAD'))!, (await commitOrDie(ctx, store, sym[2] || 'HEAD'))!);
    if (bases.length !== 1) ctx.fatal(`'${ontoName}': need exactly one merge base`);
    onto = bases[0];
  } else {
    onto = await commitOrDie(ctx, store, ontoName);
    if (!onto) ctx.fatal(`Does not point to a valid commit '${ontoName}'`);
  }

  // a clean work tree (require_clean_work_tree)
  const state = await loadState(ctx, store, null);
  let dirty = false;
  if (state.unstaged.length || state.unmerged.size) {
    ctx.error('cannot rebase: You have unstaged changes.');
    dirty = true;
  }
  if (state.staged.length) {
    ctx.error(dirty ? 'additionally, your index contains uncommitted changes.' : 'cannot rebase: Your index contains uncommitted changes.');
    dirty = true;
  }
  if (dirty) {
    ctx.error('Please commit or stash them.');
    return 1;
  }

  // already there: onto is the fork point of the branch and of upstream
  const force = o.has('force-rebase') || o.has('no-ff');
  const mbOnto = await mergeBases(store, onto, origHead);
  const mbUp = await mergeBases(store, upstream, origHead);
  if (mbOnto.length === 1 && mbOnto[0] === onto && mbUp.length === 1 && mbUp[0] === onto && (await linear(store, onto, origHead))) {
    if (!force) {
      if (o.operands[1] !== undefined && headName && headName !== head.ref) {
        const sw = await switchTo(ctx, store, { ref: headName, oid: origHead, name: branchName, command: 'checkout', quiet: true });
        if (sw) return sw;
      }
      if (!o.has('quiet')) ctx.print(branchName === 'HEAD' ? 'HEAD is up to date.\n' : `Current branch ${branchName} is up to date.\n`);
      return 0;
    }
    if (!o.has('quiet')) ctx.print(branchName === 'HEAD' ? 'HEAD is up to date, rebase forced.\n' : `Current branch ${branchName} is up to date, rebase forced.\n`);
  }

  // the plan, in .git/rebase-merge
  const { picks, skipped } = await planPicks(store, upstream, origHead);
  for (const c of skipped) if (!o.has('quiet')) ctx.warning(`skipped previously applied commit ${await abbrevUnique(ctx, c.oid, 7)}`);
  if (skipped.length && !o.has('quiet') && ctx.configBool('advice.skippedCherryPicks', true)) {
    ctx.hint(['use --reapply-cherry-picks to include skipped commits', 'Disable this message with "git config advice.skippedCherryPicks false"']);
  }
  ctx.sys.mkdir(path(ctx), 0o777);
  await deleteRef(ctx, 'REBASE_HEAD');
  ctx.sys.writeFile(path(ctx, 'interactive'), '');
  ctx.sys.writeFile(path(ctx, 'head-name'), `${headName ?? 'detached HEAD'}\n`);
  ctx.sys.writeFile(path(ctx, 'onto'), `${onto}\n`);
  ctx.sys.writeFile(path(ctx, 'orig-head'), `${origHead}\n`);
  if (o.has('quiet')) ctx.sys.writeFile(path(ctx, 'quiet'), '');
  if (o.has('verbose')) ctx.sys.writeFile(path(ctx, 'verbose'), '');
  ctx.sys.writeFile(path(ctx, 'drop_redundant_commits'), '');
  ctx.sys.writeFile(path(ctx, 'no-reschedule-failed-exec'), '');
  if (force) ctx.sys.writeFile(path(ctx, 'force-rebase'), '');
  const todo = picks.map((c) => `pick ${c.oid} ${subjectOf(c.message).split('\n')[0]}`);
  // allow_ff: picks that already sit on onto need not be replayed (skip_unnecessary_picks)
  let start = onto;
  const doneLines: string[] = [];
  if (!force) {
    while (picks.length && picks[0].parents[0] === start) {
      start = picks.shift()!.oid;
      doneLines.push(todo.shift()!);
    }
  }
  ctx.sys.writeFile(path(ctx, 'git-rebase-todo'), todo.map((l) => `${l}\n`).join(''));
  const all = [...doneLines, ...todo];
  const shortOnto = await abbrevUnique(ctx, onto, 7);
  const range = `${await abbrevUnique(ctx, upstream, 7)}..${await abbrevUnique(ctx, origHead, 7)}`;
  const n = all.length || 1;
  ctx.sys.writeFile(path(ctx, 'git-rebase-todo.backup'), `${all.length ? all.map((l) => `${l}\n`).join('') : 'noop\n'}\n# Rebase ${range} onto ${shortOnto} (${n} command${n === 1 ? '' : 's'})\n#${TODO_HELP}`);
  if (doneLines.length) ctx.sys.writeFile(path(ctx, 'done'), doneLines.map((l) => `${l}\n`).join(''));
  ctx.sys.writeFile(path(ctx, 'end'), `${todo.length + doneLines.length}\n`);

  // detach HEAD at onto (checkout_onto), remembering where the branch was
  const idx = ctx.readIndex();
  await applySwitch(ctx, store, repo.dir, idx, await store.commitTree(head.oid), await store.commitTree(start));
  await ctx.writeIndex(idx);
  ctx.sys.writeFile(`${repo.gitdir}/ORIG_HEAD`, `${origHead}\n`);
  await writeRef(ctx, 'HEAD', start);
  logRefUpdate(ctx, ['HEAD'], head.oid, start, `${ctx.env.GIT_REFLOG_ACTION ?? 'rebase'} (start): checkout ${ontoName}`);
  return pickCommits(ctx, store);
}

/** No merges between `base` and `tip` (is_linear_history). */
async function linear(store: Store, base: string, tip: string): Promise<boolean> {
  const hidden = await ancestors(store, [base]);
  for (let c = await store.commit(tip); !hidden.has(c.oid); ) {
    if (c.parents.length !== 1) return c.parents.length === 0;
    c = await store.commit(c.parents[0]);
  }
  return true;
}

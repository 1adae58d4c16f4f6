// git commit [-a | --all] [-m <msg> | -F <file>]... [--amend] [--allow-empty]
//            [--allow-empty-message] [--author=<author>] [--date=<date>]
//            [-s | --signoff] [--no-edit] [-q] [--cleanup=<mode>] [-i | -o] [--] [<pathspec>...]
//
// Record the index (or the named paths) as a new commit on the current
// branch; merges in progress get their second parent from MERGE_HEAD.

import { compareSnapshots } from '../core/changes.js';
import type { Ctx } from '../core/ctx.js';
import { formatDate, parseDate } from '../core/date.js';
import { runEditor } from '../core/editor.js';
import { whoIs, type Who } from '../core/ident.js';
import { cleanupMessage, subjectOf, type Cleanup } from '../core/message.js';
import { commitText, Store, type Commit, type FlatTree } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { pathspec } from '../core/pathspec.js';
import { logRefUpdate } from '../core/reflog.js';
import { readHead, resolveRef, writeRef, type Head } from '../core/refs.js';
import { inexactRenames } from '../core/renames.js';
import { resolveCommit } from '../core/revs.js';
import { updateIndex } from '../core/stage.js';
import { indexSnapshot, loadState } from '../core/state.js';
import { writeTree } from '../core/trees.js';
import { readWtState, removeMergeState, sequencerPostCommit } from '../core/wtstate.js';
import { diffAll, storeLoader } from '../diff/engine.js';
import { shortstatOf, summaryOf } from '../diff/format.js';
import { longStatus, statusView } from './status.js';

const USAGE = `usage: git commit [<options>] [--] <pathspec>...

    -q, --quiet           suppress summary after successful commit
    -v, --verbose         show diff in commit message template

Commit message options
    -F, --file <file>     read message from file
    --author <author>     override author for commit
    --date <date>         override date for commit
    -m, --message <message>
                          commit message
    -s, --signoff         add a Signed-off-by trailer
    --cleanup <mode>      how to strip spaces and #comments from message
    -e, --edit            force edit of commit
    --no-edit             use the message as is

Commit contents options
    -a, --all             commit all changed files
    -i, --include         add specified files to index for commit
    -o, --only            commit only specified files
    -n, --no-verify       bypass pre-commit and commit-msg hooks
    --dry-run             show what would be committed
    --amend               amend previous commit
    --allow-empty         ok to record an empty change
    --allow-empty-message ok to record a change with an empty message
`;

const TEMPLATE = `
# Please enter the commit message for your changes. Lines starting
# with '#' will be ignored, and an empty message aborts the commit.
`;

export async function commit(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      'm|message': 'str', 'F|file': 'str', 'a|all': 'bool', '|amend': 'bool', '|allow-empty': 'bool', '|allow-empty-message': 'bool',
      'q|quiet': 'bool', '|author': 'str', '|date': 'str', 's|signoff': 'bool', 'e|edit': 'bool', '|cleanup': 'str', 'i|include': 'bool',
      'o|only': 'bool', 'n|no-verify': 'bool', '|verify': 'bool', 'v|verbose': 'count', '|dry-run': 'bool', '|reset-author': 'bool', '|status': 'bool',
      'C|reuse-message': 'str', 'c|reedit-message': 'str', 'u|untracked-files': 'opt', '|no-post-rewrite': 'bool', 'S|gpg-sign': 'opt', '|no-gpg-sign': 'bool',
    },
    USAGE,
  );
  const repo = ctx.worktree();
  const store = new Store(ctx);
  const gitdir = repo.gitdir;
  if (o.has('all') && o.operands.length) ctx.fatal('paths with -a does not make sense.');
  if (o.given('message') && o.given('file')) ctx.fatal('Option -m cannot be combined with -F.');
  const head = await readHead(ctx);
  const amend = o.has('amend');
  if (amend && !head.oid) ctx.fatal('You have nothing to amend.');
  const mergeHeads = (ctx.readText(`${gitdir}/MERGE_HEAD`) ?? '').split('\n').filter(Boolean);
  if (amend && mergeHeads.length) ctx.fatal('You are in the middle of a merge -- cannot amend.');
  const progress = await readWtState(ctx);
  // a cherry-pick being concluded: its author and date carry over (commit.c's CHERRY_PICK_HEAD)
  const pickedOid = await resolveRef(ctx, 'CHERRY_PICK_HEAD');
  const picked = pickedOid && !amend ? await store.commit(pickedOid) : null;
  if (amend && pickedOid) ctx.fatal('You are in the middle of a cherry-pick -- cannot amend.');

  let index = ctx.readIndex();
  if (index.unmerged.size) {
    for (const p of [...index.unmerged.keys()].sort()) ctx.print(`U\t${p}\n`);
    ctx.error('Committing is not possible because you have unmerged files.');
    ctx.hint(["Fix them up in the work tree, and then use 'git add/rm <file>'", 'as appropriate to mark resolution and make a commit.']);
    ctx.fatal('Exiting because of an unresolved conflict.');
  }

  // what goes in: -a stages every tracked change; paths stage (and with --only, limit to) those paths
  let only: ((p: string) => boolean) | null = null;
  if (o.has('all') || o.operands.length) {
    const ps = o.operands.length ? pathspec(ctx, o.operands) : null;
    const state = await loadState(ctx, store, null, ps ? (p) => ps.match(p) : undefined);
    if (ps) {
      for (const p of state.headTree.keys()) ps.match(p);
      const bad = ps.unmatched();
      if (bad.length) {
        for (const b of bad) ctx.error(`pathspec '${b.raw}' did not match any file(s) known to git`);
        return 1;
      }
      if (!o.has('include')) only = (p) => ps.match(p);
    }
    if (!o.has('dry-run')) {
      await updateIndex(ctx, state.unstaged.filter((c) => c.new).map((c) => c.newPath), state.unstaged.filter((c) => !c.new).map((c) => c.oldPath));
      index = ctx.readIndex();
    }
  }

  const parentCommit: Commit | null = head.oid ? await store.commit(head.oid) : null;
  const parents = amend ? parentCommit!.parents : [...(head.oid ? [head.oid] : []), ...mergeHeads];
  // the tree to commit: the index, or HEAD plus only the named paths
  let flat: FlatTree = indexSnapshot(index);
  if (only) {
    const headTree = await store.commitTree(head.oid);
    const merged: FlatTree = new Map([...headTree].filter(([p]) => !only!(p)));
    for (const [p, v] of flat) if (only(p)) merged.set(p, v);
    flat = merged;
  }
  const headFlat = await store.commitTree(head.oid);
  const changesVsHead = compareSnapshots(headFlat, flat);
  if (!changesVsHead.length && !o.has('allow-empty') && !amend && !mergeHeads.length) {
    const state = await loadState(ctx, store, { untracked: 'normal' });
    const view = await statusView(ctx, store, state);
    ctx.print(longStatus(ctx, view, true));
    if (progress.whence === 'cherry-pick') {
      ctx.err('The previous cherry-pick is now empty, possibly due to conflict resolution.\nIf you wish to commit it anyway, use:\n\n    git commit --allow-empty\n\n');
      ctx.err(ctx.exists(`${gitdir}/sequencer`) ? 'and then use:\n\n    git cherry-pick --continue\n\nto resume cherry-picking the remaining commits.\nIf you wish to skip this commit, use:\n\n    git cherry-pick --skip\n\n' : "Otherwise, please use 'git cherry-pick --skip'\n");
    }
    return 1;
  }
  if (o.has('dry-run')) {
    const state = await loadState(ctx, store, { untracked: 'normal' });
    ctx.print(longStatus(ctx, await statusView(ctx, store, state), true));
    return 0;
  }

  // the message
  const cleanupOpt = o.get('cleanup') ?? ctx.config('commit.cleanup') ?? 'default';
  let edited = false;
  let msg: string;
  if (o.given('message')) msg = o.all('message').map((m) => m.replace(/\n+$/, '')).join('\n\n') + '\n';
  else if (o.given('file')) {
    const f = o.get('file')!;
    const text = f === '-' ? new TextDecoder().decode(ctx.sys.readAll(0)) : ctx.readText(ctx.abs(f));
    if (text === null) ctx.fatal(`could not read log file '${f}': No such file or directory`);
    msg = text;
  } else if (o.given('reuse-message') || o.given('reedit-message')) {
    const rev = o.get('reuse-message') ?? o.get('reedit-message')!;
    const oid = await resolveCommit(ctx, store, rev);
    if (!oid) ctx.fatal(`could not lookup commit ${rev}`);
    msg = (await store.commit(oid)).message;
  } else if (amend) msg = parentCommit!.message;
  else if (ctx.readText(`${gitdir}/MERGE_MSG`) !== null) msg = ctx.readText(`${gitdir}/MERGE_MSG`)!;
  else msg = '';
  const useEditor = o.has('edit') || (!o.given('edit') && !o.given('message') && !o.given('file') && !o.given('reuse-message'));
  if (o.has('signoff')) {
    const me = whoIs(ctx, 'committer');
    const line = `Signed-off-by: ${me.name} <${me.email}>`;
    if (!msg.split('\n').includes(line)) msg = msg.replace(/\n*$/, '') + (/(^|\n)[A-Za-z-]+: .*\n?$/.test(msg.trimEnd()) ? '\n' : '\n\n') + line + '\n';
  }
  if (useEditor) {
    const file = `${gitdir}/COMMIT_EDITMSG`;
    ctx.sys.writeFile(file, msg + TEMPLATE);
    runEditor(ctx, file);
    msg = ctx.readText(file) ?? '';
    edited = true;
  }
  const cleanup: Cleanup = cleanupOpt === 'default' ? (edited ? 'strip' : 'whitespace') : (cleanupOpt as Cleanup);
  if (!['strip', 'whitespace', 'verbatim', 'scissors'].includes(cleanup)) ctx.fatal(`Invalid cleanup mode ${cleanupOpt}`);
  msg = cleanupMessage(msg, cleanup);
  if (msg === '' && !o.has('allow-empty-message')) {
    ctx.err('Aborting commit due to empty commit message.\n');
    return 1;
  }

  // who and when
  const resetAuthor = o.has('reset-author');
  let author: Who;
  const dateOpt = o.get('date');
  const forced = dateOpt !== undefined ? parseDate(dateOpt) : null;
  if (dateOpt !== undefined && !forced) ctx.fatal(`invalid date format: ${dateOpt}`);
  if (amend && !resetAuthor) {
    const a = parentCommit!.author;
    author = { ...a, ...(forced ?? {}), explicit: true };
  } else if (picked && !resetAuthor) author = { ...picked.author, ...(forced ?? {}), explicit: true };
  else author = whoIs(ctx, 'author', forced ?? undefined);
  const authorOpt = o.get('author');
  if (authorOpt !== undefined) {
    const m = /^\s*(.*?)\s*<([^>]*)>\s*$/.exec(authorOpt);
    if (!m) ctx.fatal(`--author '${authorOpt}' is not 'Name <email>' and matches no existing author`);
    author = { ...author, name: m[1], email: m[2] };
  }
  const committer = whoIs(ctx, 'committer');

  const tree = await writeTree(store, flat);
  const oid = await store.write('commit', commitText({ tree, parents, author, committer, message: msg }));
  await writeRef(ctx, head.ref ?? 'HEAD', oid);
  const kind = amend ? ' (amend)' : !head.oid ? ' (initial)' : mergeHeads.length ? ' (merge)' : progress.whence === 'cherry-pick' ? ' (cherry-pick)' : progress.whence === 'rebase-pick' ? ' (rebase)' : '';
  logRefUpdate(ctx, head.ref ? ['HEAD', head.ref] : ['HEAD'], head.oid, oid, `${ctx.env.GIT_REFLOG_ACTION ?? `commit${kind}`}: ${msg}`);
  ctx.sys.writeFile(`${gitdir}/COMMIT_EDITMSG`, msg);
  await sequencerPostCommit(ctx);
  removeMergeState(ctx);

  if (!o.has('quiet')) {
    const c = await store.commit(oid);
    await printSummary(ctx, store, head, c, { amend, root: !head.oid, showDate: amend || dateOpt !== undefined || (!!picked && !resetAuthor), committer });
  }
  return 0;
}

interface SummaryOptions {
  amend: boolean;
  root: boolean;
  showDate: boolean;
  committer: Who;
}

/** `[branch (root-commit) abc1234] subject`, author/date notes, shortstat and summary. */
export async function printSummary(ctx: Ctx, store: Store, head: Head, c: Commit, so: SummaryOptions): Promise<void> {
  const where = head.ref ? head.ref.replace(/^refs\/heads\//, '') : 'detached HEAD';
  let out = `[${where}${so.root ? ' (root-commit)' : ''} ${c.oid.slice(0, 7)}] ${subjectOf(c.message)}\n`;
  const a = `${c.author.name} <${c.author.email}>`;
  const cm = `${c.committer.name} <${c.committer.email}>`;
  if (a !== cm) out += ` Author: ${a}\n`;
  if (so.showDate) out += ` Date: ${formatDate(c.author.time, c.author.tz)}\n`;
  if (!so.committer.explicit) {
    out +=
      ` Committer: ${cm}\n` +
      'Your name and email address were configured automatically based\non your username and hostname. Please check that they are accurate.\n' +
      'You can suppress this message by setting them explicitly. Run the\nfollowing command and follow the instructions in your editor to edit\n' +
      'your configuration file:\n\n    git config --global --edit\n\nAfter doing this, you may fix the identity used for this commit with:\n\n' +
      '    git commit --amend --reset-author\n\n';
  }
  if (c.parents.length <= 1) {
    const before = await store.commitTree(c.parents[0] ?? null);
    const after = await store.flatTree(c.tree);
    const renames = ctx.configBool('diff.renames', true);
    let changes = compareSnapshots(before, after, { renames });
    if (renames) changes = await inexactRenames(changes, storeLoader(store));
    const fds = await diffAll(changes, storeLoader(store));
    out += shortstatOf(fds);
    out += summaryOf(changes, { context: 3, abbrev: 7, quotePath: ctx.configBool('core.quotePath', true), srcPrefix: 'a/', dstPrefix: 'b/' });
  }
  ctx.print(out);
}


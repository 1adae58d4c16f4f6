// Replaying commits, as git's sequencer does for cherry-pick, revert and
// rebase: each commit's change is merged onto HEAD (merge-ort.ts), then
// committed with the original author (or, on a conflict, left in the index
// and the work tree with CHERRY_PICK_HEAD / REVERT_HEAD and MERGE_MSG for
// `--continue`, `git commit`, or real git, to finish). A run of picks keeps
// its plan in .git/sequencer (head, todo, opts, abort-safety) in git's own
// format, so either git can continue what the other started.

import * as git from 'isomorphic-git';
import type { Ctx } from './ctx.js';
import { abbrevUnique } from './abbrev.js';
import { applySwitch } from './checkout.js';
import { removeTree } from './fsutil.js';
import { whoIs } from './ident.js';
import { cleanupMessage, subjectOf, type Cleanup } from './message.js';
import { checkoutMerge, mergeTrees, MergeUnsupported, reportOverwrite, type MergeOutcome } from './merge-ort.js';
import { commitText, EMPTY_TREE, type Commit, type Ident, type Store } from './objects.js';
import { logRefUpdate } from './reflog.js';
import { deleteRef, readHead, resolveRef, writeRef } from './refs.js';
import { indexSnapshot } from './state.js';
import { writeTree } from './trees.js';
import { commit as commitCmd, printSummary } from '../cmd/commit.js';

export type Command = 'pick' | 'revert';

export interface ReplayOpts {
  /** Whose sequence this is: cherry-pick, revert, or a rebase (which commits quietly). */
  action: 'cherry-pick' | 'revert' | 'rebase';
  noCommit: boolean;
  edit: boolean;
  signoff: boolean;
  mainline: number;
  recordOrigin: boolean;
  allowFf: boolean;
  allowEmpty: boolean;
  allowEmptyMessage: boolean;
  keepRedundant: boolean;
  dropRedundant: boolean;
  /** --cleanup given. */
  cleanup: Cleanup | null;
  /** The reflog message prefix: `cherry-pick`, `revert`, `rebase (pick)`. */
  reflogAction: string;
}

export const defaultOpts = (action: ReplayOpts['action']): ReplayOpts => ({
  action,
  noCommit: false,
  edit: false,
  signoff: false,
  mainline: 0,
  recordOrigin: false,
  allowFf: false,
  allowEmpty: false,
  allowEmptyMessage: false,
  keepRedundant: false,
  dropRedundant: false,
  cleanup: null,
  reflogAction: action,
});

/** Thrown for what makes git say `fatal: <action> failed` (status 128) after its error. */
export class PickFailed extends Error {}

const gitPath = (ctx: Ctx, p: string) => `${ctx.repo().gitdir}/${p}`;

/** The message from the subject on (find_commit_subject), and the `abc1234 (subject)` labels. */
async function messageOf(ctx: Ctx, c: Commit): Promise<{ body: string; subject: string; label: string; parentLabel: string }> {
  const body = c.message.replace(/^\n+/, '');
  const subject = body.split('\n')[0];
  const label = `${await abbrevUnique(ctx, c.oid, 7)} (${subject})`;
  return { body, subject, label, parentLabel: `parent of ${label}` };
}

/** Does the message end in a trailer block (Signed-off-by: ..., (cherry picked from ...))? */
function hasFooter(msg: string): boolean {
  const paras = msg.replace(/\n+$/, '').split(/\n\n+/);
  if (paras.length < 2) return false;
  return paras[paras.length - 1].split('\n').every((l) => /^[A-Za-z0-9-]+: /.test(l) || /^\(cherry picked from commit [0-9a-f]+\)$/.test(l));
}

export function errorDirtyIndex(ctx: Ctx, name: string, unmerged: boolean): never {
  if (unmerged) {
    const verb: Record<string, string> = { 'cherry-pick': 'Cherry-picking', revert: 'Reverting', rebase: 'Rebasing', commit: 'Committing', merge: 'Merging', pull: 'Pulling' };
    ctx.error(`${verb[name] ?? 'It'} is not possible because you have unmerged files.`);
    ctx.hint(["Fix them up in the work tree, and then use 'git add/rm <file>'", 'as appropriate to mark resolution and make a commit.']);
  } else {
    ctx.error(`your local changes would be overwritten by ${name}.`);
    ctx.hint(['commit your changes or stash them to proceed.']);
  }
  throw new PickFailed();
}

/** The tree the index would commit. */
export async function indexTree(ctx: Ctx, store: Store): Promise<string> {
  return writeTree(store, indexSnapshot(ctx.readIndex()));
}

function printAdvice(ctx: Ctx, opts: ReplayOpts): void {
  if (opts.action === 'rebase') {
    ctx.hint([
      'Resolve all conflicts manually, mark them as resolved with',
      '"git add/rm <conflicted_files>", then run "git rebase --continue".',
      'You can instead skip this commit: run "git rebase --skip".',
      'To abort and get back to the state before "git rebase", run "git rebase --abort".',
    ]);
    return;
  }
  if (opts.noCommit) {
    ctx.hint(['after resolving the conflicts, mark the corrected paths', "with 'git add <paths>' or 'git rm <paths>'"]);
    return;
  }
  const a = opts.action;
  ctx.hint([
    'After resolving the conflicts, mark them with',
    '"git add/rm <pathspec>", then run',
    `"git ${a} --continue".`,
    `You can instead skip this commit with "git ${a} --skip".`,
    `To abort and get back to the state before "git ${a}",`,
    `run "git ${a} --abort".`,
  ]);
}

export interface PickResult {
  /** 0 done, 1 stopped (conflict, or the commit could not be made). */
  status: number;
  /** The merge, when one was made (rebase reports conflicts from it). */
  merge?: MergeOutcome;
}

/**
 * Apply one commit (do_pick_commit). Returns 0 when committed (or staged
 * with --no-commit), 1 when stopped; throws PickFailed for git's
 * "fatal: ... failed" cases.
 */
export async function doPick(ctx: Ctx, store: Store, cmd: Command, oid: string, opts: ReplayOpts): Promise<PickResult> {
  const top = ctx.worktree().dir;
  const head = await readHead(ctx);
  const idx = ctx.readIndex();
  let headTree: string;
  if (opts.noCommit) {
    if (idx.unmerged.size) {
      ctx.error('your index file is unmerged.');
      throw new PickFailed();
    }
    headTree = await writeTree(store, indexSnapshot(idx));
  } else {
    headTree = head.oid ? (await store.commit(head.oid)).tree : EMPTY_TREE;
    if (idx.unmerged.size || (await writeTree(store, indexSnapshot(idx))) !== headTree) errorDirtyIndex(ctx, opts.action, idx.unmerged.size > 0);
  }
  const c = await store.commit(oid);
  let parent: string | null;
  if (c.parents.length > 1) {
    if (!opts.mainline) {
      ctx.error(`commit ${oid} is a merge but no -m option was given.`);
      throw new PickFailed();
    }
    parent = c.parents[opts.mainline - 1] ?? null;
    if (!parent) {
      ctx.error(`commit ${oid} does not have parent ${opts.mainline}`);
      throw new PickFailed();
    }
  } else if (opts.mainline > 1) {
    ctx.error(`commit ${oid} does not have parent ${opts.mainline}`);
    throw new PickFailed();
  } else parent = c.parents[0] ?? null;
  const msg = await messageOf(ctx, c);

  // --ff: the commit sits right on HEAD, so HEAD just moves to it
  if (opts.allowFf && ((parent && parent === head.oid) || (!parent && !head.oid))) {
    await applySwitch(ctx, store, top, idx, await store.commitTree(head.oid), await store.commitTree(oid));
    await ctx.writeIndex(idx);
    await writeRef(ctx, head.ref ?? 'HEAD', oid);
    logRefUpdate(ctx, head.ref ? ['HEAD', head.ref] : ['HEAD'], head.oid, oid, `${opts.action}: fast-forward`);
    await updateAbortSafety(ctx);
    return { status: 0 };
  }

  let base: string | null;
  let next: string | null;
  let theirsLabel: string;
  let text: string;
  if (cmd === 'revert') {
    base = oid;
    next = parent;
    theirsLabel = msg.parentLabel;
    text = `Revert "${msg.subject}"\n\nThis reverts commit ${oid}`;
    if (c.parents.length > 1) text += `, reversing\nchanges made to ${parent}`;
    text += '.\n';
  } else {
    base = parent;
    next = oid;
    theirsLabel = msg.label;
    text = msg.body;
    if (opts.recordOrigin) {
      if (!text.endsWith('\n')) text += '\n';
      if (!hasFooter(text)) text += '\n';
      text += `(cherry picked from commit ${oid})\n`;
    }
  }
  if (opts.signoff) {
    const me = whoIs(ctx, 'committer');
    const sob = `Signed-off-by: ${me.name} <${me.email}>`;
    if (!text.endsWith('\n')) text += '\n';
    if (!text.split('\n').includes(sob)) text += `${hasFooter(text) ? '' : '\n'}${sob}\n`;
  }

  let merge: MergeOutcome;
  try {
    merge = await mergeTrees(store, await store.commitTree(base), await store.flatTree(headTree), await store.commitTree(next), { ours: 'HEAD', theirs: next ? theirsLabel : '(empty tree)' });
  } catch (e) {
    if (e instanceof MergeUnsupported) ctx.fatal(`cannot ${cmd === 'revert' ? 'revert' : 'apply'} ${msg.label}: ${e.message} (not supported by agentOS git)`);
    throw e;
  }
  const failure = await checkoutMerge(ctx, store, await store.flatTree(headTree), merge, ctx.readIndex());
  if (failure) {
    reportOverwrite(ctx, failure);
    throw new PickFailed();
  }
  const conflicted = merge.conflicts.size > 0;
  // a rebase shows ort's messages only when something went wrong
  if (opts.action !== 'rebase' || conflicted) for (const m of merge.messages) ctx.print(`${m}\n`);
  let mergeMsg = text;
  if (conflicted) mergeMsg += `\n# Conflicts:\n${[...merge.conflicts.keys()].sort().map((p) => `#\t${p}\n`).join('')}`;
  ctx.sys.writeFile(gitPath(ctx, 'MERGE_MSG'), mergeMsg);
  if (cmd === 'pick' && !opts.noCommit) await writeRef(ctx, 'CHERRY_PICK_HEAD', oid);
  if (cmd === 'revert' && ((opts.noCommit && !conflicted) || conflicted)) await writeRef(ctx, 'REVERT_HEAD', oid);
  if (opts.action === 'rebase') writeAuthorScript(ctx, c.author);
  if (conflicted) {
    ctx.error(`could not ${cmd === 'revert' ? 'revert' : 'apply'} ${await abbrevUnique(ctx, oid, 7)}... ${msg.subject}`);
    printAdvice(ctx, opts);
    if (opts.action === 'rebase') await deleteRef(ctx, 'CHERRY_PICK_HEAD');
    await updateAbortSafety(ctx);
    return { status: 1, merge };
  }
  if (opts.noCommit) {
    await updateAbortSafety(ctx);
    return { status: 0, merge };
  }
  const status = await commitPicked(ctx, store, cmd, c, text, opts);
  updateAbortSafety(ctx);
  return { status, merge };
}

/** Commit the merged index (do_commit / try_to_commit). */
async function commitPicked(ctx: Ctx, store: Store, cmd: Command, c: Commit, text: string, opts: ReplayOpts): Promise<number> {
  const head = await readHead(ctx);
  const tree = await indexTree(ctx, store);
  const parentTree = head.oid ? (await store.commit(head.oid)).tree : EMPTY_TREE;
  const originallyEmpty = (c.parents[0] ? (await store.commit(c.parents[0])).tree : EMPTY_TREE) === c.tree;
  let allowEmpty = false;
  if (tree === parentTree && opts.allowEmpty) {
    if (opts.keepRedundant || originallyEmpty) allowEmpty = true;
    else if (opts.dropRedundant) {
      await deleteRef(ctx, 'CHERRY_PICK_HEAD');
      for (const f of ['MERGE_MSG', 'AUTO_MERGE']) if (ctx.exists(gitPath(ctx, f))) ctx.sys.unlink(gitPath(ctx, f));
      ctx.err(`dropping ${c.oid} ${subjectOf(c.message)} -- patch contents already upstream\n`);
      return 0;
    }
  }
  if (opts.edit || (tree === parentTree && !allowEmpty)) {
    // git hands these to `git commit`, which edits the message or explains why nothing was committed
    const args = ['-n', '-F', gitPath(ctx, 'MERGE_MSG')];
    if (opts.edit) args.push('-e');
    else args.push('--cleanup=verbatim', '--allow-empty-message');
    if (allowEmpty) args.push('--allow-empty');
    const env = ctx.env.GIT_REFLOG_ACTION;
    ctx.env.GIT_REFLOG_ACTION = opts.reflogAction;
    try {
      return (await commitCmd(ctx, args)) ? 1 : 0;
    } finally {
      if (env === undefined) delete ctx.env.GIT_REFLOG_ACTION;
      else ctx.env.GIT_REFLOG_ACTION = env;
    }
  }
  const cleanup: Cleanup = opts.cleanup ?? 'whitespace';
  const message = cleanupMessage(text, cleanup === 'scissors' ? 'whitespace' : cleanup);
  const author: Ident = cmd === 'revert' ? whoIs(ctx, 'author') : c.author;
  const committer = whoIs(ctx, 'committer');
  const oid = await store.write('commit', commitText({ tree, parents: head.oid ? [head.oid] : [], author, committer, message }));
  await writeRef(ctx, head.ref ?? 'HEAD', oid);
  logRefUpdate(ctx, head.ref ? ['HEAD', head.ref] : ['HEAD'], head.oid, oid, `${opts.reflogAction}: ${message}`);
  await deleteRef(ctx, 'CHERRY_PICK_HEAD');
  if (ctx.exists(gitPath(ctx, 'MERGE_MSG'))) ctx.sys.unlink(gitPath(ctx, 'MERGE_MSG'));
  if (opts.action !== 'rebase') await printSummary(ctx, store, head, await store.commit(oid), { amend: false, root: !head.oid, showDate: true, committer });
  return 0;
}

/** rebase-merge/author-script: the author of the commit being picked, as shell assignments. */
function writeAuthorScript(ctx: Ctx, a: Ident): void {
  const q = (s: string) => s.replace(/'/g, "'\\''");
  ctx.sys.writeFile(gitPath(ctx, 'rebase-merge/author-script'), `GIT_AUTHOR_NAME='${q(a.name)}'\nGIT_AUTHOR_EMAIL='${q(a.email)}'\nGIT_AUTHOR_DATE='@${a.time} ${a.tz}'\n`);
}

/** sequencer/abort-safety: where HEAD was after the last pick (so --abort knows whether HEAD moved since). */
async function updateAbortSafety(ctx: Ctx): Promise<void> {
  if (!ctx.exists(gitPath(ctx, 'sequencer'))) return;
  ctx.sys.writeFile(gitPath(ctx, 'sequencer/abort-safety'), `${(await readHead(ctx)).oid ?? ''}\n`);
}

// ---- sequences (.git/sequencer) ------------------------------------------------

export interface TodoItem {
  cmd: Command;
  oid: string;
  line: string;
}

export async function todoLine(ctx: Ctx, store: Store, cmd: Command, oid: string): Promise<string> {
  return `${cmd} ${await abbrevUnique(ctx, oid, 7)} ${subjectOf((await store.commit(oid)).message).split('\n')[0]}`;
}

export function readTodo(ctx: Ctx): TodoItem[] {
  const text = ctx.readText(gitPath(ctx, 'sequencer/todo')) ?? '';
  const items: TodoItem[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(pick|p|revert)\s+(\S+)/.exec(line);
    if (m) items.push({ cmd: m[1] === 'revert' ? 'revert' : 'pick', oid: m[2], line });
  }
  return items;
}

function saveTodo(ctx: Ctx, items: TodoItem[]): void {
  ctx.writeAtomic(gitPath(ctx, 'sequencer/todo'), items.map((i) => `${i.line}\n`).join(''));
}

/** sequencer/opts, in git's config format. */
function saveOpts(ctx: Ctx, o: ReplayOpts): void {
  const lines: string[] = [];
  if (o.noCommit) lines.push('no-commit = true');
  if (o.edit) lines.push('edit = true');
  if (o.allowEmpty) lines.push('allow-empty = true');
  if (o.allowEmptyMessage) lines.push('allow-empty-message = true');
  if (o.keepRedundant) lines.push('keep-redundant-commits = true');
  if (o.signoff) lines.push('signoff = true');
  if (o.recordOrigin) lines.push('record-origin = true');
  if (o.allowFf) lines.push('allow-ff = true');
  if (o.mainline) lines.push(`mainline = ${o.mainline}`);
  if (o.cleanup) lines.push(`default-msg-cleanup = ${o.cleanup}`);
  if (lines.length) ctx.sys.writeFile(gitPath(ctx, 'sequencer/opts'), `[options]\n${lines.map((l) => `\t${l}\n`).join('')}`);
}

export function readOpts(ctx: Ctx, o: ReplayOpts): void {
  const text = ctx.readText(gitPath(ctx, 'sequencer/opts')) ?? '';
  const get = (k: string) => new RegExp(`^\\s*${k}\\s*=\\s*(.*)$`, 'mi').exec(text)?.[1]?.trim();
  const yes = (k: string) => /^(true|yes|on|1)$/i.test(get(k) ?? '');
  o.noCommit ||= yes('no-commit');
  o.edit ||= yes('edit');
  o.allowEmpty ||= yes('allow-empty');
  o.allowEmptyMessage ||= yes('allow-empty-message');
  o.keepRedundant ||= yes('keep-redundant-commits');
  o.signoff ||= yes('signoff');
  o.recordOrigin ||= yes('record-origin');
  o.allowFf ||= yes('allow-ff');
  if (get('mainline')) o.mainline = Number(get('mainline'));
  if (get('default-msg-cleanup')) o.cleanup = get('default-msg-cleanup') as Cleanup;
}

/** Start a sequence: refuse when one is running, then record where HEAD was. */
export async function createSequence(ctx: Ctx, items: TodoItem[], o: ReplayOpts): Promise<void> {
  const last = ctx.exists(gitPath(ctx, 'sequencer/todo')) ? (readTodo(ctx)[0]?.cmd ?? null) : null;
  if (last) {
    const skip = (await resolveRef(ctx, 'REVERT_HEAD')) || (await resolveRef(ctx, 'CHERRY_PICK_HEAD')) ? '--skip | ' : '';
    const what = last === 'revert' ? 'revert' : 'cherry-pick';
    ctx.error(`${what} is already in progress`);
    ctx.hint([`try "git ${what} (--continue | ${skip}--abort | --quit)"`]);
    throw new PickFailed();
  }
  ctx.sys.mkdir(gitPath(ctx, 'sequencer'), 0o777);
  const head = await readHead(ctx);
  ctx.sys.writeFile(gitPath(ctx, 'sequencer/head'), `${head.oid ?? '0'.repeat(40)}\n`);
  saveOpts(ctx, o);
  ctx.sys.writeFile(gitPath(ctx, 'sequencer/abort-safety'), `${head.oid ?? ''}\n`);
  saveTodo(ctx, items);
}

/** Run the todo list from its first item (pick_commits); the sequence is over when all are done. */
export async function runSequence(ctx: Ctx, store: Store, items: TodoItem[], o: ReplayOpts): Promise<number> {
  for (let i = 0; i < items.length; i++) {
    saveTodo(ctx, items.slice(i));
    const full = await git.expandOid({ ...ctx.iso(), oid: items[i].oid });
    const r = await doPick(ctx, store, items[i].cmd, full, o);
    if (r.status) return r.status;
  }
  removeTree(ctx, gitPath(ctx, 'sequencer'));
  return 0;
}

export function removeSequencer(ctx: Ctx): void {
  if (ctx.exists(gitPath(ctx, 'sequencer'))) removeTree(ctx, gitPath(ctx, 'sequencer'));
}

export function hasSequence(ctx: Ctx): boolean {
  return ctx.exists(gitPath(ctx, 'sequencer/todo'));
}

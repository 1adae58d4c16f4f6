// What is in progress in a work tree — a merge, a rebase, a cherry-pick, a
// revert, a bisection — read from the files git leaves in the git
// directory, and the sections `git status` prints about it (wt-status.c).
// Also the clean-up git does after a commit or a reset (remove_branch_state).

import type { Ctx } from './ctx.js';
import { abbrevUnique } from './abbrev.js';
import { removeTree } from './fsutil.js';
import { deleteRef, resolveRef } from './refs.js';

export interface RebaseState {
  interactive: boolean;
  /** The branch being rebased (short), or null when detached. */
  branch: string | null;
  /** What it is rebased onto, abbreviated. */
  onto: string | null;
}

export interface WtState {
  merge: boolean;
  rebase: RebaseState | null;
  /** The commit being cherry-picked (abbreviated), '' in a sequence between picks; null when none. */
  cherryPick: string | null;
  revert: string | null;
  bisect: { branch: string | null } | null;
  /** How a commit made now would be made (commit.c's whence): it decides status's hints. */
  whence: 'commit' | 'merge' | 'cherry-pick' | 'rebase-pick';
}

const gitPath = (ctx: Ctx, p: string) => `${ctx.repo().gitdir}/${p}`;

/** wt-status.c's get_branch: refs/heads/x → x, an id → its abbreviation, "detached HEAD" → null. */
async function branchIn(ctx: Ctx, file: string): Promise<string | null> {
  const text = (ctx.readText(gitPath(ctx, file)) ?? '').replace(/\n+$/, '');
  if (text === '' || text === 'detached HEAD') return null;
  if (text.startsWith('refs/heads/')) return text.slice(11);
  if (text.startsWith('refs/')) return text;
  if (/^[0-9a-f]{40}$/.test(text)) return abbrevUnique(ctx, text, 7);
  return text;
}

/** The first command of .git/sequencer/todo: 'pick', 'revert' or null. */
export function sequencerAction(ctx: Ctx): 'pick' | 'revert' | null {
  const text = ctx.readText(gitPath(ctx, 'sequencer/todo'));
  if (text === null) return null;
  const m = /^\s*(pick|p|revert)[ \t]/.exec(text);
  return m ? (m[1] === 'revert' ? 'revert' : 'pick') : null;
}

export async function readWtState(ctx: Ctx): Promise<WtState> {
  const st: WtState = { merge: false, rebase: null, cherryPick: null, revert: null, bisect: null, whence: 'commit' };
  const rebaseDir = ctx.exists(gitPath(ctx, 'rebase-merge')) ? 'rebase-merge' : ctx.exists(gitPath(ctx, 'rebase-apply')) && !ctx.exists(gitPath(ctx, 'rebase-apply/applying')) ? 'rebase-apply' : null;
  if (rebaseDir) {
    st.rebase = {
      interactive: rebaseDir === 'rebase-merge' && ctx.exists(gitPath(ctx, 'rebase-merge/interactive')),
      branch: await branchIn(ctx, `${rebaseDir}/head-name`),
      onto: await branchIn(ctx, `${rebaseDir}/onto`),
    };
  }
  const cp = await resolveRef(ctx, 'CHERRY_PICK_HEAD');
  if (ctx.exists(gitPath(ctx, 'MERGE_HEAD'))) st.merge = true;
  else if (!rebaseDir && cp) st.cherryPick = await abbrevUnique(ctx, cp, 7);
  if (ctx.exists(gitPath(ctx, 'BISECT_LOG'))) st.bisect = { branch: await branchIn(ctx, 'BISECT_START') };
  const rv = await resolveRef(ctx, 'REVERT_HEAD');
  if (rv) st.revert = await abbrevUnique(ctx, rv, 7);
  const seq = sequencerAction(ctx);
  if (seq === 'pick') st.cherryPick = '';
  else if (seq === 'revert') st.revert = '';
  if (st.merge) st.whence = 'merge';
  else if (cp) {
    const rebaseHead = await resolveRef(ctx, 'REBASE_HEAD');
    st.whence = ctx.exists(gitPath(ctx, 'rebase-merge')) && rebaseHead === cp ? 'rebase-pick' : 'cherry-pick';
  }
  return st;
}

function readTodo(ctx: Ctx, file: string): string[] | null {
  const text = ctx.readText(gitPath(ctx, file));
  if (text === null) return null;
  return text
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .map((l) => l.trim())
    .filter(Boolean);
}

/** `pick <full id> subject` with the id abbreviated, as status shows todo lines. */
async function abbrevLine(ctx: Ctx, line: string): Promise<string> {
  if (/^(exec|x|label|l) /.test(line)) return line;
  const m = /^(\S+) (\S+)( .*)?$/.exec(line);
  if (!m) return line;
  const oid = await resolveRef(ctx, m[2]).catch(() => null);
  const full = /^[0-9a-f]{40}$/.test(m[2]) ? m[2] : oid;
  return full ? `${m[1]} ${await abbrevUnique(ctx, full, 7)}${m[3] ?? ''}` : line;
}

/** The sections of `git status` about what is in progress (each followed by a blank line). */
export async function stateSections(ctx: Ctx, st: WtState, unmerged: boolean): Promise<string> {
  const hints = ctx.configBool('advice.statusHints', true) && ctx.configBool('advice.hints', true);
  let out = '';
  const rebaseInfo = async () => {
    if (!st.rebase?.interactive) return;
    const done = readTodo(ctx, 'rebase-merge/done') ?? [];
    const todo = readTodo(ctx, 'rebase-merge/git-rebase-todo');
    if (todo === null) out += 'git-rebase-todo is missing.\n';
    if (done.length === 0) out += 'No commands done.\n';
    else {
      out += done.length === 1 ? `Last command done (1 command done):\n` : `Last commands done (${done.length} commands done):\n`;
      for (const l of done.slice(-2)) out += `   ${await abbrevLine(ctx, l)}\n`;
      if (done.length > 2 && hints) out += `  (see more in file ${gitPath(ctx, 'rebase-merge/done')})\n`;
    }
    const rest = todo ?? [];
    if (rest.length === 0) out += 'No commands remaining.\n';
    else {
      out += rest.length === 1 ? 'Next command to do (1 remaining command):\n' : `Next commands to do (${rest.length} remaining commands):\n`;
      for (const l of rest.slice(0, 2)) out += `   ${await abbrevLine(ctx, l)}\n`;
      if (hints) out += '  (use "git rebase --edit-todo" to view and edit)\n';
    }
  };
  const rebasing = () => (st.rebase?.branch ? `You are currently rebasing branch '${st.rebase.branch}' on '${st.rebase.onto}'.\n` : 'You are currently rebasing.\n');
  if (st.merge) {
    if (st.rebase?.interactive) {
      await rebaseInfo();
      out += '\n';
    }
    out += unmerged ? 'You have unmerged paths.\n' : 'All conflicts fixed but you are still merging.\n';
    if (hints) out += unmerged ? '  (fix conflicts and run "git commit")\n  (use "git merge --abort" to abort the merge)\n' : '  (use "git commit" to conclude merge)\n';
    out += '\n';
  } else if (st.rebase) {
    await rebaseInfo();
    if (unmerged) {
      out += rebasing();
      if (hints) out += '  (fix conflicts and then run "git rebase --continue")\n  (use "git rebase --skip" to skip this patch)\n  (use "git rebase --abort" to check out the original branch)\n';
    } else if (!st.rebase.interactive || ctx.exists(gitPath(ctx, 'MERGE_MSG'))) {
      out += rebasing();
      if (hints) out += '  (all conflicts fixed: run "git rebase --continue")\n';
    } else {
      out += st.rebase.branch ? `You are currently editing a commit while rebasing branch '${st.rebase.branch}' on '${st.rebase.onto}'.\n` : 'You are currently editing a commit during a rebase.\n';
      if (hints) out += '  (use "git commit --amend" to amend the current commit)\n  (use "git rebase --continue" once you are satisfied with your changes)\n';
    }
    out += '\n';
  } else if (st.cherryPick !== null) {
    out += st.cherryPick === '' ? 'Cherry-pick currently in progress.\n' : `You are currently cherry-picking commit ${st.cherryPick}.\n`;
    if (hints) {
      out += unmerged ? '  (fix conflicts and run "git cherry-pick --continue")\n' : st.cherryPick === '' ? '  (run "git cherry-pick --continue" to continue)\n' : '  (all conflicts fixed: run "git cherry-pick --continue")\n';
      out += '  (use "git cherry-pick --skip" to skip this patch)\n  (use "git cherry-pick --abort" to cancel the cherry-pick operation)\n';
    }
    out += '\n';
  } else if (st.revert !== null) {
    out += st.revert === '' ? 'Revert currently in progress.\n' : `You are currently reverting commit ${st.revert}.\n`;
    if (hints) {
      out += unmerged ? '  (fix conflicts and run "git revert --continue")\n' : st.revert === '' ? '  (run "git revert --continue" to continue)\n' : '  (all conflicts fixed: run "git revert --continue")\n';
      out += '  (use "git revert --skip" to skip this patch)\n  (use "git revert --abort" to cancel the revert operation)\n';
    }
    out += '\n';
  }
  if (st.bisect) {
    out += st.bisect.branch ? `You are currently bisecting, started from branch '${st.bisect.branch}'.\n` : 'You are currently bisecting.\n';
    if (hints) out += '  (use "git bisect reset" to get back to the original branch)\n';
    out += '\n';
  }
  return out;
}

function unlinkIf(ctx: Ctx, path: string): void {
  if (ctx.exists(path)) ctx.sys.unlink(path);
}

/** MERGE_HEAD and friends (remove_merge_branch_state). */
export function removeMergeState(ctx: Ctx): void {
  for (const f of ['MERGE_HEAD', 'MERGE_RR', 'MERGE_MSG', 'MERGE_MODE', 'AUTO_MERGE']) unlinkIf(ctx, gitPath(ctx, f));
}

/**
 * After a commit: the picked commit's marker goes, and a cherry-pick or
 * revert sequence whose last pick this was is over (sequencer_post_commit_cleanup).
 */
export async function sequencerPostCommit(ctx: Ctx): Promise<void> {
  let picking = false;
  for (const r of ['CHERRY_PICK_HEAD', 'REVERT_HEAD']) {
    if (ctx.exists(gitPath(ctx, r))) {
      await deleteRef(ctx, r);
      picking = true;
    }
  }
  unlinkIf(ctx, gitPath(ctx, 'AUTO_MERGE'));
  if (!picking) return;
  const todo = ctx.readText(gitPath(ctx, 'sequencer/todo'));
  if (todo === null) return;
  const nl = todo.indexOf('\n');
  if (nl < 0 || nl === todo.length - 1) removeTree(ctx, gitPath(ctx, 'sequencer'));
}

/** What `reset` and `merge --abort` clear (remove_branch_state). */
export async function removeBranchState(ctx: Ctx): Promise<void> {
  await sequencerPostCommit(ctx);
  unlinkIf(ctx, gitPath(ctx, 'SQUASH_MSG'));
  removeMergeState(ctx);
}

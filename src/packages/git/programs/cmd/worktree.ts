// git worktree add [-f] [--detach] [-b <new-branch>] [-q] <path> [<commit-ish>]
// git worktree list [-v | --porcelain [-z]]
// git worktree remove [-f] <worktree>
// git worktree prune [-n] [-v]
//
// More than one work tree for a repository, laid out as git lays them out
// (<common dir>/worktrees/<id>/ and a `.git` file in the new directory), so
// work trees added by either git are listed, used and removed by the other.

import type { Ctx } from '../core/ctx.js';
import { abbrevUnique } from '../core/abbrev.js';
import { mkdirs, removeTree } from '../core/fsutil.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { basename, normalize, relative } from '../core/path.js';
import { logRefUpdate } from '../core/reflog.js';
import { readHead, resolveRef, validRefName, writeSymref } from '../core/refs.js';
import { commitOrDie } from '../core/revargs.js';
import { loadState } from '../core/state.js';
import { checkedOutElsewhere, listWorktrees, type WorktreeInfo } from '../core/worktrees.js';
import { branch as branchCmd } from './branch.js';
import { reset as resetCmd } from './reset.js';

const USAGE = `usage: git worktree add [-f] [--detach] [--checkout] [--lock [--reason <string>]]
                        [-b <new-branch>] <path> [<commit-ish>]
   or: git worktree list [-v | --porcelain [-z]]
   or: git worktree lock [--reason <string>] <worktree>
   or: git worktree move <worktree> <new-path>
   or: git worktree prune [-n] [-v] [--expire <expire>]
   or: git worktree remove [-f] <worktree>
   or: git worktree repair [<path>...]
   or: git worktree unlock <worktree>

`;

/** A work tree named by its path or by the end of it (find_worktree). */
function findWorktree(ctx: Ctx, name: string): WorktreeInfo | null {
  const all = listWorktrees(ctx);
  const abs = normalize(ctx.abs(name));
  const byPath = all.find((w) => w.path === abs);
  if (byPath) return byPath;
  const hits = all.filter((w) => w.id !== null && (w.path.endsWith(`/${name}`) || basename(w.path) === name));
  return hits.length === 1 ? hits[0] : null;
}

/** Run `fn` as if git were started in another work tree (GIT_DIR / GIT_WORK_TREE). */
async function inWorktree<T>(ctx: Ctx, gitdir: string, top: string, fn: () => Promise<T>): Promise<T> {
  const saved = { dir: ctx.env.GIT_DIR, tree: ctx.env.GIT_WORK_TREE, cwd: ctx.cwd };
  ctx.env.GIT_DIR = gitdir;
  ctx.env.GIT_WORK_TREE = top;
  ctx.cwd = top;
  ctx.resetRepo();
  try {
    return await fn();
  } finally {
    for (const [k, v] of [['GIT_DIR', saved.dir], ['GIT_WORK_TREE', saved.tree]] as const) {
      if (v === undefined) delete ctx.env[k];
      else ctx.env[k] = v;
    }
    ctx.cwd = saved.cwd;
    ctx.resetRepo();
  }
}

async function add(ctx: Ctx, store: Store, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    { 'f|force': 'count', 'b': 'str', 'B': 'str', '|detach': 'bool', '|checkout': 'bool', '|lock': 'bool', '|reason': 'str', 'q|quiet': 'bool', '|track': 'bool', '|guess-remote': 'bool', '|orphan': 'bool' },
    USAGE,
  );
  if ([o.given('b'), o.given('B'), o.has('detach')].filter(Boolean).length > 1) ctx.fatal("options '-b', '-B', and '--detach' cannot be used together");
  if (o.given('reason') && !o.has('lock')) ctx.fatal("the option '--reason' requires '--lock'");
  if (o.operands.length < 1 || o.operands.length > 2) {
    ctx.err(USAGE);
    return 129;
  }
  const force = o.count('force');
  const path = normalize(ctx.abs(o.operands[0]));
  let commitish = o.operands[1] ?? 'HEAD';
  if (commitish === '-') commitish = '@{-1}';
  let newBranch = o.get('b') ?? o.get('B') ?? null;
  const resetBranch = o.given('B');
  const quiet = o.has('quiet');
  // `add <path>` alone: the branch named like the directory, checked out or made
  if (o.operands.length < 2 && !newBranch && !o.has('detach')) {
    const name = basename(path);
    if (await resolveRef(ctx, `refs/heads/${name}`)) commitish = name;
    else if (validRefName(name)) newBranch = name;
  }
  const target = await commitOrDie(ctx, store, commitish);
  if (!target) ctx.fatal(`invalid reference: ${commitish}`);
  const isBranch = !newBranch && !o.has('detach') && (await resolveRef(ctx, `refs/heads/${commitish}`)) !== null;
  if (!quiet) {
    if (newBranch && resetBranch && (await resolveRef(ctx, `refs/heads/${newBranch}`))) {
      ctx.err(`Preparing worktree (resetting branch '${newBranch}'; was at ${await abbrevUnique(ctx, (await resolveRef(ctx, `refs/heads/${newBranch}`))!, 7)})\n`);
    } else if (newBranch) ctx.err(`Preparing worktree (new branch '${newBranch}')\n`);
    else if (isBranch) ctx.err(`Preparing worktree (checking out '${commitish}')\n`);
    else ctx.err(`Preparing worktree (detached HEAD ${await abbrevUnique(ctx, target, 7)})\n`);
  }
  if (newBranch) {
    const st = await branchCmd(ctx, [...(resetBranch ? ['--force'] : []), ...(quiet ? ['--quiet'] : []), newBranch, commitish]);
    if (st) return st;
  }
  // the destination must be new or empty, and not a registered (if missing) work tree
  if (ctx.exists(path) && ctx.sys.readdir(path).some((e) => e.name !== '.' && e.name !== '..')) ctx.fatal(`'${o.operands[0]}' already exists`);
  const known = listWorktrees(ctx).find((w) => w.path === path && w.id !== null);
  if (known && !force) {
    ctx.fatal(known.locked !== null ? `'${path}' is a missing but locked worktree;\nuse 'add -f -f' to override, or 'unlock' and 'prune' or 'remove' to clear` : `'${path}' is a missing but already registered worktree;\nuse 'add -f' to override, or 'prune' or 'remove' to clear`);
  }
  const branchRef = newBranch ? `refs/heads/${newBranch}` : isBranch ? `refs/heads/${commitish}` : null;
  if (branchRef && !force) {
    const other = checkedOutElsewhere(ctx, branchRef);
    const mine = (await readHead(ctx)).ref === branchRef ? ctx.repo().dir : null;
    if (other || mine) ctx.fatal(`'${branchRef.slice(11)}' is already checked out at '${other?.path ?? mine}'`);
  }
  const common = ctx.repo().commondir;
  let id = basename(path);
  for (let n = 1; ctx.exists(`${common}/worktrees/${id}`); n++) id = `${basename(path)}${n}`;
  const admin = `${common}/worktrees/${id}`;
  mkdirs(ctx, admin);
  ctx.sys.writeFile(`${admin}/locked`, 'initializing\n');
  mkdirs(ctx, path);
  ctx.sys.writeFile(`${admin}/gitdir`, `${path}/.git\n`);
  ctx.sys.writeFile(`${path}/.git`, `gitdir: ${admin}\n`);
  ctx.sys.writeFile(`${admin}/commondir`, `${relative(admin, common)}\n`);
  // HEAD starts detached at the commit (logged with no message), then names the branch
  ctx.sys.writeFile(`${admin}/HEAD`, `${target}\n`);
  let status = 0;
  try {
    await inWorktree(ctx, admin, path, async () => {
      logRefUpdate(ctx, ['HEAD'], null, target, '');
      if (branchRef) await writeSymref(ctx, 'HEAD', branchRef);
      if (!o.given('checkout') || o.has('checkout')) status = await resetCmd(ctx, ['--hard', ...(quiet ? ['-q'] : [])]);
    });
  } finally {
    if (o.has('lock')) ctx.sys.writeFile(`${admin}/locked`, `${o.get('reason') ?? 'added with --lock'}`);
    else ctx.sys.unlink(`${admin}/locked`);
  }
  return status;
}

async function list(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { '|porcelain': 'bool', 'v|verbose': 'bool', z: 'bool', '|expire': 'str' }, USAGE);
  if (o.has('verbose') && o.has('porcelain')) ctx.fatal("options '--verbose' and '--porcelain' cannot be used together");
  if (o.has('z') && !o.has('porcelain')) ctx.fatal("the option '-z' requires '--porcelain'");
  const all = listWorktrees(ctx);
  if (o.has('porcelain')) {
    const t = o.has('z') ? '\0' : '\n';
    for (const w of all) {
      let s = `worktree ${w.path}${t}`;
      if (w.bare) s += `bare${t}`;
      else {
        s += `HEAD ${w.head ?? '0'.repeat(40)}${t}`;
        s += w.branch ? `branch ${w.branch}${t}` : `detached${t}`;
      }
      if (w.locked !== null) s += w.locked ? `locked ${w.locked}${t}` : `locked${t}`;
      if (w.prunable) s += `prunable ${w.prunable}${t}`;
      ctx.print(`${s}${t}`);
    }
    return 0;
  }
  const width = Math.max(...all.map((w) => [...w.path].length));
  for (const w of all) {
    let s = `${w.path.padEnd(width + 1)} `;
    if (w.bare) s += '(bare)';
    else {
      s += `${w.head ? await abbrevUnique(ctx, w.head, 7) : '0000000'} `;
      s += !w.branch ? '(detached HEAD)' : `[${w.branch.replace(/^refs\/heads\//, '')}]`;
    }
    if (w.locked !== null) s += o.has('verbose') && w.locked ? `\n\tlocked: ${w.locked}` : ' locked';
    if (w.prunable) s += o.has('verbose') ? `\n\tprunable: ${w.prunable}` : ' prunable';
    ctx.print(`${s}\n`);
  }
  return 0;
}

async function remove(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { 'f|force': 'count' }, USAGE);
  if (o.operands.length !== 1) {
    ctx.err(USAGE);
    return 129;
  }
  const name = o.operands[0];
  const w = findWorktree(ctx, name);
  if (!w) ctx.fatal(`'${name}' is not a working tree`);
  if (w.id === null) ctx.fatal(`'${name}' is a main working tree`);
  const force = o.count('force');
  if (w.locked !== null && force < 2) ctx.fatal(w.locked ? `cannot remove a locked working tree, lock reason: ${w.locked}\nuse 'remove -f -f' to override or unlock first` : "cannot remove a locked working tree;\nuse 'remove -f -f' to override or unlock first");
  if (ctx.exists(w.path)) {
    if (!force) {
      // modified or untracked files (not ignored ones) keep it, as `git status --porcelain` would show them
      const dirty = await inWorktree(ctx, w.gitdir, w.path, async () => {
        const st = await loadState(ctx, new Store(ctx), { untracked: 'all' });
        return st.staged.length > 0 || st.unstaged.length > 0 || st.unmerged.size > 0 || st.wt.untracked.length > 0;
      });
      if (dirty) ctx.fatal(`'${name}' contains modified or untracked files, use --force to delete it`);
    }
    removeTree(ctx, w.path);
  }
  removeTree(ctx, w.gitdir);
  return 0;
}

function prune(ctx: Ctx, args: string[]): number {
  const o = parseOptions(args, { 'n|dry-run': 'bool', 'v|verbose': 'bool', '|expire': 'str' }, USAGE);
  for (const w of listWorktrees(ctx)) {
    if (w.id === null || !w.prunable) continue;
    if (o.has('verbose') || o.has('dry-run')) ctx.err(`Removing worktrees/${w.id}: ${w.prunable}\n`);
    if (!o.has('dry-run')) removeTree(ctx, w.gitdir);
  }
  return 0;
}

export async function worktree(ctx: Ctx, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '-h' || sub === '--help') {
    if (sub === undefined) ctx.err(`error: need a subcommand\n${USAGE}`);
    else ctx.print(USAGE);
    return 129;
  }
  ctx.repo();
  const store = new Store(ctx);
  switch (sub) {
    case 'add':
      return add(ctx, store, rest);
    case 'list':
      return list(ctx, rest);
    case 'remove':
      return remove(ctx, rest);
    case 'prune':
      return prune(ctx, rest);
    case 'lock':
    case 'unlock':
    case 'move':
    case 'repair':
      ctx.fatal(`worktree ${sub} is not supported by agentOS git`);
      break;
    default:
      ctx.err(`error: unknown subcommand: \`${sub}'\n${USAGE}`);
      return 129;
  }
  return 0;
}

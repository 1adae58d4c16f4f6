// The command line of cherry-pick and revert (builtin/revert.c): options,
// the commits to replay (one, several in order, or ranges walked), and the
// --continue / --skip / --abort / --quit of a stopped pick or sequence.

import type { Ctx } from './ctx.js';
import { GitExit } from './errors.js';
import { applyResetMerge } from './checkout.js';
import type { Cleanup } from './message.js';
import { Store } from './objects.js';
import { parseOptions, type Spec } from './opts.js';
import { logRefUpdate } from './reflog.js';
import { readHead, resolveRef, writeRef } from './refs.js';
import { AmbiguousOid, resolveRev } from './revs.js';
import { walk } from './walk.js';
import { commit as commitCmd } from '../cmd/commit.js';
import {
  createSequence, defaultOpts, doPick, errorDirtyIndex, hasSequence, indexTree, PickFailed, readOpts, readTodo, removeSequencer, runSequence, todoLine,
  type Command, type ReplayOpts, type TodoItem,
} from './sequencer.js';
import { removeBranchState } from './wtstate.js';

const COMMON_USAGE = `
    --quit                end revert or cherry-pick sequence
    --continue            resume revert or cherry-pick sequence
    --abort               cancel revert or cherry-pick sequence
    --skip                skip current commit and continue
    --cleanup <mode>      how to strip spaces and #comments from message
    -n, --no-commit       don't automatically commit
    -e, --edit            edit the commit message
    -s, --signoff         add a Signed-off-by trailer
    -m, --mainline <parent-number>
                          select mainline parent
    --rerere-autoupdate   update the index with reused conflict resolution if possible
    --strategy <strategy>
                          merge strategy
    -X, --strategy-option <option>
                          option for merge strategy
    -S, --gpg-sign[=<key-id>]
                          GPG sign commit
`;

const PICK_USAGE = `usage: git cherry-pick [--edit] [-n] [-m <parent-number>] [-s] [-x] [--ff]
                       [-S[<keyid>]] <commit>...
   or: git cherry-pick (--continue | --skip | --abort | --quit)
${COMMON_USAGE}    -x                    append commit name
    --ff                  allow fast-forward
    --allow-empty         preserve initially empty commits
    --allow-empty-message
                          allow commits with empty messages
    --keep-redundant-commits
                          keep redundant, empty commits

`;

const REVERT_USAGE = `usage: git revert [--[no-]edit] [-n] [-m <parent-number>] [-s] [-S[<keyid>]] <commit>...
   or: git revert (--continue | --skip | --abort | --quit)
${COMMON_USAGE}    --reference           use the 'reference' format to refer to commits

`;

/** `reset --merge` to `oid` (how git aborts and skips picks). */
async function resetMerge(ctx: Ctx, store: Store, oid: string): Promise<boolean> {
  const top = ctx.worktree().dir;
  const head = await readHead(ctx);
  const idx = ctx.readIndex();
  const errors = await applyResetMerge(ctx, store, top, idx, await store.commitTree(head.oid), await store.commitTree(oid), false);
  if (errors.length) {
    for (const e of errors) ctx.error(e);
    ctx.err(`fatal: Could not reset index file to revision '${oid}'.\n`);
    return false;
  }
  await ctx.writeIndex(idx);
  // reset records where HEAD was, moved or not
  if (head.oid) ctx.sys.writeFile(`${ctx.repo().gitdir}/ORIG_HEAD`, `${head.oid}\n`);
  if (head.oid !== oid) await writeRef(ctx, head.ref ?? 'HEAD', oid);
  logRefUpdate(ctx, head.oid !== oid ? (head.ref ? ['HEAD', head.ref] : ['HEAD']) : head.ref ? ['HEAD'] : [], head.oid, oid, `reset: moving to ${oid}`);
  await removeBranchState(ctx);
  return true;
}

/** The commits named on the command line, in the order they are replayed. */
async function collect(ctx: Ctx, store: Store, args: string[], cmd: Command): Promise<{ oids: string[]; single: boolean }> {
  const include: string[] = [];
  const exclude: string[] = [];
  const given: string[] = [];
  let walked = false;
  for (let a of args) {
    if (a === '-') a = '@{-1}';
    const range = /^(.*?)\.\.(\.?)(.*)$/.exec(a);
    const names = range ? [range[1] || 'HEAD', range[3] || 'HEAD'] : [a.replace(/^\^/, '')];
    const oids: string[] = [];
    for (const n of names) {
      let oid: string | null = null;
      try {
        oid = await resolveRev(ctx, store, n);
      } catch (e) {
        if (!(e instanceof AmbiguousOid)) throw e;
      }
      if (!oid) ctx.fatal(`bad revision '${a}'`);
      const c = await store.peelToCommit(oid);
      if (!c) {
        ctx.error(`${a}: can't ${cmd === 'pick' ? 'cherry-pick' : 'revert'} a ${await store.type(oid)}`);
        throw new PickFailed();
      }
      oids.push(c);
    }
    if (range) {
      walked = true;
      exclude.push(oids[0]);
      include.push(oids[1]);
    } else if (a.startsWith('^')) {
      walked = true;
      exclude.push(oids[0]);
    } else {
      include.push(oids[0]);
      given.push(oids[0]);
    }
  }
  if (!walked) return { oids: given, single: args.length === 1 };
  const commits = await walk(store, { include, exclude });
  // picking a range goes oldest first; reverting it, newest first
  const oids = commits.map((c) => c.oid);
  return { oids: cmd === 'pick' ? oids.reverse() : oids, single: false };
}

export async function replay(ctx: Ctx, args: string[], cmd: Command): Promise<number> {
  const name = cmd === 'pick' ? 'cherry-pick' : 'revert';
  const usage = cmd === 'pick' ? PICK_USAGE : REVERT_USAGE;
  const spec: Spec = {
    '|quit': 'bool', '|continue': 'bool', '|abort': 'bool', '|skip': 'bool', '|cleanup': 'str', 'n|no-commit': 'bool', 'e|edit': 'bool', r: 'bool',
    's|signoff': 'bool', 'm|mainline': 'str', '|rerere-autoupdate': 'bool', '|strategy': 'str', 'X|strategy-option': 'str', 'S|gpg-sign': 'opt',
    ...(cmd === 'pick' ? ({ x: 'bool', '|ff': 'bool', '|allow-empty': 'bool', '|allow-empty-message': 'bool', '|keep-redundant-commits': 'bool' } as Spec) : ({ '|reference': 'bool' } as Spec)),
  };
  const o = parseOptions(args, spec, usage);
  ctx.worktree();
  const store = new Store(ctx);
  const opts: ReplayOpts = defaultOpts(name);
  opts.noCommit = o.has('no-commit');
  opts.edit = o.has('edit');
  opts.signoff = o.has('signoff');
  opts.recordOrigin = o.has('x');
  opts.allowFf = o.has('ff');
  opts.keepRedundant = o.has('keep-redundant-commits');
  opts.allowEmpty = o.has('allow-empty') || opts.keepRedundant;
  opts.allowEmptyMessage = o.has('allow-empty-message');
  if (o.given('cleanup')) opts.cleanup = o.get('cleanup') as Cleanup;
  if (o.given('mainline')) {
    const n = Number(o.get('mainline'));
    if (!Number.isInteger(n) || n <= 0) {
      ctx.error('option `mainline\' expects a number greater than zero');
      ctx.err(usage);
      return 129;
    }
    opts.mainline = n;
  }
  const strategy = o.get('strategy');
  if (strategy !== undefined && strategy !== 'ort' && strategy !== 'recursive') ctx.fatal(`the '${strategy}' merge strategy is not supported by agentOS git`);
  const modes = ['quit', 'continue', 'abort', 'skip'].filter((k) => o.has(k));
  try {
    if (modes.length > 1) ctx.fatal(`--${modes[0]} is incompatible with --${modes[1]}`);
    const mode = modes[0];
    if (mode) {
      for (const [k, label] of [['no-commit', '--no-commit'], ['signoff', '--signoff'], ['mainline', '--mainline'], ['x', '-x'], ['ff', '--ff']] as const) {
        if (o.given(k)) ctx.fatal(`${name}: ${label} cannot be used with --${mode}`);
      }
      if (o.operands.length) {
        ctx.err(usage);
        return 129;
      }
      return await control(ctx, store, mode, cmd, opts);
    }
    if (o.operands.length === 0) {
      ctx.err(usage);
      return 129;
    }
    if (opts.allowFf) {
      for (const [k, label] of [['signoff', '--signoff'], ['no-commit', '--no-commit'], ['x', '-x'], ['edit', '--edit']] as const) if (o.has(k)) ctx.fatal(`${name}: ${label} cannot be used with --ff`);
    }
    const { oids, single } = await collect(ctx, store, o.operands, cmd);
    if (single) return (await doPick(ctx, store, cmd, oids[0], opts)).status;
    if (!oids.length) {
      ctx.error('empty commit set passed');
      throw new PickFailed();
    }
    const items: TodoItem[] = [];
    for (const oid of oids) items.push({ cmd, oid, line: await todoLine(ctx, store, cmd, oid) });
    await createSequence(ctx, items, opts);
    if (!(await readHead(ctx)).oid && cmd === 'revert') {
      ctx.error("can't revert as initial commit");
      throw new PickFailed();
    }
    return await runSequence(ctx, store, items, opts);
  } catch (e) {
    if (e instanceof PickFailed) ctx.fatal(`${name} failed`);
    throw e;
  }
}

/** --continue, --skip, --abort, --quit. */
async function control(ctx: Ctx, store: Store, mode: string, cmd: Command, opts: ReplayOpts): Promise<number> {
  const gitdir = ctx.repo().gitdir;
  const picking = await resolveRef(ctx, 'CHERRY_PICK_HEAD');
  const reverting = await resolveRef(ctx, 'REVERT_HEAD');
  if (mode === 'quit') {
    removeSequencer(ctx);
    await removeBranchState(ctx);
    return 0;
  }
  if (mode === 'abort') {
    const headText = ctx.readText(`${gitdir}/sequencer/head`);
    if (headText === null) {
      if (!picking && !reverting) {
        ctx.error('no cherry-pick or revert in progress');
        throw new PickFailed();
      }
      const head = (await readHead(ctx)).oid;
      if (!head) {
        ctx.error('cannot abort from a branch yet to be born');
        throw new PickFailed();
      }
      if (!(await resetMerge(ctx, store, head))) throw new PickFailed();
      return 0;
    }
    const orig = headText.trim();
    const safety = (ctx.readText(`${gitdir}/sequencer/abort-safety`) ?? '').trim();
    if ((await readHead(ctx)).oid !== (safety || null)) ctx.warning('You seem to have moved HEAD. Not rewinding, check your HEAD!');
    else if (!(await resetMerge(ctx, store, orig))) throw new PickFailed();
    removeSequencer(ctx);
    return 0;
  }
  if (mode === 'skip') {
    const last = readTodo(ctx)[0]?.cmd ?? null;
    const marker = cmd === 'revert' ? reverting : picking;
    if (!marker) {
      if (last !== cmd) {
        ctx.error(`no ${cmd === 'revert' ? 'revert' : 'cherry-pick'} in progress`);
        throw new PickFailed();
      }
      const safety = (ctx.readText(`${gitdir}/sequencer/abort-safety`) ?? '').trim();
      if ((await readHead(ctx)).oid !== (safety || null)) {
        ctx.error('there is nothing to skip');
        ctx.hint(['have you committed already?', `try "git ${last === 'revert' ? 'revert' : 'cherry-pick'} --continue"`]);
        throw new PickFailed();
      }
    }
    const head = (await readHead(ctx)).oid;
    if (!head || !(await resetMerge(ctx, store, head))) {
      ctx.error('failed to skip the commit');
      throw new PickFailed();
    }
    if (!hasSequence(ctx)) return 0;
    return continueSequence(ctx, store, opts, true);
  }
  // continue
  if (!hasSequence(ctx)) {
    if (!picking && !reverting) {
      ctx.error('no cherry-pick or revert in progress');
      throw new PickFailed();
    }
    return commitCmd(ctx, ['--no-edit', '--cleanup=strip']);
  }
  return continueSequence(ctx, store, opts, false);
}

async function continueSequence(ctx: Ctx, store: Store, opts: ReplayOpts, skipped: boolean): Promise<number> {
  readOpts(ctx, opts);
  const items = readTodo(ctx);
  if (!skipped) {
    if ((await resolveRef(ctx, 'CHERRY_PICK_HEAD')) || (await resolveRef(ctx, 'REVERT_HEAD'))) {
      const st = await commitCmd(ctx, ['--no-edit', '--cleanup=strip']);
      if (st) throw new GitExit(st);
    }
    const head = (await readHead(ctx)).oid;
    const idx = ctx.readIndex();
    const headTree = head ? (await store.commit(head)).tree : null;
    if (idx.unmerged.size || (await indexTree(ctx, store)) !== headTree) errorDirtyIndex(ctx, opts.action, idx.unmerged.size > 0);
  }
  return runSequence(ctx, store, items.slice(1), opts);
}

// git switch [<options>] [--no-guess] <branch>
// git switch [<options>] --detach [<start-point>]
// git switch [<options>] (-c|-C) <new-branch> [<start-point>]
//
// Switch branches; unlike checkout it never touches paths.

import type { Ctx } from '../core/ctx.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { previousBranch } from '../core/reflog.js';
import { resolveRef, validRefName } from '../core/refs.js';
import { commitOrDie } from '../core/revargs.js';
import { guessRemote, switchTo } from './checkout.js';

const USAGE = `usage: git switch [<options>] [<branch>]

    -c, --create <branch>
                          create and switch to a new branch
    -C, --force-create <branch>
                          create/reset and switch to a branch
    -d, --detach          detach HEAD at named commit
    -t, --track[=(direct|inherit)]
                          set branch tracking configuration
    --guess               second guess 'git switch <no-such-branch>'
    -f, --force           force checkout (throw away local modifications)
    --discard-changes     throw away local modifications
    -q, --quiet           suppress progress reporting
`;

export async function switchCmd(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { 'c|create': 'str', 'C|force-create': 'str', 'd|detach': 'bool', 't|track': 'opt', '|no-track': 'bool', '|guess': 'bool', 'f|force': 'bool', '|discard-changes': 'bool', 'q|quiet': 'bool', 'm|merge': 'bool', '|orphan': 'str', '|progress': 'bool' }, USAGE);
  ctx.worktree();
  const store = new Store(ctx);
  const force = o.has('force') || o.has('discard-changes');
  const quiet = o.has('quiet');
  if (o.operands.length > (o.given('create') || o.given('force-create') ? 2 : 1)) ctx.fatal('only one reference expected');
  if (o.given('orphan')) ctx.fatal('--orphan is not supported by agentOS git');
  const created = o.get('create') ?? o.get('force-create');
  let name = o.operands[0];
  if (name === '-') {
    const prev = previousBranch(ctx);
    if (!prev) ctx.fatal('no previous branch to check out');
    name = prev;
  }
  if (created !== undefined) {
    if (!validRefName(created)) ctx.fatal(`'${created}' is not a valid branch name`);
    const exists = await resolveRef(ctx, `refs/heads/${created}`);
    if (exists && o.given('create')) ctx.fatal(`a branch named '${created}' already exists`);
    const start = name ?? 'HEAD';
    const oid = await commitOrDie(ctx, store, start);
    if (!oid) ctx.fatal(`invalid reference: ${start}`);
    const track = start.includes('/') && (await resolveRef(ctx, `refs/remotes/${start}`)) ? `refs/remotes/${start}` : undefined;
    return switchTo(ctx, store, { ref: `refs/heads/${created}`, oid, name: start, create: exists ? 'reset' : 'new', track: o.has('no-track') ? undefined : track, force, quiet, command: 'switch' });
  }
  if (name === undefined) {
    if (o.has('detach')) name = 'HEAD';
    else ctx.fatal('missing branch or commit argument');
  }
  if (!o.has('detach')) {
    const b = await resolveRef(ctx, `refs/heads/${name}`);
    if (b) return switchTo(ctx, store, { ref: `refs/heads/${name}`, oid: b, name, force, quiet, command: 'switch' });
    const guess = o.given('guess') && !o.has('guess') ? null : await guessRemote(ctx, name);
    if (guess) return switchTo(ctx, store, { ref: `refs/heads/${name}`, oid: (await resolveRef(ctx, guess))!, name, create: 'new', track: guess, force, quiet, command: 'switch' });
    const oid = await commitOrDie(ctx, store, name);
    if (!oid) ctx.fatal(`invalid reference: ${name}`);
    const kind = (await resolveRef(ctx, `refs/tags/${name}`)) ? 'tag' : (await resolveRef(ctx, `refs/remotes/${name}`)) ? 'remote branch' : 'commit';
    ctx.err(`fatal: a branch is expected, got ${kind} '${name}'\n`);
    ctx.hint(['If you want to detach HEAD at the commit, try again with the --detach option.']);
    return 128;
  }
  const oid = await commitOrDie(ctx, store, name);
  if (!oid) ctx.fatal(`invalid reference: ${name}`);
  return switchTo(ctx, store, { ref: null, oid, name, force, quiet, explicitDetach: true, command: 'switch' });
}

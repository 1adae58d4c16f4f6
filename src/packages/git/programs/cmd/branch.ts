// git branch [--list] [-a | -r] [-v [-v]] [--show-current] [--contains <commit>]
//            [--merged [<commit>]] [--no-merged [<commit>]] [<pattern>...]
// git branch [-f] [--track | --no-track] <branchname> [<start-point>]
// git branch (-m | -M | -c | -C) [<oldbranch>] <newbranch>
// git branch (-d | -D) [-r] <branchname>...
// git branch (-u <upstream> | --set-upstream-to=<upstream>) [<branchname>] | --unset-upstream [<branchname>]
//
// List, create, rename, copy and delete branches.

import type { Ctx } from '../core/ctx.js';
import { isAncestor } from '../core/graph.js';
import { subjectOf } from '../core/message.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { detachedLine, hasReflog, logRefUpdate, reflogPath } from '../core/reflog.js';
import { branches, deleteRef, readHead, remoteBranches, remotes, resolveRef, validRefName, writeRef, writeSymref } from '../core/refs.js';
import { commitOrDie } from '../core/revargs.js';
import { tracking } from '../core/tracking.js';
import { wildmatch } from '../core/wildmatch.js';
import { checkedOutElsewhere } from '../core/worktrees.js';

const USAGE = `usage: git branch [<options>] [-r | -a] [--merged] [--no-merged]
   or: git branch [<options>] [-f] [--recurse-submodules] <branch-name> [<start-point>]
   or: git branch [<options>] [-l] [<pattern>...]
   or: git branch [<options>] [-r] (-d | -D) <branch-name>...
   or: git branch [<options>] (-m | -M) [<old-branch>] <new-branch>
   or: git branch [<options>] (-c | -C) [<old-branch>] <new-branch>
   or: git branch [<options>] [-r | -a] [--points-at]
   or: git branch [<options>] [-r | -a] [--format]
`;

export async function branch(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      'a|all': 'bool', 'r|remotes': 'bool', 'v|verbose': 'count', 'd|delete': 'bool', D: 'bool', 'm|move': 'bool', M: 'bool', 'c|copy': 'bool', C: 'bool',
      'f|force': 'bool', 'l|list': 'bool', '|show-current': 'bool', '|contains': 'str', '|no-contains': 'str', '|merged': 'opt', '|no-merged': 'opt',
      't|track': 'opt', '|no-track': 'bool', 'u|set-upstream-to': 'str', '|unset-upstream': 'bool', 'q|quiet': 'bool', '|format': 'str', '|sort': 'str',
      '|color': 'opt', '|no-color': 'bool', '|column': 'opt', '|points-at': 'str', 'i|ignore-case': 'bool', '|abbrev': 'str', '|no-abbrev': 'bool',
    },
    USAGE,
  );
  const repo = ctx.repo();
  const store = new Store(ctx);
  const head = await readHead(ctx);
  const current = head.ref?.startsWith('refs/heads/') ? head.ref.slice(11) : null;

  if (o.has('show-current')) {
    if (current) ctx.print(`${current}\n`);
    return 0;
  }
  if (o.has('delete') || o.has('D')) {
    const force = o.has('D') || o.has('force');
    if (!o.operands.length) ctx.fatal('branch name required');
    let status = 0;
    for (const name of o.operands) {
      const ref = o.has('remotes') ? `refs/remotes/${name}` : `refs/heads/${name}`;
      const oid = await resolveRef(ctx, ref);
      if (!oid) {
        ctx.error(`${o.has('remotes') ? 'remote-tracking ' : ''}branch '${name}' not found.`);
        status = 1;
        continue;
      }
      const elsewhere = o.has('remotes') ? null : checkedOutElsewhere(ctx, ref);
      if (!o.has('remotes') && (name === current || elsewhere)) {
        ctx.error(`Cannot delete branch '${name}' checked out at '${elsewhere?.path ?? repo.dir ?? repo.gitdir}'`);
        status = 1;
        continue;
      }
      if (!force && !o.has('remotes')) {
        const up = await tracking(ctx, store, name, oid);
        const upOid = up ? await resolveRef(ctx, ctx.config(`branch.${name}.remote`) === '.' ? ctx.config(`branch.${name}.merge`)! : `refs/remotes/${up.name}`) : null;
        const into = upOid ?? head.oid;
        if (!into || !(await isAncestor(store, oid, into))) {
          ctx.error(`The branch '${name}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D ${name}'.`);
          status = 1;
          continue;
        }
      }
      await deleteRef(ctx, ref);
      if (hasReflog(ctx, ref)) ctx.sys.unlink(reflogPath(ctx, ref));
      if (!o.has('remotes')) ctx.editConfig('local', (f) => f.removeSection(`branch.${name}`));
      if (!o.has('quiet')) ctx.print(`Deleted ${o.has('remotes') ? 'remote-tracking ' : ''}branch ${name} (was ${oid.slice(0, 7)}).\n`);
    }
    return status;
  }
  if (o.has('move') || o.has('M') || o.has('copy') || o.has('C')) {
    const copy = o.has('copy') || o.has('C');
    const force = o.has('M') || o.has('C') || o.has('force');
    if (o.operands.length === 0 || o.operands.length > 2) ctx.fatal('branch name required');
    const [from, to] = o.operands.length === 1 ? [current, o.operands[0]] : o.operands;
    if (!from) ctx.fatal('cannot rename the current branch while not on any.');
    const oid = await resolveRef(ctx, `refs/heads/${from}`);
    if (!oid) {
      if (from === current && !head.oid) {
        // renaming an unborn branch only moves HEAD
        await writeSymref(ctx, 'HEAD', `refs/heads/${to}`);
        return 0;
      }
      ctx.fatal(`No branch named '${from}'.`);
    }
    if (!validRefName(to!)) ctx.fatal(`'${to}' is not a valid branch name`);
    if ((await resolveRef(ctx, `refs/heads/${to}`)) && !force && to !== from) ctx.fatal(`a branch named '${to}' already exists`);
    await writeRef(ctx, `refs/heads/${to}`, oid);
    if (!copy && to !== from) {
      await deleteRef(ctx, `refs/heads/${from}`);
      if (from === current) await writeSymref(ctx, 'HEAD', `refs/heads/${to}`);
      ctx.editConfig('local', (f) => f.renameSection(`branch.${from}`, `branch.${to}`));
    }
    logRefUpdate(ctx, [`refs/heads/${to}`], oid, oid, `Branch: ${copy ? 'copied' : 'renamed'} refs/heads/${from} to refs/heads/${to}`);
    return 0;
  }
  if (o.given('set-upstream-to') || o.has('unset-upstream')) {
    const name = o.operands[0] ?? current;
    if (!name) ctx.fatal('could not set upstream of HEAD to when it does not point to any branch.');
    if (o.has('unset-upstream')) {
      ctx.editConfig('local', (f) => {
        f.unset(`branch.${name}.remote`);
        f.unset(`branch.${name}.merge`);
      });
      return 0;
    }
    const up = o.get('set-upstream-to')!;
    const remote = (await remotes(ctx)).find((r) => up.startsWith(`${r.remote}/`));
    if (remote && (await resolveRef(ctx, `refs/remotes/${up}`))) {
      ctx.editConfig('local', (f) => {
        f.set(`branch.${name}.remote`, remote.remote);
        f.set(`branch.${name}.merge`, `refs/heads/${up.slice(remote.remote.length + 1)}`);
      });
      ctx.print(`branch '${name}' set up to track '${up}'.\n`);
      return 0;
    }
    if (await resolveRef(ctx, `refs/heads/${up}`)) {
      ctx.editConfig('local', (f) => {
        f.set(`branch.${name}.remote`, '.');
        f.set(`branch.${name}.merge`, `refs/heads/${up}`);
      });
      ctx.print(`branch '${name}' set up to track local branch '${up}'.\n`);
      return 0;
    }
    ctx.fatal(`the requested upstream branch '${up}' does not exist`);
  }
  const listing = o.operands.length === 0 || ['list', 'all', 'remotes'].some((k) => o.has(k)) || ['contains', 'merged', 'no-merged', 'points-at'].some((k) => o.given(k));
  if (!listing) {
    // create
    const [name, start = 'HEAD'] = o.operands;
    if (o.operands.length > 2) ctx.fatal('too many arguments');
    if (!validRefName(name)) ctx.fatal(`'${name}' is not a valid branch name`);
    const exists = await resolveRef(ctx, `refs/heads/${name}`);
    if (exists && !o.has('force')) ctx.fatal(`a branch named '${name}' already exists`);
    if (exists && name === current) ctx.fatal(`cannot force update the branch '${name}' checked out at '${repo.dir ?? repo.gitdir}'`);
    const oid = await commitOrDie(ctx, store, start);
    if (!oid) ctx.fatal(`not a valid object name: '${start}'`);
    await writeRef(ctx, `refs/heads/${name}`, oid);
    logRefUpdate(ctx, [`refs/heads/${name}`], exists, oid, `branch: Created from ${start}`);
    const rem = (await remotes(ctx)).find((r) => start.startsWith(`${r.remote}/`));
    if (rem && !o.has('no-track') && (await resolveRef(ctx, `refs/remotes/${start}`))) {
      ctx.editConfig('local', (f) => {
        f.set(`branch.${name}.remote`, rem.remote);
        f.set(`branch.${name}.merge`, `refs/heads/${start.slice(rem.remote.length + 1)}`);
      });
      if (!o.has('quiet')) ctx.print(`branch '${name}' set up to track '${start}'.\n`);
    }
    return 0;
  }

  // list
  interface Item {
    name: string;
    shown: string;
    oid: string;
    current: boolean;
    symref?: string;
    kind: 'local' | 'remote';
  }
  const items: Item[] = [];
  if (!o.has('remotes')) {
    for (const b of await branches(ctx)) {
      const oid = await resolveRef(ctx, `refs/heads/${b}`);
      if (oid) items.push({ name: b, shown: b, oid, current: b === current, kind: 'local' });
    }
  }
  if (o.has('remotes') || o.has('all')) {
    for (const r of await remotes(ctx)) {
      const names = await remoteBranches(ctx, r.remote);
      for (const b of names) {
        const full = `${r.remote}/${b}`;
        const oid = await resolveRef(ctx, `refs/remotes/${full}`);
        if (!oid) continue;
        const shown = o.has('all') ? `remotes/${full}` : full;
        let symref: string | undefined;
        if (b === 'HEAD') {
          const t = (ctx.readText(`${repo.commondir}/refs/remotes/${full}`) ?? '').trim();
          if (t.startsWith('ref: refs/remotes/')) symref = t.slice(18);
        }
        items.push({ name: full, shown, oid, current: false, symref, kind: 'remote' });
      }
    }
  }
  let list = items;
  const patterns = o.operands;
  if (patterns.length) list = list.filter((i) => patterns.some((p) => wildmatch(p, i.name, false)));
  const contains = o.get('contains');
  if (contains !== undefined) {
    const c = await commitOrDie(ctx, store, contains);
    if (!c) ctx.fatal(`malformed object name ${contains}`);
    const keep: Item[] = [];
    for (const i of list) if (await isAncestor(store, c, i.oid)) keep.push(i);
    list = keep;
  }
  for (const [opt, want] of [['merged', true], ['no-merged', false]] as const) {
    if (!o.given(opt)) continue;
    const base = await commitOrDie(ctx, store, o.get(opt) ?? 'HEAD');
    if (!base) ctx.fatal(`malformed object name ${o.get(opt)}`);
    const keep: Item[] = [];
    for (const i of list) if ((await isAncestor(store, i.oid, base)) === want) keep.push(i);
    list = keep;
  }
  const detached = !current && head.oid && !o.has('remotes') && !patterns.length;
  const rows: { mark: string; name: string; oid: string; extra: string; symref?: string }[] = [];
  if (detached) rows.push({ mark: '*', name: `(${await detachedLine(ctx, store, head.oid)})`, oid: head.oid!, extra: '' });
  for (const i of list) {
    let extra = '';
    if (o.count('verbose') && i.kind === 'local') {
      const t = await tracking(ctx, store, i.name, i.oid);
      if (t) {
        const parts = [];
        if (t.ahead === null) parts.push('gone');
        else {
          if (t.ahead) parts.push(`ahead ${t.ahead}`);
          if (t.behind) parts.push(`behind ${t.behind}`);
        }
        if (o.count('verbose') > 1) extra = `[${t.name}${parts.length ? `: ${parts.join(', ')}` : ''}] `;
        else if (parts.length) extra = `[${parts.join(', ')}] `;
      }
    }
    // '+': checked out in another work tree
    const mark = i.current ? '*' : i.kind === 'local' && checkedOutElsewhere(ctx, `refs/heads/${i.name}`) ? '+' : ' ';
    rows.push({ mark, name: i.shown, oid: i.oid, extra, symref: i.symref });
  }
  const width = Math.max(0, ...rows.filter((r) => !r.symref).map((r) => [...r.name].length));
  for (const r of rows) {
    if (r.symref) {
      ctx.print(`${r.mark} ${r.name} -> ${r.symref}\n`);
      continue;
    }
    if (o.count('verbose')) {
      const subject = subjectOf((await store.commit(r.oid)).message);
      ctx.print(`${r.mark} ${r.name.padEnd(width)} ${r.oid.slice(0, 7)} ${r.extra}${subject}\n`);
    } else ctx.print(`${r.mark} ${r.name}\n`);
  }
  return 0;
}

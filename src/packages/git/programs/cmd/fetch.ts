// git fetch [-q] [--all] [--prune] [--tags] [<repository>]
// git pull [-q] [--ff-only | --no-ff] [<repository> [<branch>]]
//
// Update remote-tracking branches (and merge, for pull). Remotes that are
// paths on this filesystem are read directly; URLs go through the network
// seam (core/transport.ts), which refuses while the VM has no network.

import * as git from 'isomorphic-git';
import type { Ctx } from '../core/ctx.js';
import { GitExit } from '../core/errors.js';
import { isAncestor } from '../core/graph.js';
import { copyObjects, findGitdir, readSource } from '../core/localrepo.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { logRefUpdate } from '../core/reflog.js';
import { deleteRef, readHead, remoteBranches, resolveRef, writeRef, writeSymref } from '../core/refs.js';
import { corsProxy, httpClient, isRemoteUrl } from '../core/transport.js';
import { merge } from './merge.js';

const USAGE = `usage: git fetch [<options>] [<repository> [<refspec>...]]
   or: git fetch [<options>] <group>
   or: git fetch --multiple [<options>] [(<repository> | <group>)...]
   or: git fetch --all [<options>]

    -q, --quiet           be more quiet
    --all                 fetch from all remotes
    -p, --prune           prune remote-tracking branches no longer on remote
    -t, --tags            fetch all tags and associated objects
`;

const PULL_USAGE = `usage: git pull [<options>] [<repository> [<refspec>...]]

    -q, --quiet           be more quiet
    --ff-only             abort if fast-forward is not possible
    --no-ff               create a merge commit even when a fast-forward is possible
`;

/** The remote's URL, or git's complaint when there is no such remote. */
export function remoteUrl(ctx: Ctx, name: string): string {
  const url = ctx.config(`remote.${name}.url`);
  if (url !== undefined) return url;
  if (name.includes('/') || name.startsWith('.')) return name;
  return noRepository(ctx, name);
}

function noRepository(ctx: Ctx, name: string): never {
  ctx.err(`fatal: '${name}' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n`);
  throw new GitExit(128);
}

/** A local repository's git directory, from a URL or path as configured. */
export function localGitdir(ctx: Ctx, url: string): string {
  const path = ctx.abs(url.replace(/^file:\/\//, ''));
  const gd = findGitdir(ctx, path);
  return gd ?? noRepository(ctx, url);
}

/** Fetch one remote; returns whether anything changed. */
async function fetchRemote(ctx: Ctx, store: Store, name: string, opts: { quiet: boolean; prune: boolean }): Promise<void> {
  const url = remoteUrl(ctx, name);
  if (isRemoteUrl(url)) {
    const http = httpClient(ctx, url);
    await git.fetch({ ...ctx.iso(), http, url, remote: name, corsProxy: corsProxy(ctx), prune: opts.prune });
    return;
  }
  const src = await readSource(ctx, localGitdir(ctx, url));
  copyObjects(ctx, src.gitdir, ctx.repo().commondir);
  const lines: string[] = [];
  const width = Math.max(10, ...[...src.branches.keys(), ...src.tags.keys()].map((b) => b.length));
  const line = (code: string, summary: string, from: string, to: string, note = '') => lines.push(` ${code} ${summary.padEnd(17)} ${from.padEnd(width)} -> ${to}${note}`);
  for (const [b, oid] of [...src.branches].sort()) {
    const ref = `refs/remotes/${name}/${b}`;
    const old = await resolveRef(ctx, ref);
    if (old === oid) continue;
    await writeRef(ctx, ref, oid);
    if (!old) line('*', '[new branch]', b, `${name}/${b}`);
    else if (await isAncestor(store, old, oid)) line(' ', `${old.slice(0, 7)}..${oid.slice(0, 7)}`, b, `${name}/${b}`);
    else line('+', `${old.slice(0, 7)}...${oid.slice(0, 7)}`, b, `${name}/${b}`, '  (forced update)');
    logRefUpdate(ctx, [ref], old, oid, old ? 'fetch: fast-forward' : 'storing head');
  }
  if (src.headBranch && !(await resolveRef(ctx, `refs/remotes/${name}/HEAD`))) await writeSymref(ctx, `refs/remotes/${name}/HEAD`, `refs/remotes/${name}/${src.headBranch}`);
  for (const [t, oid] of [...src.tags].sort()) {
    if (await resolveRef(ctx, `refs/tags/${t}`)) continue;
    await writeRef(ctx, `refs/tags/${t}`, oid);
    line('*', '[new tag]', t, t);
  }
  if (opts.prune) {
    for (const b of await remoteBranches(ctx, name)) {
      if (b === 'HEAD' || src.branches.has(b)) continue;
      await deleteRef(ctx, `refs/remotes/${name}/${b}`);
      line('-', '[deleted]', '(none)', `${name}/${b}`);
    }
  }
  if (lines.length && !opts.quiet) ctx.err(`From ${url}\n${lines.join('\n')}\n`);
}

export async function fetch(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { 'q|quiet': 'bool', '|all': 'bool', 'p|prune': 'bool', 't|tags': 'bool', 'v|verbose': 'bool', '|depth': 'str', 'f|force': 'bool', '|progress': 'bool', '|no-tags': 'bool' }, USAGE);
  ctx.repo();
  const store = new Store(ctx);
  const head = await readHead(ctx);
  const names = o.has('all') ? ctx.layers().flatMap((l) => l.file.entries).filter((e) => /^remote\..*\.url$/.test(e.key)).map((e) => e.key.slice(7, -4)) : [o.operands[0] ?? (head.ref ? ctx.config(`branch.${head.ref.slice(11)}.remote`) : undefined) ?? 'origin'];
  for (const n of [...new Set(names)]) await fetchRemote(ctx, store, n, { quiet: o.has('quiet'), prune: o.has('prune') });
  return 0;
}

export async function pull(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { 'q|quiet': 'bool', '|ff-only': 'bool', '|no-ff': 'bool', '|ff': 'bool', 'r|rebase': 'opt', '|no-rebase': 'bool', 'v|verbose': 'bool', '|no-edit': 'bool', '|edit': 'bool', '|progress': 'bool' }, PULL_USAGE);
  ctx.worktree();
  if (o.given('rebase') && o.has('rebase') && o.get('rebase') !== 'false') ctx.fatal('pull --rebase is not supported by agentOS git');
  const head = await readHead(ctx);
  const branch = head.ref?.slice(11);
  const remote = o.operands[0] ?? (branch ? ctx.config(`branch.${branch}.remote`) : undefined);
  const mergeRef = o.operands[1] ? `refs/heads/${o.operands[1]}` : branch ? ctx.config(`branch.${branch}.merge`) : undefined;
  if (!remote || !mergeRef) {
    ctx.err('There is no tracking information for the current branch.\nPlease specify which branch you want to merge with.\nSee git-pull(1) for details.\n\n    git pull <remote> <branch>\n\n');
    if (branch) ctx.err(`If you wish to set tracking information for this branch you can do so with:\n\n    git branch --set-upstream-to=<remote>/<branch> ${branch}\n\n`);
    return 1;
  }
  const store = new Store(ctx);
  await fetchRemote(ctx, store, remote, { quiet: o.has('quiet'), prune: false });
  const target = remote === '.' ? mergeRef.slice(11) : `${remote}/${mergeRef.replace(/^refs\/heads\//, '')}`;
  const margs = [...(o.has('quiet') ? ['-q'] : []), ...(o.has('ff-only') ? ['--ff-only'] : []), ...(o.has('no-ff') ? ['--no-ff'] : []), '--no-edit', target];
  return merge(ctx, margs);
}

// git push [-u | --set-upstream] [-f | --force] [-q] [--tags] [<repository> [<refspec>...]]
//
// Update a remote's branches with local commits: repositories on this
// filesystem are written directly (refusing non-fast-forward updates and
// the checked-out branch of a non-bare repository, as git's receive-pack
// does); URLs go through the network seam, which refuses for now.

import * as git from 'isomorphic-git';
import type { Ctx } from '../core/ctx.js';
import { GitExit } from '../core/errors.js';
import { isAncestor } from '../core/graph.js';
import { copyObjects } from '../core/localrepo.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { readHead, resolveRef, tags } from '../core/refs.js';
import { corsProxy, httpClient, isRemoteUrl } from '../core/transport.js';
import { localGitdir, remoteUrl } from './fetch.js';

const USAGE = `usage: git push [<options>] [<repository> [<refspec>...]]

    -q, --quiet           be more quiet
    -f, --force           force updates
    -u, --set-upstream    set upstream for git pull/status
    --tags                push tags (can't be used with --all or --mirror)
`;

export async function push(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { 'q|quiet': 'bool', 'f|force': 'bool', 'u|set-upstream': 'bool', '|tags': 'bool', '|all': 'bool', 'v|verbose': 'bool', '|progress': 'bool', 'd|delete': 'bool', '|follow-tags': 'bool' }, USAGE);
  ctx.repo();
  const store = new Store(ctx);
  const head = await readHead(ctx);
  const current = head.ref?.slice(11) ?? null;
  const remote = o.operands[0] ?? (current ? ctx.config(`branch.${current}.remote`) : undefined) ?? 'origin';
  const url = remoteUrl(ctx, remote);
  // refspecs: src[:dst]; default the current branch to its upstream (or same name)
  let specs = o.operands.slice(1);
  if (!specs.length) {
    if (!current) ctx.fatal('You are not currently on a branch.');
    const up = ctx.config(`branch.${current}.merge`)?.replace(/^refs\/heads\//, '');
    if (up === undefined && !o.has('set-upstream') && !ctx.configBool('push.autoSetupRemote', false)) {
      ctx.fatal(
        `The current branch ${current} has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream ${remote} ${current}\n\n` +
          "To have this happen automatically for branches without a tracking\nupstream, see 'push.autoSetupRemote' in 'git help config'.\n",
      );
    }
    specs = [`${current}:${up ?? current}`];
  }
  if (isRemoteUrl(url)) {
    const http = httpClient(ctx, url);
    for (const s of specs) await git.push({ ...ctx.iso(), http, url, ref: s.split(':')[0], remoteRef: s.split(':')[1], force: o.has('force'), corsProxy: corsProxy(ctx) });
    return 0;
  }
  const dst = localGitdir(ctx, url);
  const target = { fs: ctx.fs, gitdir: dst };
  const dstBare = (ctx.readText(`${dst}/config`) ?? '').match(/bare\s*=\s*true/) !== null;
  const dstHead = (ctx.readText(`${dst}/HEAD`) ?? '').trim().replace(/^ref: /, '');
  const lines: string[] = [];
  let failed = false;
  copyObjects(ctx, ctx.repo().commondir, dst);
  const refs: [string, string | null, string][] = [];
  for (const s of specs) {
    const [src, to = src] = s.split(':');
    const oid = o.has('delete') ? null : await resolveRef(ctx, src);
    if (!o.has('delete') && !oid) ctx.fatal(`src refspec ${src} does not match any`);
    const dstRef = to.startsWith('refs/') ? to : (await resolveRef(ctx, `refs/tags/${src}`)) && !(await resolveRef(ctx, `refs/heads/${src}`)) ? `refs/tags/${to}` : `refs/heads/${to}`;
    refs.push([src, oid, dstRef]);
  }
  if (o.has('tags')) for (const t of await tags(ctx)) refs.push([t, await resolveRef(ctx, `refs/tags/${t}`), `refs/tags/${t}`]);
  for (const [src, oid, dstRef] of refs) {
    const short = dstRef.replace(/^refs\/(heads|tags)\//, '');
    let old: string | null = null;
    try {
      old = await git.resolveRef({ ...target, ref: dstRef });
    } catch {
      old = null;
    }
    if (old === oid) continue;
    if (!dstBare && dstRef === dstHead && ctx.config('receive.denyCurrentBranch') !== 'ignore') {
      ctx.err(`remote: error: refusing to update checked out branch: ${dstRef}\n`);
      lines.push(` ! [remote rejected] ${src} -> ${short} (branch is currently checked out)`);
      failed = true;
      continue;
    }
    if (old && oid && !o.has('force') && !(await isAncestor(store, old, oid))) {
      lines.push(` ! [rejected]        ${src} -> ${short} (${dstRef.startsWith('refs/tags/') ? 'already exists' : 'non-fast-forward'})`);
      failed = true;
      continue;
    }
    if (oid) await git.writeRef({ ...target, ref: dstRef, value: oid, force: true });
    else await git.deleteRef({ ...target, ref: dstRef });
    if (!oid) lines.push(` - [deleted]         ${short}`);
    else if (!old) lines.push(` * [new ${dstRef.startsWith('refs/tags/') ? 'tag' : 'branch'}]${dstRef.startsWith('refs/tags/') ? '         ' : '      '}${src} -> ${short}`);
    else if (await isAncestor(store, old, oid)) lines.push(`   ${old.slice(0, 7)}..${oid.slice(0, 7)}  ${src} -> ${short}`);
    else lines.push(` + ${old.slice(0, 7)}...${oid.slice(0, 7)} ${src} -> ${short} (forced update)`);
    // keep our remote-tracking branch in step
    if (dstRef.startsWith('refs/heads/') && ctx.config(`remote.${remote}.url`) !== undefined) {
      const tracking = `refs/remotes/${remote}/${short}`;
      if (oid) await git.writeRef({ ...ctx.iso(), ref: tracking, value: oid, force: true });
    }
    if (o.has('set-upstream') && oid && dstRef.startsWith('refs/heads/') && (await resolveRef(ctx, `refs/heads/${src}`))) {
      ctx.editConfig('local', (f) => {
        f.set(`branch.${src}.remote`, remote);
        f.set(`branch.${src}.merge`, dstRef);
      });
      if (!o.has('quiet')) ctx.print(`branch '${src}' set up to track '${remote}/${short}'.\n`);
    }
  }
  if (!lines.length) {
    if (!o.has('quiet')) ctx.err('Everything up-to-date\n');
    return 0;
  }
  if (!o.has('quiet') || failed) ctx.err(`To ${url}\n${lines.join('\n')}\n`);
  if (failed) {
    ctx.error(`failed to push some refs to '${url}'`);
    if (lines.some((l) => l.endsWith('(non-fast-forward)'))) {
      const behind = refs.some(([src]) => src === current)
        ? ['Updates were rejected because the tip of your current branch is behind', 'its remote counterpart. Integrate the remote changes (e.g.', "'git pull ...') before pushing again."]
        : ['Updates were rejected because a pushed branch tip is behind its remote', 'counterpart. Check out this branch and integrate the remote changes', "(e.g. 'git pull ...') before pushing again."];
      ctx.hint([...behind, "See the 'Note about fast-forwards' in 'git push --help' for details."]);
    }
    throw new GitExit(1);
  }
  return 0;
}

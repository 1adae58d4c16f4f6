// git clone [--bare] [-b <name>] [-n | --no-checkout] [-o <name>] [-q] [--depth <depth>] [--] <repository> [<directory>]
//
// Clone a repository: from a path on this filesystem (objects copied,
// branches as remote-tracking branches, HEAD's branch checked out), or
// from a URL through the network seam (core/transport.ts).

import * as git from 'isomorphic-git';
import { isDir } from '../../../../abi/stat.js';
import { applySwitch } from '../core/checkout.js';
import type { Ctx } from '../core/ctx.js';
import { mkdirs, removeTree } from '../core/fsutil.js';
import { copyObjects, findGitdir, readSource } from '../core/localrepo.js';
import { Store } from '../core/objects.js';
import { parseOptions, UsageFail } from '../core/opts.js';
import { basename, normalize } from '../core/path.js';
import { logRefUpdate } from '../core/reflog.js';
import { writeRef, writeSymref } from '../core/refs.js';
import { corsProxy, httpClient, isRemoteUrl } from '../core/transport.js';
import { initRepo } from './init.js';

const USAGE = `usage: git clone [<options>] [--] <repo> [<dir>]

    -v, --verbose         be more verbose
    -q, --quiet           be more quiet
    -n, --no-checkout     don't create a checkout
    --bare                create a bare repository
    -o, --origin <name>   use <name> instead of 'origin' to track upstream
    -b, --branch <branch>
                          checkout <branch> instead of the remote's HEAD
    --depth <depth>       create a shallow clone of that depth
    --single-branch       clone only one branch, HEAD or --branch
`;

/** The directory a clone goes to when none is given: the last path component, without `.git`. */
function humanish(src: string): string {
  const t = src.replace(/\/+$/, '').replace(/\/\.git$/, '').replace(/\.git$/, '');
  return basename(t.replace(/^.*[:/]/, (m) => (m.endsWith(':') ? '' : m))) || 'repo';
}

export async function clone(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    { 'v|verbose': 'bool', 'q|quiet': 'bool', 'n|no-checkout': 'bool', '|bare': 'bool', 'o|origin': 'str', 'b|branch': 'str', '|depth': 'str', '|single-branch': 'bool', '|no-tags': 'bool', 'l|local': 'bool', '|no-hardlinks': 'bool', '|recurse-submodules': 'bool', '|progress': 'bool', '|shared': 'bool', 'c|config': 'str' },
    USAGE,
  );
  if (o.operands.length < 1 || o.operands.length > 2) {
    if (!o.operands.length) ctx.fatal('You must specify a repository to clone.', 129);
    throw new UsageFail(`fatal: Too many arguments.\n\n${USAGE}`, 129);
  }
  const [src, dstArg] = o.operands;
  const remote = o.get('origin') ?? 'origin';
  const bare = o.has('bare');
  const dir = ctx.abs(dstArg ?? humanish(src) + (bare ? '.git' : ''));
  if (ctx.exists(dir) && (!isDir(ctx.sys.stat(dir).mode) || ctx.sys.readdir(dir).some((e) => e.name !== '.' && e.name !== '..'))) {
    ctx.fatal(`destination path '${dstArg ?? basename(dir)}' already exists and is not an empty directory.`);
  }
  const quiet = o.has('quiet');
  const gitdir = bare ? dir : `${dir}/.git`;

  if (isRemoteUrl(src)) {
    // the network path: the seam decides whether there is a transport at all
    const http = httpClient(ctx, src);
    const existed = ctx.exists(dir);
    mkdirs(ctx, dir);
    initRepo(ctx, gitdir, bare, 'master');
    if (!quiet) ctx.err(`Cloning into '${dstArg ?? basename(dir)}'...\n`);
    try {
      await git.clone({ fs: ctx.fs, http, dir, gitdir, url: src, corsProxy: corsProxy(ctx), ref: o.get('branch'), singleBranch: o.has('single-branch'), noCheckout: o.has('no-checkout') || bare, depth: o.get('depth') ? Number(o.get('depth')) : undefined, remote });
    } catch (e) {
      removeTree(ctx, dir, existed); // git leaves nothing behind a failed clone
      throw e;
    }
    return 0;
  }

  const srcPath = normalize(ctx.abs(src.replace(/^file:\/\//, '')));
  const srcGitdir = findGitdir(ctx, srcPath);
  if (!srcGitdir) ctx.fatal(`repository '${src}' does not exist`);
  if (o.given('depth') && !quiet) ctx.warning('--depth is ignored in local clones; use file:// instead.');
  const source = await readSource(ctx, srcGitdir);
  const want = o.get('branch');
  if (want !== undefined && !source.branches.has(want) && !source.tags.has(want)) ctx.fatal(`Remote branch ${want} not found in upstream ${remote}`);
  const branch = want ?? source.headBranch ?? 'master';

  if (!quiet) ctx.err(`Cloning into ${bare ? 'bare repository ' : ''}'${dstArg ?? basename(dir)}'...\n`);
  mkdirs(ctx, dir);
  initRepo(ctx, gitdir, bare, branch);
  ctx.env.GIT_DIR = gitdir;
  if (!bare) ctx.env.GIT_WORK_TREE = dir;
  else delete ctx.env.GIT_WORK_TREE;
  ctx.resetRepo();
  copyObjects(ctx, srcGitdir, gitdir);
  const url = srcPath.replace(/\/\.git$/, '');
  if (bare) {
    for (const [b, oid] of source.branches) await writeRef(ctx, `refs/heads/${b}`, oid);
    ctx.editConfig('local', (f) => f.set(`remote.${remote}.url`, url));
  } else {
    const branches = o.has('single-branch') ? new Map([...source.branches].filter(([b]) => b === branch)) : source.branches;
    for (const [b, oid] of branches) await writeRef(ctx, `refs/remotes/${remote}/${b}`, oid);
    if (source.headBranch && branches.has(source.headBranch)) await writeSymref(ctx, `refs/remotes/${remote}/HEAD`, `refs/remotes/${remote}/${source.headBranch}`);
    ctx.editConfig('local', (f) => {
      f.set(`remote.${remote}.url`, url);
      f.set(`remote.${remote}.fetch`, o.has('single-branch') ? `+refs/heads/${branch}:refs/remotes/${remote}/${branch}` : `+refs/heads/*:refs/remotes/${remote}/*`);
    });
  }
  if (!o.has('no-tags')) for (const [t, oid] of source.tags) await writeRef(ctx, `refs/tags/${t}`, oid);
  const tip = source.branches.get(branch) ?? (want ? source.tags.get(want) : null) ?? null;
  if (!tip) {
    if (!quiet) {
      ctx.warning('You appear to have cloned an empty repository.');
      ctx.err('done.\n');
    }
    return 0;
  }
  const store = new Store(ctx);
  const commitOid = await store.peelToCommit(tip);
  if (source.branches.has(branch)) {
    if (!bare) {
      await writeRef(ctx, `refs/heads/${branch}`, commitOid!);
      ctx.editConfig('local', (f) => {
        f.set(`branch.${branch}.remote`, remote);
        f.set(`branch.${branch}.merge`, `refs/heads/${branch}`);
      });
    }
    await writeSymref(ctx, 'HEAD', `refs/heads/${branch}`);
    logRefUpdate(ctx, bare ? [] : [`refs/heads/${branch}`, 'HEAD'], null, commitOid, `clone: from ${url}`);
  } else await writeRef(ctx, 'HEAD', commitOid!);
  if (!bare && !o.has('no-checkout')) {
    const idx = ctx.readIndex();
    await applySwitch(ctx, store, dir, idx, new Map(), await store.commitTree(commitOid));
    await ctx.writeIndex(idx);
  }
  if (!quiet) ctx.err('done.\n');
  return 0;
}

// Another repository on this filesystem, as a clone or fetch source: find
// its git directory, list its refs and copy its objects over.

import * as git from 'isomorphic-git';
import { SysError } from '../../../../abi/errno.js';
import { isDir } from '../../../../abi/stat.js';
import type { Ctx } from './ctx.js';
import { mkdirs } from './fsutil.js';

export interface SourceRepo {
  gitdir: string;
  /** Branch names → oids. */
  branches: Map<string, string>;
  tags: Map<string, string>;
  /** HEAD's branch (null when detached or unborn) and commit. */
  headBranch: string | null;
  headOid: string | null;
}

/** The git directory of a repository path (a work tree or a bare repository); null when it is none. */
export function findGitdir(ctx: Ctx, path: string): string | null {
  const looks = (d: string) => ctx.exists(`${d}/HEAD`) && ctx.exists(`${d}/objects`) && ctx.exists(`${d}/refs`);
  if (looks(`${path}/.git`)) return `${path}/.git`;
  if (looks(path)) return path;
  if (looks(`${path}.git`)) return `${path}.git`;
  return null;
}

export async function readSource(ctx: Ctx, gitdir: string): Promise<SourceRepo> {
  const args = { fs: ctx.fs, gitdir };
  const branches = new Map<string, string>();
  for (const b of await git.listBranches(args)) branches.set(b, await git.resolveRef({ ...args, ref: `refs/heads/${b}` }));
  const tags = new Map<string, string>();
  for (const t of await git.listTags(args)) tags.set(t, await git.resolveRef({ ...args, ref: `refs/tags/${t}` }));
  const head = (ctx.readText(`${gitdir}/HEAD`) ?? '').trim();
  const headBranch = head.startsWith('ref: refs/heads/') ? head.slice(16) : null;
  let headOid: string | null = null;
  try {
    headOid = await git.resolveRef({ ...args, ref: 'HEAD' });
  } catch {
    headOid = null;
  }
  return { gitdir, branches, tags, headBranch, headOid };
}

/** Copy every object (loose and packed) that `to` lacks; hard links where the filesystem allows. */
export function copyObjects(ctx: Ctx, from: string, to: string): void {
  const walk = (rel: string) => {
    const src = `${from}/objects${rel}`;
    for (const e of ctx.sys.readdir(src)) {
      if (e.name === '.' || e.name === '..') continue;
      const r = `${rel}/${e.name}`;
      const st = ctx.sys.lstat(`${src}/${e.name}`);
      if (isDir(st.mode)) {
        mkdirs(ctx, `${to}/objects${r}`);
        walk(r);
        continue;
      }
      const dst = `${to}/objects${r}`;
      if (ctx.exists(dst)) continue;
      try {
        ctx.sys.link(`${src}/${e.name}`, dst);
      } catch (err) {
        if (!(err instanceof SysError)) throw err;
        ctx.sys.writeFile(dst, ctx.sys.readFile(`${src}/${e.name}`), 0o444);
      }
    }
  };
  walk('');
}

// Revision expressions (gitrevisions(7)): names, abbreviated ids, `rev~n`,
// `rev^n`, `rev^{type}`, `rev:path` and `:path` (the index).

import * as git from 'isomorphic-git';
import type { Ctx } from './ctx.js';
import { EMPTY_TREE, type Store } from './objects.js';
import { previousBranch, readReflog } from './reflog.js';
import { expandRef, readHead, resolveRef } from './refs.js';

export class AmbiguousOid extends Error {}

/** `@{-N}`, `<ref>@{N}` (the reflog) and `<branch>@{upstream}`. */
async function atBrace(ctx: Ctx, name: string): Promise<string | null | undefined> {
  const m = /^(.*?)@\{([^}]*)\}$/.exec(name);
  if (!m) return undefined;
  const [, left, what] = m;
  if (/^-\d+$/.test(what)) {
    if (left !== '') return null;
    const prev = previousBranch(ctx, Number(what.slice(1)));
    return prev === null ? null : ((await resolveRef(ctx, `refs/heads/${prev}`)) ?? (await base(ctx, prev)));
  }
  let ref: string | null;
  if (left === '') ref = (await readHead(ctx)).ref ?? 'HEAD';
  else ref = left === 'HEAD' ? 'HEAD' : await expandRef(ctx, left);
  if (!ref) return null;
  if (/^(u|upstream|push)$/i.test(what)) {
    const branch = ref.replace(/^refs\/heads\//, '');
    const remote = ctx.config(`branch.${branch}.remote`);
    const merge = ctx.config(`branch.${branch}.merge`);
    if (!remote || !merge) return null;
    return resolveRef(ctx, remote === '.' ? merge : `refs/remotes/${remote}/${merge.replace(/^refs\/heads\//, '')}`);
  }
  if (!/^\d+$/.test(what)) return null;
  const log = readReflog(ctx, ref);
  const n = Number(what);
  if (n === 0 && log.length === 0) return resolveRef(ctx, ref);
  if (n < log.length) return log[log.length - 1 - n].new;
  // one past the oldest entry is the value before it, when there was one
  if (n === log.length && log.length && !/^0+$/.test(log[0].old)) return log[0].old;
  if (log.length) ctx.fatal(`log for '${left}' only has ${log.length} entries`);
  return null;
}

async function base(ctx: Ctx, name: string): Promise<string | null> {
  const at = await atBrace(ctx, name);
  if (at !== undefined) return at;
  if (name === '' || name === '@') name = 'HEAD';
  if (name === 'HEAD') return (await readHead(ctx)).oid;
  const byRef = await resolveRef(ctx, name);
  if (byRef) return byRef;
  if (/^[0-9a-f]{4,40}$/i.test(name)) {
    try {
      return await git.expandOid({ ...ctx.iso(), oid: name.toLowerCase() });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'AmbiguousError') throw new AmbiguousOid(name);
      if (code === 'NotFoundError') return null;
      throw e;
    }
  }
  return null;
}

async function peel(store: Store, oid: string, want: string): Promise<string | null> {
  for (let i = 0; i < 32; i++) {
    const o = await store.read(oid);
    if (!o) return null;
    if (want === '' ? o.type !== 'tag' : o.type === want) return oid;
    if (o.type === 'tag') oid = (await store.tag(oid)).object;
    else if (o.type === 'commit' && want === 'tree') oid = (await store.commit(oid)).tree;
    else return null;
  }
  return null;
}

/** The object `rev:path` names inside a tree-ish; null when missing. */
async function inTree(store: Store, treeish: string, path: string): Promise<string | null> {
  let oid = await peel(store, treeish, 'tree');
  if (!oid) return null;
  for (const part of path.split('/').filter(Boolean)) {
    const level = await store.treeLevel(oid);
    const e = level.find((x) => x.name === part);
    if (!e) return null;
    oid = e.oid;
  }
  return oid;
}

/** Resolve a revision to an object id; null when it names nothing. Throws AmbiguousOid. */
export async function resolveRev(ctx: Ctx, store: Store, spec: string): Promise<string | null> {
  const colon = spec.indexOf(':');
  if (colon >= 0 && !/\^\{[^}]*$/.test(spec.slice(0, colon))) {
    const left = spec.slice(0, colon);
    let path = spec.slice(colon + 1);
    if (left === '') {
      // :path or :N:path — the index
      let stage = 0;
      const m = /^([0-3]):(.*)$/.exec(path);
      if (m) {
        stage = Number(m[1]);
        path = m[2];
      }
      path = path.startsWith('./') || path.startsWith('../') ? relToTop(ctx, path) : path;
      const e = ctx.readIndex().entries.find((x) => x.path === path && x.stage === stage);
      return e ? e.oid : null;
    }
    const t = await resolveRev(ctx, store, left);
    if (!t) return null;
    if (path.startsWith('./') || path.startsWith('../')) path = relToTop(ctx, path);
    return path === '' ? peel(store, t, 'tree') : inTree(store, t, path);
  }
  const m = /^(.*?)((?:[~^].*)?)$/.exec(spec)!;
  let oid = await base(ctx, m[1]);
  let ops = m[2];
  while (oid && ops) {
    let mm: RegExpExecArray | null;
    if ((mm = /^\^\{([a-z]*)\}/.exec(ops))) {
      oid = await peel(store, oid, mm[1]);
    } else if ((mm = /^\^(\d*)/.exec(ops))) {
      const n = mm[1] === '' ? 1 : Number(mm[1]);
      const c = await peel(store, oid, 'commit');
      oid = c === null ? null : n === 0 ? c : ((await store.commit(c)).parents[n - 1] ?? null);
    } else if ((mm = /^~(\d*)/.exec(ops))) {
      const n = mm[1] === '' ? 1 : Number(mm[1]);
      oid = await peel(store, oid, 'commit');
      for (let i = 0; i < n && oid; i++) oid = (await store.commit(oid)).parents[0] ?? null;
    } else return null;
    ops = ops.slice(mm[0].length);
  }
  return oid;
}

/** A `./x` or `../x` path in `rev:path`, relative to the current directory, as a top-relative path. */
function relToTop(ctx: Ctx, p: string): string {
  const r = ctx.repo();
  const parts = (r.prefix + p).split('/');
  const out: string[] = [];
  for (const x of parts) {
    if (x === '' || x === '.') continue;
    if (x === '..') out.pop();
    else out.push(x);
  }
  return out.join('/');
}

/** Resolve to a tree (commits and tags peeled; the empty tree is always known); null when it is none. */
export async function resolveTree(ctx: Ctx, store: Store, spec: string): Promise<string | null> {
  if (spec === EMPTY_TREE) return EMPTY_TREE;
  const oid = await resolveRev(ctx, store, spec);
  return oid ? peel(store, oid, 'tree') : null;
}

/** Resolve to a commit (tags peeled); null when the revision is not a commit. */
export async function resolveCommit(ctx: Ctx, store: Store, spec: string): Promise<string | null> {
  const oid = await resolveRev(ctx, store, spec);
  return oid ? store.peelToCommit(oid) : null;
}

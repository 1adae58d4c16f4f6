// git diff [<options>] [<commit>] [--] [<path>...]
// git diff [<options>] --cached [<commit>] [--] [<path>...]
// git diff [<options>] <commit> <commit> | <commit>..<commit> | <commit>...<commit> [--] [<path>...]
// git diff [<options>] --no-index [--] <path> <path>
//
// Changes between the working tree, the index and commits, as a unified
// patch (or --stat, --name-only, ...). --exit-code/--quiet report by status.

import { S_IFDIR } from '../../../../abi/stat.js';
import { compareSnapshots, type FileChange, type Snapshot } from '../core/changes.js';
import type { Ctx } from '../core/ctx.js';
import { mergeBases } from '../core/graph.js';
import { hashBlob, Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { pathspec } from '../core/pathspec.js';
import { readHead } from '../core/refs.js';
import { ambiguous, commitOrDie, parseRevArgs } from '../core/revargs.js';
import { inexactRenames } from '../core/renames.js';
import { AmbiguousOid, resolveTree } from '../core/revs.js';
import { indexSnapshot, worktreeSnapshot } from '../core/state.js';
import { gitMode, Worktree } from '../core/worktree.js';
import { storeLoader, worktreeLoader } from '../diff/engine.js';
import type { Loader } from '../diff/format.js';
import { DIFF_SPEC, diffOptions, printDiff } from '../diff/options.js';

const USAGE = `usage: git diff [<options>] [<commit>] [--] [<path>...]
   or: git diff [<options>] --cached [--merge-base] [<commit>] [--] [<path>...]
   or: git diff [<options>] [--merge-base] <commit> [<commit>...] <commit> [--] [<path>...]
   or: git diff [<options>] <commit>...<commit> [--] [<path>...]
   or: git diff [<options>] <blob> <blob>
   or: git diff [<options>] --no-index [--] <path> <path>
`;

export async function diff(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { ...DIFF_SPEC, '|cached': 'bool', '|staged': 'bool', '|no-index': 'bool', '|merge-base': 'bool' }, USAGE);
  const d = diffOptions(ctx, o, true);
  if (o.has('no-index') || !ctx.findRepo()) return noIndex(ctx, o.operands.filter((x) => x !== '--'), d);
  const repo = ctx.repo();
  const store = new Store(ctx);
  const cached = o.has('cached') || o.has('staged');
  const tree = async (rev: string, arg = rev): Promise<Snapshot> => {
    let oid: string | null;
    try {
      oid = await resolveTree(ctx, store, rev);
    } catch (e) {
      if (e instanceof AmbiguousOid) ctx.fatal(`ambiguous argument '${arg}': short object ID is ambiguous`);
      throw e;
    }
    if (!oid) ambiguous(ctx, arg);
    return store.flatTree(oid);
  };
  // split operands: revisions first (A..B and A...B count as two), then paths
  const before = o.beforeDashdash;
  const revs: string[] = [];
  let rest = before;
  for (let i = 0; i < before.length; i++) {
    const a = before[i];
    if (/\.\.\.?/.test(a) || (await resolveTree(ctx, store, a).catch(() => null))) revs.push(a);
    else {
      rest = before.slice(i);
      break;
    }
    rest = before.slice(i + 1);
  }
  const ra = await parseRevArgs(ctx, store, rest, o.afterDashdash, o.dashdash >= 0 && rest.length > 0);
  const ps = ra.paths.length ? pathspec(ctx, ra.paths) : null;
  const filter = ps ? (p: string) => ps.match(p) : undefined;

  let a: Snapshot;
  let b: Snapshot;
  let wt: Worktree | null = null;
  if (revs.length === 0 || (revs.length === 1 && !revs[0].includes('..'))) {
    const index = ctx.readIndex();
    if (cached) {
      a = revs.length ? await tree(revs[0]) : await store.commitTree((await readHead(ctx)).oid);
      b = indexSnapshot(index);
    } else {
      if (!repo.dir) ctx.fatal('this operation must be run in a work tree');
      wt = new Worktree(ctx, repo.dir, index).trackedOnly();
      const paths = [...index.byPath.keys()].filter((p) => !filter || filter(p));
      a = revs.length ? await tree(revs[0]) : indexSnapshot(index);
      b = await worktreeSnapshot(wt, paths);
      if (!revs.length) for (const p of [...index.unmerged.keys()].sort()) if (!filter || filter(p)) ctx.print(`* Unmerged path ${p}\n`);
    }
  } else {
    const m = revs.length === 1 ? /^(.*?)(\.\.\.?)(.*)$/.exec(revs[0]) : null;
    if (m && m[2] === '...') {
      const left = await commitOrDie(ctx, store, m[1] || 'HEAD', revs[0]);
      const right = await commitOrDie(ctx, store, m[3] || 'HEAD', revs[0]);
      if (!left || !right) ambiguous(ctx, revs[0]);
      a = await store.commitTree((await mergeBases(store, left, right))[0] ?? null);
      b = await store.commitTree(right);
    } else if (m) {
      a = await tree(m[1] || 'HEAD', revs[0]);
      b = await tree(m[3] || 'HEAD', revs[0]);
    } else {
      a = await tree(revs[0]);
      b = await tree(revs[revs.length - 1]);
    }
  }
  // -R: the sides (and their prefixes) swap
  if (d.reverse) {
    [a, b] = [b, a];
    [d.fmt.srcPrefix, d.fmt.dstPrefix] = [d.fmt.dstPrefix, d.fmt.srcPrefix];
  }
  const load: Loader = wt ? worktreeLoader(store, wt, d.reverse ? 'old' : 'new') : storeLoader(store);
  let changes = compareSnapshots(a, b, { renames: d.renames, filter });
  if (d.renames) changes = await inexactRenames(changes, load);
  await printDiff(ctx, changes, load, d);
  return d.exitCode && changes.length ? 1 : 0;
}

/** Two files (or directories) outside any repository, compared as git would. */
async function noIndex(ctx: Ctx, paths: string[], d: ReturnType<typeof diffOptions>): Promise<number> {
  if (paths.length !== 2) ctx.fatal('usage: git diff --no-index [<options>] <path> <path>', 129);
  const files = new Map<string, Uint8Array>();
  const side = async (p: string): Promise<Snapshot> => {
    const m: Snapshot = new Map();
    const abs = ctx.abs(p);
    const add = async (rel: string, full: string) => {
      const st = ctx.sys.lstat(full);
      if ((st.mode & 0o170000) === S_IFDIR) {
        for (const e of ctx.sys.readdir(full)) if (e.name !== '.' && e.name !== '..') await add(rel ? `${rel}/${e.name}` : e.name, `${full}/${e.name}`);
        return;
      }
      const mode = gitMode(st) ?? 0o100644;
      const data = mode === 0o120000 ? new TextEncoder().encode(ctx.sys.readlink(full)) : ctx.sys.readFile(full);
      const oid = await hashBlob(data);
      files.set(oid, data);
      m.set(rel, { mode, oid });
    };
    if (p !== '/dev/null') {
      if (!ctx.exists(abs)) ctx.fatal(`Could not access '${p}'`);
      await add('', abs);
    }
    return m;
  };
  const [a, b] = [await side(paths[0]), await side(paths[1])];
  // single files compare under their own names
  let changes: FileChange[];
  if (a.size <= 1 && b.size <= 1 && (a.has('') || b.has(''))) {
    const x = a.get('') ?? null;
    const y = b.get('') ?? null;
    changes = x && y && x.oid === y.oid && x.mode === y.mode ? [] : [{ status: !x ? 'A' : !y ? 'D' : 'M', oldPath: paths[0].replace(/^\//, ''), newPath: paths[1].replace(/^\//, ''), old: x, new: y }];
  } else changes = compareSnapshots(a, b, { renames: false }).map((c) => ({ ...c, oldPath: `${paths[0]}/${c.oldPath}`.replace(/^\//, ''), newPath: `${paths[1]}/${c.newPath}`.replace(/^\//, '') }));
  const load: Loader = async (c, s) => files.get((s === 'old' ? c.old : c.new)!.oid)!;
  await printDiff(ctx, changes, load, d);
  return changes.length ? 1 : 0;
}

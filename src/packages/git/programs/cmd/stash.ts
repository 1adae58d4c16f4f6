// git stash [push [-k] [-u | -a] [-q] [-m <message>] [--] [<pathspec>...]]
// git stash (list | show [-p] [-u] | drop [-q] | pop [--index] [-q] | apply [--index] [-q]) [<stash>]
// git stash (branch <branch> [<stash>] | clear | create [<message>] | store [-m <message>] <commit>)
//
// Set local changes aside as commits git itself reads (refs/stash and its
// reflog: WIP commit with parents HEAD, the index commit and, with -u, the
// untracked files' commit), and bring them back by a three-way merge.

import type { Ctx } from '../core/ctx.js';
import { abbrevUnique } from '../core/abbrev.js';
import { applyHard, deleteWorkFile, setEntry, writeWorkFile } from '../core/checkout.js';
import { compareSnapshots } from '../core/changes.js';
import { GitExit } from '../core/errors.js';
import { whoIs } from '../core/ident.js';
import { makeEntry, reindex } from '../core/index-file.js';
import { checkoutMerge, mergeTrees, MergeUnsupported, reportOverwrite } from '../core/merge-ort.js';
import { subjectOf } from '../core/message.js';
import { commitText, Store, type FlatTree, type TreeItem } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { pathspec, type Pathspec } from '../core/pathspec.js';
import { hasReflog, logRefUpdate, readReflog, writeReflog } from '../core/reflog.js';
import { deleteRef, readHead, resolveRef, writeRef } from '../core/refs.js';
import { AmbiguousOid, resolveRev } from '../core/revs.js';
import { indexSnapshot } from '../core/state.js';
import { writeTree } from '../core/trees.js';
import { Worktree } from '../core/worktree.js';
import { storeLoader } from '../diff/engine.js';
import { DIFF_SPEC, diffOptions, printDiff } from '../diff/options.js';
import { inexactRenames } from '../core/renames.js';
import { LOG_SPEC } from './log.js';
import { showReflog } from './reflog.js';
import { status as statusCmd } from './status.js';
import { switchTo } from './checkout.js';
import { clean as cleanCmd } from './clean.js';

const USAGE = `usage: git stash list [<log-options>]
   or: git stash show [-u | --include-untracked | --only-untracked] [<diff-options>] [<stash>]
   or: git stash drop [-q | --quiet] [<stash>]
   or: git stash pop [--index] [-q | --quiet] [<stash>]
   or: git stash apply [--index] [-q | --quiet] [<stash>]
   or: git stash branch <branchname> [<stash>]
   or: git stash [push [-p | --patch] [-S | --staged] [-k | --[no-]keep-index] [-q | --quiet]
          [-u | --include-untracked] [-a | --all] [(-m | --message) <message>]
          [--pathspec-from-file=<file> [--pathspec-file-nul]]
          [--] [<pathspec>...]]
   or: git stash save [-p | --patch] [-S | --staged] [-k | --[no-]keep-index] [-q | --quiet]
          [-u | --include-untracked] [-a | --all] [<message>]
   or: git stash clear
   or: git stash create [<message>]
   or: git stash store [(-m | --message) <message>] [-q | --quiet] <commit>

`;

const REF = 'refs/stash';

interface StashInfo {
  /** As named for messages: `refs/stash@{0}`, `stash@{1}`, or what was given. */
  revision: string;
  w: string;
  b: string;
  wTree: string;
  bTree: string;
  iTree: string;
  uTree: string | null;
  /** Does the revision name an entry of refs/stash (droppable)? */
  isStashRef: boolean;
}

async function stashInfo(ctx: Ctx, store: Store, args: string[]): Promise<StashInfo> {
  if (args.length > 1) {
    ctx.err(`Too many revisions specified:${args.map((a) => ` '${a}'`).join('')}\n`);
    throw new GitExit(1);
  }
  let revision: string;
  if (!args.length) {
    if (!(await resolveRef(ctx, REF))) {
      ctx.err('No stash entries found.\n');
      throw new GitExit(1);
    }
    revision = `${REF}@{0}`;
  } else if (/^\d+$/.test(args[0])) revision = `${REF}@{${args[0]}}`;
  else revision = args[0];
  let w: string | null = null;
  try {
    w = await resolveRev(ctx, store, revision);
  } catch (e) {
    if (!(e instanceof AmbiguousOid)) throw e;
  }
  if (!w) {
    ctx.error(`${revision} is not a valid reference`);
    throw new GitExit(1);
  }
  const obj = await store.read(w);
  const c = obj?.type === 'commit' ? await store.commit(w) : null;
  if (!c || c.parents.length < 2) ctx.fatal(`'${revision}' is not a stash-like commit`);
  const b = c.parents[0];
  const i = await store.commit(c.parents[1]);
  const u = c.parents[2] ? await store.commit(c.parents[2]) : null;
  const symbolic = revision.split('@')[0];
  const isStashRef = symbolic === REF || symbolic === 'stash';
  return { revision, w, b, wTree: c.tree, bTree: (await store.commit(b)).tree, iTree: i.tree, uTree: u?.tree ?? null, isStashRef };
}

/** `<branch>: <abbrev> <subject>` (what stash messages are built from). */
async function headLine(ctx: Ctx, store: Store): Promise<{ branch: string; line: string; head: string }> {
  const head = await readHead(ctx);
  const branch = head.ref ? head.ref.replace(/^refs\/heads\//, '') : '(no branch)';
  const c = await store.commit(head.oid!);
  return { branch, head: head.oid!, line: `${branch}: ${await abbrevUnique(ctx, head.oid!, 7)} ${subjectOf(c.message)}` };
}

/** The stash commits for the current changes (do_create_stash); null when there are none. */
async function createStash(ctx: Ctx, store: Store, message: string | null, untracked: 0 | 1 | 2, ps: Pathspec | null): Promise<{ w: string; message: string; untrackedPaths: string[] } | null> {
  const top = ctx.worktree().dir;
  const head = await readHead(ctx);
  if (!head.oid) {
    ctx.err('You do not have the initial commit yet\n');
    throw new GitExit(1);
  }
  const idx = ctx.readIndex();
  const wt = new Worktree(ctx, top, idx).scan({ untracked: untracked ? 'all' : 'no', ignored: untracked === 2 });
  const want = (p: string) => !ps || ps.match(p);
  const headTree = await store.commitTree(head.oid);
  const iFlat = indexSnapshot(idx);
  // what the work tree holds of the tracked paths (diff-index against HEAD)
  const work = new Map<string, TreeItem | null>();
  for (const p of new Set([...headTree.keys(), ...idx.byPath.keys(), ...idx.unmerged.keys()])) {
    if (!want(p)) continue;
    const f = idx.byPath.has(p) ? wt.files.get(p) : undefined;
    work.set(p, f ? { mode: wt.modeOf(f), oid: await wt.oidOf(f) } : null);
  }
  const same = (a: TreeItem | null | undefined, b: TreeItem | null | undefined) => (!a && !b) || (!!a && !!b && a.oid === b.oid && a.mode === b.mode);
  const untrackedPaths = untracked ? [...wt.untracked, ...(untracked === 2 ? wt.ignoredPaths : [])].filter(want).sort() : [];
  const changed = [...work].some(([p, w]) => !same(w, headTree.get(p)) || !same(iFlat.get(p), headTree.get(p)));
  if (!changed && !untrackedPaths.length) return null;
  const { line } = await headLine(ctx, store);
  const who = { author: whoIs(ctx, 'author'), committer: whoIs(ctx, 'committer') };
  const iTree = await writeTree(store, iFlat);
  const iCommit = await store.write('commit', commitText({ tree: iTree, parents: [head.oid], ...who, message: `index on ${line}\n` }));
  let uCommit: string | null = null;
  if (untrackedPaths.length) {
    const uFlat: FlatTree = new Map();
    for (const p of untrackedPaths) {
      const st = ctx.sys.lstat(`${top}/${p}`);
      const mode = (st.mode & 0o170000) === 0o120000 ? 0o120000 : st.mode & 0o100 ? 0o100755 : 0o100644;
      const data = mode === 0o120000 ? new TextEncoder().encode(ctx.sys.readlink(`${top}/${p}`)) : ctx.sys.readFile(`${top}/${p}`);
      uFlat.set(p, { mode, oid: await store.write('blob', data) });
    }
    uCommit = await store.write('commit', commitText({ tree: await writeTree(store, uFlat), parents: [], ...who, message: `untracked files on ${line}\n` }));
  }
  // the work tree's state: the index, with the tracked files that differ from HEAD as they are on disk
  const wFlat: FlatTree = new Map(iFlat);
  for (const [p, w] of work) {
    if (same(w, headTree.get(p))) continue;
    if (w) {
      const f = wt.files.get(p)!;
      wFlat.set(p, { mode: w.mode, oid: await store.write('blob', wt.content(f)) });
    } else wFlat.delete(p);
  }
  const msg = message === null ? `WIP on ${line}` : `On ${line.split(':')[0]}: ${message}`;
  const w = await store.write('commit', commitText({ tree: await writeTree(store, wFlat), parents: [head.oid, iCommit, ...(uCommit ? [uCommit] : [])], ...who, message: msg }));
  return { w, message: msg, untrackedPaths };
}

async function storeStash(ctx: Ctx, w: string, message: string): Promise<void> {
  const old = await resolveRef(ctx, REF);
  await writeRef(ctx, REF, w);
  logRefUpdate(ctx, [REF], old, w, message, true);
}

async function push(ctx: Ctx, store: Store, args: string[], assumed: boolean, legacySave: boolean): Promise<number> {
  const o = parseOptions(args, { 'k|keep-index': 'bool', 'S|staged': 'bool', 'p|patch': 'bool', 'q|quiet': 'bool', 'u|include-untracked': 'bool', 'a|all': 'bool', 'm|message': 'str', '|pathspec-from-file': 'str', '|pathspec-file-nul': 'bool' }, USAGE);
  const top = ctx.worktree().dir;
  if (o.has('patch') || o.has('staged')) ctx.fatal(`--${o.has('patch') ? 'patch' : 'staged'} is not supported by agentOS git`);
  let message = o.get('message') ?? null;
  let paths = o.operands;
  if (legacySave) {
    if (paths.length) message = paths.join(' ');
    paths = [];
  } else if (assumed && o.beforeDashdash.length) ctx.fatal(`subcommand wasn't specified; 'push' can't be assumed due to unexpected token '${o.beforeDashdash[0]}'`);
  const untracked: 0 | 1 | 2 = o.has('all') ? 2 : o.has('include-untracked') ? 1 : 0;
  const quiet = o.has('quiet');
  const ps = paths.length ? pathspec(ctx, paths) : null;
  if (ps && !untracked) {
    const idx = ctx.readIndex();
    for (const p of [...idx.byPath.keys(), ...idx.unmerged.keys()]) ps.match(p);
    const bad = ps.unmatched();
    if (bad.length) {
      for (const b of bad) ctx.error(`pathspec '${b.raw}' did not match any file(s) known to git`);
      ctx.err("Did you forget to 'git add'?\n");
      return 1;
    }
  }
  const made = await createStash(ctx, store, message, untracked, ps);
  if (!made) {
    if (!quiet) ctx.print('No local changes to save\n');
    return 0;
  }
  await storeStash(ctx, made.w, made.message);
  if (!quiet) ctx.print(`Saved working directory and index state ${made.message}\n`);
  const head = (await readHead(ctx)).oid!;
  const headTree = await store.commitTree(head);
  const idx = ctx.readIndex();
  if (!ps) {
    if (untracked) {
      for (const p of made.untrackedPaths) deleteWorkFile(ctx, top, p);
      await cleanCmd(ctx, ['--force', '--quiet', '-d', ...(untracked === 2 ? ['-x'] : []), ':/']);
    }
    await applyHard(ctx, store, top, idx, headTree);
  } else {
    // only the paths given go back to HEAD, in the index and the work tree
    for (const p of made.untrackedPaths) deleteWorkFile(ctx, top, p);
    for (const p of new Set([...idx.byPath.keys(), ...idx.unmerged.keys(), ...headTree.keys()])) {
      if (!ps.match(p)) continue;
      const h = headTree.get(p);
      if (h) {
        await writeWorkFile(ctx, store, top, p, h);
        setEntry(ctx, idx, top, p, h);
      } else {
        deleteWorkFile(ctx, top, p);
        idx.entries = idx.entries.filter((e) => e.path !== p);
      }
    }
    reindex(idx);
  }
  if (o.has('keep-index')) {
    // the staged versions come back to the work tree (checkout --no-overlay <index tree> -- :/)
    const c = await store.commit(made.w);
    const iTree = await store.flatTree((await store.commit(c.parents[1])).tree);
    for (const [p, item] of iTree) {
      if (ps && !ps.match(p)) continue;
      await writeWorkFile(ctx, store, top, p, item);
      setEntry(ctx, idx, top, p, item);
    }
    reindex(idx);
  }
  await ctx.writeIndex(idx);
  return 0;
}

/** Bring a stash back (do_apply_stash). Returns 0, or non-zero when it did not apply cleanly. */
async function applyStash(ctx: Ctx, store: Store, info: StashInfo, index: boolean, quiet: boolean): Promise<number> {
  const top = ctx.worktree().dir;
  let idx = ctx.readIndex();
  if (idx.unmerged.size) {
    for (const p of [...idx.unmerged.keys()].sort()) ctx.err(`${p}: needs merge\n`);
    ctx.error('cannot apply a stash in the middle of a merge');
    return 1;
  }
  const cFlat = indexSnapshot(idx);
  const cTree = await writeTree(store, cFlat);
  let indexTree: string | null = null;
  if (index && info.bTree !== info.iTree && cTree !== info.iTree) {
    // the stash's staged change applied onto the current index, which must take it cleanly
    const m = await mergeTrees(store, await store.flatTree(info.bTree), cFlat, await store.flatTree(info.iTree), { ours: 'HEAD', theirs: 'stash' });
    if (m.conflicts.size) {
      ctx.error('conflicts in index. Try without --index.');
      return 1;
    }
    indexTree = await writeTree(store, m.clean);
  }
  let merge;
  try {
    merge = await mergeTrees(store, await store.flatTree(info.bTree), cFlat, await store.flatTree(info.wTree), { ours: info.bTree === cTree ? 'Version stash was based on' : 'Updated upstream', theirs: 'Stashed changes' });
  } catch (e) {
    if (e instanceof MergeUnsupported) ctx.fatal(`cannot apply the stash: ${e.message} (not supported by agentOS git)`);
    throw e;
  }
  const failure = await checkoutMerge(ctx, store, cFlat, merge, idx);
  let ret = 0;
  if (failure) {
    reportOverwrite(ctx, failure);
    ret = -1;
  } else {
    if (!quiet) for (const m of merge.messages) ctx.print(`${m}\n`);
    if (merge.conflicts.size) ret = 1;
  }
  idx = ctx.readIndex();
  if (ret) {
    if (index) ctx.err('Index was not unstashed.\n');
  } else if (indexTree) {
    // the index becomes the stashed index, the work tree stays as merged
    const want = await store.flatTree(indexTree);
    idx.entries = idx.entries.filter((e) => want.has(e.path) && e.stage === 0);
    reindex(idx);
    for (const [p, item] of want) {
      const e = idx.byPath.get(p);
      if (!e || e.oid !== item.oid || e.mode !== item.mode) {
        idx.entries = idx.entries.filter((x) => x.path !== p);
        idx.entries.push(makeEntry(p, item.mode, item.oid, null));
      }
    }
    reindex(idx);
    await ctx.writeIndex(idx);
  } else {
    // unstage_changes_unless_new: merged changes stay in the work tree only, except new files
    for (const ch of compareSnapshots(cFlat, indexSnapshot(idx))) {
      const before = cFlat.get(ch.oldPath);
      if (!before) continue;
      idx.entries = idx.entries.filter((e) => e.path !== ch.oldPath);
      idx.entries.push(makeEntry(ch.oldPath, before.mode, before.oid, null));
    }
    reindex(idx);
    await ctx.writeIndex(idx);
  }
  if (info.uTree) {
    const u = await store.flatTree(info.uTree);
    const inTheWay = [...u.keys()].filter((p) => ctx.exists(`${top}/${p}`));
    if (inTheWay.length) {
      for (const p of inTheWay) ctx.err(`${p} already exists, no checkout\n`);
      ctx.error('could not restore untracked files from stash');
      ret = ret || -1;
    } else for (const [p, item] of u) await writeWorkFile(ctx, store, top, p, item);
  }
  if (!quiet) await statusCmd(ctx, []);
  return ret;
}

async function dropStash(ctx: Ctx, info: StashInfo, quiet: boolean): Promise<number> {
  const m = /^(.*)@\{(\d+)\}$/.exec(info.revision);
  const n = m ? Number(m[2]) : 0;
  const newest = readReflog(ctx, REF).reverse();
  if (n >= newest.length) {
    ctx.error(`${info.revision}: Could not drop stash entry`);
    return 1;
  }
  newest.splice(n, 1);
  // reflog delete --rewrite --updateref
  const kept = newest.reverse();
  for (let i = 1; i < kept.length; i++) kept[i] = { ...kept[i], old: kept[i - 1].new };
  if (kept.length) {
    kept[0] = { ...kept[0], old: '0'.repeat(40) };
    writeReflog(ctx, REF, kept);
    await writeRef(ctx, REF, kept[kept.length - 1].new);
  }
  if (!quiet) ctx.print(`Dropped ${info.revision} (${info.w})\n`);
  if (!kept.length) {
    await deleteRef(ctx, REF);
    if (hasReflog(ctx, REF)) ctx.sys.unlink(`${ctx.repo().commondir}/logs/${REF}`);
  }
  return 0;
}

function assertStashRef(ctx: Ctx, info: StashInfo): void {
  if (!info.isStashRef) {
    ctx.error(`'${info.revision}' is not a stash reference`);
    throw new GitExit(1);
  }
}

export async function stash(ctx: Ctx, args: string[]): Promise<number> {
  const sub = args[0];
  const rest = args.slice(1);
  const known = ['list', 'show', 'drop', 'pop', 'apply', 'branch', 'push', 'save', 'clear', 'create', 'store'];
  if (sub === '-h' || sub === '--help') parseOptions([sub], {}, USAGE);
  ctx.worktree();
  const store = new Store(ctx);
  try {
    switch (sub) {
      case undefined:
        return await push(ctx, store, [], false, false);
      case 'push':
        return await push(ctx, store, rest, false, false);
      case 'save':
        return await push(ctx, store, rest, false, true);
      case 'list': {
        if (!(await resolveRef(ctx, REF))) return 0;
        const o = parseOptions(rest, LOG_SPEC as never, USAGE, { numbers: 'max-count' });
        return await showReflog(ctx, store, o, 'stash', { builtin: null, format: '%gd: %gs', terminator: true }, false);
      }
      case 'show': {
        const o = parseOptions(rest, { ...DIFF_SPEC, 'u|include-untracked': 'bool', '|only-untracked': 'bool' }, USAGE);
        const info = await stashInfo(ctx, store, o.operands);
        const explicit = o.list.some(([k]) => k !== 'include-untracked' && k !== 'only-untracked');
        const d = diffOptions(ctx, o, false);
        if (!explicit) {
          d.stat = ctx.configBool('stash.showStat', true);
          d.patch = ctx.configBool('stash.showPatch', false);
          if (!d.stat && !d.patch) return 0;
        } else if (![d.patch, d.stat, d.shortstat, d.numstat, d.nameOnly, d.nameStatus, d.summary].some(Boolean)) d.patch = true;
        const before = o.has('only-untracked') ? new Map() : await store.flatTree(info.bTree);
        let after: FlatTree = o.has('only-untracked') ? new Map() : await store.flatTree(info.wTree);
        if ((o.has('include-untracked') || o.has('only-untracked')) && info.uTree) after = new Map([...after, ...(await store.flatTree(info.uTree))]);
        if (o.has('only-untracked') && !info.uTree) return 0;
        let changes = compareSnapshots(before, after, { renames: d.renames });
        if (d.renames) changes = await inexactRenames(changes, storeLoader(store));
        await printDiff(ctx, changes, storeLoader(store), d);
        return 0;
      }
      case 'drop': {
        const o = parseOptions(rest, { 'q|quiet': 'bool' }, USAGE);
        const info = await stashInfo(ctx, store, o.operands);
        assertStashRef(ctx, info);
        return await dropStash(ctx, info, o.has('quiet'));
      }
      case 'apply':
      case 'pop': {
        const o = parseOptions(rest, { 'q|quiet': 'bool', '|index': 'bool' }, USAGE);
        const info = await stashInfo(ctx, store, o.operands);
        if (sub === 'pop') assertStashRef(ctx, info);
        const r = await applyStash(ctx, store, info, o.has('index'), o.has('quiet'));
        if (sub === 'apply') return r ? 1 : 0;
        if (r) {
          ctx.print('The stash entry is kept in case you need it again.\n');
          return 1;
        }
        return await dropStash(ctx, info, o.has('quiet'));
      }
      case 'branch': {
        const o = parseOptions(rest, {}, USAGE);
        if (!o.operands.length) {
          ctx.err('No branch name specified\n');
          return 1;
        }
        const info = await stashInfo(ctx, store, o.operands.slice(1));
        const st = await switchTo(ctx, store, { ref: `refs/heads/${o.operands[0]}`, oid: info.b, name: info.b, create: 'new', command: 'checkout' });
        if (st) return 1;
        const r = await applyStash(ctx, store, info, true, false);
        if (!r && info.isStashRef) return await dropStash(ctx, info, false);
        return r ? 1 : 0;
      }
      case 'clear': {
        const o = parseOptions(rest, {}, USAGE);
        if (o.operands.length) {
          ctx.error('git stash clear with arguments is unimplemented');
          return 1;
        }
        if (await resolveRef(ctx, REF)) await deleteRef(ctx, REF);
        if (hasReflog(ctx, REF)) ctx.sys.unlink(`${ctx.repo().commondir}/logs/${REF}`);
        return 0;
      }
      case 'create': {
        const made = await createStash(ctx, store, rest.length ? rest.join(' ') : null, 0, null);
        if (made) ctx.print(`${made.w}\n`);
        return 0;
      }
      case 'store': {
        const o = parseOptions(rest, { 'm|message': 'str', 'q|quiet': 'bool' }, USAGE);
        if (o.operands.length !== 1) {
          ctx.err(`"git stash store" requires one <commit> argument\n`);
          return 1;
        }
        const oid = await resolveRev(ctx, store, o.operands[0]);
        if (!oid) ctx.fatal(`Cannot update ${REF} with ${o.operands[0]}`);
        await storeStash(ctx, oid, o.get('message') ?? 'Created via "git stash store".');
        return 0;
      }
      default:
        // `git stash -u`, `git stash -- path`: push is assumed (and anything else is an error there)
        return await push(ctx, store, known.includes(sub) ? rest : args, true, false);
    }
  } catch (e) {
    if (e instanceof GitExit) return e.status;
    throw e;
  }
}

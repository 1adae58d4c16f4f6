// git describe [--all] [--tags] [--always] [--long] [--abbrev=<n>] [--first-parent]
//              [--exact-match] [--candidates=<n>] [--match <pattern>] [--exclude <pattern>]
//              [--dirty[=<mark>]] [<commit-ish>...]
//
// Name a commit after the nearest tag reachable from it: `v1.0-3-gabc1234`
// (the tag, the commits since, the abbreviated id), as git's describe walks.

import type { Ctx } from '../core/ctx.js';
import { Store, type Commit } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { listRefs, readHead } from '../core/refs.js';
import { AmbiguousOid, resolveRev } from '../core/revs.js';
import { loadState } from '../core/state.js';
import { wildmatch } from '../core/wildmatch.js';
import { abbrevUnique } from '../core/abbrev.js';

const USAGE = `usage: git describe [--all] [--tags] [--contains] [--abbrev=<n>] [<commit-ish>...]
   or: git describe [--all] [--tags] [--contains] [--abbrev=<n>] --dirty[=<mark>]
   or: git describe <blob>

    --contains            find the tag that comes after the commit
    --debug               debug search strategy on stderr
    --all                 use any ref
    --tags                use any tag, even unannotated
    --long                always use long format
    --first-parent        only follow first parent
    --abbrev[=<n>]        use <n> digits to display object names
    --exact-match         only output exact matches
    --candidates <n>      consider <n> most recent tags (default: 10)
    --match <pattern>     only consider tags matching <pattern>
    --exclude <pattern>   do not consider tags matching <pattern>
    --always              show abbreviated commit object as fallback
    --dirty[=<mark>]      append <mark> on dirty working tree (default: "-dirty")
    --broken[=<mark>]     append <mark> on broken working tree (default: "-broken")

`;

interface Name {
  /** As printed: the tag name (with --all, `tags/x` or `heads/x`). */
  path: string;
  /** 2 annotated tag, 1 lightweight tag, 0 other ref. */
  prio: number;
  oid: string;
  /** The tag's own name and date (annotated tags). */
  tagName?: string;
  tagDate?: number;
}

interface Candidate {
  name: Name;
  depth: number;
  order: number;
  bit: number;
}

interface Options {
  all: boolean;
  tags: boolean;
  long: boolean;
  firstParent: boolean;
  abbrev: number;
  candidates: number;
  always: boolean;
  suffix: string | null;
}

/** Commit → best name, as get_name and replace_name choose (annotated beats lightweight; newer tagger date wins). */
async function knownNames(ctx: Ctx, store: Store, o: Options, patterns: string[], excludes: string[]): Promise<Map<string, Name>> {
  const names = new Map<string, Name>();
  for (const r of await listRefs(ctx)) {
    let match: string;
    const isTag = r.name.startsWith('refs/tags/');
    if (isTag) match = r.name.slice(10);
    else if (o.all) {
      const m = /^refs\/(heads|remotes)\/(.*)$/.exec(r.name);
      if ((excludes.length || patterns.length) && !m) continue;
      match = m ? m[2] : r.name;
    } else continue;
    if (excludes.some((p) => wildmatch(p, match, false))) continue;
    if (patterns.length && !patterns.some((p) => wildmatch(p, match, false))) continue;
    const obj = await store.read(r.oid);
    let peeled = r.oid;
    let tag: { name: string; date: number } | undefined;
    if (obj?.type === 'tag') {
      const t = await store.tag(r.oid);
      tag = { name: t.name, date: t.tagger?.time ?? 0 };
      peeled = (await store.peelToCommit(r.oid)) ?? t.object;
    }
    const prio = tag ? 2 : isTag ? 1 : 0;
    const path = o.all ? r.name.slice(5) : r.name.slice(10);
    const e = names.get(peeled);
    const replace = !e || e.prio < prio || (e.prio === 2 && prio === 2 && (e.tagDate ?? 0) < (tag?.date ?? 0));
    if (replace) names.set(peeled, { path, prio, oid: r.oid, tagName: tag?.name, tagDate: tag?.date });
  }
  return names;
}

/** Insert keeping the list newest first (equal dates after the ones already there), as commit_list_insert_by_date. */
function insertByDate(list: Commit[], c: Commit): void {
  let i = 0;
  while (i < list.length && list[i].committer.time >= c.committer.time) i++;
  list.splice(i, 0, c);
}

async function describeCommit(ctx: Ctx, store: Store, oid: string, names: Map<string, Name>, o: Options): Promise<string> {
  const nameOf = (n: Name) => {
    if (n.tagName !== undefined && n.tagName !== (o.all ? n.path.slice(5) : n.path)) ctx.warning(`tag '${n.path}' is externally known as '${n.tagName}'`);
    return n.tagName !== undefined ? (o.all ? 'tags/' : '') + n.tagName : n.path;
  };
  const misnamed = (n: Name) => n.tagName !== undefined && n.tagName !== (o.all ? n.path.slice(5) : n.path);
  const suffix = o.suffix ?? '';
  const exact = names.get(oid);
  if (exact && (o.tags || o.all || exact.prio === 2)) {
    let s = nameOf(exact);
    if (misnamed(exact) || o.long) s += `-0-g${await abbrevUnique(ctx, oid, o.abbrev)}`;
    return s + suffix;
  }
  if (o.candidates === 0) ctx.fatal(`no tag exactly matches '${oid}'`);
  const flags = new Map<string, number>();
  const SEEN = 1;
  const matches: Candidate[] = [];
  let annotated = 0;
  let unannotated = 0;
  let seenCommits = 0;
  let gaveUp: Commit | null = null;
  const start = await store.commit(oid);
  flags.set(oid, SEEN);
  const list: Commit[] = [start];
  const pushParents = async (c: Commit) => {
    for (const p of o.firstParent ? c.parents.slice(0, 1) : c.parents) {
      const f = flags.get(p) ?? 0;
      if (!(f & SEEN)) insertByDate(list, await store.commit(p));
      flags.set(p, f | (flags.get(c.oid) ?? 0));
    }
  };
  while (list.length) {
    const c = list.shift()!;
    seenCommits++;
    const n = names.get(c.oid);
    if (n) {
      if (!o.tags && !o.all && n.prio < 2) unannotated++;
      else if (matches.length < o.candidates) {
        const bit = 1 << (matches.length + 1);
        matches.push({ name: n, depth: seenCommits - 1, order: matches.length + 1, bit });
        flags.set(c.oid, (flags.get(c.oid) ?? 0) | bit);
        if (n.prio === 2) annotated++;
      } else {
        gaveUp = c;
        break;
      }
    }
    const cf = flags.get(c.oid) ?? 0;
    for (const t of matches) if (!(cf & t.bit)) t.depth++;
    // stop when the last path left is already covered by the best candidates
    if (annotated && !list.length) {
      let bestDepth = Infinity;
      let bestWithin = 0;
      for (const t of matches) {
        if (t.depth < bestDepth) {
          bestDepth = t.depth;
          bestWithin = t.bit;
        } else if (t.depth === bestDepth) bestWithin |= t.bit;
      }
      if ((cf & bestWithin) === bestWithin) break;
    }
    await pushParents(c);
  }
  if (!matches.length) {
    if (o.always) return (await abbrevUnique(ctx, oid, o.abbrev || 40)) + suffix;
    if (unannotated) ctx.fatal(`No annotated tags can describe '${oid}'.\nHowever, there were unannotated tags: try --tags.`);
    ctx.fatal(`No tags can describe '${oid}'.\nTry --always, or create some tags.`);
  }
  matches.sort((a, b) => a.depth - b.depth || a.order - b.order);
  const best = matches[0];
  if (gaveUp) insertByDate(list, gaveUp);
  // finish_depth_computation: walk on until only the best's commits are left
  while (list.length) {
    const c = list.shift()!;
    const cf = flags.get(c.oid) ?? 0;
    if (cf & best.bit) {
      if (list.every((x) => (flags.get(x.oid) ?? 0) & best.bit)) break;
    } else best.depth++;
    await pushParents(c);
  }
  let s = nameOf(best.name);
  if (misnamed(best.name) || o.abbrev) s += `-${best.depth}-g${await abbrevUnique(ctx, oid, o.abbrev)}`;
  return s + suffix;
}

/** `<commit>:<path>` for a blob: the first commit (oldest first) whose tree holds it. */
async function describeBlob(ctx: Ctx, store: Store, blob: string, names: Map<string, Name>, o: Options): Promise<string | null> {
  const head = (await readHead(ctx)).oid;
  if (!head) return null;
  const order: Commit[] = [];
  const seenC = new Set<string>();
  const stack = [head];
  while (stack.length) {
    const x = stack.pop()!;
    if (seenC.has(x)) continue;
    seenC.add(x);
    const c = await store.commit(x);
    order.push(c);
    stack.push(...[...c.parents].reverse());
  }
  order.sort((a, b) => a.committer.time - b.committer.time);
  const seen = new Set<string>();
  for (const c of order) {
    const find = async (tree: string, path: string): Promise<string | null> => {
      if (seen.has(tree)) return null;
      seen.add(tree);
      for (const e of await store.treeLevel(tree)) {
        const p = path ? `${path}/${e.name}` : e.name;
        if (e.oid === blob) return p;
        if (e.mode === 0o040000) {
          const hit = await find(e.oid, p);
          if (hit) return hit;
        }
      }
      return null;
    };
    const path = await find(c.tree, '');
    if (path) return `${await describeCommit(ctx, store, c.oid, names, o)}:${path}`;
  }
  return null;
}

export async function describe(ctx: Ctx, args: string[]): Promise<number> {
  const opts = parseOptions(
    args,
    {
      '|contains': 'bool', '|debug': 'bool', '|all': 'bool', '|tags': 'bool', '|long': 'bool', '|first-parent': 'bool', '|abbrev': 'opt', '|exact-match': 'bool',
      '|candidates': 'str', '|match': 'str', '|exclude': 'str', '|always': 'bool', '|dirty': 'opt', '|broken': 'opt',
    },
    USAGE,
  );
  ctx.repo();
  const store = new Store(ctx);
  if (opts.has('contains')) ctx.fatal('--contains is not supported by agentOS git');
  const abbrevArg = opts.get('abbrev');
  const abbrev = !opts.given('abbrev') || abbrevArg === undefined ? Number(ctx.config('core.abbrev') ?? 7) || 7 : Math.min(40, Number(abbrevArg) === 0 ? 0 : Math.max(4, Number(abbrevArg)));
  let candidates = opts.has('exact-match') ? 0 : Number(opts.get('candidates') ?? 10);
  candidates = Math.max(0, Math.min(candidates, 30));
  if (opts.has('long') && abbrev === 0) ctx.fatal("options '--long' and '--abbrev=0' cannot be used together");
  const o: Options = { all: opts.has('all'), tags: opts.has('tags'), long: opts.has('long'), firstParent: opts.has('first-parent'), abbrev, candidates, always: opts.has('always'), suffix: null };
  const names = await knownNames(ctx, store, o, opts.all('match'), opts.all('exclude'));
  if (!names.size && !o.always) ctx.fatal('No names found, cannot describe anything.');
  const revs = opts.operands;
  if (revs.length === 0) {
    if (opts.given('dirty') || opts.given('broken')) {
      const state = await loadState(ctx, store, null);
      const dirty = state.staged.length > 0 || state.unstaged.length > 0 || state.unmerged.size > 0;
      if (dirty) o.suffix = opts.get('dirty') ?? '-dirty';
    }
    revs.push('HEAD');
  } else if (opts.given('dirty')) ctx.fatal("option '--dirty' and commit-ishes cannot be used together");
  else if (opts.given('broken')) ctx.fatal("option '--broken' and commit-ishes cannot be used together");
  for (const arg of revs) {
    let oid: string | null = null;
    try {
      oid = await resolveRev(ctx, store, arg);
    } catch (e) {
      if (!(e instanceof AmbiguousOid)) throw e;
    }
    if (!oid) ctx.fatal(`Not a valid object name ${arg}`);
    const commit = await store.peelToCommit(oid);
    if (commit) ctx.print(`${await describeCommit(ctx, store, commit, names, o)}\n`);
    else if ((await store.type(oid)) === 'blob') {
      const d = await describeBlob(ctx, store, oid, names, o);
      ctx.print(`${d ?? ''}\n`);
    } else ctx.fatal(`${arg} is neither a commit nor blob`);
  }
  return 0;
}

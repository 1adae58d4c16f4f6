// git rev-list [<options>] <commit>... [[--] <path>...]
//
// Commits reachable from the given ones and not from the excluded ones, in
// log's order: ids, counts (--count, --left-right), parents, formats, and
// the trees and blobs they reach (--objects).

import type { Ctx } from '../core/ctx.js';
import { ancestors } from '../core/graph.js';
import { Store, type Commit } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { builtinFormat, expandFormat } from '../core/pretty.js';
import { commitOrDie } from '../core/revargs.js';
import { LOG_SPEC, prettyContext, prettyFromOptions, walkFromOptions } from './log.js';

const USAGE = `usage: git rev-list [<options>] <commit>... [--] [<path>...]

  limiting output:
    --max-count=<n>
    --max-age=<epoch>
    --min-age=<epoch>
    --sparse
    --no-merges
    --min-parents=<n>
    --no-min-parents
    --max-parents=<n>
    --no-max-parents
    --remove-empty
    --all
    --branches
    --tags
    --remotes
    --stdin
    --exclude-hidden=[receive|uploadpack]
    --quiet
  ordering output:
    --topo-order
    --date-order
    --reverse
  formatting output:
    --parents
    --children
    --objects | --objects-edge
    --disk-usage[=human]
    --unpacked
    --header | --pretty
    --[no-]object-names
    --abbrev=<n> | --no-abbrev
    --abbrev-commit
    --left-right
    --count
  special purpose:
    --bisect
    --bisect-vars
    --bisect-all
`;

const SPEC = {
  ...LOG_SPEC,
  '|count': 'bool', '|objects': 'bool', '|left-right': 'bool', '|left-only': 'bool', '|right-only': 'bool', '|timestamp': 'bool',
  '|no-object-names': 'bool', '|object-names': 'bool', '|sparse': 'bool', '|remove-empty': 'bool', '|header': 'bool', '|quiet': 'bool',
} as const;

/** Trees and blobs of the commits' trees, each once, with paths (`oid path`; the root tree has an empty one). */
async function listObjects(ctx: Ctx, store: Store, commits: Commit[], excluded: Commit[], names: boolean): Promise<void> {
  const seen = new Set<string>();
  const mark = async (tree: string): Promise<void> => {
    if (seen.has(tree)) return;
    seen.add(tree);
    for (const e of await store.treeLevel(tree)) {
      if (e.mode === 0o040000) await mark(e.oid);
      else seen.add(e.oid);
    }
  };
  // what the excluded edge commits hold is not listed
  for (const c of excluded) await mark(c.tree);
  const show = async (tree: string, path: string): Promise<void> => {
    if (seen.has(tree)) return;
    seen.add(tree);
    ctx.print(names ? `${tree} ${path}\n` : `${tree}\n`);
    for (const e of await store.treeLevel(tree)) {
      const p = path === '' ? e.name : `${path}/${e.name}`;
      if (e.mode === 0o040000) await show(e.oid, p);
      else if (e.mode !== 0o160000 && !seen.has(e.oid)) {
        seen.add(e.oid);
        ctx.print(names ? `${e.oid} ${p}\n` : `${e.oid}\n`);
      }
    }
  };
  for (const c of commits) await show(c.tree, '');
}

export async function revList(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, SPEC as never, USAGE, { numbers: 'max-count' });
  ctx.repo();
  const store = new Store(ctx);
  const refsGiven = ['all', 'branches', 'tags', 'remotes'].some((k) => o.has(k));
  if (o.beforeDashdash.length === 0 && !refsGiven) {
    ctx.err(USAGE);
    return 129;
  }
  const { commits, revs } = await walkFromOptions(ctx, store, o, { defaultHead: false });
  // sides of a symmetric difference: commits the left tip reaches are "<"
  let left: Set<string> | null = null;
  if (o.has('left-right') || o.has('left-only') || o.has('right-only')) {
    const sym = o.beforeDashdash.map((a) => /^(.*?)\.\.\.(.*)$/.exec(a)).find(Boolean);
    const l = sym ? await commitOrDie(ctx, store, sym[1] || 'HEAD') : null;
    left = l ? await ancestors(store, [l]) : new Set();
  }
  let list = commits;
  if (left && o.has('left-only')) list = list.filter((c) => left!.has(c.oid));
  if (left && o.has('right-only')) list = list.filter((c) => !left!.has(c.oid));
  if (o.has('count')) {
    if (left && o.has('left-right')) {
      const l = list.filter((c) => left!.has(c.oid)).length;
      ctx.print(`${l}\t${list.length - l}\n`);
    } else ctx.print(`${list.length}\n`);
    return 0;
  }
  if (o.has('quiet')) return 0;
  const formatted = o.given('pretty') || o.given('format') || o.has('oneline');
  const pretty = prettyFromOptions(ctx, o, { builtin: 'medium', format: '', terminator: true });
  const pc = await prettyContext(ctx, store, o, pretty, false);
  const abbrev = (oid: string) => (pc.abbrevCommit || o.has('abbrev-commit') ? oid.slice(0, pc.abbrev) : oid);
  for (const c of list) {
    const mark = left && o.has('left-right') ? (left.has(c.oid) ? '<' : '>') : '';
    const ts = o.has('timestamp') ? `${c.committer.time} ` : '';
    const id = mark + ts + abbrev(c.oid) + (o.has('parents') ? c.parents.map((p) => ` ${abbrev(p)}`).join('') : '');
    if (!formatted) ctx.print(`${id}\n`);
    else if (pretty.builtin === 'oneline') ctx.print(`${id} ${expandFormat('%s', c, pc)}\n`);
    else if (pretty.builtin) ctx.print(`${builtinFormat(pretty.builtin, c, pc).replace(/^commit \S+/, `commit ${id}`)}\n`);
    else ctx.print(`commit ${id}\n${expandFormat(pretty.format, c, pc)}\n`);
  }
  if (o.has('objects')) {
    // the excluded tips and the excluded parents of listed commits (git's uninteresting edge)
    const hidden = revs.exclude.length ? await ancestors(store, revs.exclude) : new Set<string>();
    const edges: Commit[] = [];
    for (const x of revs.exclude) edges.push(await store.commit(x));
    for (const c of list) for (const p of c.parents) if (hidden.has(p)) edges.push(await store.commit(p));
    await listObjects(ctx, store, list, edges, !o.has('no-object-names'));
  }
  return 0;
}

// git log [<options>] [<revision-range>] [[--] <path>...]
//
// Commit history: -n/-<n>, --oneline, --pretty/--format, --date, --all,
// --reverse, --author/--committer/--grep, --first-parent, --(no-)merges,
// --skip, --since/--until, --decorate, --graph, --topo-order, and diffs (-p, --stat, ...).

import type { Ctx } from '../core/ctx.js';
import { compareSnapshots } from '../core/changes.js';
import { parseDate, parseDateMode, type DateMode } from '../core/date.js';
import { loadDecorations } from '../core/decorate.js';
import { Store, type Commit } from '../core/objects.js';
import { parseOptions, type Options } from '../core/opts.js';
import { pathspec, type Pathspec } from '../core/pathspec.js';
import { builtinFormat, expandFormat, parsePretty, type Pretty, type PrettyContext } from '../core/pretty.js';
import { branches, listRefs, readHead, remoteBranches, remotes, resolveRef, tags } from '../core/refs.js';
import { inexactRenames } from '../core/renames.js';
import { parseRevArgs, type RevArgs } from '../core/revargs.js';
import { LogGraph } from '../core/log-graph.js';
import { walk } from '../core/walk.js';
import { showReflog } from './reflog.js';
import { storeLoader } from '../diff/engine.js';
import { DIFF_SPEC, diffOptions, printDiff, wantsDiff, type DiffOptions } from '../diff/options.js';

const USAGE = `usage: git log [<options>] [<revision-range>] [[--] <path>...]
   or: git show [<options>] <object>...

    -q, --quiet           suppress diff output
    --source              show source
    --decorate[=...]      decorate options
    -L <range:file>       trace the evolution of line range <start>,<end> or function :<funcname> in <file>
`;

export const LOG_SPEC = {
  ...DIFF_SPEC,
  'n|max-count': 'str', '|oneline': 'bool', '|pretty': 'opt', '|format': 'str', '|date': 'str', '|all': 'bool', '|branches': 'bool', '|tags': 'bool',
  '|remotes': 'bool', '|reverse': 'bool', '|author': 'str', '|committer': 'str', '|grep': 'str', 'i|regexp-ignore-case': 'bool', '|all-match': 'bool',
  '|invert-grep': 'bool', 'E|extended-regexp': 'bool', 'F|fixed-strings': 'bool', '|first-parent': 'bool', '|no-merges': 'bool', '|merges': 'bool',
  '|skip': 'str', '|since': 'str', '|after': 'str', '|until': 'str', '|before': 'str', '|decorate': 'opt', '|abbrev-commit': 'bool',
  '|no-abbrev-commit': 'bool', '|graph': 'bool', '|topo-order': 'bool', '|date-order': 'bool', '|follow': 'bool', '|no-walk': 'opt', 'm': 'bool',
  '|source': 'bool', '|mailmap': 'bool', '|use-mailmap': 'bool', '|parents': 'bool', '|relative-date': 'bool', 'z': 'bool', '|cc': 'bool', 'c': 'bool',
  '|diff-merges': 'str', '|notes': 'opt', '|show-signature': 'bool', '|full-diff': 'bool', '|min-parents': 'str', '|max-parents': 'str', 'g|walk-reflogs': 'bool',
} as const;

export interface Shown {
  pretty: Pretty;
  pc: PrettyContext;
  diff: DiffOptions;
  /** Diff merges against their first parent (-m, --first-parent). */
  diffMerges: boolean;
  /** Combined diffs for merges (show's default, --cc). */
  combined: boolean;
  /** Limit the diffs to the paths given (log -- paths, unless --full-diff). */
  paths?: ((p: string) => boolean) | null;
}

/** Date limits like `2 weeks ago` or any date git's ident code takes. */
function approxDate(ctx: Ctx, s: string): number {
  const rel = /^(\d+)[ .]+(second|minute|hour|day|week|month|year)s?[ .]+ago$/.exec(s.trim());
  if (rel) {
    const unit: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800, month: 2592000, year: 31536000 };
    return Math.floor(Date.now() / 1000) - Number(rel[1]) * unit[rel[2]];
  }
  const d = parseDate(s);
  if (!d) ctx.fatal(`invalid date '${s}'`);
  return d.time;
}

export function prettyFromOptions(ctx: Ctx, o: ReturnType<typeof parseOptions>, dflt: Pretty): Pretty {
  let pretty = dflt;
  for (const [k, v] of o.list) {
    if (k === 'oneline') pretty = { builtin: 'oneline', format: '', terminator: true };
    else if (k === 'pretty' || k === 'format') {
      const p = parsePretty(v ?? 'medium', k === 'format');
      if (!p) ctx.fatal(`invalid --pretty format: ${v}`);
      pretty = p;
    }
  }
  return pretty;
}

export async function prettyContext(ctx: Ctx, store: Store, o: ReturnType<typeof parseOptions>, pretty: Pretty, tty: boolean): Promise<PrettyContext> {
  let date: DateMode = 'default';
  const dateOpt = o.has('relative-date') ? 'relative' : (o.get('date') ?? ctx.config('log.date'));
  if (dateOpt !== undefined) {
    const m = parseDateMode(dateOpt);
    if (!m) ctx.fatal(`unknown date format ${dateOpt}`);
    date = m;
  }
  const decoArg = o.given('decorate') ? (o.has('decorate') ? (o.get('decorate') ?? 'short') : 'no') : (ctx.config('log.decorate') ?? 'auto');
  const wantDeco = decoArg === 'auto' ? tty : !['no', 'false', '0', 'off'].includes(decoArg);
  const usesDecoFormat = pretty.builtin === null && /%[+-]?[dD]/.test(pretty.format);
  return {
    abbrev: Math.max(4, Number(o.get('abbrev') ?? ctx.config('core.abbrev') ?? 7) || 7),
    abbrevCommit: (o.has('oneline') || o.has('abbrev-commit')) && !o.has('no-abbrev-commit'),
    date,
    decorations: wantDeco || usesDecoFormat ? await loadDecorations(ctx, store) : null,
  };
}

/** One commit as log and show print it: its message, the line before its diff, the diff. */
interface CommitText {
  /** The formatted message, without the terminator of the formats that terminate entries. */
  msg: string;
  /** Whether the format terminates entries (oneline, tformat) rather than separating them. */
  terminated: boolean;
  /** The line between the message and the diff: '\n', '---\n' (a stat and a patch), or none. */
  sep: string;
  /** Bytes: a patch shows file contents as they are. */
  diff: Uint8Array;
}

async function commitText(ctx: Ctx, store: Store, c: Commit, s: Shown): Promise<CommitText> {
  const { pretty, pc } = s;
  let msg: string;
  let terminated: boolean;
  if (pretty.builtin) {
    msg = builtinFormat(pretty.builtin, c, pc);
    terminated = pretty.builtin === 'oneline' || pretty.builtin === 'reference';
    if (terminated) msg = msg.replace(/\n$/, '');
  } else {
    msg = expandFormat(pretty.format, c, pc);
    terminated = pretty.terminator;
  }
  const empty = pretty.builtin === null && pretty.format === '';
  const merge = c.parents.length > 1 && !s.diffMerges;
  // Merges show a diff only as a combined one (-c, --cc).
  if (!wantsDiff(s.diff) || (merge && !s.combined)) return { msg, terminated, sep: '', diff: new Uint8Array(0) };
  let changed = true;
  const diff = await ctx.capture(async () => {
    if (merge) await showCombined(ctx, store, c, s);
    else changed = await showDiff(ctx, store, c, s);
  });
  const verbose = pretty.builtin !== 'oneline' && !empty;
  const sep = merge ? (empty ? '' : '\n') : verbose && changed ? (s.diff.patch && s.diff.stat ? '---\n' : '\n') : '';
  return { msg, terminated, sep, diff };
}

/** Print one commit (header and any diff) as log and show do; `first`: no entry came before it. */
export async function showCommit(ctx: Ctx, store: Store, c: Commit, s: Shown, first: boolean): Promise<void> {
  const t = await commitText(ctx, store, c, s);
  const empty = s.pretty.builtin === null && s.pretty.format === '';
  ctx.print(`${!first && !t.terminated ? '\n' : ''}${t.msg}${t.terminated && !empty ? '\n' : ''}${t.sep}`);
  ctx.out.write(t.diff);
}

/** The diff of a commit against its first parent; whether anything changed. */
async function showDiff(ctx: Ctx, store: Store, c: Commit, s: Shown): Promise<boolean> {
  const before = await store.commitTree(c.parents[0] ?? null);
  const after = await store.flatTree(c.tree);
  let changes = compareSnapshots(before, after, { renames: s.diff.renames, filter: s.paths ?? undefined });
  if (s.diff.renames) changes = await inexactRenames(changes, storeLoader(store));
  await printDiff(ctx, changes, storeLoader(store), s.diff);
  return changes.length > 0;
}

/**
 * A merge's diff as a combined diff: the stat formats count against the first
 * parent, the name lists hold paths that differ from every parent. (The
 * combined patch itself, `diff --cc`, is not produced: empty for clean merges.)
 */
async function showCombined(ctx: Ctx, store: Store, c: Commit, s: Shown): Promise<void> {
  const after = await store.flatTree(c.tree);
  let first = compareSnapshots(await store.commitTree(c.parents[0]), after, { renames: s.diff.renames });
  if (s.diff.renames) first = await inexactRenames(first, storeLoader(store));
  const everywhere = new Set(first.map((x) => x.newPath));
  for (const p of c.parents.slice(1)) {
    const other = new Set(compareSnapshots(await store.commitTree(p), after, { renames: false }).map((x) => x.newPath));
    for (const x of everywhere) if (!other.has(x)) everywhere.delete(x);
  }
  const d = s.diff;
  await printDiff(ctx, first, storeLoader(store), { ...d, patch: false, nameOnly: false, nameStatus: false, summary: false });
  if (d.nameOnly || d.nameStatus) await printDiff(ctx, first.filter((x) => everywhere.has(x.newPath)), storeLoader(store), { ...d, patch: false, stat: false, shortstat: false, numstat: false, summary: false });
}

/** Positive tips for --all, --branches, --tags and --remotes. */
export async function refTips(ctx: Ctx, store: Store, o: Options): Promise<string[]> {
  const out: string[] = [];
  const add = async (ref: string) => {
    const oid = await resolveRef(ctx, ref);
    const c = oid && (await store.peelToCommit(oid));
    if (c) out.push(c);
  };
  // --all is every ref (refs/stash too), as git's for_each_ref
  if (o.has('all')) for (const r of await listRefs(ctx)) await add(r.name);
  if (o.has('branches')) for (const b of await branches(ctx)) await add(`refs/heads/${b}`);
  if (o.has('remotes')) for (const r of await remotes(ctx)) for (const b of await remoteBranches(ctx, r.remote)) await add(`refs/remotes/${r.remote}/${b}`);
  if (o.has('tags')) for (const t of await tags(ctx)) await add(`refs/tags/${t}`);
  if (o.has('all')) {
    const h = await readHead(ctx);
    if (h.oid) out.push(h.oid);
  }
  return out;
}

/** The commit filters of log and rev-list: --(no-)merges, --author, --committer, --grep, --since/--until. */
export function commitFilter(ctx: Ctx, o: Options): (c: Commit) => boolean {
  const flags = (o.has('regexp-ignore-case') ? 'i' : '') + 'm';
  const toRe = (s: string) => new RegExp(o.has('fixed-strings') ? s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : o.has('extended-regexp') ? s : basicToJs(s), flags);
  const authors = o.all('author').map(toRe);
  const committers = o.all('committer').map(toRe);
  const greps = o.all('grep').map(toRe);
  const since = o.get('since') ?? o.get('after');
  const until = o.get('until') ?? o.get('before');
  const sinceT = since ? approxDate(ctx, since) : null;
  const untilT = until ? approxDate(ctx, until) : null;
  const minParents = o.has('merges') ? 2 : Number(o.get('min-parents') ?? 0);
  const maxParents = o.has('no-merges') ? 1 : o.get('max-parents') === undefined ? Infinity : Number(o.get('max-parents'));
  return (c: Commit): boolean => {
    if (c.parents.length < minParents || c.parents.length > maxParents) return false;
    if (authors.length && !authors.some((r) => r.test(`${c.author.name} <${c.author.email}>`))) return false;
    if (committers.length && !committers.some((r) => r.test(`${c.committer.name} <${c.committer.email}>`))) return false;
    if (greps.length) {
      const hits = greps.map((r) => r.test(c.message));
      const ok = o.has('all-match') ? hits.every(Boolean) : hits.some(Boolean);
      if (ok === o.has('invert-grep')) return false;
    }
    if (sinceT !== null && c.committer.time < sinceT) return false;
    if (untilT !== null && c.committer.time > untilT) return false;
    return true;
  };
}

export interface Walked {
  commits: Commit[];
  revs: RevArgs;
  paths: Pathspec | null;
}

/** Parse the revisions and paths of log-like commands and walk them (HEAD by default). */
export async function walkFromOptions(ctx: Ctx, store: Store, o: Options, opts: { defaultHead?: boolean; unlimited?: boolean } = {}): Promise<Walked> {
  const repo = ctx.repo();
  const ra = await parseRevArgs(ctx, store, o.beforeDashdash, o.afterDashdash, false);
  ra.include.push(...(await refTips(ctx, store, o)));
  if (ra.include.length === 0 && ra.names.length === 0 && !o.has('all') && opts.defaultHead !== false) {
    const h = await readHead(ctx);
    if (!h.oid) {
      if (h.ref) ctx.fatal(`your current branch '${h.ref.replace(/^refs\/heads\//, '')}' does not have any commits yet`);
      ctx.fatal("bad default revision 'HEAD'");
    }
    ra.include.push(h.oid);
  }
  const ps = ra.paths.length && repo.dir ? pathspec(ctx, ra.paths) : null;
  const max = o.get('max-count');
  const maxCount = max === undefined ? undefined : Number(max) < 0 ? undefined : Number(max);
  if (max !== undefined && !Number.isFinite(Number(max))) ctx.fatal(`'${max}': not an integer`);
  const commits = await walk(store, {
    include: ra.include,
    exclude: ra.exclude,
    firstParent: o.has('first-parent'),
    paths: ps ? (p) => ps.match(p) : null,
    filter: commitFilter(ctx, o),
    maxCount: opts.unlimited ? undefined : maxCount,
    skip: opts.unlimited ? 0 : Number(o.get('skip') ?? 0),
    reverse: o.has('reverse'),
    topo: o.has('topo-order') || o.has('graph'),
  });
  return { commits, revs: ra, paths: ps };
}

export async function log(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, LOG_SPEC as never, USAGE, { numbers: 'max-count' });
  const store = new Store(ctx);
  if (o.has('graph') && o.has('reverse')) ctx.fatal("options '--reverse' and '--graph' cannot be used together");
  if (o.has('walk-reflogs')) {
    if (o.operands.length > 1) ctx.fatal('log -g takes at most one ref');
    return showReflog(ctx, store, o, o.operands[0] ?? 'HEAD', { builtin: 'medium', format: '', terminator: true }, false);
  }
  // The graph draws lines to every commit the filters let through, shown or past -n/--skip.
  const graphed = o.has('graph');
  const { commits: all, paths: ps } = await walkFromOptions(ctx, store, o, { unlimited: graphed });
  if (ps && graphed) ctx.fatal('--graph with paths is not supported by agentOS git');
  const max = Number(o.get('max-count') ?? -1);
  const commits = graphed ? all.slice(Number(o.get('skip') ?? 0)).slice(0, max < 0 ? undefined : max) : all;
  const pretty = prettyFromOptions(ctx, o, { builtin: 'medium', format: '', terminator: true });
  const diff = diffOptions(ctx, o, false);
  const shown: Shown = {
    pretty,
    pc: await prettyContext(ctx, store, o, pretty, ctx.tty),
    diff,
    diffMerges: o.has('m') || o.has('first-parent') || o.get('diff-merges') === 'first-parent',
    combined: o.has('cc') || o.has('c'),
    paths: ps && !o.has('full-diff') ? (p) => ps.match(p) : null,
  };
  if (shown.combined && !wantsDiff(diff)) diff.patch = true;
  if (graphed) await showGraph(ctx, store, commits, new Set(all.map((c) => c.oid)), shown, o.has('first-parent'));
  else for (let i = 0; i < commits.length; i++) await showCommit(ctx, store, commits[i], shown, i === 0);
  return 0;
}

/**
 * log --graph, as git's log-tree drives its graph: before each commit the
 * graph's rows down to the commit's own, then the message with a row before
 * each line after the first and the rows the graph still needs, the entry's
 * terminator, and the diff with a row before each line. A row of vertical
 * lines separates entries in the formats that separate them.
 */
async function showGraph(ctx: Ctx, store: Store, commits: Commit[], listed: Set<string>, s: Shown, firstParent: boolean): Promise<void> {
  const graph = new LogGraph((oid) => listed.has(oid), firstParent);
  const empty = s.pretty.builtin === null && s.pretty.format === '';
  let missingNewline = false;
  for (let i = 0; i < commits.length; i++) {
    graph.update(commits[i]);
    const t = await commitText(ctx, store, commits[i], s);
    if (i > 0 && !t.terminated) ctx.print(`${missingNewline ? '' : graph.paddingLine()}\n`);
    for (let row = graph.nextLine(); ; row = graph.nextLine()) {
      ctx.print(row.commitLine ? row.text : `${row.text}\n`);
      if (row.commitLine) break;
    }
    const lines = t.msg.split(/(?<=\n)/);
    lines.forEach((l, k) => ctx.print(k ? graph.nextLine().text + l : l));
    missingNewline = !t.msg.endsWith('\n');
    if (!graph.finished()) {
      if (missingNewline) ctx.print('\n');
      for (;;) {
        ctx.print(graph.nextLine().text);
        if (graph.finished()) break;
        ctx.print('\n');
      }
      if (!missingNewline) ctx.print('\n');
    }
    if (t.terminated && !empty) ctx.print(`${missingNewline ? '' : graph.paddingLine()}\n`);
    if (t.sep) ctx.print(graph.paddingLine() + t.sep);
    for (let at = 0; at < t.diff.length; ) {
      const nl = t.diff.indexOf(10, at);
      const end = nl < 0 ? t.diff.length : nl + 1;
      ctx.print(graph.paddingLine());
      ctx.out.write(t.diff.subarray(at, end));
      at = end;
    }
  }
}

/** POSIX basic regular expressions (git's default for --grep/--author) in JavaScript syntax. */
export function basicToJs(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      const n = s[++i];
      out += '(){}|+?'.includes(n) ? n : `\\${n}`;
    } else if ('(){}|+?'.includes(c)) out += `\\${c}`;
    else out += c;
  }
  return out;
}

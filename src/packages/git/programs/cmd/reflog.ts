// git reflog [show] [<log-options>] [<ref>]
// git reflog expire [--expire=<time>] [--dry-run] [--all | <refs>...]
// git reflog delete [--rewrite] [--updateref] [--dry-run] <ref>@{<n>}...
// git reflog exists <ref>
//
// Where refs have been: the entries of a ref's log, newest first, as
// `<id> <ref>@{<n>}: <message>` (or any log format), and their upkeep.

import type { Ctx } from '../core/ctx.js';
import { formatDate, parseDateMode } from '../core/date.js';
import { Store, ZERO_OID } from '../core/objects.js';
import { parseOptions, type Options } from '../core/opts.js';
import type { Pretty } from '../core/pretty.js';
import { hasReflog, readReflog, writeReflog, type ReflogEntry } from '../core/reflog.js';
import { expandRef, listRefs, readHead, resolveRef, writeRef } from '../core/refs.js';
import { ambiguous } from '../core/revargs.js';
import { LOG_SPEC, prettyContext, prettyFromOptions, showCommit, type Shown } from './log.js';
import { diffOptions } from '../diff/options.js';

const USAGE = `usage: git reflog [show] [<log-options>] [<ref>]
   or: git reflog expire [--expire=<time>] [--expire-unreachable=<time>]
                         [--rewrite] [--updateref] [--stale-fix]
                         [--dry-run | -n] [--verbose] [--all [--single-worktree] | <refs>...]
   or: git reflog delete [--rewrite] [--updateref]
                         [--dry-run | -n] [--verbose] <ref>@{<specifier>}...
   or: git reflog exists <ref>

`;

/** Split `ref@{n}` (n defaults to 0). */
function selector(spec: string): { ref: string; n: number } | null {
  const m = /^(.*)@\{(\d+)\}$/.exec(spec);
  return m ? { ref: m[1] || 'HEAD', n: Number(m[2]) } : null;
}

/** The full ref name whose log `name` means (`master` → refs/heads/master, HEAD stays). */
async function logRef(ctx: Ctx, name: string): Promise<string | null> {
  if (name === 'HEAD' || name === '@') return 'HEAD';
  if (hasReflog(ctx, name)) return name;
  const full = await expandRef(ctx, name);
  return full && hasReflog(ctx, full) ? full : (full ?? null);
}

/** Walk one ref's log from entry `start` (newest first), showing each entry's commit (log -g and reflog show). */
export async function showReflog(ctx: Ctx, store: Store, o: Options, spec: string, dflt: Pretty, abbrevByDefault: boolean): Promise<number> {
  const sel = selector(spec) ?? { ref: spec, n: 0 };
  const ref = await logRef(ctx, sel.ref);
  if (!ref || !(await resolveRef(ctx, ref) || hasReflog(ctx, ref))) ambiguous(ctx, spec);
  const entries = readReflog(ctx, ref).reverse();
  const pretty = prettyFromOptions(ctx, o, dflt);
  const pc = await prettyContext(ctx, store, o, pretty, ctx.tty);
  if (abbrevByDefault && !o.has('no-abbrev-commit')) pc.abbrevCommit = true;
  const shown: Shown = { pretty, pc, diff: diffOptions(ctx, o, false), diffMerges: false, combined: false };
  const max = o.get('max-count') === undefined ? Infinity : Number(o.get('max-count'));
  const dateOpt = o.get('date');
  const dateMode = dateOpt === undefined ? null : parseDateMode(dateOpt);
  if (dateOpt !== undefined && !dateMode) ctx.fatal(`unknown date format ${dateOpt}`);
  const shownName = sel.ref === '@' ? 'HEAD' : sel.ref;
  let count = 0;
  const list = entries.map((e, i) => ({ e, i })).slice(sel.n).filter(({ e }) => e.new !== ZERO_OID);
  for (const { e, i } of list) {
    if (count >= max) break;
    const obj = await store.read(e.new);
    if (!obj || obj.type !== 'commit') continue;
    const at = dateMode ? formatDate(e.who.time, e.who.tz, dateMode) : String(i);
    shown.pc = { ...pc, reflog: { selector: `${shownName}@{${at}}`, fullSelector: `${ref}@{${at}}`, who: e.who, message: e.message } };
    await showCommit(ctx, store, await store.commit(e.new), shown, count === 0);
    count++;
  }
  return 0;
}

/** Drop the entries `drop` (indexes, newest first) of a ref's log; --rewrite mends the chain, --updateref moves the ref. */
async function deleteEntries(ctx: Ctx, ref: string, drop: Set<number>, opts: { rewrite: boolean; updateref: boolean; dryRun: boolean }): Promise<void> {
  const newest = readReflog(ctx, ref).reverse();
  const kept: ReflogEntry[] = [];
  for (let i = newest.length - 1; i >= 0; i--) {
    if (drop.has(i)) continue;
    const e = { ...newest[i] };
    // --rewrite: each kept entry's old value is the new value of the one before it
    if (opts.rewrite && kept.length) e.old = kept[kept.length - 1].new;
    kept.push(e);
  }
  if (opts.dryRun) return;
  writeReflog(ctx, ref, kept);
  if (opts.updateref && kept.length && (await resolveRef(ctx, ref)) !== null) await writeRef(ctx, ref, kept[kept.length - 1].new);
}

export async function reflog(ctx: Ctx, args: string[]): Promise<number> {
  const sub = args[0];
  if (sub === 'exists') {
    const o = parseOptions(args.slice(1), {}, USAGE);
    ctx.repo();
    if (o.operands.length !== 1) {
      ctx.err(`usage: git reflog exists <ref>\n\n`);
      return 129;
    }
    return hasReflog(ctx, o.operands[0]) ? 0 : 1;
  }
  if (sub === 'delete') {
    const o = parseOptions(args.slice(1), { '|rewrite': 'bool', '|updateref': 'bool', 'n|dry-run': 'bool', '|verbose': 'bool' }, USAGE);
    ctx.repo();
    if (!o.operands.length) {
      ctx.error('no reflog specified to delete');
      return 255;
    }
    const byRef = new Map<string, Set<number>>();
    for (const spec of o.operands) {
      const sel = selector(spec);
      if (!sel) {
        ctx.error(`not a reflog: ${spec}`);
        return 255;
      }
      const ref = await logRef(ctx, sel.ref);
      if (!ref || !hasReflog(ctx, ref)) {
        ctx.error(`${spec} points nowhere!`);
        return 255;
      }
      const set = byRef.get(ref) ?? new Set<number>();
      set.add(sel.n);
      byRef.set(ref, set);
    }
    for (const [ref, drop] of byRef) await deleteEntries(ctx, ref, drop, { rewrite: o.has('rewrite'), updateref: o.has('updateref'), dryRun: o.has('dry-run') });
    return 0;
  }
  if (sub === 'expire') {
    const o = parseOptions(args.slice(1), { '|expire': 'str', '|expire-unreachable': 'str', '|rewrite': 'bool', '|updateref': 'bool', '|stale-fix': 'bool', 'n|dry-run': 'bool', '|verbose': 'bool', '|all': 'bool', '|single-worktree': 'bool' }, USAGE);
    ctx.repo();
    const when = o.get('expire') ?? o.get('expire-unreachable') ?? ctx.config('gc.reflogExpire') ?? '90.days.ago';
    const cutoff = when === 'all' || when === 'now' ? Infinity : when === 'never' || when === 'false' ? -Infinity : expiryTime(when);
    const refs = o.has('all') ? ['HEAD', ...(await listRefs(ctx)).map((r) => r.name)].filter((r) => hasReflog(ctx, r)) : [];
    for (const name of o.operands) {
      const ref = await logRef(ctx, name);
      if (!ref || !hasReflog(ctx, ref)) {
        ctx.error(`${name} points nowhere!`);
        return 1;
      }
      refs.push(ref);
    }
    for (const ref of refs) {
      const entries = readReflog(ctx, ref);
      const drop = new Set<number>();
      entries.forEach((e, i) => {
        if (e.who.time < cutoff || cutoff === Infinity) drop.add(entries.length - 1 - i);
      });
      await deleteEntries(ctx, ref, drop, { rewrite: o.has('rewrite'), updateref: o.has('updateref'), dryRun: o.has('dry-run') });
    }
    return 0;
  }
  const rest = sub === 'show' ? args.slice(1) : args;
  const o = parseOptions(rest, LOG_SPEC as never, USAGE, { numbers: 'max-count' });
  ctx.repo();
  const store = new Store(ctx);
  if (o.operands.length > 1) ctx.fatal('reflog show takes at most one ref');
  let spec = o.operands[0] ?? 'HEAD';
  if (spec === 'HEAD' && !(await readHead(ctx)).oid && !hasReflog(ctx, 'HEAD')) return 0;
  if (/^@\{\d+\}$/.test(spec)) spec = `HEAD${spec.slice(1)}`;
  return showReflog(ctx, store, o, spec, { builtin: 'oneline', format: '', terminator: true }, true);
}

/** `90.days.ago`, `2.weeks.ago`, or a date. */
function expiryTime(s: string): number {
  const rel = /^(\d+)[ .]+(second|minute|hour|day|week|month|year)s?[ .]+ago$/.exec(s.trim());
  if (rel) {
    const unit: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800, month: 2592000, year: 31536000 };
    return Math.floor(Date.now() / 1000) - Number(rel[1]) * unit[rel[2]];
  }
  const t = Date.parse(s);
  return Number.isNaN(t) ? -Infinity : Math.floor(t / 1000);
}

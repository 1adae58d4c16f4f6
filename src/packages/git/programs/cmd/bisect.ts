// git bisect start [--term-{new,bad}=<term> --term-{old,good}=<term>] [--no-checkout] [<bad> [<good>...]]
// git bisect (bad|new|good|old|skip) [<rev>...]
// git bisect (reset [<commit>] | log | run <cmd>... | terms [--term-good | --term-bad] | next | visualize)
//
// Find the commit that introduced a change by binary search, as git does:
// the same state files (BISECT_START, BISECT_LOG, BISECT_TERMS, refs/bisect/*)
// and the same choice of the next commit to test (find_bisection's weights,
// managed_skipped's pseudo-random step away from skipped commits).

import type { Ctx } from '../core/ctx.js';
import { GitExit } from '../core/errors.js';
import { ancestors, mergeBases } from '../core/graph.js';
import { subjectOf } from '../core/message.js';
import { Store, type Commit } from '../core/objects.js';
import { deleteRef, listRefs, readHead, resolveRef, writeRef } from '../core/refs.js';
import { AmbiguousOid, resolveRev } from '../core/revs.js';
import { runShell, sqQuoteArgv } from '../core/shell.js';
import { walk } from '../core/walk.js';
import { checkout as checkoutCmd } from './checkout.js';
import { show } from './show.js';
import { log as logCmd } from './log.js';

const USAGE = `usage: git bisect [help|start|bad|good|new|old|terms|skip|next|reset|visualize|view|replay|log|run]
`;

interface Terms {
  bad: string;
  good: string;
}

/** Results with git's special meanings (bisect_error). */
const FOUND = -10;
const MERGE_BASE = -11;
const ONLY_SKIPPED = -2;

const gp = (ctx: Ctx, f: string) => `${ctx.repo().gitdir}/${f}`;

function readTerms(ctx: Ctx): Terms {
  const t = ctx.readText(gp(ctx, 'BISECT_TERMS'));
  if (!t) return { bad: 'bad', good: 'good' };
  const [bad, good] = t.split('\n');
  return { bad, good };
}

function append(ctx: Ctx, f: string, text: string): void {
  ctx.sys.writeFile(gp(ctx, f), (ctx.readText(gp(ctx, f)) ?? '') + text);
}

const nonEmpty = (ctx: Ctx, f: string) => (ctx.readText(gp(ctx, f)) ?? '') !== '';

async function commitOf(ctx: Ctx, store: Store, rev: string): Promise<string | null> {
  try {
    const oid = await resolveRev(ctx, store, rev);
    return oid ? store.peelToCommit(oid) : null;
  } catch (e) {
    if (e instanceof AmbiguousOid) return null;
    throw e;
  }
}

async function bisectRefs(ctx: Ctx, t: Terms): Promise<{ bad: string | null; good: string[]; skip: string[] }> {
  const refs = await listRefs(ctx, 'refs/bisect/');
  return {
    bad: refs.find((r) => r.name === `refs/bisect/${t.bad}`)?.oid ?? null,
    good: refs.filter((r) => r.name.startsWith(`refs/bisect/${t.good}-`)).map((r) => r.oid),
    skip: refs.filter((r) => r.name.startsWith('refs/bisect/skip-')).map((r) => r.oid),
  };
}

/** refs/bisect/<state>[-<oid>] and the log line. */
async function bisectWrite(ctx: Ctx, store: Store, state: string, oid: string, t: Terms, nolog: boolean): Promise<void> {
  const tag = state === t.bad ? `refs/bisect/${state}` : `refs/bisect/${state}-${oid}`;
  await writeRef(ctx, tag, oid);
  const c = await store.commit(oid);
  append(ctx, 'BISECT_LOG', `# ${state}: [${oid}] ${subjectOf(c.message)}\n${nolog ? '' : `git bisect ${state} ${oid}\n`}`);
}

async function cleanState(ctx: Ctx): Promise<void> {
  for (const r of await listRefs(ctx, 'refs/bisect/')) await deleteRef(ctx, r.name);
  await deleteRef(ctx, 'BISECT_HEAD');
  for (const f of ['BISECT_EXPECTED_REV', 'BISECT_ANCESTORS_OK', 'BISECT_LOG', 'BISECT_NAMES', 'BISECT_RUN', 'BISECT_TERMS', 'BISECT_FIRST_PARENT', 'head-name', 'BISECT_START']) {
    if (ctx.exists(gp(ctx, f))) ctx.sys.unlink(gp(ctx, f));
  }
}

// ---- choosing the commit to test (bisect.c) -------------------------------------------

/** find_bisection: the candidate halving the set best (weights = tree-changing ancestors within the set). */
function findBisection(list: Commit[], inSet: Set<string>, firstParent: boolean): { best: Commit; reaches: number; all: number } | null {
  // oldest first, as find_bisection reverses the date-ordered list
  const order = [...list].reverse();
  const nr = order.length;
  const weight = new Map<string, number>();
  const parentsIn = (c: Commit) => (firstParent ? c.parents.slice(0, 1) : c.parents).filter((p) => inSet.has(p));
  for (const c of order) {
    const n = parentsIn(c).length;
    weight.set(c.oid, n === 0 ? 1 : n === 1 ? -1 : -2);
  }
  const byOid = new Map(order.map((c) => [c.oid, c] as const));
  const halfway = (c: Commit) => {
    const diff = 2 * weight.get(c.oid)! - nr;
    return diff >= -1 && diff <= 1 ? true : Math.abs(diff) < Math.floor(nr / 1024);
  };
  let counted = order.filter((c) => weight.get(c.oid) === 1).length;
  // merges: count their distinct ancestors within the set
  for (const c of order) {
    if (weight.get(c.oid) !== -2) continue;
    const seen = new Set<string>();
    const stack = [c.oid];
    while (stack.length) {
      const x = stack.pop()!;
      if (seen.has(x) || !inSet.has(x)) continue;
      seen.add(x);
      stack.push(...byOid.get(x)!.parents);
    }
    weight.set(c.oid, seen.size);
    if (halfway(c)) return { best: c, reaches: seen.size, all: nr };
    counted++;
  }
  while (counted < nr) {
    for (const c of order) {
      if (weight.get(c.oid)! >= 0) continue;
      const q = parentsIn(c).find((p) => weight.get(p)! >= 0);
      if (q === undefined) continue;
      weight.set(c.oid, weight.get(q)! + 1);
      counted++;
      if (halfway(c)) return { best: c, reaches: weight.get(c.oid)!, all: nr };
    }
  }
  let best = order[0];
  let bestDistance = -1;
  for (const c of order) {
    let d = weight.get(c.oid)!;
    if (nr - d < d) d = nr - d;
    if (d > bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return nr ? { best, reaches: weight.get(best.oid)!, all: nr } : null;
}

const PRN_MODULO = 32768;
function sqrti(val: number): number {
  if (!val) return 0;
  let x = Math.fround(val);
  let d: number;
  do {
    const y = Math.fround((x + Math.fround(val / x)) / 2);
    d = y > x ? y - x : x - y;
    x = y;
  } while (d >= 0.5);
  return Math.trunc(x);
}

/** managed_skipped: step away from skipped commits by git's fixed pseudo-random choice. */
function managedSkipped(list: Commit[], skipped: Set<string>, bad: string): { list: Commit[]; tried: Commit[] } {
  if (!skipped.size) return { list, tried: [] };
  const tried: Commit[] = [];
  const filtered: Commit[] = [];
  let skippedFirst = false;
  for (const c of list) {
    if (skipped.has(c.oid)) {
      if (!filtered.length) skippedFirst = true;
      tried.push(c);
    } else {
      if (!skippedFirst) return { list: [c, ...list.slice(list.indexOf(c) + 1)], tried };
      filtered.push(c);
    }
  }
  if (!skippedFirst) return { list: filtered, tried };
  const count = filtered.length;
  const prn = Math.floor(((count * 1103515245 + 12345) >>> 0) / 65536) % PRN_MODULO;
  const index = Math.floor(Math.floor((count * prn) / PRN_MODULO) * sqrti(prn) / sqrti(PRN_MODULO));
  for (let i = 0; i < filtered.length; i++) {
    if (i === index) {
      if (filtered[i].oid !== bad) return { list: filtered.slice(i), tried };
      return { list: i > 0 ? filtered.slice(i - 1) : filtered, tried };
    }
  }
  return { list: filtered, tried };
}

function estimateSteps(all: number): number {
  if (all < 3) return 0;
  let n = 0;
  for (let v = all; v > 1; v >>= 1) n++;
  const e = 1 << n;
  return e < 3 * (all - e) ? n : n - 1;
}

async function bisectCheckout(ctx: Ctx, store: Store, oid: string): Promise<number> {
  await writeRef(ctx, 'BISECT_EXPECTED_REV', oid);
  if (await resolveRef(ctx, 'BISECT_HEAD')) await writeRef(ctx, 'BISECT_HEAD', oid);
  else {
    const st = await checkoutCmd(ctx, ['-q', oid, '--']);
    if (st) return -1;
  }
  ctx.print(`[${oid}] ${subjectOf((await store.commit(oid)).message)}\n`);
  return 0;
}

/** bisect_next_all: check the merge bases once, then pick and check out the next commit (or report the first bad one). */
async function nextAll(ctx: Ctx, store: Store, t: Terms): Promise<number> {
  const refs = await bisectRefs(ctx, t);
  const bad = refs.bad!;
  if (!ctx.exists(gp(ctx, 'BISECT_ANCESTORS_OK')) && refs.good.length) {
    const reach = await ancestors(store, [bad]);
    if (refs.good.some((g) => !reach.has(g))) {
      let bases: string[] = [];
      for (const g of refs.good) bases.push(...(await mergeBases(store, bad, g)));
      bases = [...new Set(bases)];
      for (const mb of bases) {
        if (mb === bad) {
          const expected = (ctx.readText(gp(ctx, 'BISECT_EXPECTED_REV')) ?? '').trim();
          if (expected === bad) {
            ctx.err(`The merge base ${bad} is bad.\nThis means the bug has been fixed between ${bad} and [${refs.good.join(' ')}].\n`);
            return -3;
          }
          ctx.err(`Some ${t.good} revs are not ancestors of the ${t.bad} rev.\ngit bisect cannot work properly in this case.\nMaybe you mistook ${t.good} and ${t.bad} revs?\n`);
          return -1;
        }
        if (refs.good.includes(mb)) continue;
        if (refs.skip.includes(mb)) {
          ctx.warning(`the merge base between ${bad} and [${refs.good.join(' ')}] must be skipped.\nSo we cannot be sure the first ${t.bad} commit is between ${mb} and ${bad}.\nWe continue anyway.`);
          continue;
        }
        ctx.print('Bisecting: a merge base must be tested\n');
        const r = await bisectCheckout(ctx, store, mb);
        return r ? r : MERGE_BASE;
      }
    }
    ctx.sys.writeFile(gp(ctx, 'BISECT_ANCESTORS_OK'), '', 0o600);
  }
  const firstParent = ctx.exists(gp(ctx, 'BISECT_FIRST_PARENT'));
  const list = await walk(store, { include: [bad], exclude: refs.good, firstParent });
  const inSet = new Set(list.map((c) => c.oid));
  const skipped = new Set(refs.skip);
  let found = findBisection(list, inSet, firstParent);
  let candidates: Commit[] = found ? [found.best] : [];
  let tried: Commit[] = [];
  if (skipped.size && found) {
    // with skipped commits git ranks every candidate by distance (FIND_BISECTION_ALL) and steps around them
    const ranked = rankAll(list, inSet, firstParent);
    ({ list: candidates, tried } = managedSkipped(ranked.list, skipped, bad));
    // the count printed is the top-ranked commit's, skipped or not (find_bisection's reaches)
    found = { best: candidates[0], reaches: ranked.weight.get(ranked.list[0].oid)!, all: ranked.all };
  }
  if (!candidates.length || !found) {
    if (tried.length) return onlySkipped(ctx, t, tried, null);
    ctx.print(`${bad} was both ${t.good} and ${t.bad}\n`);
    return -1;
  }
  const rev = found.best.oid;
  if (rev === bad) {
    if (tried.length) return onlySkipped(ctx, t, tried, bad);
    ctx.print(`${rev} is the first ${t.bad} commit\n`);
    const c = await store.commit(rev);
    // diff-tree --pretty --stat --summary: nothing for a root commit
    if (c.parents.length) await show(ctx, ['--stat', '--summary', '--format=medium', '--no-decorate', rev]);
    return FOUND;
  }
  const nr = found.all - found.reaches - 1;
  const steps = estimateSteps(found.all);
  ctx.print(`Bisecting: ${nr} revision${nr === 1 ? '' : 's'} left to test after this (roughly ${steps} step${steps === 1 ? '' : 's'})\n`);
  return bisectCheckout(ctx, store, rev);
}

/** Every candidate with its distance, best first (best_bisection_sorted). */
function rankAll(list: Commit[], inSet: Set<string>, firstParent: boolean): { list: Commit[]; weight: Map<string, number>; all: number } {
  const order = [...list].reverse();
  const weight = new Map<string, number>();
  const byOid = new Map(order.map((c) => [c.oid, c] as const));
  for (const c of order) {
    const seen = new Set<string>();
    const stack = [c.oid];
    while (stack.length) {
      const x = stack.pop()!;
      if (seen.has(x) || !inSet.has(x)) continue;
      seen.add(x);
      stack.push(...(firstParent ? byOid.get(x)!.parents.slice(0, 1) : byOid.get(x)!.parents));
    }
    weight.set(c.oid, seen.size);
  }
  const nr = order.length;
  const dist = order.map((c, i) => ({ c, i, d: Math.min(weight.get(c.oid)!, nr - weight.get(c.oid)!) }));
  // by distance, then by object id (compare_commit_dist)
  dist.sort((a, b) => b.d - a.d || (a.c.oid < b.c.oid ? -1 : a.c.oid > b.c.oid ? 1 : 0));
  return { list: dist.map((x) => x.c), weight, all: nr };
}

function onlySkipped(ctx: Ctx, t: Terms, tried: Commit[], bad: string | null): number {
  ctx.print(`There are only 'skip'ped commits left to test.\nThe first ${t.bad} commit could be any of:\n${tried.map((c) => `${c.oid}\n`).join('')}${bad ? `${bad}\n` : ''}We cannot bisect more!\n`);
  return ONLY_SKIPPED;
}

/** bisect_next: after state changes, move on when both ends are known. */
async function autoNext(ctx: Ctx, store: Store, t: Terms): Promise<number> {
  const refs = await bisectRefs(ctx, t);
  if (!refs.bad || !refs.good.length) {
    const line = !refs.good.length && !refs.bad ? 'status: waiting for both good and bad commits\n' : refs.good.length ? `status: waiting for bad commit, ${refs.good.length} good commit${refs.good.length === 1 ? '' : 's'} known\n` : 'status: waiting for good commit(s), bad commit known\n';
    ctx.print(line);
    append(ctx, 'BISECT_LOG', `# ${line}`);
    return 0;
  }
  const r = await nextAll(ctx, store, t);
  if (r === FOUND) {
    const c = await store.commit(refs.bad);
    append(ctx, 'BISECT_LOG', `# first ${t.bad} commit: [${refs.bad}] ${subjectOf(c.message)}\n`);
  } else if (r === ONLY_SKIPPED) {
    append(ctx, 'BISECT_LOG', '# only skipped commits left to test\n');
    const rest = await walk(store, { include: [refs.bad], exclude: refs.good });
    for (const c of rest) append(ctx, 'BISECT_LOG', `# possible first ${t.bad} commit: [${c.oid}] ${subjectOf(c.message)}\n`);
  }
  return r;
}

async function start(ctx: Ctx, store: Store, args: string[]): Promise<number> {
  const t: Terms = { bad: 'bad', good: 'good' };
  let noCheckout = ctx.repo().dir === null;
  let firstParent = false;
  let mustWriteTerms = false;
  const revs: string[] = [];
  const dashdash = args.includes('--');
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') break;
    if (a === '--no-checkout') noCheckout = true;
    else if (a === '--first-parent') firstParent = true;
    else if (/^--term-(good|old)=/.test(a)) [t.good, mustWriteTerms] = [a.slice(a.indexOf('=') + 1), true];
    else if (/^--term-(bad|new)=/.test(a)) [t.bad, mustWriteTerms] = [a.slice(a.indexOf('=') + 1), true];
    else if (a === '--term-good' || a === '--term-old' || a === '--term-bad' || a === '--term-new') {
      if (++i >= args.length) {
        ctx.error("'' is not a valid term");
        return 1;
      }
      if (a.includes('good') || a.includes('old')) t.good = args[i];
      else t.bad = args[i];
      mustWriteTerms = true;
    } else if (a.startsWith('--')) {
      ctx.error(`unrecognized option: '${a}'`);
      return 1;
    } else {
      const c = await commitOf(ctx, store, a);
      if (c) revs.push(c);
      else if (dashdash) ctx.fatal(`'${a}' does not appear to be a valid revision`);
      else break;
    }
  }
  const paths = args.slice(args[i] === '--' ? i + 1 : i);
  if (paths.length) ctx.fatal('bisecting with paths is not supported by agentOS git');
  const head = await readHead(ctx);
  if (!head.oid && !head.ref) {
    ctx.error('bad HEAD - I need a HEAD');
    return 1;
  }
  let startHead: string;
  if (nonEmpty(ctx, 'BISECT_START')) {
    startHead = ctx.readText(gp(ctx, 'BISECT_START'))!.trim();
    if (!noCheckout && (await checkoutCmd(ctx, [startHead, '--']))) {
      ctx.error(`checking out '${startHead}' failed. Try 'git bisect start <valid-branch>'.`);
      return 1;
    }
  } else startHead = head.ref ? head.ref.replace(/^refs\/heads\//, '') : head.oid!;
  await cleanState(ctx);
  ctx.sys.writeFile(gp(ctx, 'BISECT_START'), `${startHead}\n`);
  if (firstParent) ctx.sys.writeFile(gp(ctx, 'BISECT_FIRST_PARENT'), '\n');
  if (noCheckout) {
    const oid = await commitOf(ctx, store, startHead);
    if (!oid) {
      ctx.error(`invalid ref: '${startHead}'`);
      return 1;
    }
    await writeRef(ctx, 'BISECT_HEAD', oid);
  }
  ctx.sys.writeFile(gp(ctx, 'BISECT_NAMES'), '\n');
  if (revs.length) mustWriteTerms = true;
  for (let k = 0; k < revs.length; k++) await bisectWrite(ctx, store, k === 0 ? t.bad : t.good, revs[k], t, true);
  if (mustWriteTerms) {
    if (t.bad === t.good) {
      ctx.error('please use two different terms');
      await cleanState(ctx);
      return 1;
    }
    ctx.sys.writeFile(gp(ctx, 'BISECT_TERMS'), `${t.bad}\n${t.good}\n`);
  }
  append(ctx, 'BISECT_LOG', `git bisect start${sqQuoteArgv(args)}\n`);
  const r = await autoNext(ctx, store, t);
  if (r < 0 && r !== FOUND && r !== MERGE_BASE) await cleanState(ctx);
  return r;
}

/** bisect_state: mark commits (HEAD by default) good, bad or skipped. */
async function state(ctx: Ctx, store: Store, word: string, args: string[]): Promise<number> {
  if (!nonEmpty(ctx, 'BISECT_START')) {
    ctx.err('You need to start by "git bisect start"\n\n');
    return -1;
  }
  let t = readTerms(ctx);
  const hasTerms = nonEmpty(ctx, 'BISECT_TERMS');
  if (word !== 'skip') {
    if (hasTerms && word !== t.bad && word !== t.good) {
      ctx.error(`Invalid command: you're currently in a ${t.bad}/${t.good} bisect`);
      return -1;
    }
    if (!hasTerms) {
      t = word === 'new' || word === 'old' ? { bad: 'new', good: 'old' } : { bad: 'bad', good: 'good' };
      ctx.sys.writeFile(gp(ctx, 'BISECT_TERMS'), `${t.bad}\n${t.good}\n`);
    }
  }
  if (![t.bad, t.good, 'skip'].includes(word)) return -1;
  if (args.length > 1 && word === t.bad) {
    ctx.error(`'git bisect ${t.bad}' can take only one argument.`);
    return -1;
  }
  const oids: string[] = [];
  if (!args.length) {
    const h = (await resolveRef(ctx, 'BISECT_HEAD')) ?? (await readHead(ctx)).oid;
    if (!h) ctx.error('Bad rev input: HEAD');
    else oids.push(h);
  }
  for (const a of args) {
    const oid = await resolveRev(ctx, store, a).catch(() => null);
    if (!oid) {
      ctx.error(`Bad rev input: ${a}`);
      return -1;
    }
    const c = await store.peelToCommit(oid);
    if (!c) ctx.fatal(`Bad rev input (not a commit): ${a}`);
    oids.push(c);
  }
  const expected = (ctx.readText(gp(ctx, 'BISECT_EXPECTED_REV')) ?? '').trim();
  let verify = /^[0-9a-f]{40}$/.test(expected);
  for (const oid of oids) {
    await bisectWrite(ctx, store, word, oid, t, false);
    if (verify && oid !== expected) {
      for (const f of ['BISECT_ANCESTORS_OK', 'BISECT_EXPECTED_REV']) if (ctx.exists(gp(ctx, f))) ctx.sys.unlink(gp(ctx, f));
      verify = false;
    }
  }
  return autoNext(ctx, store, t);
}

async function run(ctx: Ctx, store: Store, args: string[]): Promise<number> {
  const t = readTerms(ctx);
  const refs = await bisectRefs(ctx, t);
  if (!refs.bad || !refs.good.length) {
    const have = nonEmpty(ctx, 'BISECT_START');
    ctx.error(
      have
        ? 'You need to give me at least one bad|new and good|old revision.\nYou can use "git bisect bad|new" and "git bisect good|old" for that.'
        : 'You need to start by "git bisect start".\nYou then need to give me at least one good|old and bad|new revision.\nYou can use "git bisect good|old" and "git bisect bad|new" for that.',
    );
    return -1;
  }
  if (!args.length) {
    ctx.error('bisect run failed: no command provided.');
    return -1;
  }
  const command = sqQuoteArgv(args);
  let first = true;
  for (;;) {
    ctx.print(`running ${command}\n`);
    let res = runShell(ctx, command);
    if (first && (res === 126 || res === 127)) {
      first = false;
      // a missing or unusable script looks like a result: check it on a good revision
      const current = (await resolveRef(ctx, 'BISECT_HEAD')) ?? (await readHead(ctx)).oid!;
      if ((await bisectCheckout(ctx, store, refs.good[0])) !== 0) return -1;
      ctx.print(`running ${command}\n`);
      const rc = runShell(ctx, command);
      if ((await bisectCheckout(ctx, store, current)) !== 0) return -1;
      if (rc === res) {
        ctx.error(`bogus exit code ${rc} for good revision`);
        return -1;
      }
    }
    if (res < 0 || res >= 128) {
      ctx.error(`bisect run failed: exit code ${res} from '${command}' is < 0 or >= 128`);
      return res;
    }
    const word = res === 125 ? 'skip' : res === 0 ? t.good : t.bad;
    // the state's output goes through BISECT_RUN, as git collects it there
    ctx.out.flush();
    res = await state(ctx, store, word, []);
    if (res === ONLY_SKIPPED) {
      ctx.error('bisect run cannot continue any more');
      return res;
    }
    if (res === MERGE_BASE || res === FOUND) {
      ctx.print(res === FOUND ? 'bisect found first bad commit' : 'bisect run success');
      return 0;
    }
    if (res) {
      ctx.error(`bisect run failed: 'git bisect--helper --bisect-state ${word}' exited with error code ${res}`);
      return res;
    }
  }
}

export async function bisect(ctx: Ctx, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === 'help' || sub === '-h' || sub === '--help') {
    ctx.print(USAGE);
    return sub === undefined ? 1 : 0;
  }
  ctx.repo();
  const store = new Store(ctx);
  const t = readTerms(ctx);
  let r: number;
  switch (sub) {
    case 'start':
      r = await start(ctx, store, rest);
      break;
    case 'reset': {
      if (rest.length > 1) {
        ctx.error('--bisect-reset requires either no argument or a commit');
        return 1;
      }
      let branch: string;
      if (!rest.length) {
        const s = ctx.readText(gp(ctx, 'BISECT_START'));
        if (!s) {
          ctx.print('We are not bisecting.\n');
          return 0;
        }
        branch = s.trimEnd();
      } else {
        if (!(await commitOf(ctx, store, rest[0]))) {
          ctx.error(`'${rest[0]}' is not a valid commit`);
          return 1;
        }
        branch = rest[0];
      }
      if (!(await resolveRef(ctx, 'BISECT_HEAD')) && (await checkoutCmd(ctx, [branch, '--']))) {
        ctx.error(`could not check out original HEAD '${branch}'. Try 'git bisect reset <commit>'.`);
        return 1;
      }
      await cleanState(ctx);
      return 0;
    }
    case 'log': {
      const text = ctx.readText(gp(ctx, 'BISECT_LOG'));
      if (!text) {
        ctx.error('We are not bisecting.');
        return 1;
      }
      ctx.print(text);
      return 0;
    }
    case 'terms': {
      if (!nonEmpty(ctx, 'BISECT_TERMS')) {
        ctx.error('no terms defined');
        return 1;
      }
      const opt = rest[0];
      if (opt === undefined) ctx.print(`Your current terms are ${t.good} for the old state\nand ${t.bad} for the new state.\n`);
      else if (opt === '--term-good' || opt === '--term-old') ctx.print(`${t.good}\n`);
      else if (opt === '--term-bad' || opt === '--term-new') ctx.print(`${t.bad}\n`);
      else {
        ctx.error(`invalid argument ${opt} for 'git bisect terms'.\nSupported options are: --term-good|--term-old and --term-bad|--term-new.`);
        return 1;
      }
      return 0;
    }
    case 'next':
      if (!nonEmpty(ctx, 'BISECT_START')) {
        ctx.err('You need to start by "git bisect start"\n\n');
        return 1;
      }
      r = await nextAll(ctx, store, t);
      break;
    case 'skip': {
      const list: string[] = [];
      for (const a of rest) {
        const range = /^(.*?)\.\.(.*)$/.exec(a);
        if (!range) {
          list.push(a);
          continue;
        }
        const from = await commitOf(ctx, store, range[1] || 'HEAD');
        const to = await commitOf(ctx, store, range[2] || 'HEAD');
        if (from && to) for (const c of await walk(store, { include: [to], exclude: [from] })) list.push(c.oid);
      }
      r = await state(ctx, store, 'skip', list);
      break;
    }
    case 'run':
      r = await run(ctx, store, rest);
      break;
    case 'visualize':
    case 'view':
      return logCmd(ctx, [...(rest.length ? rest : []), 'refs/bisect/bad', '--not', ...(await bisectRefs(ctx, t)).good]);
    case 'replay':
      ctx.fatal('bisect replay is not supported by agentOS git');
      break;
    default:
      if ([t.bad, t.good, 'bad', 'good', 'new', 'old'].includes(sub)) r = await state(ctx, store, sub, rest);
      else {
        ctx.err(`error: unknown subcommand: \`${sub}'\n${USAGE}`);
        return 129;
      }
  }
  if (r === FOUND || r === MERGE_BASE) return 0;
  if (r < 0) {
    // git's bisect exits with the negated error code (BISECT_FAILED is 1)
    ctx.out.flush();
    throw new GitExit(-r);
  }
  return r;
}

// Splitting `[<revision>...] [--] [<path>...]` the way git does: an operand
// is a revision if it resolves, else a path if it exists; A..B, A...B, ^A
// and --not make the negative side; anything else is git's "ambiguous
// argument" error.

import type { Ctx } from './ctx.js';
import { mergeBases } from './graph.js';
import type { Store } from './objects.js';
import { AmbiguousOid, resolveCommit } from './revs.js';

export interface RevArgs {
  include: string[];
  exclude: string[];
  /** Revisions as given (for commands that want the names). */
  names: string[];
  paths: string[];
}

export function ambiguous(ctx: Ctx, arg: string): never {
  ctx.fatal(
    `ambiguous argument '${arg}': unknown revision or path not in the working tree.\n` +
      "Use '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'",
  );
}

export async function commitOrDie(ctx: Ctx, store: Store, rev: string, arg = rev): Promise<string | null> {
  try {
    return await resolveCommit(ctx, store, rev);
  } catch (e) {
    if (e instanceof AmbiguousOid) ctx.fatal(`ambiguous argument '${arg}': short object ID is ambiguous`);
    throw e;
  }
}

export async function parseRevArgs(ctx: Ctx, store: Store, before: string[], after: string[], dashdash: boolean): Promise<RevArgs> {
  const r: RevArgs = { include: [], exclude: [], names: [], paths: [...after] };
  let negate = false;
  for (let i = 0; i < before.length; i++) {
    const a = before[i];
    if (a === '--not') {
      negate = !negate;
      continue;
    }
    const sym = /^(.*?)\.\.\.(.*)$/.exec(a);
    const range = sym ? null : /^(.*?)\.\.(.*)$/.exec(a);
    if (sym || range) {
      const m = (sym ?? range)!;
      const left = await commitOrDie(ctx, store, m[1] || 'HEAD', a);
      const right = await commitOrDie(ctx, store, m[2] || 'HEAD', a);
      if (left && right) {
        r.names.push(a);
        if (sym) {
          r.include.push(left, right);
          r.exclude.push(...(await mergeBases(store, left, right)));
        } else {
          r.include.push(right);
          r.exclude.push(left);
        }
        continue;
      }
    } else {
      const neg = a.startsWith('^');
      const oid = await commitOrDie(ctx, store, neg ? a.slice(1) : a);
      if (oid) {
        if (neg !== negate) r.exclude.push(oid);
        else r.include.push(oid);
        r.names.push(a);
        continue;
      }
    }
    // not a revision: then it and everything after are paths, which must exist
    if (dashdash) ctx.fatal(`bad revision '${a}'`);
    for (const p of before.slice(i)) {
      if (!ctx.exists(ctx.abs(p)) && !/[*?[]/.test(p) && !p.startsWith(':')) ambiguous(ctx, p);
    }
    r.paths.unshift(...before.slice(i));
    break;
  }
  return r;
}

// git rev-parse [--verify] [-q] [--short[=n]] [--abbrev-ref] [--symbolic-full-name] <rev>...
// git rev-parse --show-toplevel | --git-dir | --absolute-git-dir | --is-inside-work-tree |
//               --is-inside-git-dir | --is-bare-repository | --show-prefix | --show-cdup
//
// Resolve revisions to object names, and say where the repository is.

import type { Ctx } from '../core/ctx.js';
import { Store } from '../core/objects.js';
import { relative } from '../core/path.js';
import { expandRef, readHead } from '../core/refs.js';
import { AmbiguousOid, resolveRev } from '../core/revs.js';
import { ambiguous } from '../core/revargs.js';

export async function revParse(ctx: Ctx, args: string[]): Promise<number> {
  let verify = false;
  let quiet = false;
  let short = 0;
  let abbrevRef = false;
  let fullName = false;
  let seenDashdash = false;
  const store = new Store(ctx);
  const out: string[] = [];
  const revs: string[] = [];
  for (const a of args) {
    if (seenDashdash) {
      out.push(a);
      continue;
    }
    if (a === '--') {
      seenDashdash = true;
      if (!verify) out.push('--');
      continue;
    }
    if (a === '--verify') verify = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '--short') short = 7;
    else if (a.startsWith('--short=')) short = Math.max(4, Number(a.slice(8)) || 7);
    else if (a === '--abbrev-ref' || a === '--abbrev-ref=strict' || a === '--abbrev-ref=loose') abbrevRef = true;
    else if (a === '--symbolic-full-name') fullName = true;
    else if (a === '--show-toplevel') {
      const r = ctx.repo();
      if (!r.dir) ctx.fatal('this operation must be run in a work tree');
      out.push(r.dir);
    } else if (a === '--git-dir') {
      const r = ctx.repo();
      const rel = relative(ctx.cwd, r.gitdir);
      out.push(r.dir === ctx.cwd && r.gitdir === `${r.dir}/.git` ? '.git' : rel.startsWith('..') || r.gitdir !== `${ctx.cwd}/${rel}` ? r.gitdir : rel);
    } else if (a === '--absolute-git-dir') out.push(ctx.repo().gitdir);
    else if (a === '--git-common-dir') out.push(ctx.repo().commondir === ctx.repo().gitdir ? relative(ctx.cwd, ctx.repo().gitdir) : ctx.repo().commondir);
    else if (a === '--is-inside-work-tree') out.push(String(ctx.repo().dir !== null && (ctx.cwd === ctx.repo().dir || ctx.cwd.startsWith(ctx.repo().dir + '/')) && !ctx.cwd.startsWith(ctx.repo().gitdir)));
    else if (a === '--is-inside-git-dir') out.push(String(ctx.cwd === ctx.repo().gitdir || ctx.cwd.startsWith(ctx.repo().gitdir + '/')));
    else if (a === '--is-bare-repository') out.push(String(ctx.repo().dir === null && ctx.configBool('core.bare', false)));
    else if (a === '--show-prefix') out.push(ctx.repo().prefix);
    else if (a === '--show-cdup') out.push(ctx.repo().prefix.split('/').filter(Boolean).map(() => '../').join(''));
    else if (a === '--is-shallow-repository') out.push(String(ctx.exists(`${ctx.repo().gitdir}/shallow`)));
    else if (a === '--local-env-vars') out.push('GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY');
    else if (a.startsWith('-') && a !== '-') {
      if (verify) ctx.fatal('Needed a single revision');
      out.push(a);
    } else revs.push(a);
  }
  if (verify && revs.length !== 1) {
    if (quiet) return 1;
    ctx.fatal('Needed a single revision');
  }
  for (const r of revs) {
    ctx.repo();
    let oid: string | null = null;
    try {
      const m = /^(.*?)(\^\{commit\})?$/.exec(r)!;
      oid = await resolveRev(ctx, store, r);
      if (oid && m[2]) oid = await store.peelToCommit(oid);
    } catch (e) {
      if (!(e instanceof AmbiguousOid)) throw e;
    }
    if (!oid) {
      if (verify) {
        if (quiet) return 1;
        ctx.fatal('Needed a single revision');
      }
      // rev-parse echoes what it could not resolve, then complains (if it is not a file)
      if (ctx.exists(ctx.abs(r))) {
        out.push(r);
        continue;
      }
      for (const l of out) ctx.print(`${l}\n`);
      ctx.print(`${r}\n`);
      ambiguous(ctx, r);
    }
    if (abbrevRef || fullName) {
      let name: string | null = null;
      if (r === 'HEAD' || r === '@') {
        const h = await readHead(ctx);
        name = h.ref ? (abbrevRef ? h.ref.replace(/^refs\/heads\//, '') : h.ref) : abbrevRef ? 'HEAD' : null;
      } else {
        const full = await expandRef(ctx, r);
        name = full ? (abbrevRef ? full.replace(/^refs\/(heads|tags|remotes)\//, '') : full) : null;
      }
      if (name !== null) out.push(name);
      else if (abbrevRef) out.push(r);
      continue;
    }
    out.push(short ? oid.slice(0, short) : oid);
  }
  for (const l of out) ctx.print(`${l}\n`);
  return 0;
}

// git show [<options>] [<object>...]
//
// Commits (header and patch against the first parent; merges show their
// header), annotated tags (then what they point at), trees (their entries)
// and blobs (their content).

import type { Ctx } from '../core/ctx.js';
import { formatDate } from '../core/date.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { AmbiguousOid, resolveRev } from '../core/revs.js';
import { ambiguous } from '../core/revargs.js';
import { diffOptions } from '../diff/options.js';
import { LOG_SPEC, prettyContext, prettyFromOptions, showCommit, type Shown } from './log.js';

const USAGE = `usage: git show [<options>] <object>...

    --quiet               suppress diff output
    --source              show source
    --decorate[=...]      decorate options
`;

export async function show(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, LOG_SPEC as never, USAGE);
  ctx.repo();
  const store = new Store(ctx);
  const objects = o.beforeDashdash.length ? o.beforeDashdash : ['HEAD'];
  const pretty = prettyFromOptions(ctx, o, { builtin: 'medium', format: '', terminator: true });
  const diff = diffOptions(ctx, o, true);
  if (o.has('quiet')) diff.patch = false;
  const shown: Shown = { pretty, pc: await prettyContext(ctx, store, o, pretty, ctx.tty), diff, diffMerges: o.has('m') || o.has('first-parent'), combined: true };
  let first = true;
  for (const name of objects) {
    let oid: string | null;
    try {
      oid = await resolveRev(ctx, store, name);
    } catch (e) {
      if (e instanceof AmbiguousOid) ctx.fatal(`ambiguous argument '${name}': short object ID is ambiguous`);
      throw e;
    }
    if (!oid) {
      if (name.includes(':')) {
        const [rev, path] = [name.slice(0, name.indexOf(':')), name.slice(name.indexOf(':') + 1)];
        if (rev === '' || (await resolveRev(ctx, store, rev))) ctx.fatal(`path '${path}' does not exist in '${rev || 'the index'}'`);
        ctx.fatal(`invalid object name '${rev}'.`);
      }
      if (name === 'HEAD' && !(await resolveRev(ctx, store, 'HEAD'))) {
        ctx.fatal(`your current branch '${(ctx.readText(`${ctx.repo().gitdir}/HEAD`) ?? '').replace(/^ref: refs\/heads\/|\n$/g, '')}' does not have any commits yet`);
      }
      ambiguous(ctx, name);
    }
    let o2 = await store.read(oid);
    while (o2) {
      if (o2.type === 'commit') {
        await showCommit(ctx, store, await store.commit(oid), shown, first);
        break;
      }
      if (o2.type === 'tag') {
        const t = await store.tag(oid);
        let head = `${first ? '' : '\n'}tag ${t.name}\n`;
        if (t.tagger && pretty.builtin !== 'oneline') head += `Tagger: ${t.tagger.name} <${t.tagger.email}>\n`;
        // the date only in the built-in formats, as git's pp_user_info does
        if (t.tagger && pretty.builtin && pretty.builtin !== 'oneline') head += `Date:   ${formatDate(t.tagger.time, t.tagger.tz, shown.pc.date)}\n`;
        ctx.print(`${head}\n${t.message.replace(/\n*$/, '\n')}`);
        oid = t.object;
        o2 = await store.read(oid);
        first = false;
        continue;
      }
      if (o2.type === 'tree') {
        const entries = await store.treeLevel(oid);
        ctx.print(`${first ? '' : '\n'}tree ${name}\n\n${entries.map((e) => e.name + (e.mode === 0o040000 ? '/' : '') + '\n').join('')}`);
        break;
      }
      ctx.out.write(o2.data);
      break;
    }
    first = false;
  }
  return 0;
}

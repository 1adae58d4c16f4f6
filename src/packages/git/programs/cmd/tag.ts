// git tag [-a | -s] [-f] [-m <msg> | -F <file>] [-e] <tagname> [<commit> | <object>]
// git tag -d <tagname>...
// git tag [-n[<num>]] -l [--contains <commit>] [--points-at <object>] [<pattern>...]
//
// Create (lightweight or annotated), delete and list tags.

import type { Ctx } from '../core/ctx.js';
import { runEditor } from '../core/editor.js';
import { isAncestor } from '../core/graph.js';
import { whoIs } from '../core/ident.js';
import { cleanupMessage } from '../core/message.js';
import { formatIdent, Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { deleteRef, resolveRef, tags, validRefName, writeRef } from '../core/refs.js';
import { AmbiguousOid, resolveRev } from '../core/revs.js';
import { commitOrDie } from '../core/revargs.js';
import { wildmatch } from '../core/wildmatch.js';

const USAGE = `usage: git tag [-a | -s | -u <key-id>] [-f] [-m <msg> | -F <file>] [-e]
               <tagname> [<commit> | <object>]
   or: git tag -d <tagname>...
   or: git tag [-n[<num>]] -l [--contains <commit>] [--no-contains <commit>] [--points-at <object>]
               [--format=<format>] [--merged <commit>] [--no-merged <commit>] [<pattern>...]
   or: git tag -v [--format=<format>] <tagname>...
`;

export async function tag(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      'a|annotate': 'bool', 's|sign': 'bool', 'f|force': 'bool', 'm|message': 'str', 'F|file': 'str', 'e|edit': 'bool', 'd|delete': 'bool', 'l|list': 'bool',
      n: 'opt', '|contains': 'str', '|points-at': 'str', '|sort': 'str', '|merged': 'opt', '|no-merged': 'opt', 'v|verify': 'bool', '|format': 'str', '|cleanup': 'str', 'i|ignore-case': 'bool', '|column': 'opt', '|no-column': 'bool',
    },
    USAGE,
  );
  const repo = ctx.repo();
  const store = new Store(ctx);
  if (o.has('delete')) {
    let status = 0;
    for (const name of o.operands) {
      const oid = await resolveRef(ctx, `refs/tags/${name}`);
      if (!oid) {
        ctx.error(`tag '${name}' not found.`);
        status = 1;
        continue;
      }
      await deleteRef(ctx, `refs/tags/${name}`);
      ctx.print(`Deleted tag '${name}' (was ${oid.slice(0, 7)})\n`);
    }
    return status;
  }
  const annotate = o.has('annotate') || o.given('message') || o.given('file') || o.has('sign');
  if (o.has('list') || o.given('n') || o.given('contains') || o.given('points-at') || o.given('merged') || o.given('no-merged') || (o.operands.length === 0 && !annotate)) {
    let names = await tags(ctx);
    if (o.operands.length) names = names.filter((t) => o.operands.some((p) => wildmatch(p, t, false)));
    const lines = o.given('n') ? Math.max(Number(o.get('n') ?? 1) || 1, 1) : 0;
    const contains = o.get('contains');
    const containsOid = contains !== undefined ? await commitOrDie(ctx, store, contains) : null;
    if (contains !== undefined && !containsOid) ctx.fatal(`malformed object name ${contains}`);
    const pointsAt = o.get('points-at');
    const pointsOid = pointsAt !== undefined ? await resolveRev(ctx, store, pointsAt) : null;
    for (const t of names) {
      const oid = (await resolveRef(ctx, `refs/tags/${t}`))!;
      if (containsOid) {
        const c = await store.peelToCommit(oid);
        if (!c || !(await isAncestor(store, containsOid, c))) continue;
      }
      if (pointsOid && oid !== pointsOid && (await store.peelToCommit(oid)) !== pointsOid) continue;
      if (!lines) {
        ctx.print(`${t}\n`);
        continue;
      }
      const obj = await store.read(oid);
      let text = '';
      if (obj?.type === 'tag') text = (await store.tag(oid)).message;
      else if (obj?.type === 'commit') text = (await store.commit(oid)).message;
      const body = text.replace(/\n+$/, '').split('\n').slice(0, lines);
      ctx.print(`${t.padEnd(15)} ${body.join('\n    ')}\n`.replace(/ +\n$/, '\n'));
    }
    return 0;
  }
  const [name, target = 'HEAD'] = o.operands;
  if (o.operands.length > 2) ctx.fatal('too many arguments');
  if (!validRefName(name)) ctx.fatal(`'${name}' is not a valid tag name.`);
  const existing = await resolveRef(ctx, `refs/tags/${name}`);
  if (existing && !o.has('force')) ctx.fatal(`tag '${name}' already exists`);
  let oid: string | null;
  try {
    oid = await resolveRev(ctx, store, target);
  } catch (e) {
    if (e instanceof AmbiguousOid) ctx.fatal(`Failed to resolve '${target}' as a valid ref.`);
    throw e;
  }
  if (!oid) ctx.fatal(`Failed to resolve '${target}' as a valid ref.`);
  let refValue = oid;
  if (annotate) {
    if (o.has('sign')) ctx.fatal('signing tags is not supported by agentOS git');
    let msg: string;
    let edited = false;
    if (o.given('message')) msg = o.all('message').join('\n\n') + '\n';
    else if (o.given('file')) {
      const f = o.get('file')!;
      const text = f === '-' ? new TextDecoder().decode(ctx.sys.readAll(0)) : ctx.readText(ctx.abs(f));
      if (text === null) ctx.fatal(`could not open or read '${f}': No such file or directory`);
      msg = text;
    } else msg = '';
    if (o.has('edit') || (!o.given('message') && !o.given('file'))) {
      const file = `${repo.gitdir}/TAG_EDITMSG`;
      ctx.sys.writeFile(file, `${msg}\n#\n# Write a message for tag:\n#   ${name}\n# Lines starting with '#' will be ignored.\n`);
      runEditor(ctx, file);
      msg = ctx.readText(file) ?? '';
      edited = true;
    }
    msg = cleanupMessage(msg, (o.get('cleanup') as 'strip' | undefined) ?? (edited ? 'strip' : 'whitespace'));
    if (!msg && !o.given('message')) ctx.fatal('no tag message?');
    const type = (await store.type(oid))!;
    const tagger = whoIs(ctx, 'committer');
    const text = `object ${oid}\ntype ${type}\ntag ${name}\ntagger ${formatIdent(tagger)}\n\n${msg}`;
    refValue = await store.write('tag', text);
  }
  await writeRef(ctx, `refs/tags/${name}`, refValue);
  if (existing && existing !== refValue) ctx.print(`Updated tag '${name}' (was ${existing.slice(0, 7)})\n`);
  return 0;
}

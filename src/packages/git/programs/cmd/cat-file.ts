// git cat-file (-t | -s | -e | -p) <object>
// git cat-file <type> <object>
// git cat-file (--batch | --batch-check)[=<format>] [-z]
//
// Show an object's type, size or content, or whether it exists.

import type { Ctx } from '../core/ctx.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { AmbiguousOid, resolveRev } from '../core/revs.js';
import { lsTreeLine } from './ls-tree.js';

const USAGE = `usage: git cat-file <type> <object>
   or: git cat-file (-e | -p) <object>
   or: git cat-file (-t | -s) [--allow-unknown-type] <object>
   or: git cat-file (--batch | --batch-check | --batch-command) [--batch-all-objects]
                    [--buffer] [--follow-symlinks] [--unordered]
                    [--textconv | --filters] [-z]
   or: git cat-file (--textconv | --filters)
                    [<rev>:<path|tree-ish> | --path=<path|tree-ish> <rev>]

Check object existence or emit object contents
    -e                    check if <object> exists
    -p                    pretty-print <object> content

Emit [broken] object attributes
    -t                    show object type (one of 'blob', 'tree', 'commit', 'tag', ...)
    -s                    show object size
    --allow-unknown-type  allow -s and -t to work with broken/corrupt objects
    --use-mailmap         use mail map file
    --mailmap ...         alias of --use-mailmap

Batch objects requested on stdin (or --batch-all-objects)
    --batch[=<format>]    show full <object> or <rev> contents
    --batch-check[=<format>]
                          like --batch, but don't emit <contents>
    -z                    stdin is NUL-terminated
    --batch-command[=<format>]
                          read commands from stdin
    --batch-all-objects   with --batch[-check]: ignores stdin, batches all known objects

Change or optimize batch output
    --buffer              buffer --batch output
    --follow-symlinks     follow in-tree symlinks
    --unordered           do not order objects before emitting them

Emit object (blob or tree) with conversion or filter (stand-alone, or with batch)
    --textconv            run textconv on object's content
    --filters             run filters on object's content
    --path blob|tree      use a <path> for (--textconv | --filters); Not with 'batch'

`;

/** Resolve a name the way cat-file reports failures (`rev:path` gets git's own wording). */
async function lookup(ctx: Ctx, store: Store, name: string): Promise<string> {
  let oid: string | null = null;
  try {
    oid = await resolveRev(ctx, store, name);
  } catch (e) {
    if (!(e instanceof AmbiguousOid)) throw e;
  }
  if (oid) return oid;
  const colon = name.indexOf(':');
  if (colon > 0) {
    const rev = name.slice(0, colon);
    if (await resolveRev(ctx, store, rev)) ctx.fatal(`path '${name.slice(colon + 1)}' does not exist in '${rev}'`);
  }
  ctx.fatal(`Not a valid object name ${name}`);
}

/** `%(objectname) %(objecttype) %(objectsize)` and friends for one object. */
function batchLine(format: string, oid: string, type: string, size: number, rest: string): string {
  return format.replace(/%\(([a-z:]+)\)/g, (all, atom: string) => {
    switch (atom) {
      case 'objectname': return oid;
      case 'objecttype': return type;
      case 'objectsize': return String(size);
      case 'rest': return rest;
      case 'objectsize:disk': return String(size);
      case 'deltabase': return '0'.repeat(40);
      default: return all;
    }
  });
}

async function batch(ctx: Ctx, store: Store, format: string, contents: boolean, nul: boolean): Promise<number> {
  const input = new TextDecoder().decode(ctx.sys.readAll(0));
  const lines = input.split(nul ? '\0' : '\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    // with %(rest) in the format, the name ends at the first space
    const sp = format.includes('%(rest)') ? line.search(/\s/) : -1;
    const name = sp < 0 ? line : line.slice(0, sp);
    const rest = sp < 0 ? '' : line.slice(sp + 1).replace(/^\s+/, '');
    let oid: string | null = null;
    try {
      oid = await resolveRev(ctx, store, name);
    } catch (e) {
      if (!(e instanceof AmbiguousOid)) throw e;
      ctx.print(`${name} ambiguous\n`);
      continue;
    }
    const obj = oid ? await store.read(oid) : null;
    if (!oid || !obj) {
      ctx.print(`${name} missing\n`);
      continue;
    }
    ctx.print(batchLine(format, oid, obj.type, obj.data.byteLength, rest) + '\n');
    if (contents) {
      ctx.out.write(obj.data);
      ctx.print('\n');
    }
  }
  return 0;
}

export async function catFile(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      t: 'bool', s: 'bool', e: 'bool', p: 'bool', '|batch': 'opt', '|batch-check': 'opt', z: 'bool', '|allow-unknown-type': 'bool', '|buffer': 'bool',
      '|follow-symlinks': 'bool', '|textconv': 'bool', '|filters': 'bool', '|use-mailmap': 'bool', '|mailmap': 'bool', '|unordered': 'bool',
    },
    USAGE,
  );
  ctx.repo();
  const store = new Store(ctx);
  const dflt = '%(objectname) %(objecttype) %(objectsize)';
  if (o.given('batch') || o.given('batch-check')) {
    if (o.operands.length) ctx.fatal('batch modes take no arguments');
    const contents = o.given('batch');
    return batch(ctx, store, (contents ? o.get('batch') : o.get('batch-check')) ?? dflt, contents, o.has('z'));
  }
  const modes = ['t', 's', 'e', 'p'].filter((k) => o.has(k));
  if (modes.length > 1) ctx.fatal(`options '-${modes[0]}' and '-${modes[1]}' cannot be used together`);
  const mode = modes[0];
  if (mode) {
    if (o.operands.length !== 1) {
      if (o.operands.length === 0) ctx.err(`fatal: <object> required with '-${mode}'\n\n${USAGE}`);
      else ctx.err(`fatal: only one argument expected with -${mode}\n\n${USAGE}`);
      return 129;
    }
    const name = o.operands[0];
    if (mode === 'e') {
      let oid: string | null = null;
      try {
        oid = await resolveRev(ctx, store, name);
      } catch (e) {
        if (!(e instanceof AmbiguousOid)) throw e;
      }
      if (!oid) {
        // a full id that is simply absent is "no" (1); an unresolvable name is fatal
        if (/^[0-9a-f]{40}$/.test(name)) return 1;
        await lookup(ctx, store, name);
      }
      return (await store.read(oid!)) ? 0 : 1;
    }
    const oid = await lookup(ctx, store, name);
    const obj = await store.read(oid);
    if (!obj) ctx.fatal(`Not a valid object name ${name}`);
    if (mode === 't') ctx.print(`${obj.type}\n`);
    else if (mode === 's') ctx.print(`${obj.data.byteLength}\n`);
    else if (obj.type === 'tree') {
      for (const e of await store.treeLevel(oid)) ctx.print(lsTreeLine(e.mode, e.oid, e.name, true));
    } else ctx.out.write(obj.data);
    return 0;
  }
  if (o.operands.length !== 2) {
    ctx.err(USAGE);
    return 129;
  }
  const [type, name] = o.operands;
  if (!['blob', 'tree', 'commit', 'tag'].includes(type)) ctx.fatal(`invalid object type "${type}"`);
  const oid = await lookup(ctx, store, name);
  // `cat-file commit v1` peels the tag, as git's read_object_with_reference does
  let cur = oid;
  for (let i = 0; i < 32; i++) {
    const obj = await store.read(cur);
    if (!obj) break;
    if (obj.type === type) {
      ctx.out.write(obj.data);
      return 0;
    }
    if (obj.type === 'tag') cur = (await store.tag(cur)).object;
    else if (obj.type === 'commit' && type === 'tree') cur = (await store.commit(cur)).tree;
    else break;
  }
  ctx.fatal(`git cat-file ${name}: bad file`);
}

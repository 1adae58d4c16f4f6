// git ls-tree [-d] [-r] [-t] [-l] [-z] [--name-only | --name-status]
//             [--full-name] [--full-tree] [--abbrev[=<n>]] <tree-ish> [<path>...]
//
// List a tree's entries (one level, or recursively with -r), limited to the
// paths given and, without --full-tree, to the current directory.

import type { Ctx } from '../core/ctx.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { normalize, relative } from '../core/path.js';
import { quotePath } from '../core/quote.js';
import { resolveTree } from '../core/revs.js';

const USAGE = `usage: git ls-tree [<options>] <tree-ish> [<path>...]

    -d                    only show trees
    -r                    recurse into subtrees
    -t                    show trees when recursing
    -z                    terminate entries with NUL byte
    -l, --long            include object size
    --name-only           list only filenames
    --name-status         list only filenames
    --object-only         list only objects
    --full-name           use full path names
    --full-tree           list entire tree; not just current directory (implies --full-name)
    --format <format>     format to use for the output
    --abbrev[=<n>]        use <n> digits to display object names

`;

export const typeOfMode = (mode: number): string => (mode === 0o040000 ? 'tree' : mode === 0o160000 ? 'commit' : 'blob');

/** `<mode> <type> <object>\t<name>` as ls-tree and `cat-file -p` print a tree entry. */
export function lsTreeLine(mode: number, oid: string, name: string, quote: boolean): string {
  return `${mode.toString(8).padStart(6, '0')} ${typeOfMode(mode)} ${oid}\t${quote ? quotePath(name) : name}\n`;
}

export async function lsTree(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    { d: 'bool', r: 'bool', t: 'bool', z: 'bool', 'l|long': 'bool', '|name-only': 'bool', '|name-status': 'bool', '|object-only': 'bool', '|full-name': 'bool', '|full-tree': 'bool', '|abbrev': 'opt' },
    USAGE,
  );
  const repo = ctx.repo();
  const store = new Store(ctx);
  if (o.operands.length === 0) {
    ctx.err(USAGE);
    return 129;
  }
  const [rev, ...paths] = o.operands;
  const tree = await resolveTree(ctx, store, rev);
  if (!tree) ctx.fatal(`Not a valid object name ${rev}`);
  const prefix = o.has('full-tree') ? '' : repo.prefix;
  const top = repo.dir ?? '/';
  // the paths as top-relative items; a trailing slash asks for the directory's entries
  const items = paths.length
    ? paths.map((p) => {
        const abs = normalize(`${top}/${prefix}${p}`);
        const rel = relative(top, abs);
        if (rel.startsWith('..')) ctx.fatal(`${p}: '${p}' is outside repository at '${top}'`);
        const path = rel === '.' ? '' : rel;
        return { path, inside: p.endsWith('/') || path === '' };
      })
    : [{ path: prefix.replace(/\/$/, ''), inside: true }];
  const recurse = o.has('r');
  const abbrev = o.given('abbrev') ? Math.max(4, Number(o.get('abbrev') ?? 7) || 7) : 40;
  const term = o.has('z') ? '\0' : '\n';
  const shown = (path: string) => {
    if (o.has('full-name') || o.has('full-tree')) return path;
    const r = relative(`${top}/${repo.prefix}`.replace(/\/$/, '') || '/', normalize(`${top}/${path}`));
    return r === '.' ? './' : r;
  };
  const out = async (mode: number, oid: string, path: string) => {
    if (o.has('d') && mode !== 0o040000) return;
    const name = o.has('z') ? shown(path) : quotePath(shown(path), ctx.configBool('core.quotePath', true));
    if (o.has('name-only') || o.has('name-status')) ctx.print(name + term);
    else if (o.has('object-only')) ctx.print(oid.slice(0, abbrev) + term);
    else {
      let size = '';
      if (o.has('long')) size = ` ${(mode === 0o040000 || mode === 0o160000 ? '-' : String((await store.blob(oid)).byteLength)).padStart(7)}`;
      ctx.print(`${mode.toString(8).padStart(6, '0')} ${typeOfMode(mode)} ${oid.slice(0, abbrev)}${size}\t${name}${term}`);
    }
  };
  const walk = async (oid: string, dir: string): Promise<void> => {
    for (const e of await store.treeLevel(oid)) {
      const path = dir === '' ? e.name : `${dir}/${e.name}`;
      const isTree = e.mode === 0o040000;
      // at or under a named path; or a tree on the way to one (or named with a trailing slash)
      const matched = items.some((i) => i.path === '' || path === i.path || path.startsWith(`${i.path}/`));
      const needed = isTree && items.some((i) => i.path.startsWith(`${path}/`) || (i.inside && i.path === path));
      if (!matched && !needed) continue;
      if (isTree && (needed || (recurse && matched))) {
        if (o.has('t')) await out(e.mode, e.oid, path);
        await walk(e.oid, path);
        continue;
      }
      await out(e.mode, e.oid, path);
    }
  };
  await walk(tree, '');
  return 0;
}

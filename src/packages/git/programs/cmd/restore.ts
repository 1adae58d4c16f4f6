// git restore [--source=<tree>] [--staged] [--worktree] [--] <pathspec>...
//
// Restore working-tree files from the index, or index entries (--staged)
// from HEAD, or either from another commit.

import type { Ctx } from '../core/ctx.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { readHead } from '../core/refs.js';
import { restorePaths } from './checkout.js';

const USAGE = `usage: git restore [<options>] [--source=<branch>] <file>...

    -s, --source <tree-ish>
                          which tree-ish to checkout from
    -S, --staged          restore the index
    -W, --worktree        restore the working tree (default)
    --ignore-unmerged     ignore unmerged entries
    --overlay             use overlay mode
    -q, --quiet           suppress progress reporting
`;

export async function restore(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { 's|source': 'str', 'S|staged': 'bool', 'W|worktree': 'bool', '|ignore-unmerged': 'bool', '|overlay': 'bool', 'q|quiet': 'bool', '|progress': 'bool', 'p|patch': 'bool' }, USAGE);
  ctx.worktree();
  if (o.operands.length === 0) ctx.fatal('you must specify path(s) to restore');
  const staged = o.has('staged');
  const worktree = o.has('worktree') || !staged;
  let source = o.get('source') ?? null;
  if (source === null && staged) {
    source = 'HEAD';
    if (!(await readHead(ctx)).oid) ctx.fatal('could not resolve HEAD');
  }
  return restorePaths(ctx, new Store(ctx), o.operands, { source, staged, worktree, command: 'restore', overlay: o.has('overlay') });
}

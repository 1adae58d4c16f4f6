// git mv [-v] [-f] [-n] [-k] <source> <destination>
// git mv [-v] [-f] [-n] [-k] <source>... <destination-directory>
//
// Move or rename tracked files (and directories of them) in the working
// tree and the index.

import { SysError } from '../../../../abi/errno.js';
import { isDir } from '../../../../abi/stat.js';
import type { Ctx } from '../core/ctx.js';
import { mkdirs } from '../core/fsutil.js';
import { reindex } from '../core/index-file.js';
import { parseOptions, UsageFail } from '../core/opts.js';
import { basename, dirname, joinRel, normalize, relative } from '../core/path.js';

const USAGE = `usage: git mv [<options>] <source>... <destination>

    -v, --verbose         be verbose
    -n, --dry-run         dry run
    -f, --force           force move/rename even if target exists
    -k                    skip move/rename errors
`;

export async function mv(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { 'v|verbose': 'bool', 'n|dry-run': 'bool', 'f|force': 'bool', k: 'bool', '|sparse': 'bool' }, USAGE);
  const repo = ctx.worktree();
  if (o.operands.length < 2) throw new UsageFail(USAGE, 129);
  const rel = (p: string) => {
    const r = relative(repo.dir, normalize(ctx.abs(p)));
    if (r.startsWith('..')) ctx.fatal(`${p}: '${p}' is outside repository at '${repo.dir}'`);
    return r === '.' ? '' : r;
  };
  const srcs = o.operands.slice(0, -1);
  const dstArg = o.operands[o.operands.length - 1];
  const dst = rel(dstArg);
  const dstIsDir = ctx.exists(`${repo.dir}/${dst}`) && isDir(ctx.sys.stat(`${repo.dir}/${dst}`).mode);
  if (srcs.length > 1 && !dstIsDir) ctx.fatal(`destination '${dstArg}' is not a directory`);
  const idx = ctx.readIndex();
  const moves: [string, string][] = [];
  for (const s of srcs) {
    const src = rel(s);
    const to = dstIsDir ? joinRel(dst, basename(src)) : dst;
    const fail = (why: string) => {
      if (o.has('k')) return;
      ctx.fatal(`${why}, source=${s}, destination=${dstIsDir ? joinRel(dstArg, basename(s)) : dstArg}`);
    };
    if (!ctx.exists(`${repo.dir}/${src}`)) {
      fail('bad source');
      continue;
    }
    const under = [...idx.byPath.keys()].filter((p) => p === src || p.startsWith(src + '/'));
    if (!under.length) {
      fail('not under version control');
      continue;
    }
    if (to === src || to.startsWith(src + '/')) {
      fail(`can not move directory into itself`);
      continue;
    }
    if (ctx.exists(`${repo.dir}/${to}`) && !o.has('force')) {
      fail('destination exists');
      continue;
    }
    moves.push([src, to]);
  }
  for (const [src, to] of moves) {
    if (o.has('verbose') || o.has('dry-run')) ctx.print(`Renaming ${src} to ${to}\n`);
    if (o.has('dry-run')) continue;
    mkdirs(ctx, `${repo.dir}/${dirname(to)}`);
    try {
      if (o.has('force') && ctx.exists(`${repo.dir}/${to}`) && !isDir(ctx.sys.lstat(`${repo.dir}/${to}`).mode)) ctx.sys.unlink(`${repo.dir}/${to}`);
      ctx.sys.rename(`${repo.dir}/${src}`, `${repo.dir}/${to}`);
    } catch (e) {
      if (e instanceof SysError) ctx.fatal(`renaming '${src}' failed: ${e.message}`);
      throw e;
    }
    const moved = idx.entries.filter((e) => e.path === src || e.path.startsWith(src + '/'));
    idx.entries = idx.entries.filter((e) => !moved.includes(e) && e.path !== to);
    // the entries keep their stat data: unchanged files still match it (a rename keeps the inode)
    for (const e of moved) idx.entries.push({ ...e, path: to + e.path.slice(src.length) });
  }
  reindex(idx);
  if (!o.has('dry-run')) await ctx.writeIndex(idx);
  return 0;
}

// git rm [-f | --force] [-n] [-r] [--cached] [--ignore-unmatch] [--quiet] [--] <pathspec>...
//
// Remove files from the index and the working tree, refusing (without -f)
// to lose changes that exist nowhere else.

import { deleteWorkFile } from '../core/checkout.js';
import type { Ctx } from '../core/ctx.js';
import { reindex } from '../core/index-file.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { pathspec } from '../core/pathspec.js';
import { readHead } from '../core/refs.js';
import { worktreeSnapshot } from '../core/state.js';
import { Worktree } from '../core/worktree.js';

const USAGE = `usage: git rm [<options>] [--] <file>...

    -n, --dry-run         dry run
    -q, --quiet           do not list removed files
    --cached              only remove from the index
    -f, --force           override the up-to-date check
    -r                    allow recursive removal
    --ignore-unmatch      exit with a zero status even if nothing matched
`;

export async function rm(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { 'n|dry-run': 'bool', 'q|quiet': 'bool', '|cached': 'bool', 'f|force': 'count', r: 'bool', '|ignore-unmatch': 'bool', '|sparse': 'bool' }, USAGE);
  const repo = ctx.worktree();
  if (o.operands.length === 0) {
    ctx.err('usage: git rm [<options>] [--] <file>...\n');
    ctx.fatal('No pathspec was given. Which files should I remove?');
  }
  const store = new Store(ctx);
  const ps = pathspec(ctx, o.operands);
  const idx = ctx.readIndex();
  const tracked = [...new Set([...idx.byPath.keys(), ...idx.unmerged.keys()])].sort();
  const hits = tracked.filter((p) => ps.match(p));
  const bad = ps.unmatched();
  if (bad.length && !o.has('ignore-unmatch')) ctx.fatal(`pathspec '${bad[0].raw}' did not match any files`);
  if (!o.has('r')) {
    for (const it of ps.items) {
      if (it.glob || it.exclude) continue;
      if (hits.some((p) => p !== it.path && p.startsWith(it.path === '' ? '' : it.path + '/'))) ctx.fatal(`not removing '${it.raw}' recursively without -r`);
    }
  }
  if (!o.has('force')) {
    const head = await store.commitTree((await readHead(ctx)).oid);
    const wt = new Worktree(ctx, repo.dir, idx).trackedOnly();
    const work = await worktreeSnapshot(wt, hits);
    const both: string[] = [];
    const staged: string[] = [];
    const local: string[] = [];
    for (const p of hits) {
      const i = idx.byPath.get(p);
      if (!i) continue;
      const h = head.get(p);
      const w = work.get(p);
      const stagedDiff = !h || h.oid !== i.oid || h.mode !== i.mode;
      const localDiff = !!w && (w.oid !== i.oid || w.mode !== i.mode);
      if (o.has('cached')) {
        if (stagedDiff && localDiff && h) both.push(p);
      } else if (stagedDiff && localDiff) both.push(p);
      else if (stagedDiff && w) staged.push(p);
      else if (localDiff) local.push(p);
    }
    const report = (list: string[], one: string, many: string, hint: string) => {
      if (!list.length) return false;
      ctx.error(`${list.length === 1 ? one : many}\n${list.map((p) => `    ${p}\n`).join('')}${hint}`);
      return true;
    };
    const failed =
      report(both, 'the following file has staged content different from both the\nfile and the HEAD:', 'the following files have staged content different from both the\nfile and the HEAD:', '(use -f to force removal)') ||
      report(staged, 'the following file has changes staged in the index:', 'the following files have changes staged in the index:', '(use --cached to keep the file, or -f to force removal)') ||
      report(local, 'the following file has local modifications:', 'the following files have local modifications:', '(use --cached to keep the file, or -f to force removal)');
    if (failed) return 1;
  }
  for (const p of hits) if (!o.has('quiet')) ctx.print(`rm '${p}'\n`);
  if (o.has('dry-run')) return 0;
  const drop = new Set(hits);
  idx.entries = idx.entries.filter((e) => !drop.has(e.path));
  reindex(idx);
  await ctx.writeIndex(idx);
  if (!o.has('cached')) for (const p of hits) deleteWorkFile(ctx, repo.dir, p);
  return 0;
}

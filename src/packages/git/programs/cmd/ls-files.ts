// git ls-files [-c | --cached] [-d | --deleted] [-m | --modified] [-o | --others]
//              [-i | --ignored] [-s | --stage] [-u | --unmerged] [-z]
//              [--exclude-standard] [--full-name] [--error-unmatch] [--] [<file>...]
//
// Show what the index holds (and what the working tree has beside it).

import type { Ctx } from '../core/ctx.js';
import { parseOptions } from '../core/opts.js';
import { pathspec, showPath } from '../core/pathspec.js';
import { quotePath } from '../core/quote.js';
import { worktreeSnapshot } from '../core/state.js';
import { Worktree } from '../core/worktree.js';

const USAGE = `usage: git ls-files [<options>] [<file>...]

    -z                    separate paths with NUL
    -t                    identify the file status with tags
    -c, --cached          show cached files in the output (default)
    -d, --deleted         show deleted files in the output
    -m, --modified        show modified files in the output
    -o, --others          show other files in the output
    -i, --ignored         show ignored files in the output
    -s, --stage           show staged contents' object name in the output
    --directory           show 'other' directories' names only
    -u, --unmerged        show unmerged files in the output
    --exclude-standard    add the standard git exclusions
    --full-name           make the output relative to the project top directory
    --error-unmatch       if any <file> is not in the index, treat this as an error
`;

export async function lsFiles(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      z: 'bool', t: 'bool', 'c|cached': 'bool', 'd|deleted': 'bool', 'm|modified': 'bool', 'o|others': 'bool', 'i|ignored': 'bool', 's|stage': 'bool',
      '|directory': 'bool', 'u|unmerged': 'bool', '|exclude-standard': 'bool', '|full-name': 'bool', '|error-unmatch': 'bool', x: 'str', 'X': 'str', '|abbrev': 'opt', '|no-empty-directory': 'bool',
    },
    USAGE,
  );
  const repo = ctx.worktree();
  const term = o.has('z') ? '\0' : '\n';
  const name = (p: string) => {
    const shown = o.has('full-name') ? p : showPath(ctx, p);
    return o.has('z') ? shown : quotePath(shown, ctx.configBool('core.quotePath', true));
  };
  const ps = pathspec(ctx, o.operands.length ? o.operands : ['.']);
  const idx = ctx.readIndex();
  const stage = o.has('stage') || o.has('unmerged');
  const others = o.has('others');
  const cached = o.has('cached') || !(o.has('deleted') || o.has('modified') || others || o.has('unmerged') || (o.has('ignored') && !stage));
  const tag = (t: string) => (o.has('t') ? `${t} ` : '');
  if (o.has('ignored') && !o.has('exclude-standard') && !o.given('x') && !o.given('X')) ctx.fatal('ls-files -i must be used with either -o or -c');
  if (cached || stage) {
    for (const e of idx.entries) {
      if (!ps.match(e.path)) continue;
      if (o.has('unmerged') && e.stage === 0) continue;
      if (stage) ctx.print(`${tag('H')}${e.mode.toString(8).padStart(6, '0')} ${e.oid} ${e.stage}\t${name(e.path)}${term}`);
      else ctx.print(`${tag(e.stage ? 'M' : 'H')}${name(e.path)}${term}`);
    }
  }
  if (o.has('deleted') || o.has('modified')) {
    const wt = new Worktree(ctx, repo.dir, idx).trackedOnly();
    const paths = [...idx.byPath.keys()].filter((p) => ps.match(p));
    const work = await worktreeSnapshot(wt, paths);
    for (const p of paths) {
      const w = work.get(p);
      const e = idx.byPath.get(p)!;
      if (!w && o.has('deleted')) ctx.print(`${tag('R')}${name(p)}${term}`);
      if (o.has('modified') && (!w || w.oid !== e.oid || w.mode !== e.mode)) ctx.print(`${tag('C')}${name(p)}${term}`);
    }
  }
  if (others) {
    const standard = o.has('exclude-standard');
    const wt = new Worktree(ctx, repo.dir, idx).scan({ untracked: o.has('directory') ? 'normal' : 'all', ignored: o.has('ignored') || !standard });
    const list = o.has('ignored') ? wt.ignoredPaths : standard ? wt.untracked : [...wt.untracked, ...wt.ignoredPaths].sort();
    for (const p of list) if (ps.match(p.replace(/\/$/, ''))) ctx.print(`${tag('?')}${name(p)}${term}`);
  }
  if (o.has('error-unmatch')) {
    for (const it of ps.items) {
      if (!it.matched && o.operands.length) {
        ctx.error(`pathspec '${it.raw}' did not match any file(s) known to git`);
        ctx.err("Did you forget to 'git add'?\n");
        return 1;
      }
    }
  }
  return 0;
}

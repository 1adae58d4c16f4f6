// git clean [-d] [-f] [-n] [-q] [-e <pattern>] [-x | -X] [--] [<pathspec>...]
//
// Remove untracked files from the work tree (ignored ones too with -x, only
// them with -X; whole untracked directories with -d; nested repositories
// with -ff), below the current directory or the paths given.

import { SysError } from '../../../../abi/errno.js';
import { S_IFDIR, S_IFMT } from '../../../../abi/stat.js';
import type { Ctx } from '../core/ctx.js';
import { removeTree } from '../core/fsutil.js';
import { Ignores } from '../core/ignore.js';
import { parseOptions } from '../core/opts.js';
import { comparePaths, joinRel } from '../core/path.js';
import { pathspec, showPath } from '../core/pathspec.js';
import { quotePath } from '../core/quote.js';

const USAGE = `usage: git clean [-d] [-f] [-i] [-n] [-q] [-e <pattern>] [-x | -X] [--] [<pathspec>...]

    -q, --quiet           do not print names of files removed
    -n, --dry-run         dry run
    -f, --force           force
    -i, --interactive     interactive cleaning
    -d                    remove whole directories
    -e, --exclude <pattern>
                          add <pattern> to ignore rules
    -x                    remove ignored files, too
    -X                    remove only ignored files

`;

export async function clean(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { 'q|quiet': 'bool', 'n|dry-run': 'bool', 'f|force': 'count', 'i|interactive': 'bool', d: 'bool', 'e|exclude': 'str', x: 'bool', X: 'bool' }, USAGE);
  const repo = ctx.worktree();
  if (o.has('interactive')) ctx.fatal('interactive clean is not supported by agentOS git');
  const force = o.count('force');
  const dry = o.has('dry-run');
  if (!force && !dry && ctx.configBool('clean.requireForce', true)) ctx.fatal('clean.requireForce defaults to true and neither -i, -n, nor -f given; refusing to clean');
  if (o.has('x') && o.has('X')) ctx.fatal('options \'-x\' and \'-X\' cannot be used together');
  const dirs = o.has('d');
  const top = repo.dir;
  const idx = ctx.readIndex();
  const tracked = new Set([...idx.byPath.keys(), ...idx.unmerged.keys()]);
  const trackedDirs = new Set<string>();
  for (const p of tracked) for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) trackedDirs.add(p.slice(0, i));
  const ignores = new Ignores(ctx, top);
  ignores.addPatterns(o.all('exclude'));
  const ps = o.operands.length ? pathspec(ctx, o.operands) : null;
  const scope = repo.prefix.replace(/\/$/, '');
  const inScope = (p: string) => (ps ? ps.match(p) : scope === '' || p === scope || p.startsWith(`${scope}/`));
  /** A directory the pathspec (or the current directory) reaches into or names. */
  const reaches = (d: string) =>
    ps ? ps.items.some((i) => !i.exclude && (i.path === '' || i.path.startsWith(`${d}/`) || d === i.path || d.startsWith(`${i.path}/`) || i.glob !== null)) : scope === '' || scope.startsWith(`${d}/`) || d === scope || d.startsWith(`${scope}/`);

  const list = (dir: string) => {
    try {
      return ctx.sys
        .readdir(dir === '' ? top : `${top}/${dir}`)
        .filter((e) => e.name !== '.' && e.name !== '..' && !(dir === '' && e.name === '.git'))
        .sort((a, b) => comparePaths(a.name, b.name));
    } catch (e) {
      if (e instanceof SysError) return [];
      throw e;
    }
  };
  const isDir = (p: string) => {
    try {
      return (ctx.sys.lstat(`${top}/${p}`).mode & S_IFMT) === S_IFDIR;
    } catch {
      return false;
    }
  };
  const nested = (p: string) => ctx.exists(`${top}/${p}/.git`);
  /** Is a file removable under -x / -X? */
  const fileGoes = (ignored: boolean) => (o.has('X') ? ignored : o.has('x') || !ignored);

  /** Can the whole untracked directory go (everything in it removable)? */
  const wholeGoes = (d: string, ignoredAbove: boolean): boolean => {
    if (nested(d)) return force > 1;
    for (const e of list(d)) {
      const p = joinRel(d, e.name);
      const ig = ignoredAbove || ignores.ignored(p, isDir(p));
      if (isDir(p)) {
        if (!wholeGoes(p, ig)) return false;
      } else if (!fileGoes(ig)) return false;
    }
    return true;
  };

  const removals: { path: string; dir: boolean }[] = [];
  const walkUntracked = (d: string, ignoredAbove: boolean) => {
    for (const e of list(d)) {
      const p = joinRel(d, e.name);
      const ig = ignoredAbove || ignores.ignored(p, isDir(p));
      if (isDir(p)) {
        if (nested(p)) {
          if (force > 1 && dirs && inScope(p)) removals.push({ path: p, dir: true });
          continue;
        }
        if (dirs && inScope(p) && wholeGoes(p, ig) && (!o.has('X') || ig)) removals.push({ path: p, dir: true });
        else if (ps || dirs || o.has('X')) walkUntracked(p, ig);
        continue;
      }
      if (inScope(p) && fileGoes(ig)) removals.push({ path: p, dir: false });
    }
  };
  const walk = (dir: string) => {
    for (const e of list(dir)) {
      const p = joinRel(dir, e.name);
      if (tracked.has(p)) continue;
      if (isDir(p)) {
        if (trackedDirs.has(p)) {
          if (reaches(p)) walk(p);
          continue;
        }
        if (!reaches(p)) continue;
        const ig = ignores.ignored(p, true);
        if (nested(p)) {
          if (force > 1 && dirs && inScope(p)) removals.push({ path: p, dir: true });
          continue;
        }
        if (ig) {
          // an ignored directory goes whole with -d (and -x or -X)
          if ((o.has('x') || o.has('X')) && dirs && inScope(p)) removals.push({ path: p, dir: true });
          continue;
        }
        if (dirs && inScope(p) && wholeGoes(p, false) && !o.has('X')) removals.push({ path: p, dir: true });
        else if (ps || dirs || o.has('X')) walkUntracked(p, false);
        continue;
      }
      if (!inScope(p)) continue;
      if (fileGoes(ignores.ignored(p, false))) removals.push({ path: p, dir: false });
    }
  };
  walk('');

  const quote = ctx.configBool('core.quotePath', true);
  for (const r of removals) {
    const shown = quotePath(showPath(ctx, r.dir ? `${r.path}/` : r.path), quote);
    if (dry) {
      ctx.print(`Would remove ${shown}\n`);
      continue;
    }
    const abs = `${top}/${r.path}`;
    try {
      if (r.dir) removeTree(ctx, abs);
      else ctx.sys.unlink(abs);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      ctx.warning(`failed to remove ${shown}: ${e.message}`);
      continue;
    }
    if (!o.has('quiet')) ctx.print(`Removing ${shown}\n`);
  }
  return 0;
}

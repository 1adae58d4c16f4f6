// Pathspecs: command-line paths (relative to the current directory) as
// top-relative patterns. A plain item matches itself and everything under
// it; an item with wildcards matches as a glob in which `*` crosses '/'.
// Magic: `:/path` (from the top), `:!path` / `:^path` / `:(exclude)path`.

import type { Ctx } from './ctx.js';
import { normalize, relative } from './path.js';
import { hasGlob, wildRegExp } from './wildmatch.js';

export interface PathItem {
  /** As the user wrote it (for error messages). */
  raw: string;
  /** Top-relative, '' for the whole tree. */
  path: string;
  glob: RegExp | null;
  exclude: boolean;
  matched: boolean;
}

export class Pathspec {
  constructor(readonly items: PathItem[]) {}

  get empty(): boolean {
    return this.items.every((i) => i.exclude);
  }

  /** Does `path` (a file, top-relative) fall under the pathspec? Marks the items that matched. */
  match(path: string): boolean {
    let hit = false;
    let any = false;
    for (const it of this.items) {
      if (it.exclude) continue;
      any = true;
      if (itemMatches(it, path)) {
        it.matched = true;
        hit = true;
      }
    }
    if (!any) hit = true;
    if (hit) for (const it of this.items) if (it.exclude && itemMatches(it, path)) return false;
    return hit;
  }

  /** Items that matched nothing (excludes never complain). */
  unmatched(): PathItem[] {
    return this.items.filter((i) => !i.exclude && !i.matched);
  }
}

function itemMatches(it: PathItem, path: string): boolean {
  if (it.path === '' || path === it.path || path.startsWith(it.path + '/')) return true;
  if (!it.glob) return false;
  if (it.glob.test(path)) return true;
  // a glob naming a leading directory matches what is inside it
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) if (it.glob.test(path.slice(0, i))) return true;
  return false;
}

/** Turn command-line paths into a pathspec; paths outside the work tree are fatal. */
export function pathspec(ctx: Ctx, args: string[]): Pathspec {
  const repo = ctx.worktree();
  const items: PathItem[] = [];
  for (const raw of args) {
    let p = raw;
    let exclude = false;
    let top = false;
    const magic = /^:\(([^)]*)\)/.exec(p);
    if (magic) {
      for (const m of magic[1].split(',')) {
        if (m === 'exclude') exclude = true;
        else if (m === 'top') top = true;
      }
      p = p.slice(magic[0].length);
    } else if (/^:[!^/]/.test(p)) {
      let k = 1;
      for (; k < p.length && '!^/'.includes(p[k]); k++) {
        if (p[k] === '/') top = true;
        else exclude = true;
      }
      p = p.slice(k);
    }
    const abs = normalize(top ? `${repo.dir}/${p}` : p.startsWith('/') ? p : `${ctx.cwd}/${p}`);
    const rel = relative(repo.dir, abs);
    if (rel.startsWith('..') || (rel !== '.' && abs !== repo.dir && !abs.startsWith(repo.dir === '/' ? '/' : repo.dir + '/'))) {
      ctx.fatal(`${raw}: '${raw}' is outside repository at '${repo.dir}'`);
    }
    const path = rel === '.' ? '' : rel;
    items.push({ raw, path, glob: hasGlob(path) ? wildRegExp(path, false) : null, exclude, matched: false });
  }
  return new Pathspec(items);
}

/** A top-relative path as shown to the user: relative to the current directory. */
export function showPath(ctx: Ctx, path: string): string {
  const repo = ctx.repo();
  if (!repo.dir) return path;
  const trailing = path.endsWith('/') ? '/' : '';
  const r = relative(ctx.cwd, normalize(`${repo.dir}/${path}`));
  return r + (trailing && !r.endsWith('/') ? trailing : '');
}

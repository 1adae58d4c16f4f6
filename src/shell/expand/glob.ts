// Pathname expansion over the context's directory listings. Patterns come in
// escaped source form (see pattern.ts), so quoted metacharacters stay literal.
// The matches are sorted in C-locale order, as bash does.
import type { ExpandContext } from './context.js';
import { compile, hasGlob, unescapePattern } from './pattern.js';

/** Splits at unescaped slashes. */
function components(src: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\' && i + 1 < src.length) {
      cur += c + src[++i];
    } else if (c === '/') {
      out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur);
  return out;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

class Globber {
  private readonly comps: string[];
  private readonly listings = new Map<string, string[] | null>();
  readonly out: string[] = [];

  constructor(src: string, private readonly ctx: ExpandContext) {
    this.comps = components(src);
  }

  run(): string[] {
    if (this.comps.length > 1 && this.comps[0] === '') this.walk('/', 1);
    else this.walk('', 0);
    // bash sorts the whole list (so `a-b/x` comes before `a/x`).
    return this.out.sort(byCodeUnit);
  }

  /** The host path for a display prefix ('' is the current directory). */
  private fsPath(p: string): string {
    if (p.startsWith('/')) return p;
    const cwd = this.ctx.cwd();
    return p === '' ? cwd : (cwd.endsWith('/') ? cwd : cwd + '/') + p;
  }

  private list(prefix: string): string[] | null {
    const key = this.fsPath(prefix);
    let l = this.listings.get(key);
    if (l === undefined) {
      l = this.ctx.readdir(key);
      if (l !== null) l = [...l].sort(byCodeUnit);
      this.listings.set(key, l);
    }
    return l;
  }

  private isDir(p: string): boolean {
    return this.ctx.isDir(this.fsPath(p));
  }

  /** Names in `prefix` a component matches; dot files only when asked for. */
  private matches(prefix: string, comp: string): string[] {
    const names = this.list(prefix);
    if (names === null) return [];
    const { opts } = this.ctx;
    const leadingDot = comp.startsWith('.') || comp.startsWith('\\.');
    const dots = opts.dotglob || leadingDot;
    const re = compile(comp, { extglob: opts.extglob, nocase: opts.nocaseglob }).full;
    // Under `shopt -u globskipdots` a pattern starting with a dot matches . and .. too.
    const all = leadingDot && opts.globskipdots === false ? ['.', '..', ...names] : names;
    return all.filter((n) => (dots || n[0] !== '.') && re.test(n));
  }

  /** Every directory below prefix (pre-order), for `**`. */
  private subdirs(prefix: string, acc: string[]): string[] {
    for (const n of this.list(prefix) ?? []) {
      if (n[0] === '.' && !this.ctx.opts.dotglob) continue;
      const p = prefix + n;
      if (this.isDir(p)) {
        acc.push(p + '/');
        this.subdirs(p + '/', acc);
      }
    }
    return acc;
  }

  private walk(prefix: string, i: number): void {
    const comp = this.comps[i];
    const last = i === this.comps.length - 1;
    if (comp === '') {
      // A trailing slash (the prefix is a directory already) or a doubled one.
      if (last) {
        if (prefix !== '') this.out.push(prefix);
      } else {
        this.walk(prefix + '/', i + 1);
      }
      return;
    }
    if (comp === '**' && this.ctx.opts.globstar) {
      const dirs = this.subdirs(prefix, []);
      if (last) {
        if (prefix !== '') this.out.push(prefix);
        this.everything(prefix);
      } else {
        this.walk(prefix, i + 1);
        for (const d of dirs) this.walk(d, i + 1);
      }
      return;
    }
    if (!hasGlob(comp, this.ctx.opts.extglob)) {
      const name = unescapePattern(comp);
      if (last) {
        if ((this.list(prefix) ?? []).includes(name)) this.out.push(prefix + name);
      } else if (this.isDir(prefix + name)) {
        this.walk(prefix + name + '/', i + 1);
      }
      return;
    }
    for (const n of this.matches(prefix, comp)) {
      if (last) this.out.push(prefix + n);
      else if (this.isDir(prefix + n)) this.walk(prefix + n + '/', i + 1);
    }
  }

  /** `**` as the last component: every file and directory below, pre-order. */
  private everything(prefix: string): void {
    for (const n of this.list(prefix) ?? []) {
      if (n[0] === '.' && !this.ctx.opts.dotglob) continue;
      const p = prefix + n;
      this.out.push(p);
      if (this.isDir(p)) this.everything(p + '/');
    }
  }
}

/** The paths a pattern (escaped source form) matches; empty when none. */
export function glob(src: string, ctx: ExpandContext): string[] {
  const ignore = ctx.vars.get('GLOBIGNORE');
  if (!ignore) return new Globber(src, ctx).run();
  // A non-empty GLOBIGNORE turns on dotglob and drops the matches of any of its
  // colon-separated patterns (matched against the whole path), and . and .. always.
  const opts = ctx.opts;
  const found = new Globber(src, { ...ctx, opts: { ...opts, dotglob: true } }).run();
  const popts = { extglob: opts.extglob, nocase: opts.nocaseglob };
  // As with FNM_PATHNAME, a / is matched only by a / in the pattern: compare component by component.
  const ignored = splitIgnore(ignore).map((p) => p.split('/').map((c) => compile(c, popts).full));
  const hit = (comps: RegExp[], parts: string[]) => parts.length === comps.length && parts.every((x, i) => comps[i].test(x));
  return found.filter((path) => {
    const parts = path.split('/');
    return !/^\.\.?$/.test(parts[parts.length - 1]) && !ignored.some((comps) => hit(comps, parts));
  });
}

/** GLOBIGNORE's patterns: split at colons outside bracket expressions, keeping backslash escapes. */
function splitIgnore(spec: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i];
    if (c === '\\' && i + 1 < spec.length) {
      cur += c + spec[++i];
    } else if (c === '[') {
      // A bracket expression runs to its closing ] (a ] first, or after !/^, is a member).
      let j = i + 1;
      if (spec[j] === '!' || spec[j] === '^') j++;
      if (spec[j] === ']') j++;
      while (j < spec.length && spec[j] !== ']') j += spec[j] === '[' && spec[j + 1] === ':' ? Math.max(spec.indexOf(':]', j + 2) + 2 - j, 1) : 1;
      if (j < spec.length) {
        cur += spec.slice(i, j + 1);
        i = j;
      } else cur += c;
    } else if (c === ':') {
      if (cur !== '') out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur !== '') out.push(cur);
  return out;
}

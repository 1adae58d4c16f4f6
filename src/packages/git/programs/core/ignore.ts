// gitignore(5): per-directory .gitignore files, .git/info/exclude and
// core.excludesFile. The last matching pattern decides, deeper files before
// shallower ones; `!` re-includes; a trailing '/' matches directories only;
// a pattern without a '/' matches the name at any depth.

import type { Ctx } from './ctx.js';
import { basename, joinRel } from './path.js';
import { wildRegExp } from './wildmatch.js';

interface Rule {
  /** Directory (top-relative) the pattern is relative to. */
  base: string;
  re: RegExp;
  negate: boolean;
  dirOnly: boolean;
  /** Matched against the name alone (no '/' in the pattern). */
  nameOnly: boolean;
}

function parseRules(text: string, base: string): Rule[] {
  const rules: Rule[] = [];
  for (let line of text.split('\n')) {
    line = line.replace(/\r$/, '');
    if (line === '' || line.startsWith('#')) continue;
    // trailing spaces go unless escaped
    line = line.replace(/(?<!\\)\s+$/, '');
    if (line === '') continue;
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    let dirOnly = false;
    if (line.endsWith('/')) {
      dirOnly = true;
      line = line.replace(/\/+$/, '');
    }
    if (line === '') continue;
    const nameOnly = !line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    rules.push({ base, re: wildRegExp(line, true), negate, dirOnly, nameOnly });
  }
  return rules;
}

export class Ignores {
  /** Rule lists, lowest precedence first: excludesFile, info/exclude, then .gitignore files by directory. */
  private global: Rule[] = [];
  /** Patterns from the command line (`clean -e`): above every file. */
  private cmdline: Rule[] = [];
  private perDir = new Map<string, Rule[]>();

  constructor(
    private readonly ctx: Ctx,
    private readonly top: string,
  ) {
    const xdg = ctx.env.XDG_CONFIG_HOME || (ctx.env.HOME ? `${ctx.env.HOME}/.config` : '');
    const excludes = ctx.config('core.excludesFile') ?? (xdg ? `${xdg}/git/ignore` : null);
    if (excludes) this.global.push(...parseRules(ctx.readText(excludes.replace(/^~(?=\/)/, ctx.env.HOME ?? '~')) ?? '', ''));
    this.global.push(...parseRules(ctx.readText(`${ctx.repo().commondir}/info/exclude`) ?? '', ''));
  }

  /** Add command-line patterns, which take precedence over every file. */
  addPatterns(patterns: string[]): void {
    this.cmdline.push(...parseRules(patterns.join('\n'), ''));
  }

  /** The rules of `dir`/.gitignore (loaded once). */
  private rulesOf(dir: string): Rule[] {
    let r = this.perDir.get(dir);
    if (!r) {
      r = parseRules(this.ctx.readText(`${this.top}/${joinRel(dir, '.gitignore')}`) ?? '', dir);
      this.perDir.set(dir, r);
    }
    return r;
  }

  /** Is `path` (top-relative) excluded by the patterns? Parent directories are the caller's business. */
  ignored(path: string, isDir: boolean): boolean {
    const dirs: string[] = [];
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) dirs.push(path.slice(0, i));
    const lists = [this.cmdline, ...[...dirs].reverse().map((d) => this.rulesOf(d)), this.rulesOf(''), this.global];
    const name = basename(path);
    for (const list of lists) {
      for (let k = list.length - 1; k >= 0; k--) {
        const r = list[k];
        if (r.dirOnly && !isDir) continue;
        const subject = r.nameOnly ? name : r.base === '' ? path : path.startsWith(r.base + '/') ? path.slice(r.base.length + 1) : null;
        if (subject === null) continue;
        if (r.re.test(subject)) return !r.negate;
      }
    }
    return false;
  }

  /** Is `path` or any directory above it excluded? */
  excluded(path: string, isDir: boolean): boolean {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) if (this.ignored(parts.slice(0, i).join('/'), true)) return true;
    return this.ignored(path, isDir);
  }
}

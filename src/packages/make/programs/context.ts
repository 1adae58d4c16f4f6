// The state of one make run: options, variables, the rule database, where
// reading or running stands (for messages), and the variable operations
// (assignment operators, lookups, the environment given to recipes).

import type { AgentosApi } from '../../../runtimes/js/api.js';
import type { Sys } from '../../../libc/sys.js';
import { expand } from './expand.js';
import { FileNode, type Loc, type PatternRule, type Recipe } from './rules.js';
import { shellOutput } from './shell.js';
import { canSet, Scope, type Flavor, type Origin, type Var } from './vars.js';

export interface Options {
  dryRun: boolean;
  keepGoing: boolean;
  silent: boolean;
  ignoreErrors: boolean;
  alwaysMake: boolean;
  question: boolean;
  touch: boolean;
  jobs: number;
  envOverrides: boolean;
  noBuiltinRules: boolean;
  noBuiltinVars: boolean;
  /** -w / --no-print-directory; null: make's default. */
  printDirectory: boolean | null;
  warnUndefined: boolean;
  /** -o FILE: never remade, and too old to make anything out of date. */
  oldFiles: Set<string>;
  /** -W FILE: taken as just modified. */
  newFiles: Set<string>;
}

/** A fatal error: printed as `where: *** msg.  Stop.` and exit 2. */
export class MakeFatal extends Error {
  constructor(
    msg: string,
    readonly loc: Loc | null,
  ) {
    super(msg);
  }
}

export type AssignOp = '=' | ':=' | '::=' | '+=' | '?=' | '!=';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class Make {
  readonly sys: Sys;
  readonly globals = new Scope(null);
  readonly files = new Map<string, FileNode>();
  readonly patternRules: PatternRule[] = [];
  readonly builtinRules: PatternRule[] = [];
  /** Pattern-specific variables, in definition order. */
  readonly patternVars: { pattern: string; name: string; op: AssignOp; value: string; origin: Origin; exported?: boolean; priv?: boolean }[] = [];
  /** Where reading or expansion stands, for $(warning), $(error) and fatal messages. */
  loc: Loc | null = null;
  /** Variables being expanded (recursion check). */
  readonly expanding = new Set<string>();
  /** `export` alone, or .EXPORT_ALL_VARIABLES. */
  exportAll = false;
  suffixes: string[] = [];
  /** Names given `export`/`unexport` before any definition. */
  readonly exportNames = new Map<string, boolean>();
  /** This make's name in messages: `make` or `make[N]`. */
  prog = 'make';
  level = 0;
  recipePrefix = '\t';
  /** Special targets given without prerequisites (.SILENT, .DELETE_ON_ERROR, .NOTPARALLEL, …). */
  readonly flags = new Set<string>();
  readonly silentTargets = new Set<string>();
  readonly ignoreTargets = new Set<string>();
  defaultRecipe: Recipe | null = null;
  /** `vpath PATTERN DIRS` directives, in order. */
  readonly vpaths: { pattern: string; dirs: string[] }[] = [];
  /** `include`d files that did not exist (made, or reported, after reading). */
  readonly missingIncludes: { name: string; loc: Loc }[] = [];

  constructor(
    readonly os: AgentosApi,
    readonly opts: Options,
  ) {
    this.sys = os.sys;
  }

  file(name: string): FileNode {
    let f = this.files.get(name);
    if (!f) {
      f = new FileNode(name);
      this.files.set(name, f);
    }
    return f;
  }

  /** A target's own variables (a context of its own for `private`). */
  newScope(): Scope {
    return new Scope(this.globals, true);
  }

  // --- messages ---------------------------------------------------------

  /** Write to stdout now (recipes share it, so nothing is buffered). */
  out(text: string): void {
    this.sys.writeAll(1, text);
  }

  err(text: string): void {
    this.sys.writeAll(2, text);
  }

  /** `make: msg` on stderr. */
  note(msg: string): void {
    this.err(`${this.prog}: ${msg}\n`);
  }

  /** `file:line: msg` (or `make: msg` outside any makefile) on stderr. */
  warnAt(msg: string, loc = this.loc): void {
    this.err(loc ? `${loc.file}:${loc.line}: ${msg}\n` : `${this.prog}: ${msg}\n`);
  }

  fatal(msg: string, loc = this.loc): never {
    throw new MakeFatal(msg, loc);
  }

  // --- variables --------------------------------------------------------

  expand(text: string, scope: Scope = this.globals): string {
    return expand(this, text, scope);
  }

  /** The expanded value of variable `name` as seen from `scope` ('' if undefined). */
  value(name: string, scope: Scope = this.globals): string {
    const hit = scope.lookup(name);
    if (!hit) {
      if (this.opts.warnUndefined) this.warnAt(`warning: undefined variable '${name}'`);
      return '';
    }
    return this.valueOf(name, hit.v, hit.scope, scope);
  }

  private valueOf(name: string, v: Var, where: Scope, from: Scope): string {
    let own: string;
    if (v.flavor === 'simple') own = v.value;
    else {
      const key = `${name}\0${v.value}`;
      if (this.expanding.has(key)) this.fatal(`Recursive variable '${name}' references itself (eventually)`, v.loc ?? this.loc);
      this.expanding.add(key);
      try {
        own = this.expand(v.value, from);
      } finally {
        this.expanding.delete(key);
      }
    }
    if (!v.append) return own;
    // What the enclosing scopes give, as seen from the appending target (not through another target's private variables).
    const outer = where.parent?.lookup(name, where.home);
    const base = outer ? this.valueOf(name, outer.v, outer.scope, from) : '';
    return base === '' ? own : own === '' ? base : `${base} ${own}`;
  }

  /** Define a variable by `op` in `scope`; `value` is the text after the operator. */
  assign(scope: Scope, name: string, op: AssignOp, value: string, origin: Origin, opts: { exported?: boolean; priv?: boolean } = {}): void {
    const old = scope.vars.get(name);
    if (!canSet(old, origin)) return;
    const global = scope === this.globals;
    const keepExport = opts.exported ?? old?.exported ?? this.exportNames.get(name);
    const put = (v: string, flavor: Flavor, append = false) => {
      scope.vars.set(name, { value: v, flavor, origin, exported: keepExport, append: append || undefined, private: opts.priv, loc: this.loc });
    };
    switch (op) {
      case '=':
        put(value, 'recursive');
        break;
      case ':=':
      case '::=':
        put(this.expand(value, scope), 'simple');
        break;
      case '?=':
        if (global ? scope.lookup(name) : old) return;
        put(value, 'recursive');
        break;
      case '!=':
        put(shellOutput(this, this.expand(value, scope)), 'recursive');
        break;
      case '+=': {
        if (old) {
          const add = old.flavor === 'simple' ? this.expand(value, scope) : value;
          scope.vars.set(name, { ...old, value: old.value === '' ? add : `${old.value} ${add}`, origin: old.origin === 'command line' || old.origin === 'override' ? old.origin : origin, exported: keepExport });
        } else if (!global) put(value, 'recursive', true);
        else put(value, 'recursive');
        break;
      }
    }
  }

  /** A plain simple definition (defaults, automatic variables). */
  setSimple(scope: Scope, name: string, value: string, origin: Origin): void {
    scope.vars.set(name, { value, flavor: 'simple', origin });
  }

  /** The environment for recipes and $(shell): exported variables, MAKEFLAGS and MAKELEVEL. */
  childEnv(scope: Scope, forRecipe: boolean): string[] {
    const seen = new Map<string, string>();
    const chain: Scope[] = [];
    for (let s: Scope | null = scope; s; s = s.parent) chain.unshift(s);
    const names = new Set<string>();
    for (const s of chain) for (const k of s.vars.keys()) names.add(k);
    for (const name of names) {
      if (!ENV_NAME.test(name)) continue;
      // GNU Make 4.3 exports a target's private variables to its prerequisites' recipes too.
      const hit = scope.lookup(name, null);
      if (!hit) continue;
      const v = hit.v;
      if (v.origin === 'automatic' || v.origin === 'default') continue;
      const exp = v.exported ?? this.exportNames.get(name) ?? (this.exportAll || v.origin === 'environment' || v.origin === 'environment override' || v.origin === 'command line');
      if (!exp) continue;
      if (name === 'MAKEFLAGS' || name === 'MAKELEVEL') continue;
      seen.set(name, this.valueOf(name, v, hit.scope, scope));
    }
    const flags = this.value('MAKEFLAGS', scope);
    seen.set('MAKEFLAGS', flags);
    // MFLAGS: the same options with a dash and without the variables (the older spelling).
    const opts = flags.replace(/(^| )-- .*$/, '');
    seen.set('MFLAGS', opts === '' ? '' : opts.startsWith(' ') ? opts.slice(1) : `-${opts}`);
    seen.set('MAKELEVEL', String(forRecipe ? this.level + 1 : this.level));
    // The environment's SHELL goes to children as it came (make's own SHELL is not exported).
    if (this.os.env.SHELL !== undefined && !this.globals.vars.get('SHELL')?.exported) seen.set('SHELL', this.os.env.SHELL);
    return [...seen].map(([k, v]) => `${k}=${v}`);
  }
}

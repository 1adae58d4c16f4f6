// Reading makefiles: logical lines (backslash-newline joins), comments,
// conditionals, define/endef, include, export/unexport/override, variable
// assignments, and rules (explicit, static pattern, pattern, double-colon,
// target-specific variables, special targets, old-fashioned suffix rules).

import { Errno } from '../../../abi/errno.js';
import type { AssignOp, Make } from './context.js';
import { glob, hasMagic } from './glob.js';
import type { FileNode, Loc, PatternRule, Recipe } from './rules.js';
import { fillPattern, findTop, matchPattern, percentIndex, words } from './text.js';
import { vpathDirective } from './vpath.js';
import type { Origin } from './vars.js';

/** A rule whose recipe lines are still being read. */
interface Pending {
  apply(recipe: Recipe): void;
  recipe: Recipe | null;
}

interface Cond {
  /** This branch is taken. */
  active: boolean;
  /** Some branch of this conditional was taken. */
  done: boolean;
  sawElse: boolean;
  /** The enclosing text is read at all. */
  outer: boolean;
}

const DIRECTIVES = new Set(['include', '-include', 'sinclude', 'define', 'endef', 'override', 'export', 'unexport', 'undefine', 'vpath', 'private']);
const CONDITIONALS = new Set(['ifeq', 'ifneq', 'ifdef', 'ifndef', 'else', 'endif']);

const dec = new TextDecoder();

/** Find a variable assignment in `line`: name, operator and value (value's leading blanks removed); null if it is not one. */
export function parseAssignment(line: string): { name: string; op: AssignOp; value: string } | null {
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '$') {
      let depth = 0;
      const open = line[i + 1];
      if (open === '(' || open === '{') {
        const close = open === '(' ? ')' : '}';
        for (i++; i < line.length; i++) {
          if (line[i] === open) depth++;
          else if (line[i] === close && --depth === 0) break;
        }
      } else i++;
      continue;
    }
    if (c === '=') {
      const prev = line[i - 1];
      let op: AssignOp = '=';
      let nameEnd = i;
      if (prev === '+' || prev === '?' || prev === '!') {
        op = `${prev}=` as AssignOp;
        nameEnd = i - 1;
      }
      const name = line.slice(0, nameEnd).trim();
      if (name === '') return null;
      return { name, op, value: line.slice(i + 1).replace(/^[ \t]+/, '') };
    }
    if (c === ':') {
      if (line[i + 1] === '=') return build(line, i, ':=', 2);
      if (line[i + 1] === ':' && line[i + 2] === '=') return build(line, i, '::=', 3);
      return null;
    }
    if (c === '#' || c === ';') return null;
  }
  return null;
}

function build(line: string, at: number, op: AssignOp, len: number) {
  const name = line.slice(0, at).trim();
  if (name === '') return null;
  return { name, op, value: line.slice(at + len).replace(/^[ \t]+/, '') };
}

/** Remove a comment (an unescaped `#`); `\#` becomes `#`. */
function stripComment(line: string): string {
  if (!line.includes('#')) return line;
  let out = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && line[i + 1] === '#') {
      out += '#';
      i++;
    } else if (c === '#') break;
    else out += c;
  }
  return out;
}

const oddBackslashes = (s: string): boolean => {
  let n = 0;
  for (let i = s.length - 1; i >= 0 && s[i] === '\\'; i--) n++;
  return n % 2 === 1;
};

export class Reader {
  private readonly lines: string[];
  private i = 0;
  private lineNo = 0;
  private readonly conds: Cond[] = [];
  private pending: Pending | null = null;

  constructor(
    private readonly mk: Make,
    private readonly file: string,
    text: string,
    private readonly firstLine = 1,
  ) {
    this.lines = text.split('\n');
    if (this.lines.at(-1) === '') this.lines.pop();
  }

  private get active(): boolean {
    return this.conds.every((c) => c.active);
  }

  private here(): Loc {
    return { file: this.file, line: this.lineNo };
  }

  read(): void {
    const mk = this.mk;
    const saved = mk.loc;
    try {
      while (this.i < this.lines.length) {
        this.lineNo = this.i + this.firstLine;
        mk.loc = this.here();
        let raw = this.lines[this.i++];
        if (this.pending && raw.startsWith(mk.recipePrefix)) {
          while (oddBackslashes(raw) && this.i < this.lines.length) {
            let next = this.lines[this.i++];
            if (next.startsWith(mk.recipePrefix)) next = next.slice(1);
            raw += `\n${next}`;
          }
          if (this.active) this.addRecipeLine(raw.slice(1));
          continue;
        }
        while (oddBackslashes(raw) && this.i < this.lines.length) {
          raw = `${raw.slice(0, -1).replace(/[ \t]+$/, '')} ${this.lines[this.i++].replace(/^[ \t]+/, '')}`;
        }
        this.logical(raw);
      }
      this.lineNo = this.lines.length + this.firstLine;
      this.finishRule();
      if (this.conds.length) mk.fatal(`missing 'endif'`, { file: this.file, line: this.lineNo });
    } finally {
      mk.loc = saved;
    }
  }

  private addRecipeLine(text: string): void {
    const p = this.pending!;
    p.recipe ??= { lines: [], lineNos: [], loc: this.here() };
    p.recipe.lines.push(text);
    p.recipe.lineNos.push(this.lineNo);
  }

  private finishRule(): void {
    const p = this.pending;
    this.pending = null;
    if (p?.recipe) p.apply(p.recipe);
  }

  private logical(raw: string): void {
    const mk = this.mk;
    const startsWithPrefix = raw.startsWith(mk.recipePrefix);
    const line = stripComment(raw);
    const trimmed = line.trim();
    if (trimmed === '') return;
    const first = /^[^\s]+/.exec(trimmed)![0];
    if (CONDITIONALS.has(first) && !/^\s*(=|:=|::=|\+=|\?=|!=)/.test(trimmed.slice(first.length))) {
      this.conditional(first, trimmed.slice(first.length).trim());
      return;
    }
    if (!this.active) {
      if (first === 'define' || /^(override|export|private)\s+define\b/.test(trimmed)) this.skipDefine();
      return;
    }
    if (this.directive(first, trimmed)) return;
    // A value keeps its trailing blanks (up to a comment), as GNU make's do.
    const asg = parseAssignment(line.replace(/^[ \t]+/, ''));
    if (asg) {
      this.finishRule();
      this.assign(asg.name, asg.op, asg.value, 'file', {});
      return;
    }
    this.finishRule();
    this.rule(line.replace(/^[ \t]+/, ''), raw, startsWithPrefix);
  }

  private assign(nameText: string, op: AssignOp, value: string, origin: Origin, o: { exported?: boolean; priv?: boolean }): void {
    const mk = this.mk;
    const name = mk.expand(nameText).trim();
    if (name === '') mk.fatal('empty variable name');
    mk.assign(mk.globals, name, op, value, origin, o);
    if (name === '.RECIPEPREFIX') mk.recipePrefix = mk.value(name)[0] ?? '\t';
  }

  // --- conditionals -----------------------------------------------------

  private conditional(kw: string, rest: string): void {
    const mk = this.mk;
    if (kw === 'endif') {
      if (!this.conds.length) mk.fatal(`extraneous 'endif'`);
      this.conds.pop();
      return;
    }
    if (kw === 'else') {
      const c = this.conds.at(-1);
      if (!c) return mk.fatal(`extraneous 'else'`);
      if (c.sawElse) mk.fatal(`only one 'else' per conditional`);
      if (rest === '') {
        c.sawElse = true;
        c.active = c.outer && !c.done;
        c.done = true;
        return;
      }
      const kw2 = rest.split(/\s+/)[0];
      if (!['ifeq', 'ifneq', 'ifdef', 'ifndef'].includes(kw2)) mk.fatal(`extraneous text after 'else' directive`);
      const value = !c.done && c.outer && this.test(kw2, rest.slice(kw2.length).trim());
      c.active = value;
      c.done ||= value;
      return;
    }
    const outer = this.active;
    const value = outer && this.test(kw, rest);
    this.conds.push({ active: value, done: value, sawElse: false, outer });
  }

  private test(kw: string, rest: string): boolean {
    const mk = this.mk;
    if (kw === 'ifdef' || kw === 'ifndef') {
      const name = mk.expand(rest).trim();
      const hit = mk.globals.lookup(name);
      const defined = !!hit && hit.v.value !== '';
      return kw === 'ifdef' ? defined : !defined;
    }
    let a: string;
    let b: string;
    if (rest.startsWith('(')) {
      const body = rest.endsWith(')') ? rest.slice(1, -1) : mk.fatal(`invalid syntax in conditional`);
      const comma = findTop(body, ',');
      if (comma < 0) mk.fatal(`invalid syntax in conditional`);
      a = mk.expand(body.slice(0, comma).replace(/[ \t]+$/, ''));
      b = mk.expand(body.slice(comma + 1).replace(/^[ \t]+/, '').replace(/[ \t]+$/, ''));
    } else {
      const m = /^(["'])(.*?)\1\s+(["'])(.*?)\3$/.exec(rest);
      if (!m) return mk.fatal(`invalid syntax in conditional`);
      a = mk.expand(m[2]);
      b = mk.expand(m[4]);
    }
    return (a === b) === (kw === 'ifeq');
  }

  private skipDefine(): void {
    let depth = 1;
    while (this.i < this.lines.length) {
      const t = this.lines[this.i++].trim();
      if (/^define\b/.test(t) || /^(override|export|private)\s+define\b/.test(t)) depth++;
      else if (/^endef\b/.test(t) && --depth === 0) return;
    }
  }

  // --- directives -------------------------------------------------------

  /** Handle a directive line; false if the line is not one. */
  private directive(first: string, line: string): boolean {
    if (!DIRECTIVES.has(first)) return false;
    const rest = line.slice(first.length).replace(/^[ \t]+/, '');
    // `export = x` and the like assign to a variable of that name.
    if (/^(=|:=|::=|\+=|\?=|!=)/.test(rest) || (rest === '' && !['export', 'unexport', 'endef', 'vpath'].includes(first))) return false;
    const mk = this.mk;
    switch (first) {
      case 'include':
      case '-include':
      case 'sinclude':
        this.finishRule();
        this.include(rest, first === 'include');
        return true;
      case 'define':
        this.finishRule();
        this.define(rest, 'file', {});
        return true;
      case 'endef':
        mk.fatal(`extraneous 'endef'`);
        return true;
      case 'override':
      case 'private':
      case 'export': {
        this.finishRule();
        const origin: Origin = first === 'override' ? 'override' : 'file';
        const o = { exported: first === 'export' ? true : undefined, priv: first === 'private' || undefined };
        const inner = /^(\S+)\s*(.*)$/.exec(rest);
        if (inner && inner[1] === 'define') {
          this.define(inner[2], origin, o);
          return true;
        }
        if (inner && (inner[1] === 'export' || inner[1] === 'override' || inner[1] === 'private')) {
          const o2 = { ...o, exported: inner[1] === 'export' ? true : o.exported };
          const org: Origin = inner[1] === 'override' ? 'override' : origin;
          const asg2 = parseAssignment(inner[2]);
          if (asg2) {
            this.assign(asg2.name, asg2.op, asg2.value, org, o2);
            return true;
          }
        }
        const asg = parseAssignment(rest);
        if (asg) {
          this.assign(asg.name, asg.op, asg.value, origin, o);
          return true;
        }
        if (first === 'export') {
          if (rest === '') mk.exportAll = true;
          else this.setExport(rest, true);
          return true;
        }
        if (first === 'override' && rest !== '') mk.fatal('missing separator');
        return true;
      }
      case 'unexport':
        this.finishRule();
        if (rest === '') mk.exportAll = false;
        else this.setExport(rest, false);
        return true;
      case 'undefine':
        this.finishRule();
        for (const n of words(mk.expand(rest))) mk.globals.vars.delete(n);
        return true;
      case 'vpath':
        this.finishRule();
        vpathDirective(mk, rest);
        return true;
    }
    return false;
  }

  private setExport(names: string, on: boolean): void {
    const mk = this.mk;
    for (const n of words(mk.expand(names))) {
      mk.exportNames.set(n, on);
      const v = mk.globals.vars.get(n);
      if (v) v.exported = on;
    }
  }

  private define(head: string, origin: Origin, o: { exported?: boolean; priv?: boolean }): void {
    const mk = this.mk;
    const m = /^(.*?)\s*(=|:=|::=|\+=|\?=|!=)?\s*$/.exec(head)!;
    const name = mk.expand(m[1]).trim();
    const op = (m[2] ?? '=') as AssignOp;
    const body: string[] = [];
    let depth = 1;
    const start = this.lineNo;
    for (;;) {
      if (this.i >= this.lines.length) mk.fatal(`missing 'endef', unterminated 'define'`, { file: this.file, line: start });
      const l = this.lines[this.i++];
      const t = l.trim();
      if (/^define\b/.test(t) || /^(override|export|private)\s+define\b/.test(t)) depth++;
      else if (/^endef\b/.test(t) && --depth === 0) break;
      body.push(l);
    }
    mk.assign(mk.globals, name, op, body.join('\n'), origin, o);
  }

  private include(list: string, required: boolean): void {
    const mk = this.mk;
    for (const w of words(mk.expand(list))) {
      const names = hasMagic(w) ? glob(mk.sys, w) : [w];
      for (const n of names) {
        if (!readMakefile(mk, n)) {
          if (required) mk.missingIncludes.push({ name: n, loc: this.here() });
        }
      }
    }
  }

  // --- rules ------------------------------------------------------------

  private rule(line: string, raw: string, startsWithPrefix: boolean): void {
    const mk = this.mk;
    let text = line;
    let inline: string | null = null;
    const semi = findTop(text, ';');
    if (semi >= 0) {
      // The recipe after `;` keeps its comment characters: re-take it from the raw line.
      const rawSemi = findTop(raw.replace(/^[ \t]+/, ''), ';');
      inline = raw.replace(/^[ \t]+/, '').slice(rawSemi + 1).replace(/^[ \t]+/, '');
      text = text.slice(0, semi);
    }
    let colon = findTop(text, ':');
    if (colon < 0) {
      // The colon may come from an expansion (`$(rule)`), or the line may only call functions.
      const ex = mk.expand(text);
      if (ex.trim() === '' && inline === null) return;
      colon = ex.indexOf(':');
      if (colon < 0) {
        if (startsWithPrefix) mk.fatal('recipe commences before first target');
        mk.fatal(/^ {8}/.test(raw) ? 'missing separator (did you mean TAB instead of 8 spaces?)' : 'missing separator');
      }
      text = ex.replace(/\$/g, '$$$$');
    }
    const targetsText = mk.expand(text.slice(0, colon));
    let rest = text.slice(colon + 1);
    const double = rest.startsWith(':');
    if (double) rest = rest.slice(1);
    const targets = this.globWords(targetsText);
    if (targets.length === 0) {
      // A rule without targets: its recipe lines are read and dropped.
      this.expectRecipe(() => undefined, inline, this.here());
      return;
    }
    // Target-specific variable: `targets: [override|export|private] VAR op value`.
    const tv = this.targetVar(rest);
    if (tv) {
      for (const t of targets) this.targetAssign(t, tv);
      return;
    }
    let staticPattern: string | null = null;
    const c2 = findTop(rest, ':');
    if (c2 >= 0 && !double) {
      staticPattern = mk.expand(rest.slice(0, c2)).trim();
      rest = rest.slice(c2 + 1);
    }
    const depText = mk.expand(rest);
    const bar = depText.indexOf('|');
    const deps = this.globWords(bar >= 0 ? depText.slice(0, bar) : depText);
    const orderOnly = bar >= 0 ? this.globWords(depText.slice(bar + 1)) : [];
    const loc = this.here();
    if (staticPattern === null && !targets.some((t) => percentIndex(t) >= 0)) {
      for (const d of [...deps, ...orderOnly]) mk.file(d).mentioned = true;
    }

    if (this.special(targets[0], deps)) {
      this.expectRecipe(targets[0] === '.DEFAULT' ? (r) => (mk.defaultRecipe = r) : () => undefined, inline, loc);
      return;
    }

    const patterns = targets.filter((t) => percentIndex(t) >= 0);
    if (staticPattern === null && patterns.length) {
      if (patterns.length !== targets.length) mk.fatal('mixed implicit and normal rules');
      const pr: PatternRule = { targets, deps, orderOnly, recipe: null, terminal: double };
      this.expectRecipe((r) => {
        pr.recipe = r;
      }, inline, loc);
      // A pattern rule without a recipe cancels any rule with the same target and prerequisites.
      const idx = mk.patternRules.findIndex((p) => p.targets.join(' ') === targets.join(' ') && p.deps.join(' ') === deps.join(' '));
      if (idx >= 0) mk.patternRules.splice(idx, 1);
      mk.patternRules.push(pr);
      return;
    }

    const suffixRule = staticPattern === null && deps.length === 0 && targets.length === 1 ? this.suffixRule(targets[0]) : null;
    if (suffixRule) {
      this.expectRecipe((r) => {
        suffixRule.recipe = r;
        const idx = mk.patternRules.findIndex((p) => p.targets[0] === suffixRule.targets[0] && p.deps.join(' ') === suffixRule.deps.join(' '));
        if (idx >= 0) mk.patternRules.splice(idx, 1);
        mk.patternRules.push(suffixRule);
      }, inline, loc);
      return;
    }

    if (mk.value('.DEFAULT_GOAL') === '') {
      const t = targets.find((x) => !x.startsWith('.') || x.includes('/'));
      if (t !== undefined) mk.setSimple(mk.globals, '.DEFAULT_GOAL', t, 'default');
    }
    const nodes = targets.map((t) => mk.file(t));
    /** Where each target's prerequisites from this rule sit: they move first if this rule has the recipe. */
    const mine = new Map<FileNode, [number, number]>();
    const rules = nodes.map((f) => {
      f.isTarget = true;
      let d = deps;
      if (staticPattern !== null) {
        const stem = matchPattern(staticPattern, f.name);
        if (stem === null) {
          mk.warnAt(`target '${f.name}' doesn't match the target pattern`);
          d = [];
        } else {
          f.stem = stem;
          d = deps.map((x) => fillPattern(x, stem));
        }
      }
      const oo = staticPattern !== null && f.stem !== '' ? orderOnly.map((x) => fillPattern(x, f.stem)) : orderOnly;
      if (double) {
        const r = { deps: d, orderOnly: oo, recipe: null as Recipe | null };
        (f.doubleColon ??= []).push(r);
        return r;
      }
      if (f.doubleColon) mk.fatal(`target file '${f.name}' has both : and :: entries`);
      mine.set(f, [f.deps.length, d.length]);
      for (const x of d) f.deps.push(x);
      for (const x of oo) f.orderOnly.push(x);
      return null;
    });
    this.expectRecipe((r) => {
      nodes.forEach((f, i) => {
        const dc = rules[i];
        if (dc) {
          dc.recipe = r;
          return;
        }
        if (f.recipe && f.recipe !== r) {
          mk.warnAt(`warning: overriding recipe for target '${f.name}'`, r.loc);
          mk.warnAt(`warning: ignoring old recipe for target '${f.name}'`, f.recipe.loc);
        }
        f.recipe = r;
        const [at, n] = mine.get(f) ?? [0, 0];
        if (at > 0) f.deps.unshift(...f.deps.splice(at, n));
      });
    }, inline, loc);
  }

  private expectRecipe(apply: (r: Recipe) => void, inline: string | null, loc: Loc): void {
    this.pending = { apply, recipe: null };
    if (inline !== null) this.pending.recipe = { lines: [inline], lineNos: [loc.line], loc };
  }

  private globWords(text: string): string[] {
    return words(text).flatMap((w) => {
      if (!hasMagic(w)) return [w];
      const g = glob(this.mk.sys, w);
      return g.length ? g : [w];
    });
  }

  /** `.c.o` or `.c` named as a target, both parts known suffixes: a suffix rule as a pattern rule. */
  private suffixRule(t: string): PatternRule | null {
    const sfx = this.mk.suffixes;
    if (!t.startsWith('.')) return null;
    if (sfx.includes(t)) return { targets: ['%'], deps: [`%${t}`], orderOnly: [], recipe: null, terminal: false };
    for (const s of sfx) {
      if (t.startsWith(s) && sfx.includes(t.slice(s.length))) {
        return { targets: [`%${t.slice(s.length)}`], deps: [`%${s}`], orderOnly: [], recipe: null, terminal: false };
      }
    }
    return null;
  }

  /** Special targets (.PHONY and the like); true if `t` is one. */
  private special(t: string, deps: string[]): boolean {
    const mk = this.mk;
    switch (t) {
      case '.PHONY':
        for (const d of deps) mk.file(d).phony = true;
        return true;
      case '.SUFFIXES':
        if (deps.length === 0) mk.suffixes = [];
        else for (const d of deps) if (!mk.suffixes.includes(d)) mk.suffixes.push(d);
        return true;
      case '.PRECIOUS':
        for (const d of deps) mk.file(d).precious = true;
        if (!deps.length) mk.flags.add(t);
        return true;
      case '.INTERMEDIATE':
        for (const d of deps) mk.file(d).intermediate = true;
        return true;
      case '.SECONDARY':
        for (const d of deps) mk.file(d).secondary = true;
        if (!deps.length) mk.flags.add(t);
        return true;
      case '.SILENT':
      case '.IGNORE':
        if (!deps.length) mk.flags.add(t);
        for (const d of deps) (t === '.SILENT' ? mk.silentTargets : mk.ignoreTargets).add(d);
        return true;
      case '.SECONDEXPANSION':
        if (!mk.flags.has(t)) mk.warnAt('warning: .SECONDEXPANSION is not supported by agentOS make: prerequisites are expanded once');
        mk.flags.add(t);
        return true;
      case '.DELETE_ON_ERROR':
      case '.NOTPARALLEL':
      case '.ONESHELL':
      case '.POSIX':
      case '.LOW_RESOLUTION_TIME':
        mk.flags.add(t);
        return true;
      case '.EXPORT_ALL_VARIABLES':
        mk.exportAll = true;
        return true;
      case '.DEFAULT':
        return true;
    }
    return false;
  }

  private targetVar(rest: string): { name: string; op: AssignOp; value: string; origin: Origin; exported?: boolean; priv?: boolean } | null {
    let s = rest.replace(/^[ \t]+/, '');
    let origin: Origin = 'file';
    let exported: boolean | undefined;
    let priv: boolean | undefined;
    for (;;) {
      const m = /^(override|export|private)\s+/.exec(s);
      if (!m) break;
      if (m[1] === 'override') origin = 'override';
      else if (m[1] === 'export') exported = true;
      else priv = true;
      s = s.slice(m[0].length);
    }
    const asg = parseAssignment(s);
    if (!asg) return null;
    // `a: b:=c` is a static pattern rule only when the second colon is not part of `:=`.
    const c = findTop(s, ':');
    if (c >= 0 && c < s.indexOf(asg.op === '=' ? '=' : asg.op) && !s.slice(c).startsWith(':=') && !s.slice(c).startsWith('::=')) return null;
    return { ...asg, name: this.mk.expand(asg.name).trim(), origin, exported, priv };
  }

  private targetAssign(t: string, tv: NonNullable<ReturnType<Reader['targetVar']>>): void {
    const mk = this.mk;
    if (percentIndex(t) >= 0) {
      mk.patternVars.push({ pattern: t, name: tv.name, op: tv.op, value: tv.value, origin: tv.origin, exported: tv.exported, priv: tv.priv });
      return;
    }
    const f = mk.file(t);
    f.vars ??= mk.newScope();
    mk.assign(f.vars, tv.name, tv.op, tv.value, tv.origin, { exported: tv.exported, priv: tv.priv });
  }
}

/** Read one makefile by name; false if it does not exist. */
export function readMakefile(mk: Make, name: string): boolean {
  let text: string;
  try {
    text = dec.decode(mk.sys.readFile(name));
  } catch (e) {
    if (e instanceof mk.os.SysError && (e.errno === Errno.ENOENT || e.errno === Errno.ENOTDIR)) return false;
    throw e;
  }
  const list = mk.globals.vars.get('MAKEFILE_LIST');
  mk.setSimple(mk.globals, 'MAKEFILE_LIST', `${list?.value ?? ''} ${name}`, 'file');
  new Reader(mk, name, text).read();
  return true;
}

/** $(eval text): read `text` as makefile lines where the expansion happens. */
export function evalText(mk: Make, text: string): void {
  const loc = mk.loc;
  new Reader(mk, loc?.file ?? '<eval>', text, loc?.line ?? 1).read();
}

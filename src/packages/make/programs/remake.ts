// Bringing goals up to date: walk each goal's prerequisites depth first,
// decide from modification times what must be remade, and run recipes as
// jobs — up to -j at once, each command line through $(SHELL) -c, children
// reaped with waitpid. Messages and exit statuses follow GNU make 4.3.

import { Errno, strerror } from '../../../abi/errno.js';
import { shellStatus } from '../../../abi/wait.js';
import type { Make } from './context.js';
import { findImplicit, type Found } from './implicit.js';
import type { JobServer } from './jobserver.js';
import { statMtime } from './mtime.js';
import { vpathSearch } from './vpath.js';
import { FileNode, NEWEST, NONEXISTENT, type Recipe } from './rules.js';
import { shellFlags, shellPath } from './shell.js';
import { dirPart, matchPattern, notdirPart, suffixOf } from './text.js';
import { Scope } from './vars.js';

interface Line {
  cmd: string;
  silent: boolean;
  ignore: boolean;
  /** `+` or a $(MAKE) reference: run even under -n. */
  force: boolean;
  lineNo: number;
}

interface Job {
  f: FileNode;
  recipe: Recipe;
  lines: Line[];
  idx: number;
  scope: Scope;
  /** Holds a jobserver slot (not the make's own). */
  token: boolean;
  /** The double-colon rule this job runs, if any. */
  dc: boolean;
}

export class Remake {
  private readonly running = new Map<number, Job>();
  private readonly visiting = new Set<FileNode>();
  private readonly implicitFor = new Map<FileNode, Found>();
  /** Jobs (commands) started: a goal for which none started got "Nothing to be done". */
  private started = 0;
  private readonly limit: number;
  /** A failure without -k: start nothing new. */
  private stopping = false;
  failed = false;
  outOfDate = false;

  constructor(
    private readonly mk: Make,
    private readonly js: JobServer | null,
  ) {
    this.limit = mk.flags.has('.NOTPARALLEL') ? 1 : mk.opts.jobs;
  }

  /** Update `goals`; returns the exit status. */
  run(goals: string[]): number {
    const mk = this.mk;
    const reported = new Set<FileNode>();
    const startedAt = new Map<FileNode, number>();
    for (;;) {
      let all = true;
      if (!this.stopping) {
        for (const g of goals) {
          const f = mk.file(g);
          if (!startedAt.has(f)) startedAt.set(f, this.started);
          const done = this.step(f, mk.globals, null);
          if (done) {
            if (!reported.has(f)) {
              reported.add(f);
              this.report(f, startedAt.get(f)!);
            }
            if (this.stopping) break;
            continue;
          }
          all = false;
          if (this.stopping || !this.slotFree()) break;
        }
      }
      if ((all && this.running.size === 0) || (this.stopping && this.running.size === 0)) break;
      if (this.running.size === 0) break;
      this.reap();
    }
    this.removeIntermediates();
    if (this.failed) return 2;
    if (mk.opts.question && this.outOfDate) return 1;
    return 0;
  }

  private report(f: FileNode, startedBefore: number): void {
    const mk = this.mk;
    if (f.failed) {
      if (mk.opts.keepGoing && !this.stopping) mk.note(`Target '${f.name}' not remade because of errors.`);
      return;
    }
    // -s and a bare .SILENT: quiet these notes too, as GNU make does.
    if (this.started !== startedBefore || mk.opts.question || mk.opts.silent || mk.flags.has('.SILENT')) return;
    const hasRecipe = !!(f.recipe || f.doubleColon?.some((r) => r.recipe));
    mk.out(`${mk.prog}: ${hasRecipe && !f.phony ? `'${f.name}' is up to date.` : `Nothing to be done for '${f.name}'.`}\n`);
  }

  // --- the walk -----------------------------------------------------------

  private step(f: FileNode, parentScope: Scope, parent: FileNode | null): boolean {
    if (f.phase === 'done') return true;
    if (f.phase === 'running') return false;
    if (f.phase === 'new') this.init(f, parentScope);
    this.visiting.add(f);
    try {
      let ready = true;
      let depFailed = false;
      const scope = f.vars ?? parentScope;
      for (const list of this.depLists(f)) {
        for (let i = 0; i < list.length; i++) {
          const d = this.mk.file(list[i]);
          if (this.visiting.has(d)) {
            this.mk.note(`Circular ${f.name} <- ${d.name} dependency dropped.`);
            list.splice(i--, 1);
            continue;
          }
          if (!this.step(d, scope, f)) {
            ready = false;
            if (this.stopping || !this.slotFree()) return false;
            continue;
          }
          if (d.failed) {
            depFailed = true;
            if (!this.mk.opts.keepGoing) break;
          }
        }
      }
      if (!ready) return false;
      if (depFailed) {
        f.failed = true;
        f.phase = 'done';
        return true;
      }
      return this.decide(f, parent);
    } finally {
      this.visiting.delete(f);
    }
  }

  private depLists(f: FileNode): string[][] {
    if (f.doubleColon) return f.doubleColon.flatMap((r) => [r.deps, r.orderOnly]);
    return [f.deps, f.orderOnly];
  }

  /** First visit: variables in scope, and the implicit rule if it needs one. */
  private init(f: FileNode, parentScope: Scope): void {
    const mk = this.mk;
    f.phase = 'deps';
    let base = parentScope;
    const pv = mk.patternVars.filter((p) => matchPattern(p.pattern, f.name) !== null);
    if (pv.length) {
      base = new Scope(parentScope);
      for (const p of pv) mk.assign(base, p.name, p.op, p.value, p.origin, { exported: p.exported, priv: p.priv });
    }
    if (f.vars) f.vars.parent = base;
    else if (base !== parentScope || parentScope !== mk.globals) f.vars = new Scope(base, true);
    // Pattern-specific variables belong to the target's own context.
    if (base !== parentScope && f.vars) base.home = f.vars;
    if (f.recipe || f.doubleColon || f.phony) return;
    const found = this.implicitFor.get(f) ?? findImplicit(mk, f);
    if (found) {
      f.recipe = found.rule.recipe;
      f.stem = found.stem;
      f.deps = [...found.deps, ...f.deps];
      f.orderOnly.push(...found.orderOnly);
      for (const c of found.chain) {
        const n = mk.file(c.name);
        if (n.phase === 'new' && !n.isTarget) {
          this.implicitFor.set(n, c.found);
          if (!n.secondary && !n.precious) n.madeIntermediate = true;
        }
      }
      // Pattern-specific variables of the rule's target pattern apply too (they matched the name above).
      return;
    }
    if (mk.defaultRecipe && statMtime(mk, f.name) === NONEXISTENT) f.recipe = mk.defaultRecipe;
  }

  private mtime(f: FileNode): number {
    if (this.mk.opts.newFiles.has(f.name)) return NEWEST;
    if (this.mk.opts.oldFiles.has(f.name)) return statMtime(this.mk, f.name) === NONEXISTENT ? NONEXISTENT : 0;
    if (f.mtimeCache === null) {
      f.mtimeCache = statMtime(this.mk, f.path ?? f.name);
      if (f.mtimeCache === NONEXISTENT && f.path === null && !f.phony) {
        // Not where it is named: directory search (vpath, VPATH).
        const found = vpathSearch(this.mk, f.name);
        if (found) {
          f.path = found;
          f.mtimeCache = statMtime(this.mk, found);
        }
      }
    }
    return f.mtimeCache;
  }

  /** A prerequisite as recipes see it: where directory search found it. */
  private shown(name: string): string {
    const f = this.mk.files.get(name);
    if (f && f.path === null && f.mtimeCache === null) this.mtime(f);
    return f?.path ?? name;
  }

  /** Whether prerequisite `d` makes a target of time `mt` out of date. */
  private newer(d: FileNode, mt: number): boolean {
    if (d.phony) return true;
    if (d.remade && (this.mk.opts.dryRun || this.mk.opts.question)) return true;
    const dm = this.mtime(d);
    if (dm === NONEXISTENT) return true;
    return dm > mt;
  }

  /** Prerequisites done: is `f` out of date, and if so start its recipe. True when `f` is finished. */
  private decide(f: FileNode, parent: FileNode | null): boolean {
    const mk = this.mk;
    if (mk.opts.oldFiles.has(f.name)) {
      f.phase = 'done';
      return true;
    }
    const mt = f.phony ? NONEXISTENT : this.mtime(f);
    if (f.doubleColon) return this.decideDoubleColon(f, mt);
    if (!f.recipe) {
      if (mt === NONEXISTENT && !f.isTarget && !f.phony && f.deps.length === 0 && f.orderOnly.length === 0) {
        const msg = parent ? `No rule to make target '${f.name}', needed by '${parent.name}'` : `No rule to make target '${f.name}'`;
        this.fail(f, msg);
        return true;
      }
      // No recipe: "remade" (newer than its dependents) when it does not exist.
      f.remade = mt === NONEXISTENT;
      if (f.remade) f.mtimeCache = NEWEST;
      f.phase = 'done';
      return true;
    }
    const deps = uniq(f.deps).map((n) => mk.file(n));
    const must = f.phony || mt === NONEXISTENT || mk.opts.alwaysMake || deps.some((d) => this.newer(d, mt));
    if (!must) {
      f.phase = 'done';
      return true;
    }
    if (mk.opts.question) {
      this.outOfDate = true;
      f.remade = true;
      f.phase = 'done';
      return true;
    }
    if (mk.opts.touch && !f.phony) {
      this.touch(f);
      return true;
    }
    const newerList = deps.filter((d) => mt === NONEXISTENT || this.newer(d, mt)).map((d) => d.name);
    return this.startJob(f, f.recipe, f.deps, f.orderOnly, newerList, false);
  }

  private decideDoubleColon(f: FileNode, mt: number): boolean {
    const mk = this.mk;
    const rules = f.doubleColon!;
    while (f.dcIndex < rules.length) {
      const r = rules[f.dcIndex];
      const deps = uniq(r.deps).map((n) => mk.file(n));
      const cur = f.dcIndex === 0 ? mt : statMtime(mk, f.name);
      const must = r.recipe && (cur === NONEXISTENT || deps.length === 0 || mk.opts.alwaysMake || deps.some((d) => this.newer(d, cur)));
      if (!must) {
        f.dcIndex++;
        continue;
      }
      if (mk.opts.question) {
        this.outOfDate = true;
        f.dcIndex++;
        continue;
      }
      const newerList = deps.filter((d) => cur === NONEXISTENT || this.newer(d, cur)).map((d) => d.name);
      return this.startJob(f, r.recipe!, r.deps, r.orderOnly, newerList, true);
    }
    f.phase = 'done';
    return true;
  }

  /** -t: mark the target up to date instead of running its recipe. */
  private touch(f: FileNode): void {
    const mk = this.mk;
    if (!mk.opts.silent && !mk.flags.has('.SILENT')) mk.out(`touch ${f.name}\n`);
    this.started++;
    try {
      const now = Date.now();
      try {
        mk.sys.utimes(f.name, now, now);
      } catch {
        mk.sys.writeFile(f.name, '');
      }
    } catch (e) {
      if (!(e instanceof mk.os.SysError)) throw e;
      mk.note(`*** touch: ${f.name}: ${strerror(e.errno)}`);
    }
    f.remade = true;
    f.mtimeCache = null;
    f.phase = 'done';
  }

  private fail(f: FileNode, msg: string): void {
    const mk = this.mk;
    f.failed = true;
    f.phase = 'done';
    this.failed = true;
    if (mk.opts.keepGoing) mk.note(`*** ${msg}.`);
    else {
      mk.note(`*** ${msg}.  Stop.`);
      this.stopping = true;
    }
  }

  // --- jobs ---------------------------------------------------------------

  private slotFree(): boolean {
    if (this.running.size === 0) return true;
    if (this.js) return this.limit > 1;
    return this.running.size < this.limit;
  }

  /** Claim a slot for a new job: the make's own when idle, else a jobserver byte or a count under -j. */
  private claim(): { ok: boolean; token: boolean } {
    if (this.running.size === 0) return { ok: true, token: false };
    if (this.js) return this.limit > 1 && this.js.tryTake() ? { ok: true, token: true } : { ok: false, token: false };
    return { ok: this.running.size < this.limit, token: false };
  }

  private startJob(f: FileNode, recipe: Recipe, deps: string[], orderOnly: string[], newer: string[], dc: boolean): boolean {
    const mk = this.mk;
    const slot = this.mk.opts.dryRun ? { ok: true, token: false } : this.claim();
    if (!slot.ok) return false;
    const scope = this.automatic(f, deps, orderOnly, newer, recipe);
    const job: Job = { f, recipe, lines: [], idx: 0, scope, token: slot.token, dc };
    f.phase = 'running';
    f.path = null;
    const saved = mk.loc;
    try {
      job.lines = this.expandRecipe(f, recipe, scope);
    } finally {
      mk.loc = saved;
    }
    this.next(job);
    const phase = f.phase as FileNode['phase'];
    // A double-colon rule finished at once (-n): go on to the target's next rule.
    if (phase === 'deps') return this.decideDoubleColon(f, statMtime(mk, f.name));
    return phase === 'done';
  }

  private automatic(f: FileNode, deps: string[], orderOnly: string[], newer: string[], recipe: Recipe): Scope {
    const mk = this.mk;
    // The recipe runs in the target's context: its own private variables, no one else's (not the global ones).
    const s = new Scope(f.vars ?? mk.globals, !f.vars);
    const all = deps.map((d) => this.shown(d));
    orderOnly = orderOnly.map((d) => this.shown(d));
    newer = newer.map((d) => this.shown(d));
    let stem = f.stem;
    if (stem === '' && recipe.loc.file !== '<builtin>') {
      const sfx = suffixOf(f.name);
      if (sfx !== null && mk.suffixes.includes(sfx)) stem = f.name.slice(0, -sfx.length);
    }
    const vals: Record<string, string[]> = {
      '@': [f.name],
      '<': all.length ? [all[0]] : [],
      '^': uniq(all),
      '+': all,
      '?': uniq(newer),
      '*': [stem],
      '|': uniq(orderOnly),
    };
    for (const [k, v] of Object.entries(vals)) {
      mk.setSimple(s, k, v.join(' '), 'automatic');
      mk.setSimple(s, `${k}D`, v.map((w) => (w.includes('/') ? dirPart(w).slice(0, -1) || '/' : '.')).join(' '), 'automatic');
      mk.setSimple(s, `${k}F`, v.map(notdirPart).join(' '), 'automatic');
    }
    return s;
  }

  private expandRecipe(f: FileNode, recipe: Recipe, scope: Scope): Line[] {
    const mk = this.mk;
    const out: Line[] = [];
    const allSilent = mk.opts.silent || mk.flags.has('.SILENT') || mk.silentTargets.has(f.name);
    const allIgnore = mk.opts.ignoreErrors || mk.flags.has('.IGNORE') || mk.ignoreTargets.has(f.name);
    if (mk.flags.has('.ONESHELL') && recipe.lines.length) return this.oneShell(recipe, scope, allSilent, allIgnore);
    recipe.lines.forEach((raw, i) => {
      const lineNo = recipe.lineNos[i] ?? recipe.loc.line;
      mk.loc = { file: recipe.loc.file, line: lineNo };
      const force = /\$[({]MAKE[)}]/.test(raw);
      // A line's expansion may hold several lines (a canned recipe): each is a command.
      const pre = /^[ \t@+-]*/.exec(raw)![0];
      const expanded = mk.expand(raw, scope);
      const parts = splitCommands(expanded);
      for (const [pi, part] of parts.entries()) {
        const m = /^[ \t@+-]*/.exec(part)![0];
        const flags = pi === 0 ? m : pre + m;
        const cmd = part.slice(m.length);
        if (cmd.trim() === '') continue;
        out.push({
          cmd,
          silent: allSilent || flags.includes('@'),
          ignore: allIgnore || flags.includes('-'),
          force: flags.includes('+') || force,
          lineNo,
        });
      }
    });
    return out;
  }

  /** .ONESHELL: the whole recipe is one script; only the first line's prefixes count, the others' are dropped. */
  private oneShell(recipe: Recipe, scope: Scope, allSilent: boolean, allIgnore: boolean): Line[] {
    const mk = this.mk;
    mk.loc = { file: recipe.loc.file, line: recipe.lineNos[0] ?? recipe.loc.line };
    const force = recipe.lines.some((l) => /\$[({]MAKE[)}]/.test(l));
    const lines = splitCommands(recipe.lines.map((l) => mk.expand(l, scope)).join('\n'));
    const flags = /^[ \t@+-]*/.exec(lines[0])![0];
    const cmd = lines.map((l) => l.replace(/^[ \t@+-]*/, '')).join('\n');
    if (cmd.trim() === '') return [];
    return [{ cmd, silent: allSilent || flags.includes('@'), ignore: allIgnore || flags.includes('-'), force: force || flags.includes('+'), lineNo: recipe.lineNos[0] ?? recipe.loc.line }];
  }

  /** Run the job's next command line, or finish it. */
  private next(job: Job): void {
    const mk = this.mk;
    while (job.idx < job.lines.length) {
      const line = job.lines[job.idx];
      if (!line.silent || mk.opts.dryRun) mk.out(`${line.cmd}\n`);
      if (mk.opts.dryRun && !line.force) {
        this.started++;
        job.idx++;
        continue;
      }
      this.started++;
      const sh = shellPath(mk);
      let pid: number;
      try {
        pid = mk.sys.spawn({ path: sh, argv: [sh, ...shellFlags(mk), line.cmd], env: mk.childEnv(job.scope, true) });
      } catch (e) {
        if (!(e instanceof mk.os.SysError)) throw e;
        mk.note(`${sh}: ${strerror(e.errno)}`);
        if (this.lineFailed(job, line, e.errno === Errno.ENOENT ? 127 : 126)) return;
        continue;
      }
      this.running.set(pid, job);
      return;
    }
    this.finish(job, true);
  }

  /** A command line failed: report, then go on (ignored: false) or fail the job (true). */
  private lineFailed(job: Job, line: Line, code: number): boolean {
    const mk = this.mk;
    const where = job.recipe.loc.file === '<builtin>' ? '<builtin>' : `${job.recipe.loc.file}:${line.lineNo}`;
    if (line.ignore) {
      mk.note(`[${where}: ${job.f.name}] Error ${code} (ignored)`);
      job.idx++;
      return false;
    }
    mk.note(`*** [${where}: ${job.f.name}] Error ${code}`);
    this.finish(job, false);
    return true;
  }

  /** Wait for one child and move its job on. */
  private reap(): void {
    const [pid, status] = this.mk.sys.waitpid(-1);
    const job = this.running.get(pid);
    if (!job) return;
    this.running.delete(pid);
    const code = shellStatus(status);
    if (code !== 0) {
      if (this.lineFailed(job, job.lines[job.idx], code)) return;
    } else job.idx++;
    this.next(job);
  }

  private finish(job: Job, ok: boolean): void {
    const mk = this.mk;
    const f = job.f;
    if (job.token) this.js?.give();
    job.token = false;
    f.mtimeCache = null;
    if (ok) {
      f.remade = true;
      if (mk.opts.dryRun) f.mtimeCache = NEWEST;
      if (job.dc) {
        f.dcIndex++;
        f.phase = 'deps';
      } else f.phase = 'done';
      return;
    }
    f.failed = true;
    f.phase = 'done';
    this.failed = true;
    this.deleteOnError(f);
    if (!mk.opts.keepGoing) {
      this.stopping = true;
      if (this.running.size > 0) mk.note('*** Waiting for unfinished jobs....');
    }
  }

  private deleteOnError(f: FileNode): void {
    const mk = this.mk;
    if (!mk.flags.has('.DELETE_ON_ERROR') || f.phony || f.precious || mk.flags.has('.PRECIOUS')) return;
    try {
      const st = mk.sys.lstat(f.name);
      if ((st.mode & 0o170000) !== 0o100000) return;
      mk.note(`*** Deleting file '${f.name}'`);
      mk.sys.unlink(f.name);
    } catch {
      // Not there: nothing to delete.
    }
  }

  private removeIntermediates(): void {
    const mk = this.mk;
    if (mk.opts.dryRun || mk.opts.question) return;
    const gone: string[] = [];
    for (const f of mk.files.values()) {
      if (!f.madeIntermediate || !f.remade || f.secondary || f.precious || mk.flags.has('.SECONDARY')) continue;
      try {
        mk.sys.unlink(f.name);
        gone.push(f.name);
      } catch {
        // Already gone.
      }
    }
    if (gone.length && !mk.opts.silent && !mk.flags.has('.SILENT')) mk.out(`rm ${gone.join(' ')}\n`);
  }
}

function uniq(list: string[]): string[] {
  return [...new Set(list)];
}

/** Split an expanded recipe line at newlines that are not backslash-escaped. */
function splitCommands(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\n') continue;
    let n = 0;
    for (let k = i - 1; k >= start && s[k] === '\\'; k--) n++;
    if (n % 2 === 1) continue;
    out.push(s.slice(start, i));
    start = i + 1;
  }
  out.push(s.slice(start));
  return out;
}

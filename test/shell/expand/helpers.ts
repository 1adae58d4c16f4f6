// A fake ExpandContext, a tiny setup runner (assignments, set --, shopt,
// declare) and the differential harness that runs the same case in bash.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { ShellError } from '../../../src/shell/errors.js';
import { Vars } from '../../../src/shell/interp/vars.js';
import { parse } from '../../../src/shell/syntax/index.js';
import type { Assign, Command, Stmt, Word } from '../../../src/shell/syntax/index.js';
import {
  defaultOpts, evalArithText, expandAssignValue, expandWord, expandWords,
} from '../../../src/shell/expand/index.js';
import type { ExpandContext, ExpandOpts } from '../../../src/shell/expand/index.js';

export const HOME = '/home/tester';

export interface TestCtx extends ExpandContext {
  /** The interpreter's store, for the setup script's declare/unset. */
  vars: Vars;
  pos: string[];
  /** Commands run by command substitution, for tests that check side effects. */
  ran: string[];
  dir: string;
}

/** A context over real directories (for globbing) with a mini `echo` for $(...). */
export function makeCtx(opts: Partial<ExpandOpts> = {}, dir = '/'): TestCtx {
  const vars = new Vars();
  vars.set('HOME', HOME);
  const ctx: TestCtx = {
    vars,
    pos: ['a', 'b c'],
    ran: [],
    dir,
    opts: { ...defaultOpts(), ...opts },
    special(name) {
      switch (name) {
        case '?': return '0';
        case '#': return String(ctx.pos.length);
        case '0': return 'bash';
        case '$': return '4242';
        case '-': return 'hB';
      }
      return undefined;
    },
    positional: () => ctx.pos,
    commandSubst(stmts) {
      let out = '';
      for (const st of stmts) out += runEcho(ctx, st);
      return out;
    },
    procSubst: (op) => (op === '<' ? '/dev/fd/63' : '/dev/fd/62'),
    readdir(d) {
      try {
        return readdirSync(d);
      } catch {
        return null;
      }
    },
    isDir(p) {
      try {
        return statSync(p).isDirectory();
      } catch {
        return false;
      }
    },
    cwd: () => ctx.dir,
    home: (user) => (user === '' ? HOME : user === 'root' ? '/root' : undefined),
  };
  vars.arith = (e) => evalArithText(e, ctx);
  return ctx;
}

/** `echo [-n] args` and `printf FORMAT args` (only %s and \n), enough for $(...) in tests. */
function runEcho(ctx: TestCtx, st: Stmt): string {
  const c = st.cmd;
  if (c.type !== 'SimpleCommand') throw new Error('test commandSubst: simple commands only');
  const w = expandWords(c.words, ctx);
  ctx.ran.push(w.join(' '));
  if (w[0] === 'echo') {
    if (w[1] === '-n') return w.slice(2).join(' ');
    return w.slice(1).join(' ') + '\n';
  }
  if (w[0] === 'printf') {
    const fmt = w[1].replace(/\\n/g, '\n');
    const args = w.slice(2);
    let s = '';
    do s += fmt.replace(/%s/g, () => args.shift() ?? ''); while (args.length > 0);
    return s;
  }
  if (w[0] === 'true') return '';
  throw new Error(`test commandSubst: unknown command ${w[0]}`);
}

function assign(ctx: TestCtx, a: Assign, flags: string): void {
  const { vars } = ctx;
  const assoc = flags.includes('A') || vars.isAssoc(a.name);
  if (a.array !== null) {
    const items: { key: string | null; value: string }[] = [];
    for (const e of a.array) {
      if (e.index !== null) items.push({ key: assoc ? expandWord(e.index, ctx) : String(evalArithText(expandWord(e.index, ctx), ctx)), value: expandAssignValue(e.value, ctx) });
      else for (const v of expandWords([e.value], ctx)) items.push({ key: null, value: v });
    }
    vars.setArray(a.name, items, { append: a.append, assoc });
    return;
  }
  const value = a.value === null ? '' : expandAssignValue(a.value, ctx);
  if (a.index !== null) {
    const k = assoc ? expandWord(a.index, ctx) : String(evalArithText(expandWord(a.index, ctx), ctx));
    vars.setIndex(a.name, k, value, a.append);
  } else {
    vars.set(a.name, value, { append: a.append });
  }
}

function exec(ctx: TestCtx, c: Command): void {
  if (c.type === 'SimpleCommand') {
    for (const a of c.assigns) assign(ctx, a, '');
    if (c.words.length === 0) return;
    const w = expandWords(c.words, ctx);
    switch (w[0]) {
      case 'set':
        if (w[1] === '--') ctx.pos = w.slice(2);
        for (const f of w.slice(1)) {
          if (f === '-u') ctx.opts.nounset = true;
          if (f === '-f') ctx.opts.noglob = true;
        }
        return;
      case 'unset':
        for (const n of w.slice(1)) if (n !== '-v') ctx.vars.unset(n);
        return;
      case 'shopt': {
        const on = w[1] === '-s';
        for (const o of w.slice(2)) (ctx.opts as unknown as Record<string, boolean>)[o] = on;
        return;
      }
      case 'cd':
        return;
    }
    throw new Error(`setup: unknown command ${w[0]}`);
  }
  if (c.type === 'DeclCommand') {
    let flags = '';
    for (const a of c.args) {
      if (a.type === 'Word') {
        const t = expandWord(a, ctx);
        if (t.startsWith('-')) flags += t.slice(1);
        else {
          const v = ctx.vars.declare(t, false);
          applyFlags(v, flags);
        }
        continue;
      }
      const v = ctx.vars.declare(a.name, false);
      applyFlags(v, flags);
      if (flags.includes('A') && !v.assoc) v.assoc = new Map();
      if (flags.includes('a') && !v.indexed) v.indexed = new Map();
      assign(ctx, a, flags);
    }
    return;
  }
  throw new Error(`setup: unsupported ${c.type}`);
}

function applyFlags(v: ReturnType<Vars['declare']>, flags: string): void {
  if (flags.includes('i')) v.integer = true;
  if (flags.includes('x')) v.exported = true;
  if (flags.includes('l')) v.lower = true;
  if (flags.includes('u')) v.upper = true;
  if (flags.includes('r')) v.readonly = true;
  if (flags.includes('A') && !v.assoc) v.assoc = new Map();
  if (flags.includes('a') && !v.indexed) v.indexed = new Map();
}

export function runSetup(ctx: TestCtx, src: string): void {
  if (src.trim() === '') return;
  for (const line of src.split('\n')) {
    for (const st of parse(line, { extglob: ctx.opts.extglob }).stmts) exec(ctx, st.cmd);
  }
}

/** The argument words of `echo SRC`. */
export function words(src: string, extglob = false): Word[] {
  // posix: bash's side expands array elements, where `a=~` keeps its tilde (in
  // command arguments bash expands it outside POSIX mode).
  const c = parse('echo ' + src, { extglob, posix: true }).stmts[0].cmd;
  if (c.type !== 'SimpleCommand') throw new Error('not a simple command');
  return c.words.slice(1);
}

export const fmtFields = (f: string[]): string => `${f.length}:` + f.map((x) => `<${x}>`).join('');

/** Our result for a case: `N:<f1><f2>` or `ERR:message`. */
export function ours(setup: string, src: string, dir = '/'): string {
  const ctx = makeCtx({}, dir);
  try {
    runSetup(ctx, setup);
    return fmtFields(expandWords(words(src, ctx.opts.extglob), ctx));
  } catch (e) {
    if (e instanceof ShellError) return 'ERR:' + e.message;
    throw e;
  }
}

/** bash's result for the same case (array assignment expands words exactly like command arguments). */
export function theirs(setup: string, src: string, dir = '/'): string {
  const script = `set -- a "b c"\n${setup}\n__r=(${src}); printf '%s:' "\${#__r[@]}"; printf '<%s>' "\${__r[@]}"`;
  const r = spawnSync('bash', ['-c', script], {
    cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME, LC_ALL: 'C' },
  });
  const err = r.stderr.trim();
  if (err !== '') {
    const m = /^bash: line \d+: (.*)$/m.exec(err);
    return 'ERR:' + (m ? m[1] : err);
  }
  // printf prints its format once even with no arguments.
  return r.stdout.replace(/^0:<>$/, '0:');
}

// declare/typeset/local/export/readonly and unset.

import { expandAssignValue, expandWord, type ExpandContext } from '../../expand/index.js';
import { parse, ParseError, parseSubscript, print, printFunction, type Assign } from '../../syntax/index.js';
import { expandContext } from '../context.js';
import { assign } from '../exec.js';
import { syncOptionVars } from './set.js';
import type { Shell } from '../shell.js';
import { ShellError } from '../../errors.js';
import type { Var } from '../../variable.js';
import { dollarQuote, needsDollarQuote } from './printf.js';
import type { Builtin } from './types.js';
import { assocEntries } from '../../assoc-order.js';

/** The call-stack arrays each function call sets in its own scope (frames.ts): not the function's locals. */
const FRAME_ARRAYS = new Set(['FUNCNAME', 'BASH_SOURCE', 'BASH_LINENO']);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function quoteValue(v: string): string {
  if (needsDollarQuote(v)) return dollarQuote(v);
  return `"${v.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** A variable as `set` (and `declare` without arguments) lists it: `name=value`, quoted only when needed. */
export function setLine(name: string, v: Var): string {
  if (v.nameref !== undefined) return `${name}=${v.nameref}`;
  if (v.indexed || v.assoc) return describe(name, v).replace(/^declare -\S+ /, '');
  const value = v.value ?? '';
  if (needsDollarQuote(value)) return `${name}=${dollarQuote(value)}`;
  if (value !== '' && !/[\s'"\\|&;()<>!{}*[?\]^$`]|^[~#]/.test(value)) return `${name}=${value}`;
  return `${name}='${value.replace(/'/g, "'\\''")}'`;
}

/** `declare -p` text for one variable. */
export function describe(name: string, v: Var): string {
  let flags = '';
  if (v.indexed) flags += 'a';
  if (v.assoc) flags += 'A';
  if (v.integer) flags += 'i';
  if (v.lower) flags += 'l';
  if (v.nameref !== undefined) flags += 'n';
  if (v.readonly) flags += 'r';
  if (v.upper) flags += 'u';
  if (v.exported) flags += 'x';
  const head = `declare -${flags || '-'} ${name}`;
  if (v.nameref !== undefined) return v.nameref === '' ? head : `${head}=${quoteValue(v.nameref)}`;
  if (v.declaredOnly) return head;
  if (v.indexed) return `${head}=(${[...v.indexed].sort((a, b) => a[0] - b[0]).map(([i, x]) => `[${i}]=${quoteValue(x)}`).join(' ')})`;
  if (v.assoc) return `${head}=(${assocEntries(v.assoc).map(([k, x]) => `[${/^[\w-]+$/.test(k) ? k : quoteValue(k)}]=${quoteValue(x)} `).join('')})`;
  return v.value === undefined ? head : `${head}=${quoteValue(v.value)}`;
}

export function declare(sh: Shell, variant: string, args: (string | Assign)[], ctx: ExpandContext): number {
  const on = new Set<string>();
  const off = new Set<string>();
  const targets: (string | Assign)[] = [];
  let optsDone = false;
  for (const a of args) {
    if (typeof a === 'string' && !optsDone && /^[-+][a-zA-Z]+$/.test(a)) {
      for (const f of a.slice(1)) (a[0] === '-' ? on : off).add(f);
      continue;
    }
    if (a === '--') {
      optsDone = true;
      continue;
    }
    targets.push(a);
  }
  if (variant === 'local') {
    if (sh.funcStack.length === 0) throw new ShellError('local: can only be used in a function');
  }
  // export -n takes the export away (not a nameref).
  if (variant === 'export' && on.delete('n')) off.add('x');
  else if (variant === 'export') on.add('x');
  if (variant === 'readonly') on.add('r');
  const global = on.has('g') || (variant !== 'local' && sh.funcStack.length === 0);
  const inFunction = (variant === 'local' || variant === 'declare' || variant === 'typeset') && sh.funcStack.length > 0 && !on.has('g');

  if (on.has('f') || on.has('F')) {
    const names = targets.map((t) => (typeof t === 'string' ? t : t.name));
    let status = 0;
    // With names, -x/+x (export -f, export -nf) set the export attribute instead of printing.
    if (names.length && (on.has('x') || off.has('x'))) {
      for (const n of names) {
        if (!sh.functions.has(n)) {
          if (variant === 'export') sh.error(`export: ${n}: not a function`);
          status = 1;
        } else if (on.has('x')) {
          sh.exportedFunctions.add(n);
        } else {
          sh.exportedFunctions.delete(n);
        }
      }
      return status;
    }
    if (names.length) {
      for (const n of names) {
        const f = sh.functions.get(n);
        if (!f) status = 1;
        else sh.out(on.has('F') ? `${n}\n` : `${printFunction(f)}\n`);
      }
      return status;
    }
    // Listing: attributes follow each definition (`declare -fx f`); -x lists only exported ones.
    for (const [n, f] of [...sh.functions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const exported = sh.exportedFunctions.has(n);
      if (on.has('x') && !exported) continue;
      const attrs = exported ? `declare -fx ${n}\n` : '';
      sh.out(on.has('F') ? (attrs || `declare -f ${n}\n`) : `${printFunction(f)}\n${attrs}`);
    }
    return status;
  }

  // readonly -p and export -p with names set the attribute, as without -p (bash).
  if (targets.length > 0 && (variant === 'readonly' || variant === 'export')) on.delete('p');
  if (targets.length === 0 || on.has('p')) {
    // `local` (or local -p) lists the running function's locals; with names, those of them that are local.
    const locals = variant === 'local';
    const local = new Set(locals ? sh.vars.localNames().filter((n) => !FRAME_ARRAYS.has(n)) : []);
    // `declare -p a=b` names a variable called `a=b`: not found.
    const written = targets.map((t) => (typeof t === 'string' ? t : assignText(t)));
    const names = targets.length ? (locals ? written.filter((n) => local.has(n)) : written) : locals ? [...local] : sh.vars.names();
    let status = 0;
    for (const n of names) {
      const v = sh.vars.lookupRef(n);
      if (!v) {
        sh.error(`${variant}: ${n}: not found`);
        status = 1;
        continue;
      }
      if (variant === 'export' && !v.exported) continue;
      if (variant === 'readonly' && !v.readonly) continue;
      if (targets.length === 0 && on.size && ![...on].every((f) => f === 'p' || flagOf(v, f))) continue;
      // declare/typeset alone list like set; with -p (or a name) as declare statements.
      const plain = targets.length === 0 && on.size === 0 && (variant === 'declare' || variant === 'typeset');
      if (plain && v.declaredOnly) continue;
      sh.out(`${plain ? setLine(n, v) : describe(n, v)}\n`);
    }
    return status;
  }

  let status = 0;
  for (let t of targets) {
    if (t === '-' && variant === 'local') {
      // local -: the function's changes to set options are undone when it returns.
      const saved = new Map(sh.opts.set);
      sh.vars.atScopeExit(() => {
        sh.opts.set.clear();
        for (const [k, v] of saved) sh.opts.set.set(k, v);
        syncOptionVars(sh);
      });
      continue;
    }
    // A word that became `name=value` or `name+=value` only when expanded (`declare s$x+=v`) is an assignment too.
    if (typeof t === 'string') {
      const dyn = dynamicAssign(t, on.has('a') || on.has('A'));
      if (dyn) t = dyn;
    }
    const name = typeof t === 'string' ? t.replace(/=.*$/, '') : t.name;
    if (!NAME.test(name)) {
      sh.error(`${variant}: \`${typeof t === 'string' ? t : name}': not a valid identifier`);
      status = 1;
      continue;
    }
    const rec = inFunction ? sh.vars.declareLocal(name) : global ? sh.vars.declare(name, true) : sh.vars.declareVisible(name);
    if (on.has('n') || off.has('n')) {
      // declare -n REF=NAME: REF stands for NAME from now on; +n makes it plain again.
      if (off.has('n')) {
        if (rec.nameref !== undefined && rec.value === undefined) rec.value = rec.nameref;
        rec.nameref = undefined;
        continue;
      }
      const target = typeof t !== 'string' ? (t.value ? expandAssignValue(t.value, ctx) : '') : t.includes('=') ? t.slice(t.indexOf('=') + 1) : undefined;
      if (target !== undefined) {
        if (!NAME.test(target.replace(/\[.*\]$/, ''))) {
          sh.error(`${variant}: \`${target}': invalid variable name for name reference`);
          status = 1;
          continue;
        }
        if (target === name) {
          sh.error(`${variant}: ${name}: nameref variable self references not allowed`);
          status = 1;
          continue;
        }
        rec.nameref = target;
        rec.declaredOnly = false;
      } else if (rec.nameref === undefined && !rec.indexed && !rec.assoc) {
        // -n on a plain variable: its value names the target (one that is not a name leaves it plain);
        // without a value, the first assignment will.
        const value = rec.value ?? '';
        if (value === '' || NAME.test(value.replace(/\[.*\]$/, ''))) {
          rec.nameref = value;
          rec.value = undefined;
        }
      }
      if (on.has('r')) rec.readonly = true;
      continue;
    }
    if (rec.assoc && on.has('a')) {
      sh.error(`${variant}: ${name}: cannot convert associative to indexed array`);
      status = 1;
      continue;
    }
    if (rec.indexed && on.has('A')) {
      sh.error(`${variant}: ${name}: cannot convert indexed to associative array`);
      status = 1;
      continue;
    }
    if (rec.readonly && typeof t !== 'string') {
      sh.error(`${name}: readonly variable`);
      status = 1;
      continue;
    }
    if (on.has('a') && !rec.indexed && !rec.assoc) {
      rec.indexed = new Map(rec.value !== undefined ? [[0, rec.value]] : []);
      rec.value = undefined;
    }
    if (on.has('A') && !rec.assoc) {
      rec.assoc = new Map();
      rec.indexed = undefined;
      rec.value = undefined;
    }
    if (on.has('i')) rec.integer = true;
    if (off.has('i')) rec.integer = false;
    if (on.has('l')) [rec.lower, rec.upper] = [true, false];
    if (on.has('u')) [rec.upper, rec.lower] = [true, false];
    if (on.has('x')) rec.exported = true;
    if (off.has('x')) rec.exported = false;
    if (typeof t !== 'string') {
      assign(sh, t, ctx, { local: inFunction });
    } else if (typeof t === 'string' && t.includes('=')) {
      sh.vars.set(name, t.slice(t.indexOf('=') + 1), { local: inFunction });
    } else if (variant === 'export' || variant === 'readonly') {
      // Marking an existing variable keeps its value.
    }
    if (on.has('r')) rec.readonly = true;
  }
  return status;
}

/** An assignment argument as the builtin received it (`name=value`, value expanded). */
function assignText(a: Assign): string {
  const v = a.value?.parts[0];
  return a.array ? print(a) : `${a.name}${a.append ? '+' : ''}=${a.value?.parts.length === 1 && v?.type === 'SglQuoted' ? v.value : ''}`;
}

/**
 * An expanded argument shaped like an assignment, as bash re-reads it: the
 * value is taken as it is, except that under -a/-A a value in parentheses is
 * parsed as an array literal (`declare -a "x=(1 2)"`).
 */
function dynamicAssign(word: string, array: boolean): Assign | null {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=([^]*)$/.exec(word);
  if (!m) return null;
  const [, name, plus, value] = m;
  if (array && /^\([^]*\)$/.test(value)) {
    try {
      let cmd = parse(word).stmts[0]?.cmd;
      if (cmd?.type === 'Pipeline' && cmd.cmds.length === 1) cmd = cmd.cmds[0];
      const a = cmd?.type === 'SimpleCommand' ? cmd.assigns[0] : undefined;
      if (a?.array) return a;
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
    }
  }
  const at = { line: 0, col: 0 };
  return { type: 'Assign', name, index: null, append: plus === '+', value: { type: 'Word', parts: [{ type: 'SglQuoted', value, ...at }], ...at }, array: null, ...at };
}

function flagOf(v: Var, f: string): boolean {
  switch (f) {
    case 'a': return !!v.indexed;
    case 'A': return !!v.assoc;
    case 'i': return !!v.integer;
    case 'r': return !!v.readonly;
    case 'x': return !!v.exported;
    case 'n': return v.nameref !== undefined;
    default: return true;
  }
}

export const unset: Builtin = (sh, argv) => {
  let mode: 'v' | 'f' | 'any' = 'any';
  let ref = false;
  let status = 0;
  for (const a of argv.slice(1)) {
    if (a === '-n') {
      ref = true;
      continue;
    }
    if (a === '-v') {
      mode = 'v';
      continue;
    }
    if (a === '-f') {
      mode = 'f';
      continue;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?$/.exec(a);
    if (!m && mode === 'any') {
      // Not a variable name: bash tries it as a function's, silently.
      sh.functions.delete(a);
      sh.exportedFunctions.delete(a);
      continue;
    }
    if (!m) {
      sh.error(`unset: \`${a}': not a valid identifier`);
      status = 1;
      continue;
    }
    if (mode === 'f') {
      sh.functions.delete(a);
      sh.exportedFunctions.delete(a);
      continue;
    }
    if (mode === 'any' && !sh.vars.lookup(m[1]) && sh.functions.has(m[1])) {
      sh.functions.delete(m[1]);
      sh.exportedFunctions.delete(m[1]);
      continue;
    }
    try {
      // The subscript is expanded as bash does (unset 'A["$k"]'); @ and * mean the whole array.
      if (m[2] !== undefined) sh.vars.unsetIndex(m[1], m[2] === '@' || m[2] === '*' ? m[2] : expandWord(parseSubscript(m[2]), expandContext(sh)));
      else sh.vars.unset(m[1], ref);
    } catch (e) {
      if (!(e instanceof ShellError)) throw e;
      sh.error(`unset: ${e.message}`);
      status = 1;
    }
  }
  return status;
};

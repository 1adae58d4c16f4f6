// Alias expansion. bash substitutes aliases while reading a command line, so
// an alias takes effect from the next line read (and function bodies keep the
// aliases of when they were defined). Here each complete command from
// Parser.nextCommand is rewritten before it runs: a simple command whose first
// word is an unquoted alias name is printed back with the alias text in its
// place and parsed again.

import { parse, print, type Command, type SimpleCommand, type Stmt, type Word } from '../syntax/index.js';
import type { Shell } from './shell.js';

/** The alias name a word can be: unquoted literal text only. */
function literal(w: Word | undefined): string | null {
  if (!w || w.parts.length !== 1 || w.parts[0].type !== 'Lit') return null;
  return w.parts[0].value;
}

export function expandAliases(sh: Shell, stmts: Stmt[]): Stmt[] {
  expandList(sh, stmts, new Set());
  substitutions(sh, stmts);
  return stmts;
}

function expandList(sh: Shell, stmts: Stmt[], used: ReadonlySet<string>): Stmt[] {
  for (const s of stmts) s.cmd = expandCommand(sh, s.cmd, used);
  return stmts;
}

/** The bodies of $(...) and <(...) in a command's words are read with the same aliases. */
function substitutions(sh: Shell, node: unknown): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) substitutions(sh, n);
    return;
  }
  const rec = node as { type?: string; stmts?: Stmt[] };
  if ((rec.type === 'CmdSubst' || rec.type === 'ProcSubst') && rec.stmts) {
    expandAliases(sh, rec.stmts);
    return;
  }
  for (const v of Object.values(rec)) if (typeof v === 'object') substitutions(sh, v);
}

function expandCommand(sh: Shell, cmd: Command, used: ReadonlySet<string>): Command {
  const list = (stmts: Stmt[]) => expandList(sh, stmts, used);
  switch (cmd.type) {
    case 'SimpleCommand':
      return expandSimple(sh, cmd, used);
    case 'Pipeline':
      cmd.cmds = cmd.cmds.map((c) => expandCommand(sh, c, used));
      return cmd;
    case 'AndOr':
      cmd.left = expandCommand(sh, cmd.left, used);
      cmd.right = expandCommand(sh, cmd.right, used);
      return cmd;
    case 'Group':
    case 'Subshell':
      list(cmd.stmts);
      return cmd;
    case 'If':
      for (const c of cmd.clauses) {
        list(c.cond);
        list(c.body);
      }
      if (cmd.elseBody) list(cmd.elseBody);
      return cmd;
    case 'While':
      list(cmd.cond);
      list(cmd.body);
      return cmd;
    case 'For':
    case 'ArithFor':
      list(cmd.body);
      return cmd;
    case 'Case':
      for (const item of cmd.items) list(item.body);
      return cmd;
    case 'FunctionDef':
      cmd.body = expandCommand(sh, cmd.body, used);
      return cmd;
    default:
      return cmd;
  }
}

function expandSimple(sh: Shell, cmd: SimpleCommand, used: ReadonlySet<string>): Command {
  const name = literal(cmd.words[0]);
  const value = name === null || used.has(name) ? undefined : sh.aliases.get(name);
  if (name === null || value === undefined) return cmd;
  const rest = cmd.words.slice(1);
  let restText = print({ ...cmd, assigns: [], words: rest });
  // A value ending in a blank makes the next word subject to alias expansion too.
  const next = literal(rest[0]);
  if (/[ \t]$/.test(value) && next !== null && sh.aliases.has(next) && next !== name) {
    restText = `${sh.aliases.get(next)} ${print({ ...cmd, assigns: [], words: rest.slice(1) })}`;
  }
  const assigns = cmd.assigns.length ? `${print({ ...cmd, words: [], redirs: [] })} ` : '';
  let stmts: Stmt[];
  try {
    stmts = parse(`${assigns}${value} ${restText}`, { extglob: sh.opts.shoptOn('extglob') }).stmts;
  } catch {
    return cmd; // an alias that does not parse with its arguments: leave the command as written
  }
  const inner = new Set(used).add(name);
  expandList(sh, stmts, inner);
  shiftLines(stmts, cmd.line - 1);
  if (stmts.length === 1 && !stmts[0].background) return stmts[0].cmd;
  return { type: 'Group', stmts, redirs: [], line: cmd.line, col: cmd.col };
}

/** The re-parsed text starts at line 1: move it to the line of the command it replaces ($LINENO, errors). */
function shiftLines(node: unknown, by: number): void {
  if (by === 0 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) shiftLines(n, by);
    return;
  }
  const rec = node as Record<string, unknown>;
  if (typeof rec.line === 'number') rec.line += by;
  for (const v of Object.values(rec)) if (typeof v === 'object') shiftLines(v, by);
}

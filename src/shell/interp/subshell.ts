// Child shell processes: pipeline stages that are not plain programs,
// background jobs and process substitutions. Workers cannot fork, so the
// child is a fresh agentos-shell handed a serialised copy of our state and
// the command's source text (printed from the AST).

import type { Command, FunctionDef, Stmt } from '../syntax/index.js';
import { parse, print } from '../syntax/index.js';
import { Errno, SysError } from '../../abi/errno.js';
import { F_DUPFD_CLOEXEC, F_SETFD } from '../../abi/fcntl.js';
import type { Sys } from '../../user/sys.js';
import { decodeShell } from '../bytes.js';
import { restore, tempInput, tracked } from './redirect.js';
import type { Frame } from './frames.js';
import type { Shell } from './shell.js';
import type { Var } from './vars.js';

export const SUBSHELL_FLAG = '--agentos-subshell';
/** Like SUBSHELL_FLAG, with the state and source in the file open at the fd given next. */
export const SUBSHELL_STATE_FD_FLAG = '--agentos-subshell-fd';

interface State {
  /** Per scope, global first. */
  vars: [string, Var & { indexedEntries?: [number, string][]; assocEntries?: [string, string][] }][][];
  functions: string[];
  set: [string, boolean][];
  shopt: [string, boolean][];
  aliases: [string, string][];
  traps: [string, string][];
  positional: string[];
  name: string;
  errorName: string;
  status: number;
  pid: number;
  lastBg: number;
  lastArg: string;
  funcStack: string[];
  frames: Frame[];
  functionSources: [string, string][];
  lineno: number;
  subshellLevel: number;
}

export function serialize(sh: Shell): string {
  // Every scope's own records (namerefs as namerefs): the child is still inside the same functions.
  const vars: State['vars'] = sh.vars.scopeEntries().map((scope) => scope.map(([name, v]) => [name, {
    ...v,
    indexed: undefined,
    assoc: undefined,
    indexedEntries: v.indexed ? [...v.indexed] : undefined,
    assocEntries: v.assoc ? [...v.assoc] : undefined,
  }]));
  const state: State = {
    vars,
    functions: [...sh.functions.values()].map((f) => print(f)),
    // A subshell of an interactive shell is not interactive (bash).
    set: [...sh.opts.set].filter(([name]) => name !== 'interactive' && name !== 'monitor'),
    shopt: [...sh.opts.shopt],
    aliases: [...sh.aliases],
    // Caught signals are reset in a subshell; ignored ones stay ignored (bash).
    // ERR, DEBUG and RETURN go along under set -E / set -T.
    traps: [...sh.traps].filter(([sig, action]) => (action === '' && sig !== 'EXIT') || (['DEBUG', 'RETURN', 'ERR'].includes(sig) && !sh.untracedTraps().includes(sig as 'ERR'))),
    positional: sh.positional,
    name: sh.name,
    errorName: sh.errorName,
    status: sh.status,
    pid: sh.pid,
    lastBg: sh.lastBg,
    lastArg: sh.lastArg,
    funcStack: sh.funcStack,
    frames: sh.frames,
    functionSources: [...sh.functionSources],
    lineno: sh.lineno,
    subshellLevel: sh.subshellLevel + 1,
  };
  return JSON.stringify(state);
}

export function deserialize(sh: Shell, json: string): void {
  const s = JSON.parse(json) as State;
  s.vars.forEach((scope, depth) => {
    if (depth > 0) sh.vars.pushScope();
    for (const [name, v] of scope) {
      const rec = sh.vars.declare(name, depth === 0);
      Object.assign(rec, v, {
        indexed: v.indexedEntries ? new Map(v.indexedEntries) : undefined,
        assoc: v.assocEntries ? new Map(v.assocEntries) : undefined,
      });
      delete (rec as { indexedEntries?: unknown }).indexedEntries;
      delete (rec as { assocEntries?: unknown }).assocEntries;
    }
  });
  sh.funcStack = s.funcStack;
  sh.frames = s.frames;
  sh.functionSources = new Map(s.functionSources);
  for (const src of s.functions) {
    const def = parse(src).stmts[0]?.cmd as FunctionDef | undefined;
    if (def?.type === 'FunctionDef') sh.functions.set(def.name, def);
  }
  for (const [k, v] of s.set) sh.opts.set.set(k as never, v);
  for (const [k, v] of s.shopt) sh.opts.shopt.set(k, v);
  sh.aliases = new Map(s.aliases);
  sh.traps = new Map(s.traps);
  sh.positional = s.positional;
  sh.name = s.name;
  sh.errorName = s.errorName;
  sh.status = s.status;
  sh.lastBg = s.lastBg;
  sh.lastArg = s.lastArg;
  sh.lineno = s.lineno;
  sh.subshellLevel = s.subshellLevel;
  (sh as { pid: number }).pid = s.pid;
}

/** Source text for a command or statements, for the child to parse. */
export function sourceOf(code: Stmt[] | Command): string {
  if (Array.isArray(code)) return code.map((s) => print(s)).join('\n');
  return print(code);
}

/**
 * Start a child shell running `code` with fds remapped by `fds` (child fd →
 * our fd); all our other non-close-on-exec fds are inherited. Returns its pid.
 */
export function startSubshell(sh: Shell, code: Stmt[] | Command, fds: Record<number, number> = {}, pgid?: number, foreground = false): number {
  const self = sh.selfPath;
  const state = serialize(sh);
  const source = sourceOf(code);
  const env = sh.vars.environ();
  return withFds(sh, fds, () => {
    try {
      return sh.sys.spawn({ path: self, argv: [self, SUBSHELL_FLAG, state, source], env, pgid, foreground });
    } catch (e) {
      if (!(e instanceof SysError && e.errno === Errno.E2BIG)) throw e;
      return spawnWithStateFile(sh, state, source, env, pgid, foreground);
    }
  });
}

/**
 * State larger than the syscall channel (a big variable, a long here-document
 * in a function): it crosses in an unlinked temp file on an fd only this child
 * inherits. The environment goes along when it fits; when it alone is too big,
 * the child starts without one, since a child shell takes its variables from
 * the state (a forked bash has them too, and its programs then fail E2BIG).
 */
function spawnWithStateFile(sh: Shell, state: string, source: string, env: string[], pgid: number | undefined, foreground: boolean): number {
  const self = sh.selfPath;
  const fd = tempInput(sh, JSON.stringify([state, source]));
  try {
    sh.sys.fcntl(fd, F_SETFD, 0);
    const argv = [self, SUBSHELL_STATE_FD_FLAG, String(fd)];
    try {
      return sh.sys.spawn({ path: self, argv, env, pgid, foreground });
    } catch (e) {
      if (!(e instanceof SysError && e.errno === Errno.E2BIG)) throw e;
      return sh.sys.spawn({ path: self, argv, env: [], pgid, foreground });
    }
  } finally {
    sh.sys.close(fd);
  }
}

/** The child's end: its state and source from the temp file at `fd` (then closed). */
export function stateFromFd(sys: Sys, fd: number): [string, string] {
  try {
    return JSON.parse(decodeShell(sys.readAll(fd))) as [string, string];
  } finally {
    sys.close(fd);
  }
}

/** Run `fn` with our fds temporarily rearranged (child fd → our fd), as a fork+dup2 would. */
export function withFds<T>(sh: Shell, fds: Record<number, number>, fn: () => T): T {
  const saved = tracked(sh);
  try {
    for (const [child, ours] of Object.entries(fds)) {
      const fd = Number(child);
      if (fd === ours) continue;
      let copy = -1;
      try {
        copy = sh.sys.fcntl(fd, F_DUPFD_CLOEXEC, 10);
      } catch {
        /* was closed */
      }
      saved.push([fd, copy]);
      sh.sys.dup2(ours, fd);
    }
    return fn();
  } finally {
    restore(sh, saved);
  }
}

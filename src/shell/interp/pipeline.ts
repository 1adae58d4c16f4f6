// Pipelines and background jobs. Every stage runs concurrently: a plain
// program is spawned straight onto the pipe; anything else (builtins,
// functions, compound commands) runs in a child shell, as bash forks one.

import { O_CLOEXEC, O_RDONLY } from '../../abi/fcntl.js';
import { expandAssignValue, expandWords } from '../expand/index.js';
import { print, type Command, type Pipeline, type SimpleCommand } from '../syntax/index.js';
import { BUILTINS, SPECIAL_BUILTINS } from './builtins/index.js';
import { expandContext } from './context.js';
import { afterLeaf, runCommand, setPipestatus, spawnProgram, suppressed, waitFor } from './exec.js';
import { applyRedirs, OUTPUT_ONLY, RedirectFailed, restore } from './redirect.js';
import type { Shell } from './shell.js';
import { expandsHere, substitutes } from './expands-here.js';
import { isolate } from './isolate.js';
import { startedAsync } from './reap.js';
import { startSubshell, withFds } from './subshell.js';
import { SIG_IGN, SIGPIPE } from '../../abi/signal.js';
import { ShellError } from '../errors.js';

export function runPipeline(sh: Shell, p: Pipeline): number {
  const t0 = p.time ? performance.now() : 0;
  let status: number;
  if (p.cmds.length === 1) {
    const run = () => runCommand(sh, p.cmds[0]);
    status = p.negated ? suppressed(sh, run) : run();
    setPipestatus(sh, [status]);
  } else {
    const statuses = runStages(sh, p);
    setPipestatus(sh, statuses);
    status = statuses[statuses.length - 1];
    if (sh.opts.on('pipefail')) status = [...statuses].reverse().find((s) => s !== 0) ?? 0;
  }
  if (p.time) {
    const secs = (performance.now() - t0) / 1000;
    const fmt = p.time === 'time -p' ? 'real %2R\nuser %2U\nsys %2S' : sh.vars.get('TIMEFORMAT') ?? '\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS';
    if (fmt !== '') sh.write(2, `${timeFormat(fmt, secs)}\n`);
  }
  if (p.negated) return status === 0 ? 1 : 0;
  return p.cmds.length > 1 ? afterLeaf(sh, status) : status;
}

/** bash's TIMEFORMAT: %[p][l]R|U|S (user and system time are not measured: 0), %P, %%. */
function timeFormat(fmt: string, real: number): string {
  return fmt.replace(/%(\d)?(l)?([RUSP%])/g, (_m, prec: string | undefined, long: string | undefined, what: string) => {
    if (what === '%') return '%';
    if (what === 'P') return '0.00';
    const v = what === 'R' ? real : 0;
    const p = prec === undefined ? 3 : Math.min(Number(prec), 3);
    if (!long) return v.toFixed(p);
    const min = Math.floor(v / 60);
    return `${min}m${(v - min * 60).toFixed(p)}s`;
  });
}

function runStages(sh: Shell, p: Pipeline): number[] {
  // shopt -s lastpipe (without job control): the last stage runs in this shell.
  const lastpipe = sh.opts.shoptOn('lastpipe') && !sh.jobControl;
  const n = lastpipe ? p.cmds.length - 1 : p.cmds.length;
  // A first stage that is a plain builtin (echo, printf, ...) runs in this shell once
  // the others are running, with subshell semantics: one worker less per pipeline.
  const inProcess = n > 1 && isPlainBuiltin(sh, p.cmds[0]);
  const { pids, failed, group, firstWrite, lastRead } = startStages(sh, p, n, inProcess, true);
  let firstStatus = 0;
  if (inProcess) {
    try {
      firstStatus = runInProcessStage(sh, p.cmds[0], p.pipeAll[0] ? { 1: firstWrite, 2: firstWrite } : { 1: firstWrite });
    } finally {
      sh.sys.close(firstWrite);
    }
  }
  let lastStatus = 0;
  if (lastpipe) {
    try {
      lastStatus = withFds(sh, { 0: lastRead }, () => runCommand(sh, p.cmds[n]));
    } finally {
      sh.sys.close(lastRead);
    }
  }
  if (sh.terminal && group) {
    const live = pids.filter((pid) => pid > 0);
    const st = sh.terminal.waitForeground(live, group, print(p));
    return p.cmds.map((_, i) =>
      i === n ? lastStatus : i === 0 && inProcess ? firstStatus : failed.has(i) ? failed.get(i)! : st[live.indexOf(pids[i])],
    );
  }
  const fg = sh.fgPgid;
  if (sh.jobControl && group) sh.fgPgid = group;
  try {
    return p.cmds.map((_, i) =>
      i === n ? lastStatus : i === 0 && inProcess ? firstStatus : failed.has(i) ? failed.get(i)! : waitFor(sh, pids[i]),
    );
  } finally {
    sh.fgPgid = fg;
  }
}

interface Stages {
  /** Pid by stage index (none for a stage that failed to start or runs in this shell). */
  pids: number[];
  /** Status by stage index of the stages that could not start. */
  failed: Map<number, number>;
  /** The job's process group under job control (the first started stage's pid), else 0. */
  group: number;
  /** The pipe an in-process first stage writes to (-1: none). */
  firstWrite: number;
  /** The pipe a stage run by the caller after the n-th reads (-1: none). */
  lastRead: number;
}

/**
 * Start stages [0, n) of `p`, each on the pipe from the one before (stage 0
 * only gets its pipe when `skipFirst`: the caller runs it); `foreground`
 * gives the terminal to the job's group as its first stage starts.
 */
function startStages(sh: Shell, p: Pipeline, n: number, skipFirst: boolean, foreground: boolean): Stages {
  // The stages' own ends are not reaped until all have started (see Shell.holdReap).
  sh.holdReap++;
  try {
    return startEach(sh, p, n, skipFirst, foreground);
  } finally {
    sh.holdReap--;
  }
}

function startEach(sh: Shell, p: Pipeline, n: number, skipFirst: boolean, foreground: boolean): Stages {
  const out: Stages = { pids: [], failed: new Map(), group: 0, firstWrite: -1, lastRead: -1 };
  let prevRead = -1;
  for (let i = 0; i < n; i++) {
    const last = i === p.cmds.length - 1;
    const [r, w] = last ? [-1, -1] : sh.sys.pipe(O_CLOEXEC);
    const fds: Record<number, number> = {};
    if (prevRead >= 0) fds[0] = prevRead;
    if (w >= 0) {
      fds[1] = w;
      if (p.pipeAll[i]) fds[2] = w;
    }
    if (i === 0 && skipFirst) {
      out.firstWrite = w;
      prevRead = r;
      continue;
    }
    const pgid = sh.jobControl ? out.group : undefined;
    // The first stage takes the terminal as it starts (the others join its group).
    const pid = startStage(sh, p.cmds[i], fds, pgid, foreground && sh.terminal !== null && out.group === 0);
    if (pid < 0) out.failed.set(i, -pid);
    else {
      out.pids[i] = pid;
      if (out.group === 0) {
        out.group = pid;
        if (foreground) sh.terminal?.give(out.group);
      }
    }
    if (w >= 0) sh.sys.close(w);
    if (prevRead >= 0) sh.sys.close(prevRead);
    prevRead = r;
  }
  out.lastRead = prevRead;
  return out;
}

/** `name args...` where name is literally a builtin (not a function, not a word needing expansion). */
function isPlainBuiltin(sh: Shell, cmd: Command): boolean {
  if (cmd.type !== 'SimpleCommand' || cmd.words.length === 0) return false;
  const first = cmd.words[0].parts;
  if (first.length !== 1 || first[0].type !== 'Lit') return false;
  const name = first[0].value;
  return !!BUILTINS[name] && !sh.functions.has(name) && !SPECIAL_BUILTINS.has(name) && name !== 'exec';
}

/**
 * Run a pipeline's first stage in this shell as a subshell would: isolated
 * state, and a write to a closed pipe ends it as SIGPIPE would (status 141)
 * instead of killing this shell.
 */
function runInProcessStage(sh: Shell, cmd: Command, fds: Record<number, number>): number {
  const old = sh.sys.sigaction(SIGPIPE, SIG_IGN);
  sh.pipeStage++;
  // It stands for bash's fork of this one command (a fatal expansion error ends it with its own status).
  const last = sh.lastCommand;
  sh.lastCommand = cmd;
  try {
    const run = () => isolate(sh, () => runCommand(sh, cmd));
    if (!writesOnly(sh, cmd, fds)) return withFds(sh, fds, run);
    // echo, printf: they write to the pipe directly, our fds 1 and 2 stay (four syscalls fewer).
    sh.outputFds = [fds[1] ?? 1, fds[2] ?? 2];
    try {
      return run();
    } finally {
      sh.outputFds = null;
    }
  } finally {
    sh.lastCommand = last;
    sh.pipeStage--;
    sh.sys.sigaction(SIGPIPE, old);
  }
}

/**
 * A builtin whose only use of fds 1 and 2 is the shell's output calls
 * (redirect.ts OUTPUT_ONLY), with nothing that would run on the rearranged
 * fds (redirections, substitutions) and only 1 and 2 rearranged.
 */
function writesOnly(sh: Shell, cmd: Command, fds: Record<number, number>): cmd is SimpleCommand {
  if (cmd.type !== 'SimpleCommand' || cmd.redirs.length || sh.outputFds) return false;
  const first = cmd.words[0]?.parts;
  if (first?.length !== 1 || first[0].type !== 'Lit' || !OUTPUT_ONLY.has(first[0].value)) return false;
  return Object.keys(fds).every((fd) => fd === '1' || fd === '2') && !substitutes(cmd);
}

/**
 * Start one stage with its fds rearranged by `fds` (child fd → our fd), as
 * after a fork; returns its pid (or minus a status if it could not start).
 */
function startStage(sh: Shell, cmd: Command, fds: Record<number, number>, pgid?: number, foreground = false): number {
  if (!expandsHere(cmd)) return startSubshell(sh, cmd, fds, pgid, foreground);
  const pairs = spawnFds(cmd, fds);
  if (pairs === null) return withFds(sh, fds, () => startHere(sh, cmd, pgid, foreground));
  // A plain program: the kernel sets the child's fds (four syscalls fewer than a dup2 and restore here).
  const expanded = expandStage(sh, cmd);
  if (!expanded || !isProgram(sh, expanded.argv[0])) return startSubshell(sh, cmd, fds, pgid, foreground);
  return spawnProgram(sh, expanded.argv, expanded.env, pgid, foreground, false, pairs);
}

/**
 * The stage's argv and environment, or null when expanding fails (set -u, a
 * failed glob): the child then expands again and reports it, and only the
 * child fails, as in bash.
 */
function expandStage(sh: Shell, cmd: SimpleCommand): { argv: string[]; env: string[] } | null {
  try {
    const ctx = expandContext(sh);
    const argv = expandWords(cmd.words, ctx);
    return { argv, env: stageEnv(sh, cmd, ctx) };
  } catch (e) {
    if (e instanceof ShellError) return null;
    throw e;
  }
}

/**
 * `fds` as a spawn's fd map, when nothing before the spawn needs them in
 * place: a command without redirections, stderr untouched (a "command not
 * found" goes to the stage's stderr), and no target fd also a source (dup2s in
 * order are not a map). Else null.
 */
function spawnFds(cmd: SimpleCommand, fds: Record<number, number>): [number, number][] | null {
  if (cmd.redirs.length) return null;
  const pairs = Object.entries(fds).map(([c, ours]): [number, number] => [Number(c), ours]).filter(([c, ours]) => c !== ours);
  return pairs.some(([c, ours]) => c > 1 || pairs.some(([t]) => t === ours)) ? null : pairs;
}

/** A name that runs as a program: not a function or builtin. */
function isProgram(sh: Shell, name: string | undefined): name is string {
  return name !== undefined && !sh.functions.has(name) && !BUILTINS[name] && !SPECIAL_BUILTINS.has(name);
}

/** The stage's environment: the exported variables, then its own assignments. */
function stageEnv(sh: Shell, cmd: SimpleCommand, ctx: ReturnType<typeof expandContext>): string[] {
  const env = [...sh.vars.environ()];
  for (const a of cmd.assigns) env.push(`${a.name}=${a.value ? expandAssignValue(a.value, ctx) : ''}`);
  return env;
}

/** Start one stage on the current fds 0/1/2. */
function startHere(sh: Shell, cmd: SimpleCommand, pgid?: number, foreground = false): number {
  const expanded = expandStage(sh, cmd);
  if (!expanded || !isProgram(sh, expanded.argv[0])) return startSubshell(sh, cmd, {}, pgid, foreground);
  let saved;
  try {
    saved = applyRedirs(sh, cmd.redirs);
  } catch (e) {
    if (!(e instanceof ShellError)) throw e;
    if (!(e instanceof RedirectFailed)) sh.error(e.message);
    return -e.status;
  }
  try {
    // A stage is a child of its own in bash: what it hashes stays there.
    return spawnProgram(sh, expanded.argv, expanded.env, pgid, foreground, false);
  } finally {
    restore(sh, saved);
  }
}

/**
 * `cmd &`: runs concurrently with stdin from /dev/null (non-interactive
 * shells); sets $!. A pipeline's stages are started as the shell's own
 * children, as bash does, so $! is its last stage and `kill $!` reaches it.
 */
export function startBackground(sh: Shell, cmd: Command): void {
  const nul = sh.sys.open('/dev/null', O_RDONLY | O_CLOEXEC);
  let pids: number[];
  let group = 0;
  try {
    const fds: Record<number, number> = sh.opts.on('interactive') ? {} : { 0: nul };
    if (cmd.type === 'Pipeline' && cmd.cmds.length > 1 && !cmd.negated && !cmd.time) {
      const started = withFds(sh, fds, () => startStages(sh, cmd, cmd.cmds.length, false, false));
      // Without job control the stages stay in the shell's group, as in bash.
      group = sh.jobControl ? started.group : 0;
      pids = started.pids.filter((pid) => pid > 0);
    } else {
      const pid = startStage(sh, cmd, fds, sh.jobControl ? 0 : undefined);
      group = pid > 0 && sh.jobControl ? pid : 0;
      pids = pid > 0 ? [pid] : [];
    }
  } finally {
    sh.sys.close(nul);
  }
  if (!pids.length) return;
  sh.lastBg = pids[pids.length - 1];
  const id = (sh.jobs.at(-1)?.id ?? 0) + 1;
  sh.jobs.push({ id, pids, pgid: group || undefined, command: print(cmd), status: 'Running' });
  for (const pid of pids) startedAsync(sh, pid);
  if (sh.opts.on('interactive') && sh.subshellLevel === 0) sh.write(2, `[${id}] ${pids[0]}\n`);
}

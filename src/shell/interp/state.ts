// The shell's state: every mutable field of the interpreter in one class, and
// one table (FIELDS) saying for each field how an in-process subshell
// ( (...), $(...) ) copies it and whether it crosses to a child shell process
// (a pipeline stage, a background job). Shell extends this class and adds
// behaviour only. The table's type is a record over every field, so a field
// added here does not compile until it says what both kinds of subshell do
// with it. Fields are public: `keyof` cannot see private ones.

import type { Command, FunctionDef } from '../syntax/index.js';
import { parse, print } from '../syntax/index.js';
import { encodeStmtLines, restoreOne } from '../syntax/lines.js';
import type { History } from '../interactive/history.js';
import type { JobTerminal } from '../interactive/jobs.js';
import type { Var } from '../variable.js';
import type { Frame } from './frames.js';
import { Options, type SetOption } from './options.js';
import type { Saved } from './redirect.js';
import { Vars } from './vars.js';

export interface Job {
  id: number;
  pids: number[];
  command: string;
  status: 'Running' | 'Done' | 'Stopped';
  exit?: number;
  /** Its process group (job control). */
  pgid?: number;
  /** Members already waited for. */
  done?: Set<number>;
}

/** The facts a shell starts from (the rest comes from the environment, or from a parent's serialize()). */
export interface StateInit {
  /** $0 */
  name: string;
  /** Prefix of error messages: the shell's name in -c mode, the script's path otherwise. */
  errorName: string;
  positional: string[];
  pid: number;
}

export class ShellState {
  readonly vars = new Vars();
  opts = new Options();
  functions = new Map<string, FunctionDef>();
  /** Functions marked with `export -f`: passed to child processes as BASH_FUNC_name%% variables. */
  exportedFunctions = new Set<string>();
  aliases = new Map<string, string>();
  /** Signal name (EXIT, ERR, INT, ...) → action text ('' = ignore). */
  traps = new Map<string, string>();
  positional: string[];
  name: string;
  errorName: string;
  status = 0;
  lastBg = 0;
  pipestatus: number[] = [0];
  lineno = 0;
  /** Function call stack, innermost last (FUNCNAME). */
  funcStack: string[] = [];
  sourceStack: string[] = [];
  /** FUNCNAME / BASH_SOURCE / BASH_LINENO frames, outermost first (frames.ts). */
  frames: Frame[] = [];
  /** The file each function was defined in, for BASH_SOURCE. */
  functionSources = new Map<string, string>();
  loopDepth = 0;
  /** Depth of runSource calls: > 0 inside eval, source and traps. */
  sourceDepth = 0;
  /** > 0 while running a condition whose failure must not trigger errexit. */
  errexitSuppressed = 0;
  jobs: Job[] = [];
  dirStack: string[] = [];
  /** ulimit's limits the script set (builtins/ulimit.ts): resource letter → [soft, hard] as decimal strings. */
  rlimits = new Map<string, [string, string]>();
  /** bash's hash table of programs found on PATH (exec.ts, `hash`), valid for the PATH in hashPath. */
  hashed = new Map<string, { path: string; hits: number }>();
  hashPath = '';
  /** A subshell's listing of traps: its parent's, until it sets one of its own (bash). */
  shownTraps: Map<string, string> | null = null;
  readonly pid: number;
  readonly startMs = Date.now();
  /** In a subshell (a child shell process or an in-process $(...)): $BASH_SUBSHELL. */
  subshellLevel = 0;
  /** $BASHPID of an in-process subshell, which has no process of its own (0: the real pid). */
  fakePid = 0;
  /** Inside an in-process subshell: fds saved by `exec` redirections, put back when it ends. */
  execSaved: Saved[] | null = null;
  /** Running the single simple command of a $(...), which bash execs in place (SHLVL - 1). */
  oneShot = false;
  /** This shell's own executable, for starting child shells. */
  selfPath = '/bin/sh';
  /** Open process substitutions of the current command: closed when it ends. */
  procSubsts: { fd: number; pid: number }[] = [];
  /** Async children (background stages, process substitutions) not yet reaped (reap.ts). */
  unreaped = new Set<number>();
  /** Statuses of reaped async children, oldest first (bash's bgpids: `wait PID` still answers). */
  reaped = new Map<number, number>();
  /** Foreground children the reaper took before their waiter asked: pid → wait status, taken once. */
  early = new Map<number, number>();
  /**
   * > 0 while a pipeline's stages are being started: no reaping then (bash blocks SIGCHLD), since a
   * reaped first stage would take its process group with it and the next stage could not join it.
   */
  holdReap = 0;
  /** > 0 while a pipeline's first stage runs in this shell (pipeline.ts). */
  pipeStage = 0;
  /** This process's umask once the shell has read or set it (only the shell changes it); null: not yet known. */
  umaskKnown: number | null = null;
  /** Counts the shell's chdir calls: an in-process subshell that made none has no cwd to put back. */
  cwdMoves = 0;
  /** A command substitution ran during the current simple command (its status is $?). */
  substRan = false;
  /** $_: the last argument of the previous simple command (empty after an assignment-only one). */
  lastArg = '';
  /** Extra letters for $- (c: -c, s: stdin). */
  modeFlags = '';
  /** Each foreground job gets its own process group (session shells, interactive shells). */
  jobControl = false;
  /** Job control on a terminal (interactive shells): see interactive/jobs.ts. */
  terminal: JobTerminal | null = null;
  /** The interactive shell's history (interactive/history.ts), for the `history` builtin. */
  history: History | null = null;
  /** Process group of the running foreground job, for forwarding SIGINT. */
  fgPgid = 0;
  /** Set by the SIGINT handler of a session shell; checked between commands. */
  interrupted = false;
  /** Errors that end a script (syntax, ${x:?}) only abandon the command (sessions, interactive). */
  keepGoing = false;
  /** The DEBUG, RETURN and ERR traps running now (none sets itself off). */
  runningTraps = new Set<string>();
  /** > 0 while a trap action runs: no DEBUG trap inside it, and $BASH_COMMAND stays put. */
  trapDepth = 0;
  /** The command $BASH_COMMAND names (printed only when asked for), or its text. */
  currentCommand: Command | string | null = null;
  /** > 0 inside a command substitution, whose killed jobs bash does not report. */
  substDepth = 0;
  randomSeed = Date.now() & 0x7fff;
  /** Redirections and fd swaps applied and not yet undone, innermost last (redirect.ts tracked()). */
  pendingRedirs: Saved[] = [];
  /**
   * Where fds 1 and 2 go while an output-only builtin runs with its
   * redirection as a plain file (redirect.ts withOutputFile); null: to 1 and 2.
   */
  outputFds: [number, number] | null = null;
  /**
   * The command after which this process ends (what a background job's child shell runs): its
   * redirections stay in place as after a fork, and the fds they replaced are let go (exec.ts).
   */
  lastCommand: Command | null = null;

  constructor(init: StateInit) {
    this.pid = init.pid;
    this.name = init.name;
    this.errorName = init.errorName;
    this.positional = init.positional;
  }

  /** The traps functions and subshells do not inherit: DEBUG and RETURN without set -T, ERR without set -E. */
  untracedTraps(): ('DEBUG' | 'RETURN' | 'ERR')[] {
    const out: ('DEBUG' | 'RETURN' | 'ERR')[] = this.opts.on('functrace') ? [] : ['DEBUG', 'RETURN'];
    if (!this.opts.on('errtrace')) out.push('ERR');
    return out;
  }

  /** A copy of everything an in-process subshell may change and must not leave changed, for restore(). */
  clone(): StateCopy {
    return { values: COPIED.map((rule) => rule.save(this)) };
  }

  /** Put back what clone() copied (the subshell ended). */
  restore(copy: StateCopy): void {
    COPIED.forEach((rule, i) => rule.restore(this, copy.values[i]));
  }

  /** The state a child shell process starts from (what crosses: FIELDS' `child` rules), as JSON. */
  serialize(): string {
    const out: Record<string, unknown> = {};
    for (const [name, rule] of CARRIED) out[name] = rule.out(this);
    return JSON.stringify(out);
  }

  /** The child's end of serialize(): take the parent's state over this fresh one. */
  deserialize(json: string): void {
    const s = JSON.parse(json) as Record<string, unknown>;
    for (const [name, rule] of CARRIED) rule.take(this, s[name]);
  }
}

/** What clone() copied, in COPIED's order. */
export interface StateCopy {
  readonly values: readonly unknown[];
}

/** Every data field of ShellState (its methods left out). */
type Field = { [K in keyof ShellState]: ShellState[K] extends (...args: never[]) => unknown ? never : K }[keyof ShellState];

/** In an in-process subshell: `shared` (why its changes stay with the parent), or copied before it runs and put back after. */
type InProcess = { shared: string } | Copied;
interface Copied {
  save(s: ShellState): unknown;
  restore(s: ShellState, saved: unknown): void;
}

/** To a child shell process: `omit` (why it does not cross), or its JSON and how the child takes it. */
type ToChild = { omit: string } | Carried;
interface Carried {
  out(s: ShellState): unknown;
  take(s: ShellState, json: unknown): void;
}

interface Rule {
  subshell: InProcess;
  child: ToChild;
}

/** Save with `save`, put back with `restore` (typed per field; stored untyped). */
function keep<V>(save: (s: ShellState) => V, restore: (s: ShellState, saved: V) => void): Copied {
  return { save, restore: restore as Copied['restore'] };
}

/** Field `k` saved as `copy` of it (the value itself by default) and assigned back. */
function put<K extends Field>(k: K, copy: (v: ShellState[K]) => ShellState[K] = (v) => v): Copied {
  return keep((s) => copy(s[k]), (s, v) => {
    (s as Record<K, ShellState[K]>)[k] = v;
  });
}

function carry<J>(out: (s: ShellState) => J, take: (s: ShellState, json: J) => void): Carried {
  return { out, take: take as Carried['take'] };
}

/** Field `k` crosses as it is (JSON-safe values) and is assigned in the child. */
function send<K extends Field>(k: K): Carried {
  return carry((s) => s[k], (s, v) => {
    (s as Record<K, ShellState[K]>)[k] = v;
  });
}

/** A variable record in JSON: its arrays as entry lists. */
type VarJson = Var & { indexedEntries?: [number, string][]; assocEntries?: [string, string][] };

const BOOKKEEPING = 'bookkeeping of the running command, left balanced by the code that changes it';
const PROCESS = 'a fact about this shell process, which an in-process subshell shares';
const PER_PROCESS = 'per process: a child shell starts its own';

const FIELDS: { [K in Field]: Rule } = {
  vars: {
    subshell: keep((s) => s.vars.snapshot(), (s, v) => s.vars.restore(v)),
    // Every scope's own records (namerefs as namerefs): the child is still inside the same functions.
    child: carry(
      (s): [string, VarJson][][] => s.vars.scopeEntries().map((scope) => scope.map(([name, v]) => [name, {
        ...v,
        indexed: undefined,
        assoc: undefined,
        indexedEntries: v.indexed ? [...v.indexed] : undefined,
        assocEntries: v.assoc ? [...v.assoc] : undefined,
      }])),
      (s, scopes) => scopes.forEach((scope, depth) => {
        if (depth > 0) s.vars.pushScope();
        for (const [name, v] of scope) {
          const rec = s.vars.declare(name, depth === 0);
          Object.assign(rec, v, {
            indexed: v.indexedEntries ? new Map(v.indexedEntries) : undefined,
            assoc: v.assocEntries ? new Map(v.assocEntries) : undefined,
          });
          delete (rec as VarJson).indexedEntries;
          delete (rec as VarJson).assocEntries;
        }
      }),
    ),
  },
  opts: {
    subshell: put('opts', (o) => o.clone()),
    // A subshell of an interactive shell is not interactive (bash).
    child: carry(
      (s) => ({ set: [...s.opts.set].filter(([name]) => name !== 'interactive' && name !== 'monitor'), shopt: [...s.opts.shopt] }),
      (s, o) => {
        for (const [k, v] of o.set) s.opts.set.set(k as SetOption, v);
        for (const [k, v] of o.shopt) s.opts.shopt.set(k, v);
      },
    ),
  },
  functions: {
    subshell: put('functions', (m) => new Map(m)),
    child: carry(
      // Each with the lines it was defined on ($LINENO, BASH_LINENO, errors in the body).
      (s) => [...s.functions.values()].map((f): [string, string] => [print(f), encodeStmtLines(f)]),
      (s, defs: [string, string][]) => {
        for (const [src, lines] of defs) {
          const st = parse(src).stmts[0];
          if (st?.cmd.type !== 'FunctionDef') continue;
          restoreOne(st, lines);
          s.functions.set(st.cmd.name, st.cmd);
        }
      },
    ),
  },
  exportedFunctions: {
    subshell: put('exportedFunctions', (set) => new Set(set)),
    child: { omit: 'crosses in the environment as BASH_FUNC_name%% (Vars.environ), which the child imports' },
  },
  aliases: { subshell: put('aliases', (m) => new Map(m)), child: carry((s) => [...s.aliases], (s, a) => { s.aliases = new Map(a); }) },
  traps: {
    subshell: put('traps', (m) => new Map(m)),
    // Caught signals are reset in a subshell; ignored ones stay ignored (bash).
    // ERR, DEBUG and RETURN go along under set -E / set -T.
    child: carry(
      (s) => [...s.traps].filter(([sig, action]) => (action === '' && sig !== 'EXIT')
        || (['DEBUG', 'RETURN', 'ERR'].includes(sig) && !s.untracedTraps().includes(sig as 'ERR'))),
      (s, t) => { s.traps = new Map(t); },
    ),
  },
  positional: { subshell: put('positional', (p) => [...p]), child: send('positional') },
  name: { subshell: { shared: 'set only at start' }, child: send('name') },
  errorName: { subshell: { shared: 'set only at start' }, child: send('errorName') },
  status: { subshell: { shared: 'the caller sets $? from the subshell\'s status' }, child: send('status') },
  lastBg: { subshell: { shared: 'not put back: a $! set inside ( ... ) stays' }, child: send('lastBg') },
  pipestatus: { subshell: { shared: 'the caller sets it after the command' }, child: { omit: 'set by the child\'s own commands' } },
  lineno: { subshell: { shared: 'the caller\'s next command sets it' }, child: send('lineno') },
  funcStack: { subshell: put('funcStack'), child: send('funcStack') },
  sourceStack: { subshell: { shared: BOOKKEEPING }, child: { omit: 'the child runs printed source, not the file' } },
  frames: { subshell: { shared: BOOKKEEPING }, child: send('frames') },
  functionSources: { subshell: { shared: 'only read for functions that exist' }, child: carry((s) => [...s.functionSources], (s, f) => { s.functionSources = new Map(f); }) },
  loopDepth: { subshell: put('loopDepth'), child: { omit: 'break and continue do not leave a subshell' } },
  sourceDepth: { subshell: { shared: BOOKKEEPING }, child: { omit: 'the child\'s source is its top level' } },
  errexitSuppressed: { subshell: { shared: BOOKKEEPING }, child: { omit: 'the child starts outside any condition' } },
  jobs: { subshell: put('jobs'), child: { omit: PER_PROCESS } },
  dirStack: { subshell: put('dirStack', (d) => [...d]), child: { omit: 'not carried: a child shell starts with an empty stack' } },
  // Limits are inherited and a subshell's changes do not come back (setrlimit in a forked child).
  rlimits: { subshell: put('rlimits', (m) => new Map(m)), child: carry((s) => [...s.rlimits], (s, r) => { s.rlimits = new Map(r); }) },
  hashed: { subshell: put('hashed', (m) => new Map(m)), child: { omit: 'a child shell hashes for itself, as a new bash does' } },
  hashPath: { subshell: put('hashPath'), child: { omit: 'goes with hashed' } },
  shownTraps: { subshell: put('shownTraps'), child: carry((s) => [...s.traps], (s, t) => { s.shownTraps = new Map(t); }) },
  pid: {
    subshell: { shared: 'constant' },
    // $$ of a subshell is its parent's.
    child: carry((s) => s.pid, (s, pid) => { (s as { pid: number }).pid = pid; }),
  },
  startMs: { subshell: { shared: 'constant' }, child: { omit: PER_PROCESS } },
  subshellLevel: { subshell: put('subshellLevel'), child: carry((s) => s.subshellLevel + 1, (s, n) => { s.subshellLevel = n; }) },
  fakePid: { subshell: put('fakePid'), child: { omit: 'a child has a pid of its own' } },
  execSaved: { subshell: put('execSaved'), child: { omit: 'fds are per process' } },
  oneShot: { subshell: { shared: 'set by the $(...) that runs one command' }, child: { omit: 'set by the child\'s own command line' } },
  selfPath: { subshell: { shared: PROCESS }, child: { omit: 'the child is started as this path' } },
  procSubsts: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  unreaped: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  reaped: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  early: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  holdReap: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  pipeStage: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  umaskKnown: { subshell: { shared: PROCESS }, child: { omit: PER_PROCESS } },
  cwdMoves: { subshell: { shared: PROCESS }, child: { omit: PER_PROCESS } },
  substRan: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  lastArg: { subshell: put('lastArg'), child: send('lastArg') },
  modeFlags: { subshell: { shared: PROCESS }, child: { omit: 'set from the child\'s own command line' } },
  jobControl: { subshell: { shared: PROCESS }, child: { omit: 'a child shell does no job control' } },
  terminal: { subshell: { shared: PROCESS }, child: { omit: 'a child shell does no job control' } },
  history: { subshell: { shared: PROCESS }, child: { omit: 'a child shell is not interactive' } },
  fgPgid: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  interrupted: { subshell: { shared: PROCESS }, child: { omit: PER_PROCESS } },
  keepGoing: { subshell: { shared: PROCESS }, child: { omit: 'a child shell ends on a fatal error' } },
  runningTraps: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  trapDepth: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  currentCommand: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  substDepth: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
  randomSeed: { subshell: { shared: 'not put back: $RANDOM goes on from the draws made inside' }, child: { omit: PER_PROCESS } },
  pendingRedirs: { subshell: { shared: BOOKKEEPING }, child: { omit: 'fds are per process' } },
  outputFds: { subshell: { shared: BOOKKEEPING }, child: { omit: 'fds are per process' } },
  lastCommand: { subshell: { shared: BOOKKEEPING }, child: { omit: PER_PROCESS } },
};

const COPIED: Copied[] = Object.values(FIELDS).flatMap((r) => ('shared' in r.subshell ? [] : [r.subshell]));
const CARRIED: [string, Carried][] = Object.entries(FIELDS).flatMap(([name, r]) => ('omit' in r.child ? [] : [[name, r.child] as [string, Carried]]));

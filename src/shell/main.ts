// agentos-shell: the program behind /bin/sh and /bin/bash.
//   sh -c STRING [NAME [ARG...]] | sh [-s] [ARG...] | sh SCRIPT [ARG...]
// plus bash's option letters (-e -u -x -f -C -o NAME ...). A child shell
// started for a pipeline stage or background job gets SUBSHELL_FLAG.

import { strerror, SysError } from '../abi/errno.js';
import { EXEC_SHELL_FLAG } from '../abi/exec-protocol.js';
import { SIG_DFL, SIGSEGV } from '../abi/signal.js';
import type { AgentosApi } from '../runtimes/js/api.js';
import { checkComplete } from './syntax/index.js';
import { ExitSignal, isStackOverflow } from './interp/control.js';
import { publishFrames } from './interp/frames.js';
import { Shell, STACK_OVERFLOW } from './interp/shell.js';
import { stateFromFd, SUBSHELL_FLAG, SUBSHELL_STATE_FD_FLAG } from './interp/subshell.js';
import { LineRestorer } from './syntax/lines.js';
import { flagName, SET_OPTION_NAMES, SHOPT_NAMES, type SetOption } from './interp/options.js';
import { syncOptionVars } from './interp/builtins/set.js';
import { runExecShell } from './exec-shell.js';
import { readProfiles, runInteractive } from './interactive/repl.js';
import { decodeShell } from './bytes.js';
import { looksBinary } from './binary-file.js';


const VERSION = '5.2.15(1)-release (agentos)';
/** bash's other long options, accepted and without effect here. */
const LONG_OPTIONS = new Set(['--debugger', '--dump-po-strings', '--dump-strings', '--noediting', '--pretty-print', '--restricted', '--verbose']);

/**
 * `self` is the file the kernel ran (ProcessContext.file: its canonical path,
 * like /proc/self/exe). Child shells start from it, never from argv[0]: a bare
 * `sh` found on $PATH would otherwise be looked up again in the cwd, where any
 * `./sh` would receive the shell's whole state.
 */
export function shellMain(os: AgentosApi, self: string): void {
  const args = os.argv.slice(1);
  const ppid = os.sys.getppid();
  const make = (name: string, errorName: string, positional: string[]) => {
    const sh = new Shell(os.sys, { name, errorName, positional, env: os.env, pid: os.pid, ppid });
    sh.selfPath = self;
    // $_ starts as the path the parent gave in the environment, else the shell as invoked.
    sh.lastArg = os.env._ ?? os.argv[0] ?? '';
    return sh;
  };

  if (args[0] === EXEC_SHELL_FLAG) {
    const sh = make('agentos-shell', 'agentos-shell', []);
    return finish(os, sh, () => runExecShell(os, sh));
  }

  if (args[0] === SUBSHELL_FLAG || args[0] === SUBSHELL_STATE_FD_FLAG) {
    const sh = make('agentos-shell', 'agentos-shell', []);
    const [state, source, lines] = args[0] === SUBSHELL_FLAG ? [args[1], args[2] ?? '', args[3] ?? ''] : stateFromFd(os.sys, Number(args[1]));
    sh.deserialize(state);
    return finish(os, sh, () => sh.runSource(source, sh.lineno || 1, '', true, new LineRestorer(lines)));
  }

  let command: string | null = null;
  let readStdin = false;
  const sets: [SetOption, boolean][] = [];
  /** -O NAME / +O NAME: shopt options. */
  const shopts: [string, boolean][] = [];
  const startup = new Set<string>();
  let rcfile: string | undefined;
  // bash started as `sh` runs in POSIX mode.
  if (/(^|\/)sh$/.test(os.argv[0] ?? '')) sets.push(['posix', true]);
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--' || a === '-') {
      i++;
      break;
    }
    if (a === '--version') {
      os.print(`GNU bash, version ${VERSION}\n`);
      return os.exit(0);
    }
    if (a === '--help') {
      os.print('Usage: agentos-shell [option] ... [-c command [name [arg ...]] | file [arg ...]]\n');
      return os.exit(0);
    }
    if (a === '--posix') {
      sets.push(['posix', true]);
      continue;
    }
    if (a === '--login' || a === '--norc' || a === '--noprofile') {
      startup.add(a.slice(2));
      continue;
    }
    if (a === '--rcfile' || a === '--init-file') {
      rcfile = args[++i];
      continue;
    }
    if (a.startsWith('--') && !LONG_OPTIONS.has(a)) {
      os.eprint(`agentos-shell: ${a}: invalid option\n`);
      return os.exit(2);
    }
    if (a.startsWith('--')) continue;
    if (!/^[-+]/.test(a) || a.length < 2) break;
    const on = a[0] === '-';
    for (const c of a.slice(1)) {
      if (c === 'c') command = '';
      else if (c === 's') readStdin = true;
      else if (c === 'i') sets.push(['interactive', on]);
      else if (c === 'l') startup.add('login');
      else if (c === 'O') shopts.push([args[++i] ?? '', on]);
      else if (c === 'o') {
        const name = args[++i] as SetOption;
        sets.push([name, on]);
      } else {
        const name = flagName(c);
        if (!name) {
          os.eprint(`agentos-shell: ${a[0]}${c}: invalid option\n`);
          return os.exit(2);
        }
        sets.push([name, on]);
      }
    }
  }
  const rest = args.slice(i);
  const login = startup.has('login') || (os.argv[0] ?? '').startsWith('-');
  let sh: Shell;
  let run: () => number;
  if (command !== null) {
    if (rest.length === 0) {
      os.eprint('agentos-shell: -c: option requires an argument\n');
      return os.exit(2);
    }
    const [src, name, ...positional] = rest;
    // Without a NAME, $0 is the shell as invoked (bash: `bash`, `/bin/sh`).
    const self0 = os.argv[0] ?? 'agentos-shell';
    sh = make(name ?? self0, name ?? self0, positional);
    sh.modeFlags = 'c';
    run = () => sh.runSource(src, 1, '-c');
  } else if (!readStdin && rest.length > 0) {
    const [script, ...positional] = rest;
    sh = make(script, script, positional);
    // A script's bottom frame: FUNCNAME main, BASH_SOURCE the script, BASH_LINENO 0.
    sh.frames = [{ name: 'main', source: script, line: 0, fn: false }];
    publishFrames(sh);
    let bytes: Uint8Array;
    try {
      bytes = os.sys.readFile(script);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      os.eprint(`agentos-shell: ${script}: ${strerror(e.errno)}\n`);
      return os.exit(127);
    }
    // `bash FILE`, and /bin/sh FILE after a failed exec (find -exec, xargs, env): bash refuses what looks binary.
    if (looksBinary(bytes)) {
      os.eprint(`${script}: ${script}: cannot execute binary file\n`);
      return os.exit(126);
    }
    let text = decodeShell(bytes);
    if (text.startsWith('#!')) text = text.replace(/^[^\n]*/, '');
    run = () => sh.runSource(text);
  } else {
    // $0 is the shell as invoked (bash: `bash`, `/bin/bash`).
    const self0 = os.argv[0] ?? 'agentos-shell';
    sh = make(self0, self0, rest);
    sh.modeFlags = 's';
    // bash: interactive with -i, or when reading commands from a terminal (stdin and stderr).
    const explicit = sets.findLast(([name]) => name === 'interactive');
    const interactive = explicit ? explicit[1] : !readStdin && rest.length === 0 && os.sys.isatty(0) && os.sys.isatty(2);
    run = interactive
      ? () => runInteractive(os, sh, { login, norc: startup.has('norc'), noprofile: startup.has('noprofile'), rcfile })
      : () => runStdin(sh);
    if (interactive) sets.push(['interactive', true]);
  }
  // A non-interactive login shell (`bash -l -c`, `su -`, `sudo -i CMD`) reads the profiles too.
  if (login && !startup.has('noprofile') && !sets.some(([name, on]) => name === 'interactive' && on)) {
    const program = run;
    run = () => {
      readProfiles(sh);
      return program();
    };
  }
  // An exported SHELLOPTS turns its options on in the new shell (bash); command-line flags come after.
  for (const name of os.env.SHELLOPTS?.split(':') ?? []) {
    if ((SET_OPTION_NAMES as string[]).includes(name) && name !== 'interactive') sh.opts.set.set(name as SetOption, true);
  }
  for (const [name, on] of sets) sh.opts.set.set(name, on);
  if (sh.opts.on('interactive')) {
    // An interactive shell (`bash -i -c` too) edits in emacs mode and keeps history.
    sh.opts.set.set('emacs', true);
    if (!sh.vars.isSet('HISTFILE')) sh.vars.set('HISTFILE', `${sh.vars.get('HOME') ?? ''}/.bash_history`);
  }
  for (const [name, on] of shopts) {
    if (!(SHOPT_NAMES as readonly string[]).includes(name)) {
      os.eprint(`agentos-shell: ${name}: invalid shell option name\n`);
      return os.exit(2);
    }
    sh.opts.shopt.set(name, on);
  }
  // SHELLOPTS and BASHOPTS describe the options, read-only.
  syncOptionVars(sh);
  for (const name of ['SHELLOPTS', 'BASHOPTS']) sh.vars.lookup(name)!.readonly = true;
  finish(os, sh, run);
}

function finish(os: AgentosApi, sh: Shell, run: () => number): void {
  let status: number;
  try {
    status = sh.finish(run());
  } catch (e) {
    if (isStackOverflow(e)) return segfault(os, sh);
    if (e instanceof SysError) {
      // A system call the interpreter could not do without (a child shell that
      // cannot start): said as the shell says errors, not under the runtime's argv[1] (`-c`).
      sh.error(e.detail ? `${e.detail}: ${strerror(e.errno)}` : strerror(e.errno));
      return os.exit(sh.finish(1));
    }
    if (!(e instanceof ExitSignal)) throw e;
    status = sh.finish(e.status);
  }
  os.exit(status);
}

/**
 * The script recursed past the stack (outside any in-process subshell): this
 * shell process ends as bash does there, killed by SIGSEGV (status 139 to its
 * parent), after one line saying why. A session or terminal shell never gets
 * here: it abandons the command instead (session.ts, repl.ts).
 */
function segfault(os: AgentosApi, sh: Shell): void {
  sh.error(STACK_OVERFLOW);
  try {
    os.sys.sigaction(SIGSEGV, SIG_DFL);
    os.sys.kill(os.pid, SIGSEGV);
  } catch {
    /* not delivered: the exit status still says it */
  }
  os.exit(128 + SIGSEGV);
}

/**
 * Commands from stdin, a complete command at a time. Bytes are read one by one
 * so a command that reads stdin gets exactly what follows it (as bash does on
 * a pipe).
 */
function runStdin(sh: Shell): number {
  let pending = '';
  let line = 1;
  const bytes: number[] = [];
  for (;;) {
    const b = sh.sys.read(0, 1);
    if (b.byteLength) {
      bytes.push(b[0]);
      if (b[0] !== 0x0a) continue;
    }
    const eof = b.byteLength === 0;
    pending += decodeShell(new Uint8Array(bytes));
    bytes.length = 0;
    if (pending === '' && eof) return sh.status;
    const state = eof ? 'complete' : checkComplete(pending, { extglob: sh.opts.shoptOn('extglob') });
    if (state === 'incomplete') continue;
    const src = pending;
    pending = '';
    sh.runSource(src, line);
    line += (src.match(/\n/g) ?? []).length;
    if (eof) return sh.status;
  }
}

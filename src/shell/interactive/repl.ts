// The interactive shell: startup files, then prompt → edit → run until exit
// or end of input. On a terminal the shell leads its own process group in the
// foreground and runs every job in a group of its own (jobs.ts); without one
// (`bash -i` on a pipe) it still prompts, but reads plain lines.

import { SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGTTIN, SIGTTOU } from '../../abi/signal.js';
import { TIOCSPGRP } from '../../abi/termios.js';
import type { AgentosApi } from '../../runtimes/js/api.js';
import { decodeShell } from '../bytes.js';
import { ExitSignal, InterruptSignal, isStackOverflow } from '../interp/control.js';
import type { Shell } from '../interp/shell.js';
import { checkComplete } from '../syntax/index.js';
import { winsize } from '../../userland/lib/tty.js';
import { complete } from './complete.js';
import { LineEditor, type ReadResult } from './editor.js';
import { History } from './history.js';
import { TerminalJobs } from './jobs.js';
import { decodePrompt, DEFAULT_PS1, NONPRINT_END, NONPRINT_START } from './prompt.js';

export interface InteractiveOptions {
  login: boolean;
  norc: boolean;
  noprofile: boolean;
  rcfile?: string;
}

const SIG_BLOCK = 0;

export function runInteractive(os: AgentosApi, sh: Shell, o: InteractiveOptions): number {
  const sys = sh.sys;
  const onTty = sys.isatty(0);
  sh.keepGoing = true;
  // Keyboard signals are for the foreground job; the shell itself only notices them.
  os.signal(SIGINT, () => (sh.interrupted = true));
  for (const sig of [SIGQUIT, SIGTERM, SIGTSTP, SIGTTIN]) os.signal(sig, () => {});
  let tty = '';
  if (onTty) {
    sys.sigprocmask(SIG_BLOCK, 1 << SIGTTOU); // tcsetpgrp from the background must not stop the shell
    try {
      if (sys.getpgid(0) !== sys.getpid() && sys.getsid(0) !== sys.getpid()) sys.setpgid(0, 0);
      sys.ioctl(0, TIOCSPGRP, sys.getpgid(0));
      sh.terminal = new TerminalJobs(sh, 0, sys.getpgid(0));
      sh.jobControl = true;
      sh.opts.set.set('monitor', true);
    } catch {
      /* a terminal that is not ours: no job control, as bash warns */
    }
    try {
      tty = sys.readlink('/proc/self/fd/0');
    } catch {
      /* unnamed */
    }
  }
  const history = new History(sh);
  sh.history = history;
  if (!sh.vars.isSet('PS1')) sh.vars.set('PS1', DEFAULT_PS1);
  if (!sh.vars.isSet('PS2')) sh.vars.set('PS2', '> ');
  if (!sh.vars.isSet('HISTFILE')) sh.vars.set('HISTFILE', `${sh.vars.get('HOME') ?? ''}/.bash_history`);
  if (!sh.vars.isSet('HISTSIZE')) sh.vars.set('HISTSIZE', '500');
  if (!sh.vars.isSet('HISTFILESIZE')) sh.vars.set('HISTFILESIZE', '500');
  startupFiles(sh, o);
  history.load();
  const editor = onTty ? new LineEditor(sys, 0, 2, history, { complete: (line, pos) => complete(sh, line, pos) }) : null;
  let cmdNumber = 1;
  /** bash refuses the first exit while jobs are stopped. */
  let warnedStopped = false;
  const stoppedJobs = () => sh.jobs.some((j) => j.status === 'Stopped');
  const leave = (): boolean => {
    if (!stoppedJobs() || warnedStopped) return true;
    sh.write(2, 'There are stopped jobs.\n');
    warnedStopped = true;
    return false;
  };
  // A hangup (the terminal closed) passes SIGHUP on to every job, as bash does, then ends the shell.
  os.signal(SIGHUP, () => {
    hangUpJobs(sh, true);
    history.save();
    os.exit(128 + SIGHUP);
  });
  const prompt = (name: 'PS1' | 'PS2') =>
    decodePrompt(sh, sh.vars.get(name) ?? '', { histNumber: history.next, cmdNumber, tty });
  try {
    for (;;) {
      sh.terminal?.notify();
      if (onTty) checkWinsize(sh);
      let src = '';
      let ps: 'PS1' | 'PS2' = 'PS1';
      let r: ReadResult;
      for (;;) {
        r = editor ? editor.readLine(prompt(ps)) : plainLine(sh, prompt(ps));
        if (!('line' in r)) break;
        src += r.line + '\n';
        if (checkComplete(src, { extglob: sh.opts.shoptOn('extglob') }) !== 'incomplete') break;
        ps = 'PS2';
      }
      if ('interrupted' in r) {
        sh.status = 130;
        continue;
      }
      if ('eof' in r && !src) {
        if (sh.opts.on('ignoreeof')) {
          sh.write(2, 'Use "exit" to leave the shell.\n');
          continue;
        }
        sh.write(2, 'exit\n');
        if (!leave()) continue;
        break;
      }
      if (onTty) checkWinsize(sh); // the window may have changed while the line was edited
      const line = historyExpand(sh, history, src);
      if (line === null) continue;
      history.add(line);
      cmdNumber++;
      const wasWarned = warnedStopped;
      if (/^\s*%\S*\s*$/.test(line)) {
        sh.status = sh.terminal?.fg(['fg', line.trim()]) ?? 1;
        continue;
      }
      sh.interrupted = false;
      const mark = sh.mark();
      try {
        sh.runSource(line);
      } catch (e) {
        if (e instanceof InterruptSignal) {
          sh.status = 130;
          continue;
        }
        if (isStackOverflow(e)) {
          sh.status = sh.stackOverflow(mark);
          continue;
        }
        if (e instanceof ExitSignal) {
          if (e.constructor === ExitSignal) sh.write(2, 'exit\n');
          if (e.constructor === ExitSignal && !leave()) continue;
          throw e;
        }
        throw e;
      }
      if (wasWarned) warnedStopped = false;
    }
  } finally {
    history.save();
    hangUpJobs(sh, false);
  }
  return sh.status;
}

/** Stopped jobs (and with `all`, running ones) get SIGHUP, then SIGCONT so they can act on it. */
function hangUpJobs(sh: Shell, all: boolean): void {
  for (const j of sh.jobs) {
    if (!j.pgid || (!all && j.status !== 'Stopped')) continue;
    for (const sig of [SIGHUP, SIGCONT]) {
      try {
        sh.sys.kill(-j.pgid, sig);
      } catch {
        /* gone */
      }
    }
  }
}

/** shopt checkwinsize (bash's default): LINES and COLUMNS follow the terminal before each prompt. */
function checkWinsize(sh: Shell): void {
  if (!sh.opts.shoptOn('checkwinsize')) return;
  const w = winsize(sh.sys, 0);
  if (!w || !w.cols) return;
  sh.vars.set('COLUMNS', String(w.cols));
  sh.vars.set('LINES', String(w.rows));
}

/** !! and friends; the expanded line is shown as bash shows it. null: an error, nothing runs. */
function historyExpand(sh: Shell, history: History, src: string): string | null {
  if (sh.opts.set.get('histexpand') === false) return src;
  try {
    const { text, changed } = history.expand(src);
    if (changed) sh.write(2, text.endsWith('\n') ? text : text + '\n');
    return text;
  } catch (e) {
    sh.error((e as Error).message);
    sh.status = 1;
    return null;
  }
}

/** bash's order: login shells read /etc/profile then the first of ~/.bash_profile, ~/.bash_login, ~/.profile; others ~/.bashrc. */
function startupFiles(sh: Shell, o: InteractiveOptions): void {
  if (o.login) {
    if (!o.noprofile) readProfiles(sh);
    return;
  }
  if (o.norc) return;
  if (o.rcfile) sourceStartup(sh, o.rcfile);
  else {
    sourceStartup(sh, '/etc/bash.bashrc');
    sourceStartup(sh, `${sh.vars.get('HOME') ?? ''}/.bashrc`);
  }
}

/** A login shell's files (interactive or not: `bash -l -c`, `su -`, `sudo -i`): /etc/profile, then the first of ~/.bash_profile, ~/.bash_login, ~/.profile. */
export function readProfiles(sh: Shell): void {
  const home = sh.vars.get('HOME') ?? '';
  sourceStartup(sh, '/etc/profile');
  for (const f of ['.bash_profile', '.bash_login', '.profile']) if (sourceStartup(sh, `${home}/${f}`)) break;
}

/** Run a startup file if it can be read; false when it cannot. */
function sourceStartup(sh: Shell, path: string): boolean {
  let text: string;
  try {
    text = decodeShell(sh.sys.readFile(path));
  } catch {
    return false;
  }
  try {
    sh.runSource(text, 1, path);
  } catch (e) {
    if (e instanceof ExitSignal) throw e;
    if (!(e instanceof InterruptSignal)) throw e;
  }
  return true;
}

/** `bash -i` without a terminal: prompt on stderr, read a line byte by byte. */
function plainLine(sh: Shell, prompt: string): ReadResult {
  sh.write(2, prompt.replaceAll(NONPRINT_START, '').replaceAll(NONPRINT_END, ''));
  const bytes: number[] = [];
  for (;;) {
    const b = sh.sys.read(0, 1);
    if (!b.byteLength) return bytes.length ? { line: decodeShell(new Uint8Array(bytes)) } : { eof: true };
    if (b[0] === 0x0a) return { line: decodeShell(new Uint8Array(bytes)) };
    bytes.push(b[0]);
  }
}

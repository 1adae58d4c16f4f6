// Linux signal numbers, names and default actions (signal(7)).

export const SIGHUP = 1, SIGINT = 2, SIGQUIT = 3, SIGILL = 4, SIGTRAP = 5, SIGABRT = 6, SIGBUS = 7,
  SIGFPE = 8, SIGKILL = 9, SIGUSR1 = 10, SIGSEGV = 11, SIGUSR2 = 12, SIGPIPE = 13, SIGALRM = 14,
  SIGTERM = 15, SIGCHLD = 17, SIGCONT = 18, SIGSTOP = 19, SIGTSTP = 20, SIGTTIN = 21, SIGTTOU = 22,
  SIGURG = 23, SIGXCPU = 24, SIGXFSZ = 25, SIGVTALRM = 26, SIGPROF = 27, SIGWINCH = 28, SIGIO = 29,
  SIGSYS = 31;
export const NSIG = 32;

export type DefaultAction = 'term' | 'core' | 'ign' | 'stop' | 'cont';

const info: Record<number, [string, DefaultAction]> = {
  1: ['HUP', 'term'], 2: ['INT', 'term'], 3: ['QUIT', 'core'], 4: ['ILL', 'core'], 5: ['TRAP', 'core'],
  6: ['ABRT', 'core'], 7: ['BUS', 'core'], 8: ['FPE', 'core'], 9: ['KILL', 'term'], 10: ['USR1', 'term'],
  11: ['SEGV', 'core'], 12: ['USR2', 'term'], 13: ['PIPE', 'term'], 14: ['ALRM', 'term'], 15: ['TERM', 'term'],
  17: ['CHLD', 'ign'], 18: ['CONT', 'cont'], 19: ['STOP', 'stop'], 20: ['TSTP', 'stop'], 21: ['TTIN', 'stop'],
  22: ['TTOU', 'stop'], 23: ['URG', 'ign'], 24: ['XCPU', 'core'], 25: ['XFSZ', 'core'], 26: ['VTALRM', 'term'],
  27: ['PROF', 'term'], 28: ['WINCH', 'ign'], 29: ['IO', 'term'], 31: ['SYS', 'core'],
};

export function signalName(sig: number): string {
  return info[sig] ? `SIG${info[sig][0]}` : `SIG${sig}`;
}

export function signalFromName(name: string): number | undefined {
  const bare = name.toUpperCase().replace(/^SIG/, '');
  for (const [n, [s]] of Object.entries(info)) if (s === bare) return Number(n);
  const num = Number(name);
  return Number.isInteger(num) && num > 0 && num < NSIG ? num : undefined;
}

export function defaultAction(sig: number): DefaultAction {
  return info[sig]?.[1] ?? 'term';
}

export const isValidSignal = (sig: number): boolean => Number.isInteger(sig) && sig >= 0 && sig < NSIG;

/** Dispositions a process can set with sigaction. */
export const SIG_DFL = 0, SIG_IGN = 1, SIG_HANDLE = 2;

// Job specifications: %n, %+ / %% / % (the current job), %- (the previous one),
// %string (a command starting with it), %?string (a command containing it);
// and how a finished job is reported.

import type { Job } from './state.js';

export function findJob(jobs: Job[], spec: string | undefined): Job | undefined {
  if (spec === undefined || spec === '%' || spec === '%%' || spec === '%+') return jobs.at(-1);
  if (spec === '%-') return jobs.at(-2);
  if (/^%?\d+$/.test(spec)) return jobs.find((x) => x.id === Number(spec.replace('%', '')));
  if (spec.startsWith('%?')) return jobs.find((x) => x.command.includes(spec.slice(2)));
  if (spec.startsWith('%')) return jobs.find((x) => x.command.startsWith(spec.slice(1)));
  return undefined;
}

/** strsignal's descriptions, as bash prints them for jobs killed by a signal. */
export const SIGNAL_TEXT: Record<number, string> = {
  1: 'Hangup', 2: 'Interrupt', 3: 'Quit', 4: 'Illegal instruction', 5: 'Trace/breakpoint trap', 6: 'Aborted',
  7: 'Bus error', 8: 'Floating point exception', 9: 'Killed', 10: 'User defined signal 1', 11: 'Segmentation fault',
  12: 'User defined signal 2', 13: 'Broken pipe', 14: 'Alarm clock', 15: 'Terminated',
};

/** How bash reports a finished job: Done, Exit N, or the signal's description. */
export function doneText(status: number): string {
  const sig = status > 128 ? status - 128 : 0;
  if (sig && SIGNAL_TEXT[sig]) return SIGNAL_TEXT[sig];
  return status ? `Exit ${status}` : 'Done';
}

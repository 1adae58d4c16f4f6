// Job specifications: %n, %+ / %% / % (the current job), %- (the previous one),
// %string (a command starting with it), %?string (a command containing it).

import type { Job } from './state.js';

export function findJob(jobs: Job[], spec: string | undefined): Job | undefined {
  if (spec === undefined || spec === '%' || spec === '%%' || spec === '%+') return jobs.at(-1);
  if (spec === '%-') return jobs.at(-2);
  if (/^%?\d+$/.test(spec)) return jobs.find((x) => x.id === Number(spec.replace('%', '')));
  if (spec.startsWith('%?')) return jobs.find((x) => x.command.includes(spec.slice(2)));
  if (spec.startsWith('%')) return jobs.find((x) => x.command.startsWith(spec.slice(1)));
  return undefined;
}

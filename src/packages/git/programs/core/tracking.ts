// A branch's upstream (branch.<name>.remote / .merge) and how far apart they are.

import type { Ctx } from './ctx.js';
import { aheadBehind } from './graph.js';
import type { Store } from './objects.js';
import { resolveRef } from './refs.js';

export interface Tracking {
  /** Short name, e.g. `origin/main`. */
  name: string;
  /** null when the upstream ref is gone. */
  ahead: number | null;
  behind: number | null;
}

export async function tracking(ctx: Ctx, store: Store, branch: string, oid: string | null): Promise<Tracking | null> {
  const remote = ctx.config(`branch.${branch}.remote`);
  const merge = ctx.config(`branch.${branch}.merge`);
  if (!remote || !merge) return null;
  const short = merge.replace(/^refs\/heads\//, '');
  const ref = remote === '.' ? merge : `refs/remotes/${remote}/${short}`;
  const name = remote === '.' ? short : `${remote}/${short}`;
  const up = await resolveRef(ctx, ref);
  if (!up) return { name, ahead: null, behind: null };
  if (!oid) return { name, ahead: 0, behind: 0 };
  const [ahead, behind] = await aheadBehind(store, oid, up);
  return { name, ahead, behind };
}

const commits = (n: number) => `${n} commit${n === 1 ? '' : 's'}`;

/** The lines `git status` prints about the upstream. */
export function trackingLines(t: Tracking): string[] {
  if (t.ahead === null || t.behind === null) return [`Your branch is based on '${t.name}', but the upstream is gone.`, '  (use "git branch --unset-upstream" to fixup)'];
  if (t.ahead === 0 && t.behind === 0) return [`Your branch is up to date with '${t.name}'.`];
  if (t.behind === 0) return [`Your branch is ahead of '${t.name}' by ${commits(t.ahead)}.`, '  (use "git push" to publish your local commits)'];
  if (t.ahead === 0) return [`Your branch is behind '${t.name}' by ${commits(t.behind)}, and can be fast-forwarded.`, '  (use "git pull" to update your local branch)'];
  return [
    `Your branch and '${t.name}' have diverged,`,
    `and have ${t.ahead} and ${t.behind} different commits each, respectively.`,
    '  (use "git pull" to merge the remote branch into yours)',
  ];
}

/** `[ahead 1, behind 2]` as the short format shows it. */
export function trackingBrief(t: Tracking): string {
  if (t.ahead === null) return ' [gone]';
  const parts = [];
  if (t.ahead) parts.push(`ahead ${t.ahead}`);
  if (t.behind) parts.push(`behind ${t.behind}`);
  return parts.length ? ` [${parts.join(', ')}]` : '';
}

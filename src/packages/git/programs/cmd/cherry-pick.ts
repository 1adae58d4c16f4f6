// git cherry-pick [--edit] [-n] [-m <parent-number>] [-s] [-x] [--ff] <commit>...
// git cherry-pick (--continue | --skip | --abort | --quit)
//
// Apply the changes some existing commits introduce, each as a new commit
// (core/replay.ts and core/sequencer.ts do the work).

import type { Ctx } from '../core/ctx.js';
import { replay } from '../core/replay.js';

export function cherryPick(ctx: Ctx, args: string[]): Promise<number> {
  return replay(ctx, args, 'pick');
}

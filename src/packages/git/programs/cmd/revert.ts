// git revert [--[no-]edit] [-n] [-m <parent-number>] [-s] <commit>...
// git revert (--continue | --skip | --abort | --quit)
//
// Record new commits that undo what some existing commits did
// (core/replay.ts and core/sequencer.ts do the work).

import type { Ctx } from '../core/ctx.js';
import { replay } from '../core/replay.js';

export function revert(ctx: Ctx, args: string[]): Promise<number> {
  return replay(ctx, args, 'revert');
}

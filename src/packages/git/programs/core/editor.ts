// Running the user's editor on a file (commit and tag messages), as git
// does: GIT_EDITOR, core.editor, VISUAL, EDITOR, else vi, through the shell.

import { SysError, strerror } from '../../../../abi/errno.js';
import type { Ctx } from './ctx.js';
import { GitExit } from './errors.js';

export function editorName(ctx: Ctx): string {
  return ctx.env.GIT_EDITOR ?? ctx.config('core.editor') ?? ctx.env.VISUAL ?? ctx.env.EDITOR ?? 'vi';
}

/** Edit `file` in place; exits 1 with git's messages when the editor fails. */
export function runEditor(ctx: Ctx, file: string): void {
  const editor = editorName(ctx);
  if (editor === ':') return;
  ctx.out.flush();
  let status = 0;
  try {
    const env = Object.entries(ctx.env).map(([k, v]) => `${k}=${v}`);
    const pid = ctx.sys.spawn({ path: '/bin/sh', argv: ['sh', '-c', `${editor} "$@"`, editor, file], env, cwd: ctx.cwd });
    status = ctx.sys.waitpid(pid, 0)[1];
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    ctx.error(`cannot run ${editor}: ${strerror(e.errno)}`);
    status = -1;
  }
  if (status !== 0) {
    ctx.error(`There was a problem with the editor '${editor}'.`);
    ctx.err('Please supply the message using either -m or -F option.\n');
    throw new GitExit(1);
  }
}

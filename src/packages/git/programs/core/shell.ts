// Running a command through the shell, as git runs hooks, `bisect run`
// scripts and editors: /bin/sh -c with the process's environment and
// current directory, stdio inherited; the status as a shell reports it.

import { SysError } from '../../../../abi/errno.js';
import { shellStatus } from '../../../../abi/wait.js';
import type { Ctx } from './ctx.js';

/** Run `sh -c <command>`; returns its exit status (128 + signal when killed), or -1 when it could not start. */
export function runShell(ctx: Ctx, command: string): number {
  ctx.out.flush();
  try {
    const env = Object.entries(ctx.env).map(([k, v]) => `${k}=${v}`);
    const pid = ctx.sys.spawn({ path: '/bin/sh', argv: ['sh', '-c', command], env, cwd: ctx.cwd });
    return shellStatus(ctx.sys.waitpid(pid, 0)[1]);
  } catch (e) {
    if (e instanceof SysError) return -1;
    throw e;
  }
}

/** Shell-quote words the way git's sq_quote_argv does (each preceded by a space). */
export function sqQuoteArgv(args: string[]): string {
  return args.map((a) => ` '${a.replace(/['!]/g, (c) => `'\\${c}'`)}'`).join('');
}

// git [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>]
//     [--git-dir=<path>] [--work-tree=<path>] [--no-pager] <command> [<args>]
//
// The stupid content tracker, on isomorphic-git over the VFS: repositories
// it writes are ordinary git repositories (real git reads them and it reads
// theirs). Subcommands live in cmd/, one file each.

import './core/buffer.js';
import * as isogit from 'isomorphic-git';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { isBrokenPipe, WriteError } from '../../../userland/lib/writer.js';
import { SysError, strerror } from '../../../abi/errno.js';
import { COMMANDS } from './cmd/table.js';
import { Ctx } from './core/ctx.js';
import { Fatal, GitExit } from './core/errors.js';
import { UsageFail, UsageHelp } from './core/opts.js';

const GIT_VERSION = `2.39.0.agentos (isomorphic-git ${isogit.version()})`;

const USAGE = `usage: git [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>]
           [--git-dir=<path>] [--work-tree=<path>] [--no-pager]
           <command> [<args>]

These are common Git commands used in various situations:

start a working area
   clone     Clone a repository into a new directory
   init      Create an empty Git repository or reinitialize an existing one

work on the current change
   add       Add file contents to the index
   mv        Move or rename a file, a directory, or a symlink
   restore   Restore working tree files
   rm        Remove files from the working tree and from the index

examine the history and state
   diff      Show changes between commits, commit and working tree, etc
   log       Show commit logs
   show      Show various types of objects
   status    Show the working tree status

grow, mark and tweak your common history
   branch    List, create, or delete branches
   commit    Record changes to the repository
   merge     Join two or more development histories together
   reset     Reset current HEAD to the specified state
   switch    Switch branches
   tag       Create, list, delete or verify a tag object

also: checkout config remote rev-parse ls-files
`;

export default async function main(os: AgentosApi): Promise<void> {
  const ctx = new Ctx(os);
  let status: number;
  try {
    status = await run(ctx, os.argv.slice(1));
    ctx.out.flush();
  } catch (e) {
    status = report(ctx, e);
  }
  os.exit(status);
}

function report(ctx: Ctx, e: unknown): number {
  try {
    if (e instanceof GitExit) {
      ctx.out.flush();
      return e.status;
    }
    if (e instanceof UsageHelp) {
      ctx.print(e.message);
      ctx.out.flush();
      return e.status;
    }
    if (e instanceof UsageFail) {
      ctx.err(e.message);
      return e.status;
    }
    if (e instanceof Fatal) {
      ctx.err(`fatal: ${e.message}\n`);
      return e.status;
    }
    if (e instanceof WriteError) {
      if (!isBrokenPipe(e)) ctx.sys.writeAll(2, `fatal: write error: ${strerror(e.errno)}\n`);
      return 128;
    }
    if (e instanceof SysError) {
      ctx.err(`fatal: ${e.detail ? `${e.detail}: ` : ''}${strerror(e.errno)}\n`);
      return 128;
    }
    const err = e as { code?: string; message?: string };
    if (err && typeof err.code === 'string' && typeof err.message === 'string') {
      // an isomorphic-git error nobody translated: say what it said
      ctx.err(`fatal: ${err.message}\n`);
      return 128;
    }
  } catch (w) {
    if (w instanceof WriteError) return 128;
    throw w;
  }
  throw e;
}

async function run(ctx: Ctx, args: string[]): Promise<number> {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '-C') {
      if (i + 1 >= args.length) throw new UsageFail(`error: no directory given for -C\n\n${USAGE}`, 129);
      const dir = args[++i];
      if (dir === '') continue;
      try {
        ctx.sys.chdir(dir);
      } catch (e) {
        if (e instanceof SysError) ctx.fatal(`cannot change to '${dir}': ${strerror(e.errno)}`);
        throw e;
      }
      ctx.cwd = ctx.sys.getcwd();
    } else if (a === '-c') {
      if (i + 1 >= args.length) throw new UsageFail(`error: -c expects a configuration string\n\n${USAGE}`, 129);
      const kv = args[++i];
      const eq = kv.indexOf('=');
      ctx.cmdConfig.push(eq < 0 ? [kv, 'true'] : [kv.slice(0, eq), kv.slice(eq + 1)]);
    } else if (a.startsWith('--git-dir=')) ctx.env.GIT_DIR = a.slice(10);
    else if (a === '--git-dir' && i + 1 < args.length) ctx.env.GIT_DIR = args[++i];
    else if (a.startsWith('--work-tree=')) ctx.env.GIT_WORK_TREE = a.slice(12);
    else if (a === '--work-tree' && i + 1 < args.length) ctx.env.GIT_WORK_TREE = args[++i];
    else if (a === '--no-pager' || a === '-P' || a === '--paginate' || a === '-p' || a === '--no-replace-objects' || a === '--literal-pathspecs') continue;
    else if (a === '--version' || a === '-v') {
      ctx.print(`git version ${GIT_VERSION}\n`);
      return 0;
    } else if (a === '--help' || a === '-h') {
      ctx.print(USAGE);
      return 0;
    } else if (a === '--exec-path') {
      ctx.print('/opt/agentos/git/current/libexec\n');
      return 0;
    } else if (a.startsWith('-')) {
      ctx.err(`unknown option: ${a}\n${USAGE}`);
      return 129;
    } else break;
  }
  if (i >= args.length) {
    ctx.print(USAGE);
    return 1;
  }
  return dispatch(ctx, args[i], args.slice(i + 1), 0);
}

async function dispatch(ctx: Ctx, name: string, args: string[], depth: number): Promise<number> {
  if (name === 'version') {
    ctx.print(`git version ${GIT_VERSION}\n`);
    return 0;
  }
  if (name === 'help') {
    ctx.print(USAGE);
    return 0;
  }
  const cmd = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (cmd) return (await cmd(ctx, args)) ?? 0;
  const alias = ctx.config(`alias.${name}`);
  if (alias !== undefined && depth < 10 && !alias.startsWith('!')) {
    const words = alias.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? [];
    const unq = words.map((w) => w.replace(/^["']|["']$/g, ''));
    return dispatch(ctx, unq[0], [...unq.slice(1), ...args], depth + 1);
  }
  ctx.err(`git: '${name}' is not a git command. See 'git --help'.\n`);
  return 1;
}

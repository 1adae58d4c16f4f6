// git init [-q | --quiet] [--bare] [-b <branch-name> | --initial-branch=<branch-name>] [<directory>]
//
// Create an empty repository (or reinitialize one): the same files and
// configuration real git writes, so either tool can work in it.

import type { Ctx } from '../core/ctx.js';
import { parseOptions, UsageFail } from '../core/opts.js';
import { mkdirs } from '../core/fsutil.js';
import { validRefName } from '../core/refs.js';

const USAGE = `usage: git init [-q | --quiet] [--bare] [--template=<template-directory>]
                [--separate-git-dir <git-dir>] [--object-format=<format>]
                [-b <branch-name> | --initial-branch=<branch-name>]
                [--shared[=<permissions>]] [<directory>]

    --template <template-directory>
                          directory from which templates will be used
    --bare                create a bare repository
    -q, --quiet           be quiet
    -b, --initial-branch <name>
                          override the name of the initial branch
`;

const EXCLUDE = `# git ls-files --others --exclude-from=.git/info/exclude
# Lines that start with '#' are comments.
# For a project mostly in C, the following would be a good set of
# exclude patterns (uncomment them if you want to use them):
# *.[oa]
# *~
`;

const DEFAULT_BRANCH_HINT = [
  "Using 'master' as the name for the initial branch. This default branch name",
  'is subject to change. To configure the initial branch name to use in all',
  'of your new repositories, which will suppress this warning, call:',
  '',
  '\tgit config --global init.defaultBranch <name>',
  '',
  "Names commonly chosen instead of 'master' are 'main', 'trunk' and",
  "'development'. The just-created branch can be renamed via this command:",
  '',
  '\tgit branch -m <name>',
];

export interface InitResult {
  gitdir: string;
  reinit: boolean;
}

/** Create the repository files under `gitdir`; shared with clone. */
export function initRepo(ctx: Ctx, gitdir: string, bare: boolean, branch: string): InitResult {
  const sys = ctx.sys;
  const reinit = ctx.exists(`${gitdir}/HEAD`) && ctx.exists(`${gitdir}/objects`);
  mkdirs(ctx, gitdir);
  for (const d of ['branches', 'hooks', 'info', 'objects/info', 'objects/pack', 'refs/heads', 'refs/tags']) mkdirs(ctx, `${gitdir}/${d}`);
  if (!reinit) {
    sys.writeFile(`${gitdir}/HEAD`, `ref: refs/heads/${branch}\n`);
    sys.writeFile(`${gitdir}/description`, "Unnamed repository; edit this file 'description' to name the repository.\n");
    sys.writeFile(`${gitdir}/info/exclude`, EXCLUDE);
  }
  if (!ctx.exists(`${gitdir}/config`)) {
    sys.writeFile(
      `${gitdir}/config`,
      `[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = ${bare}\n${bare ? '' : '\tlogallrefupdates = true\n'}`,
    );
  }
  return { gitdir, reinit };
}

/** The initial branch: -b, init.defaultBranch, else master (with git's hint). */
export function initialBranch(ctx: Ctx, given: string | undefined, quiet: boolean): string {
  const name = given ?? ctx.config('init.defaultBranch');
  if (name !== undefined) {
    if (!validRefName(name)) ctx.fatal(`invalid initial branch name: '${name}'`);
    return name;
  }
  if (!quiet) ctx.hint(DEFAULT_BRANCH_HINT);
  return 'master';
}

export function init(ctx: Ctx, args: string[]): number {
  const o = parseOptions(args, { 'q|quiet': 'bool', '|bare': 'bool', 'b|initial-branch': 'str', '|template': 'str', '|shared': 'opt', '|object-format': 'str' }, USAGE);
  if (o.operands.length > 1) throw new UsageFail(USAGE, 129);
  const fmt = o.get('object-format');
  if (fmt && fmt !== 'sha1') ctx.fatal(`unknown hash algorithm '${fmt}'`);
  const dir = ctx.abs(o.operands[0] ?? '.');
  const bare = o.has('bare');
  mkdirs(ctx, dir);
  const gitdir = bare ? dir : `${dir}/.git`;
  const existing = ctx.exists(`${gitdir}/HEAD`);
  if (existing && o.has('initial-branch')) ctx.warning(`re-init: ignored --initial-branch=${o.get('initial-branch')}`);
  const branch = existing ? 'master' : initialBranch(ctx, o.get('initial-branch'), o.has('quiet'));
  const r = initRepo(ctx, gitdir, bare, branch);
  ctx.resetRepo();
  if (!o.has('quiet')) ctx.print(`${r.reinit ? 'Reinitialized existing' : 'Initialized empty'} Git repository in ${gitdir}/\n`);
  return 0;
}

// The subcommands: name → implementation (one file each).

import type { Ctx } from '../core/ctx.js';
import { add } from './add.js';
import { apply } from './apply.js';
import { archive } from './archive.js';
import { bisect } from './bisect.js';
import { blame } from './blame.js';
import { branch } from './branch.js';
import { catFile } from './cat-file.js';
import { checkout } from './checkout.js';
import { cherryPick } from './cherry-pick.js';
import { clean } from './clean.js';
import { clone } from './clone.js';
import { commit } from './commit.js';
import { config } from './config.js';
import { describe } from './describe.js';
import { diff } from './diff.js';
import { fetch, pull } from './fetch.js';
import { grep } from './grep.js';
import { init } from './init.js';
import { log } from './log.js';
import { lsFiles } from './ls-files.js';
import { lsRemote } from './ls-remote.js';
import { lsTree } from './ls-tree.js';
import { merge } from './merge.js';
import { mv } from './mv.js';
import { push } from './push.js';
import { rebase } from './rebase.js';
import { reflog } from './reflog.js';
import { remote } from './remote.js';
import { reset } from './reset.js';
import { restore } from './restore.js';
import { revert } from './revert.js';
import { revList } from './rev-list.js';
import { revParse } from './rev-parse.js';
import { rm } from './rm.js';
import { show } from './show.js';
import { showRef } from './show-ref.js';
import { shortlog } from './shortlog.js';
import { stash } from './stash.js';
import { status } from './status.js';
import { switchCmd } from './switch.js';
import { tag } from './tag.js';
import { worktree } from './worktree.js';

export type Command = (ctx: Ctx, args: string[]) => Promise<number | void> | number | void;

export const COMMANDS: Record<string, Command> = {
  add,
  apply,
  archive,
  bisect,
  blame,
  branch,
  'cat-file': catFile,
  checkout,
  'cherry-pick': cherryPick,
  clean,
  clone,
  commit,
  config,
  describe,
  diff,
  fetch,
  grep,
  init,
  log,
  'ls-files': lsFiles,
  'ls-remote': lsRemote,
  'ls-tree': lsTree,
  merge,
  mv,
  pull,
  push,
  rebase,
  reflog,
  remote,
  reset,
  restore,
  revert,
  'rev-list': revList,
  'rev-parse': revParse,
  rm,
  show,
  'show-ref': showRef,
  shortlog,
  stash,
  status,
  switch: switchCmd,
  tag,
  worktree,
};

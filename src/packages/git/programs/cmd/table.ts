// The subcommands: name → implementation (one file each).

import type { Ctx } from '../core/ctx.js';
import { add } from './add.js';
import { branch } from './branch.js';
import { checkout } from './checkout.js';
import { clone } from './clone.js';
import { commit } from './commit.js';
import { config } from './config.js';
import { diff } from './diff.js';
import { fetch, pull } from './fetch.js';
import { init } from './init.js';
import { log } from './log.js';
import { lsFiles } from './ls-files.js';
import { merge } from './merge.js';
import { mv } from './mv.js';
import { push } from './push.js';
import { remote } from './remote.js';
import { reset } from './reset.js';
import { restore } from './restore.js';
import { revParse } from './rev-parse.js';
import { rm } from './rm.js';
import { show } from './show.js';
import { status } from './status.js';
import { switchCmd } from './switch.js';
import { tag } from './tag.js';

export type Command = (ctx: Ctx, args: string[]) => Promise<number | void> | number | void;

export const COMMANDS: Record<string, Command> = {
  add,
  branch,
  checkout,
  clone,
  commit,
  config,
  diff,
  fetch,
  init,
  log,
  'ls-files': lsFiles,
  merge,
  mv,
  pull,
  push,
  remote,
  reset,
  restore,
  'rev-parse': revParse,
  rm,
  show,
  status,
  switch: switchCmd,
  tag,
};

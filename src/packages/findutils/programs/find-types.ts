// Shared shapes of find: the file being visited, the run's state, and an
// expression node (a closure over its arguments, evaluated per file).

import { SysError } from '../../../abi/errno.js';
import type { Stat } from '../../../abi/stat.js';
import type { Cmd } from '../../../userland/lib/index.js';

export type Follow = 'P' | 'H' | 'L';

/** One file found: its path as printed, depth, the starting point it came from. */
export class Entry {
  private l: Stat | null | undefined;
  private s: Stat | null | undefined;
  /** Set by -prune: do not descend. */
  prune = false;

  constructor(
    readonly cmd: Cmd,
    readonly path: string,
    readonly depth: number,
    readonly start: string,
    /** Dereference this file (-L, or -H at depth 0). */
    readonly follow: boolean,
  ) {}

  lstat(): Stat | null {
    if (this.l === undefined) this.l = tryStat(() => this.cmd.sys.lstat(this.path));
    return this.l;
  }

  /** The stat the tests see: followed if following and the link is not dangling. */
  stat(): Stat | null {
    if (!this.follow) return this.lstat();
    if (this.s === undefined) this.s = tryStat(() => this.cmd.sys.stat(this.path)) ?? this.lstat();
    return this.s;
  }

  /** stat(2) through links regardless of mode (%Y); null when dangling. */
  target(): Stat | null {
    return tryStat(() => this.cmd.sys.stat(this.path));
  }
}

function tryStat(f: () => Stat): Stat | null {
  try {
    return f();
  } catch (e) {
    if (e instanceof SysError) return null;
    throw e;
  }
}

export type Node = (e: Entry) => boolean;

/** A fatal problem with the command line: `find: MSG`, status 1. */
export class FindError extends Error {}

/** Thrown by -quit: unwinds the walk at once (GNU exits on the spot). */
export class Quit extends Error {}

export interface FindState {
  cmd: Cmd;
  env: string[];
  maxdepth: number;
  mindepth: number;
  depthFirst: boolean;
  xdev: boolean;
  follow: Follow;
  /** -quit seen: stop walking (pending -exec + batches still run). */
  quit: boolean;
  /** Run at the end (and at -quit): the -exec ... + batches. */
  finishers: (() => void)[];
  now: number;
}

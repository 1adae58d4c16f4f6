// The shape of /aos: each name is a node generated from the kernel's state
// when it is looked up (aosfs/tree.ts), as /proc's are.

import type { Kernel } from '../../kernel.js';
import type { Cred, FileOps } from '../../vfs/types.js';

export interface Ctx {
  readonly k: Kernel;
  readonly cred: Cred;
}

interface Common {
  /** Permission bits. */
  readonly mode: number;
  /** Owner; root when absent. */
  readonly uid?: number;
  readonly gid?: number;
}

export interface FileNode extends Common {
  readonly type: 'file';
  /** Instant files: the content now. */
  read?(c: Ctx): string;
  /** Action and channel files bring their own open-file ops (commit on close, blocking reads). */
  open?(c: Ctx, flags: number): FileOps;
  /** Read-only whatever the caller (a projection of the operator's config): write opens are EROFS. */
  readonly readOnly?: boolean;
}

export interface DirNode extends Common {
  readonly type: 'dir';
  names(c: Ctx): string[];
  child(c: Ctx, name: string): Node | null;
}

export interface LinkNode extends Common {
  readonly type: 'link';
  readonly target: string;
}

export type Node = FileNode | DirNode | LinkNode;

/** A directory of fixed names. */
export function dir(entries: Record<string, Node>, owner: Common = { mode: 0o555 }): DirNode {
  return { type: 'dir', ...owner, names: () => Object.keys(entries), child: (_c, name) => (Object.hasOwn(entries, name) ? entries[name] : null) };
}

/** An instant file: text generated at open. */
export function text(read: (c: Ctx) => string, mode = 0o444, owner: { uid?: number; gid?: number } = {}): FileNode {
  return { type: 'file', mode, ...owner, read };
}

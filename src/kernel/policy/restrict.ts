// Capabilities that intersect down: a process may narrow what it can do
// (aosctl restrict), never widen it, and every descendant inherits what it
// has (Process.caps, copied at spawn, kept across exec). A child agent's
// capabilities are therefore its parent's intersected with its own config.
// The checks are the VM policy's own: a command list is the policy's
// processes.allow (Commands), enforced at the same point, on top of it.
// An attempt outside them fails EACCES and leaves a REFUSED record in the
// trace of the nearest agent above the process (and in the audit trail).

import type { Restriction } from '../../abi/aos.js';
import { Errno, SysError } from '../../abi/errno.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import type { Inode } from '../vfs/types.js';
import { capsGuard } from './caps-guard.js';
import { Commands } from './commands.js';
import type { FsGuard } from './fs-guard.js';

const KEYS = ['tools', 'commands', 'readOnly', 'hidden', 'network'] as const;
/** Bound on the entries of one list (a restriction is kernel memory). */
const MAX_ENTRIES = 256;

/** One set of narrowed capabilities, shared by the processes that inherited it. */
export class Capabilities {
  /** The command list's checker, made on first use. */
  private commandCheck: Commands | null = null;

  constructor(
    readonly r: Readonly<Restriction>,
    /** Its readOnly and hidden prefixes, checked as the VM policy's fs rules are (caps-guard.ts). */
    readonly fs: FsGuard | null = null,
  ) {}

  commands(k: Kernel): Commands | null {
    if (!this.r.commands) return null;
    this.commandCheck ??= new Commands(k.vfs, { allow: this.r.commands }, k.policy.audit, k.policy.approvals, 'capabilities.commands');
    return this.commandCheck;
  }
}

function list(v: unknown, key: string, paths: boolean): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string' && s.length > 0 && s.length <= 4096)) {
    throw new SysError(Errno.EINVAL, `restrict: ${key} must be a list of names`);
  }
  if (v.length > MAX_ENTRIES) throw new SysError(Errno.EINVAL, `restrict: ${key}: at most ${MAX_ENTRIES} entries`);
  if (paths && !v.every((s: string) => s.startsWith('/'))) throw new SysError(Errno.EINVAL, `restrict: ${key}: paths must be absolute`);
  return [...new Set(v as string[])];
}

/** A restriction as a process sent it: checked, unknown keys refused (a misspelt key must not silently allow). */
export function checkRestriction(v: unknown): Restriction {
  if (!v || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array) throw new SysError(Errno.EINVAL, 'restrict: want an object');
  const o = v as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!(KEYS as readonly string[]).includes(key)) throw new SysError(Errno.EINVAL, `restrict: unknown key ${key}`);
  if (o.network !== undefined && o.network !== null && o.network !== 'none') throw new SysError(Errno.EINVAL, "restrict: network can only be 'none'");
  const out: Restriction = {};
  const tools = list(o.tools, 'tools', false);
  const commands = list(o.commands, 'commands', true);
  const readOnly = list(o.readOnly, 'readOnly', true);
  const hidden = list(o.hidden, 'hidden', true);
  if (tools) out.tools = tools;
  if (commands) out.commands = commands;
  if (readOnly) out.readOnly = readOnly;
  if (hidden) out.hidden = hidden;
  if (o.network === 'none') out.network = 'none';
  return out;
}

/** Allowed lists meet (absent = anything); forbidding ones join. Never wider than either side. */
export function intersect(a: Restriction, b: Restriction): Restriction {
  const meet = (x?: string[], y?: string[]) => (x && y ? x.filter((s) => y.includes(s)) : x ?? y);
  const join = (x?: string[], y?: string[]) => (x && y ? [...new Set([...x, ...y])] : x ?? y);
  const out: Restriction = {};
  const tools = meet(a.tools, b.tools);
  const commands = meet(a.commands, b.commands);
  const readOnly = join(a.readOnly, b.readOnly);
  const hidden = join(a.hidden, b.hidden);
  if (tools) out.tools = tools;
  if (commands) out.commands = commands;
  if (readOnly) out.readOnly = readOnly;
  if (hidden) out.hidden = hidden;
  if (a.network === 'none' || b.network === 'none') out.network = 'none';
  return out;
}

/** `p` narrows its capabilities by `r`; returns what it has now. */
export function restrict(k: Kernel, p: Process, r: Restriction): Restriction {
  const now = p.caps ? intersect(p.caps.r, r) : r;
  if (!Object.keys(r).length) return now;
  // The path rules are marked anew only when they changed (a list of tools alone keeps the old marks).
  const samePaths = p.caps && JSON.stringify([p.caps.r.readOnly, p.caps.r.hidden]) === JSON.stringify([now.readOnly, now.hidden]);
  const fs = samePaths ? p.caps!.fs : now.readOnly || now.hidden ? capsGuard(k).make(now.readOnly, now.hidden) : null;
  p.caps = new Capabilities(Object.freeze(now), fs);
  return now;
}

/** The agent whose tree `p` is in (itself or its nearest ancestor that is an agent), if any. */
export function agentAbove(k: Kernel, p: Process): number {
  for (let q: Process | undefined = p; q && q.pid > 1; q = k.procs.get(q.ppid)) if (k.agents.get(q.pid)) return q.pid;
  // A process that left the tree (a double fork, adopted by init) is still in it: the link inherited at spawn stays.
  return p.agentScope?.pid ?? 0;
}

/** Refuse `what` to `p`: the audit trail, the agent's trace (REFUSED), and EACCES. */
export function refuse(k: Kernel, p: Process, rule: string, what: string): never {
  k.policy.audit.record('policy', p.pid, { decision: 'deny', rule, errno: 'EACCES', detail: what });
  const agent = agentAbove(k, p);
  if (agent) k.agents.record(agent, { type: 'refused', exit: 'REFUSED', pid: p.pid, rule, reason: what });
  throw new SysError(Errno.EACCES, `${what}: outside this process's capabilities (${rule})`);
}

/** May `p` run `path`? Its command list, checked as the policy's processes.allow is. */
export function mayRunCaps(k: Kernel, p: Process, cwd: Inode, path: string, argv: readonly string[]): void {
  const c = p.caps?.commands(k);
  if (!c) return;
  try {
    c.check(p.cred, cwd, path, argv);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    refuse(k, p, 'capabilities.commands', `run ${path}`);
  }
}

/** May `p` use the network itself? */
export function mayUseNetwork(k: Kernel, p: Process, what: string): void {
  if (p.caps?.r.network === 'none') refuse(k, p, 'capabilities.network', what);
}

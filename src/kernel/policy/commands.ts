// Command rules (policy.processes.allow / ask): which programs the
// guest may run, by path in the VM.
//
// Commands are multicall programs behind chains of symlinks
// (/bin/ls → /opt/agentos/bin/ls → ... → libexec/coreutils), and a multicall
// program picks its applet by the name it was run as. So a rule for /bin/ls
// stands for every hop of /bin/ls's chain that is still called `ls`, and a
// run is allowed when a hop of its own chain is one of those *and* it is run
// under that name: /opt/agentos/bin/ls passes, /bin/rm (same final program)
// and a link /tmp/rm → /bin/ls do not. Chains are resolved at boot.
//
// The shells (/bin/sh, /bin/bash) are always allowed, and so is the file they
// run, under its own name (their child shells start from it): they only run
// builtins and commands the rules allow. The host's own spawns are not checked.

import { Errno, SysError } from '../../abi/errno.js';
import { isLnk } from '../../abi/stat.js';
import type { Cred, Inode } from '../vfs/types.js';
import type { Vfs } from '../vfs/vfs.js';
import type { Approvals } from './approval.js';
import type { AuditLog } from './audit.js';
import type { ProcessPolicy } from '../../api/policy.js';

const KERNEL: Cred = { uid: 0, gid: 0, groups: [], pid: 0, umask: 0 };
const SHELLS = ['/bin/sh', '/bin/bash'];
const MAX_HOPS = 40;
/** Where the runtime images live (every program's #! line names one). */
const RUNTIMES = '/usr/libexec/agentos';

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** The path and every symlink hop after it, each as an absolute path (directories resolved, last name kept). */
export function linkChain(vfs: Vfs, base: Inode, path: string): string[] {
  const hops: string[] = [];
  let dir = base;
  let cur = path;
  for (let i = 0; i < MAX_HOPS; i++) {
    let inode: Inode | null;
    try {
      const last = vfs.namei.parent(KERNEL, dir, cur);
      if (last.kind !== 'normal') break;
      const d = vfs.pathOf(last.dir);
      hops.push(d === '/' ? `/${last.name}` : `${d}/${last.name}`);
      inode = vfs.namei.child(KERNEL, last);
      dir = last.dir;
    } catch {
      break;
    }
    if (!inode || !isLnk(inode.mode)) break;
    cur = inode.fs.readlink(inode);
  }
  return hops;
}

/**
 * The files an allowlist lets run: each rule's path (and the shells'), the
 * hops of its chain, the file the chain ends at, and the runtime images their
 * #! lines name (a program's interpreter runs it).
 */
export function allowedFiles(vfs: Vfs, rules: readonly string[]): string[] {
  const out = new Set<string>([RUNTIMES]);
  for (const p of [...rules, ...SHELLS]) {
    const chain = linkChain(vfs, vfs.root(), p);
    for (const h of [p, ...chain]) out.add(h);
    try {
      out.add(vfs.pathOf(vfs.namei.resolve(KERNEL, vfs.root(), p, true).inode));
    } catch {
      // Not there (yet): the rule's path itself is read-only, so nothing can be made there.
    }
  }
  return [...out];
}

export class Commands {
  /** Allowed hops → the rule that allows them; null = no allowlist. */
  private readonly allowed: Map<string, string> | null;
  private readonly asked = new Map<string, string>();

  constructor(
    private readonly vfs: Vfs,
    rules: ProcessPolicy,
    private readonly audit: AuditLog,
    private readonly approvals: Approvals,
    /** The rule the audit trail names for a refusal. */
    private readonly rule = 'processes.allow',
  ) {
    this.allowed = rules.allow ? this.expand([...rules.allow, ...SHELLS], SHELLS) : null;
    if (rules.ask) for (const [hop, rule] of this.expand(rules.ask)) this.asked.set(hop, rule);
  }

  get active(): boolean {
    return this.allowed !== null || this.asked.size > 0;
  }

  /** May process `pid` run `path` (relative to `cwd`) now? Throws EACCES, or ApprovalNeeded for `ask`. */
  check(cred: Cred, cwd: Inode, path: string, argv: readonly string[]): void {
    if (!this.active) return;
    const chain = linkChain(this.vfs, cwd, path);
    const name = basename(chain[0] ?? path);
    const match = (m: Map<string, string>) => chain.find((h) => m.has(h) && basename(h) === name);
    const ask = match(this.asked);
    if (ask) {
      this.approvals.require(`processes.ask:${this.asked.get(ask)}`, `run ${argv.join(' ')} (pid ${cred.pid})`, cred.pid);
      return;
    }
    if (this.allowed && !match(this.allowed)) {
      this.audit.record('policy', cred.pid, { decision: 'deny', rule: this.rule, errno: 'EACCES', path: chain[0] ?? path, argv: [...argv] });
      throw new SysError(Errno.EACCES, `${path}: not in the VM's command allowlist (policy ${this.rule})`);
    }
  }

  /** Rule paths → the hops they allow; for `whole` ones (the shells) also the file their chain ends at. */
  private expand(paths: readonly string[], whole: readonly string[] = []): Map<string, string> {
    const out = new Map<string, string>();
    for (const p of paths) {
      const name = basename(p);
      const chain = linkChain(this.vfs, this.vfs.root(), p);
      for (const h of chain) if (basename(h) === name) out.set(h, p);
      // A shell starts its child shells (pipeline stages, background jobs) from the
      // file the kernel ran, by its own name: .../libexec/agentos-shell.
      if (whole.includes(p) && chain.length > 1) out.set(chain[chain.length - 1], p);
      out.set(p, p);
    }
    return out;
  }
}

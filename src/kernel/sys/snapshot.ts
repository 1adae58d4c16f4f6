// snapshot(op, ...): the kernel end of the in-VM `agentos snapshot` command
// (kernel/persist/snapshots.ts does the work). Export and import move the
// portable file through the VFS as the calling process, so its permissions
// and the policy apply to that file. A restore stops every process, the
// caller included: it never returns.
//
// The command acts for the guest and no more: an export leaves out what the
// caller could not read in the snapshot — hidden paths, files its
// permissions do not open (policy/snapshot-view.ts) — and asks for what is
// under `ask` rules. Under filesystem rules, restore and import, which would
// write under read-only and hidden paths, are the host's alone, and the
// store's existing snapshots (the host's roll-back points, perhaps) can be
// neither replaced nor deleted from inside. A restore ends the caller and the
// shells it runs under with status 0 and a note on its stderr (kernel.ts).

import { Errno, strerror, SysError } from '../../abi/errno.js';
import { O_CREAT, O_RDONLY, O_TRUNC, O_WRONLY } from '../../abi/fcntl.js';
import type { OpenFile } from '../file.js';
import { guestLayer } from '../policy/snapshot-view.js';
import { hasFsRules } from '../../api/policy.js';
import type { Process } from '../process.js';
import type { Handler } from '../syscall.js';
import { WaitQueue } from '../waitqueue.js';
import type { Kernel } from '../kernel.js';
import { str } from './args.js';
import { settle } from './settle.js';

export const snapshot: Handler<'snapshot'> = (k, p, a, call) => {
  const op = str(a, 0);
  const s = k.snapshots;
  // A command allowlist makes its programs read-only (policy.ts): a restore or import could replace them.
  const ruled = hasFsRules(k.policy.policy.fs) || !!k.policy.policy.processes?.allow;
  if (ruled && (op === 'restore' || op === 'import' || op === 'delete')) {
    throw new SysError(Errno.EPERM, `snapshot ${op} from inside the VM is not allowed under its filesystem policy (the host can do it)`);
  }
  switch (op) {
    case 'create':
      return settle(call, async () => {
        if (ruled && await s.exists(str(a, 1))) {
          throw new SysError(Errno.EEXIST, `snapshot '${str(a, 1)}' exists; under the VM's filesystem policy only the host replaces it`);
        }
        return s.create(str(a, 1));
      });
    case 'list':
      return settle(call, () => s.list());
    case 'delete':
      return settle(call, () => s.delete(str(a, 1)).then(() => 0 as const));
    case 'export': {
      // The file is written in the handler itself, so an `ask` rule on it parks the call as any open does.
      const file = settle(call, () => (ruled || p.uid !== 0 ? guestExport(k, p, str(a, 1)) : s.export(str(a, 1))));
      return file instanceof WaitQueue ? file : writeVfsFile(k, p, str(a, 2), file);
    }
    case 'import': {
      const st = call.state as { file?: Uint8Array };
      st.file ??= readVfsFile(k, p, str(a, 1));
      return settle(call, () => s.import(str(a, 2), st.file!));
    }
    case 'restore': {
      const name = str(a, 1);
      const note = `agentos snapshot: restored '${name}'; every process in the VM was stopped, this command's shell too (what followed it did not run); the next command runs in the restored files\n`;
      return settle(call, () => s.restore(name, { pid: p.pid, note }).then(() => 0 as const));
    }
    default:
      throw new SysError(Errno.EINVAL, `snapshot: unknown operation ${op}`);
  }
};

/** Snapshot `name` as the guest may take it: what it could not read left out, `ask` rules asked. */
async function guestExport(k: Kernel, p: Process, name: string): Promise<Uint8Array> {
  const pol = k.policy;
  const file = await k.snapshots.export(name);
  const view = guestLayer(k.snapshots.open(file), pol.policy.fs ?? {}, p.cred, pol.audit, pol.approvals);
  for (const rule of view.asks) {
    if (await pol.approve(rule, `export snapshot ${name} (pid ${p.pid})`, p.pid) === 'deny') {
      throw new SysError(Errno.EACCES, `denied by the host (policy ${rule})`);
    }
  }
  return view.filtered ? k.snapshots.frameOf(view) : file;
}

function readVfsFile(k: Kernel, p: Process, path: string): Uint8Array {
  const f = open(k, p, path, O_RDONLY);
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const r = f.ops.read(f, 1 << 20);
      if (r instanceof WaitQueue) throw new SysError(Errno.EINVAL, `${path}: not a regular file`);
      if (r.length === 0) break;
      chunks.push(r.slice());
      total += r.length;
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) out.set(c, (at += c.length) - c.length);
    return out;
  } finally {
    f.unref();
  }
}

function writeVfsFile(k: Kernel, p: Process, path: string, data: Uint8Array): number {
  const f = open(k, p, path, O_WRONLY | O_CREAT | O_TRUNC);
  try {
    for (let at = 0; at < data.length;) {
      const n = f.ops.write(f, data.subarray(at));
      if (n instanceof WaitQueue) throw new SysError(Errno.EINVAL, `${path}: not a regular file`);
      at += n;
    }
    return data.length;
  } finally {
    f.unref();
  }
}

function open(k: Kernel, p: Process, path: string, flags: number): OpenFile {
  let f;
  try {
    f = k.vfs.open(p.cred, p.cwd, path, flags, 0o644);
  } catch (e) {
    throw e instanceof SysError ? new SysError(e.errno, `${path}: ${strerror(e.errno)}`) : e;
  }
  if (f instanceof WaitQueue) throw new SysError(Errno.EINVAL, `${path}: not a regular file`);
  return f;
}

// snapshot(op, ...): the kernel end of the in-VM `agentos snapshot` command
// (kernel/persist/snapshots.ts does the work). Export and import move the
// portable file through the VFS as the calling process, so its permissions apply.
// A restore stops every process, the caller included: it never returns.
// Under filesystem rules (policy), restore and import are the host's alone.

import type { Value } from '../../abi/codec.js';
import { Errno, strerror, SysError } from '../../abi/errno.js';
import { O_CREAT, O_RDONLY, O_TRUNC, O_WRONLY } from '../../abi/fcntl.js';
import type { OpenFile } from '../file.js';
import type { Process } from '../process.js';
import type { Handler } from '../syscall.js';
import { WaitQueue } from '../waitqueue.js';
import type { Kernel } from '../kernel.js';
import { str } from './args.js';
import { settle } from './settle.js';

export const snapshot: Handler = (k, p, a, call) => {
  const op = str(a, 0);
  const s = k.snapshots;
  // A snapshot file is made outside the rules: restoring one from inside would
  // write under read-only paths, so a VM with filesystem rules leaves that to the host.
  const fs = k.policy.policy.fs;
  if ((op === 'restore' || op === 'import') && (fs?.readOnly?.length || fs?.hidden?.length || fs?.ask?.length)) {
    throw new SysError(Errno.EPERM, `snapshot ${op} from inside the VM is not allowed under its filesystem policy (the host can do it)`);
  }
  switch (op) {
    case 'create':
      return settle(call, () => s.create(str(a, 1))) as unknown as Value;
    case 'list':
      return settle(call, () => s.list()) as unknown as Value;
    case 'delete':
      return settle(call, () => s.delete(str(a, 1)).then(() => 0));
    case 'export':
      return settle(call, async () => writeVfsFile(k, p, str(a, 2), await s.export(str(a, 1))));
    case 'import':
      return settle(call, () => s.import(str(a, 2), readVfsFile(k, p, str(a, 1)))) as unknown as Value;
    case 'restore':
      return settle(call, () => s.restore(str(a, 1)).then(() => 0));
    default:
      throw new SysError(Errno.EINVAL, `snapshot: unknown operation ${op}`);
  }
};

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

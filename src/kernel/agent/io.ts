// What the model service lends a backend for one call (backend.ts BackendIO):
// the VM's files as the calling process, and HTTP through the kernel's own
// network path, checked by the network policy and recorded in the audit trail
// as the process's own requests are.

import { Errno, SysError } from '../../abi/errno.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import { readText } from '../software/manifest.js';
import type { BackendIO, BackendResponse } from './backend.js';

const enc = new TextEncoder();

export function backendIO(k: Kernel, p: Process, signal: AbortSignal): BackendIO {
  return {
    signal,
    readFile: (path) => enc.encode(readText(k.vfs, p.cred, p.cwd, path)),
    async http(req): Promise<BackendResponse> {
      const method = req.method.toUpperCase();
      const d = k.net.policy.check(method, req.url);
      const allowed = d.allowed && !d.ask;
      // An `ask` rule needs a parked syscall to wait in; a model call is refused instead.
      k.policy.audit.record('network', p.pid, { method, url: new URL(req.url).origin, decision: allowed ? 'allow' : 'deny', via: 'model service' });
      if (!d.allowed) throw new SysError(Errno.EACCES, d.message);
      if (d.ask) throw new SysError(Errno.EACCES, `network access to ${new URL(req.url).origin} needs approval, which model calls do not take yet`);
      const fetch = k.net.fetch;
      if (!fetch) throw new SysError(Errno.ENETUNREACH, 'this host gives the VM no network');
      const res = await fetch({
        method, url: req.url, headers: req.headers, body: req.body ?? null,
        allowPrivate: d.allowPrivate, hosts: k.net.policy.hosts, connectTimeoutMs: req.connectTimeoutMs ?? 60_000,
        mayFollow: false, signal,
      });
      const it = res.body;
      return { status: res.status, headers: res.headers, body: { [Symbol.asyncIterator]: () => it } };
    },
  };
}

// Node host, isolation 'process': the VM's own process, started by the host
// library under Node's permission model (src/host/node/isolation.ts). Its
// first IPC message is the kernel's init; it boots the kernel worker, then
// relays messages both ways, unread: they are sealed with the VM's secret,
// which only the host and the kernel check. It ends with its host: when the
// host disconnects (stop, or the host process is gone) or the kernel dies.

import type { Worker } from 'node:worker_threads';
import { startKernelThread, type KernelThreadInit } from '../src/host/node/kernel-thread.js';
import type { VmProcessMessage } from '../src/host/node/isolation.js';

/**
 * Post to the host; `then` runs once it is sent, or failed to be (the host is
 * gone: EPIPE, which without a callback would be an uncaught 'error' printed
 * on the terminal the host shared with us — its disconnect ends us anyway).
 */
function send(m: unknown, then?: () => void): void {
  if (process.connected) process.send!(m as never, undefined, undefined, () => then?.());
  else then?.();
}
let kernel: Worker | null = null;

process.on('disconnect', () => {
  kernel?.removeAllListeners('exit'); // an end asked for, not a death to report
  void (kernel?.terminate() ?? Promise.resolve()).finally(() => process.exit(0));
});

process.once('message', (init: KernelThreadInit) => {
  startKernelThread(init).then(
    ({ worker, pid }) => {
      kernel = worker;
      worker.on('message', (m: unknown) => send(m));
      process.on('message', (m: unknown) => worker.postMessage(m));
      const die = (message: string) => send({ vm: 'died', message } satisfies VmProcessMessage, () => process.exit(1));
      worker.once('error', (e) => die(`agentOS: the kernel failed: ${e.stack ?? String(e)}`));
      worker.once('exit', () => die('agentOS: the kernel has stopped'));
      send({ vm: 'booted', pid } satisfies VmProcessMessage);
    },
    (e: unknown) => send({ vm: 'error', message: e instanceof Error ? e.message : String(e) } satisfies VmProcessMessage, () => process.exit(1)),
  );
});

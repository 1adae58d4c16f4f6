// Node host, isolation 'process': the VM's own process, started by the host
// library under Node's permission model (src/host/node/isolation.ts). The
// first message on its control channel (fd 3, src/host/node/vm-channel.ts) is
// the kernel's init; it boots the kernel worker, then relays messages both
// ways, unread: they are sealed with the VM's secret, which only the host and
// the kernel check. It ends with its host: when the host closes the channel
// (stop, or the host process is gone) or the kernel dies.

import { Socket } from 'node:net';
import type { Worker } from 'node:worker_threads';
import { startKernelThread, type KernelThreadInit } from '../src/host/node/kernel-thread.js';
import { CHANNEL_FD, readFrames, sendFrame } from '../src/host/node/vm-channel.js';
import type { VmProcessMessage } from '../src/host/node/vm-link.js';

const host = new Socket({ fd: CHANNEL_FD, readable: true, writable: true });
let kernel: Worker | null = null;
let relay: ((m: unknown) => void) | null = null;

/** Post to the host; `then` runs once it is sent (or at once when the host is gone). */
const send = (m: unknown, then?: () => void) => sendFrame(host, m, then);

const end = () => {
  kernel?.removeAllListeners('exit'); // an end asked for, not a death to report
  void (kernel?.terminate() ?? Promise.resolve()).finally(() => process.exit(0));
};
host.on('error', end);
host.on('close', end);

readFrames(host, (m) => {
  if (relay) return relay(m);
  relay = () => {}; // the first message only
  startKernelThread(m as KernelThreadInit).then(
    ({ worker, pid }) => {
      kernel = worker;
      worker.on('message', (reply: unknown) => send(reply));
      relay = (request) => worker.postMessage(request);
      const die = (message: string) => send({ vm: 'died', message } satisfies VmProcessMessage, () => process.exit(1));
      worker.once('error', (e) => die(`agentOS: the kernel failed: ${e.stack ?? String(e)}`));
      worker.once('exit', () => die('agentOS: the kernel has stopped'));
      send({ vm: 'booted', pid } satisfies VmProcessMessage);
    },
    (e: unknown) => send({ vm: 'error', message: e instanceof Error ? e.message : String(e) } satisfies VmProcessMessage, () => process.exit(1)),
  );
}, end);

// A dead kernel worker settles its host's calls (guardKernel) instead of
// leaving them waiting forever: a unit case, and a real Node VM after stop.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Remote } from 'comlink';
import { guardKernel } from '../../src/host/api/kernel-death.js';
import type { KernelService } from '../../src/host/worker/kernel-service.js';
import { boot } from '../../src/host/node/index.js';

test('calls pending when the kernel dies reject with the death; later ones too', async () => {
  let die!: (e: Error) => void;
  const died = new Promise<never>((_, fail) => (die = fail));
  const never = { status: () => new Promise(() => {}), sync: () => Promise.resolve() } as unknown as Remote<KernelService>;
  const k = guardKernel(never, died);
  await k.sync(); // a live kernel answers as before
  const pending = k.status();
  die(new Error('agentOS: the kernel failed: boom'));
  await assert.rejects(pending, /the kernel failed: boom/);
  await assert.rejects(k.status(), /the kernel failed: boom/);
});

test('after stop, a call on the machine fails at once instead of hanging', async () => {
  const m = await boot();
  await m.syscall('getpid');
  await m.stop();
  await assert.rejects(m.syscall('getpid'), /the VM has stopped/);
});

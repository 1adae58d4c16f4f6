// policy.processes.maxMemoryBytes: each WebAssembly process of the VM gets at
// most that much memory (malloc fails beyond); a program that needs more to
// start is refused with the reason; the VM stays usable.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';
import { checkPolicy } from '../../../src/kernel/policy/types.js';
import { pagesFor } from '../../../src/abi/wasm-limits.js';

// This file runs from dist/test/kernel/policy/; the WASI programs are built into dist/wasm/.
const grow = new Uint8Array(readFileSync(new URL('../../../wasm/grow.wasm', import.meta.url)));

test('maxMemoryBytes caps each WebAssembly process; the VM goes on', async () => {
  const vm = new AgentVM({ policy: { processes: { maxMemoryBytes: 64 << 20 } } });
  await vm.start();
  try {
    await vm.writeFile('/tmp/grow', grow, 0o755);
    const r = await vm.exec('/tmp/grow');
    assert.equal(r.exitCode, 0, r.stderr);
    const mib = Number(/^(\d+) MiB\n$/.exec(r.stdout)?.[1]);
    assert.ok(mib >= 16 && mib < 64, `allocated ${mib} MiB under a 64 MiB ceiling`);
    // A ceiling below what the program needs to start: refused, with the reason.
    const tiny = new AgentVM({ policy: { processes: { maxMemoryBytes: 64 << 10 } } });
    await tiny.start();
    try {
      await tiny.writeFile('/tmp/grow', grow, 0o755);
      const t = await tiny.exec('/tmp/grow; echo "after $?"');
      assert.match(t.stderr, /more than the 64 KiB a process may have/);
      assert.match(t.stdout, /^after [1-9]\d*\n$/);
      assert.equal((await tiny.exec('echo still here')).stdout, 'still here\n');
    } finally {
      await tiny.stop();
    }
    assert.equal((await vm.exec('echo ok')).stdout, 'ok\n');
  } finally {
    await vm.stop();
  }
});

test('maxMemoryBytes is checked and never raises the runtime ceiling', () => {
  assert.throws(() => checkPolicy({ processes: { maxMemoryBytes: -1 } }), /maxMemoryBytes must be a non-negative number/);
  assert.equal(pagesFor(undefined), 16384);
  assert.equal(pagesFor(8 * 2 ** 30), 16384);
  assert.equal(pagesFor((1 << 20) + 5), 16);
});

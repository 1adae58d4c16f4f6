// spawn's fd map: alone it is the child's whole table; with inheritFds it is a
// set of dup2s on top of what the child inherits (what a shell's pipeline
// stage needs, without a dup2 and restore in the shell around the spawn).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Errno, type SysError } from '../../src/abi/errno.js';
import { O_CLOEXEC } from '../../src/abi/fcntl.js';
import type { SpawnRequest } from '../../src/abi/spawn.js';
import { boot, type Machine } from '../../src/host/node/index.js';

/** A program that prints the numbers of its open fds. */
const LIST_FDS = `#!/usr/libexec/agentos/js
const open = [];
for (let fd = 0; fd < 64; fd++) {
  try { agentos.sys.fstat(fd); open.push(fd); } catch { /* not open */ }
}
agentos.sys.writeAll(1, open.join(' '));
`;

let m: Machine;
before(async () => {
  m = await boot();
  await m.writeFile('/tmp/fds', LIST_FDS, 0o755);
});
after(() => m.stop());

/** The child's open fds, its stdout on a pipe mapped to fd 1. */
async function childFds(req: Partial<SpawnRequest>, extra: [number, number][] = []): Promise<number[]> {
  const [outR, outW] = await m.syscall('pipe', O_CLOEXEC);
  try {
    const pid = await m.syscall('spawn', { path: '/tmp/fds', argv: ['/tmp/fds'], env: [], ...req, fds: [[1, outW], ...extra] });
    await m.wait(pid);
    const out = new TextDecoder().decode(await m.syscall('read', outR, 1024));
    return out.split(' ').map(Number);
  } finally {
    await m.syscall('close', outR);
    await m.syscall('close', outW);
  }
}

test('spawn: fds alone are the child’s whole fd table', async () => {
  const [keepR, keepW] = await m.syscall('pipe', 0);
  try {
    assert.deepEqual(await childFds({}), [1]);
  } finally {
    await m.syscall('close', keepR);
    await m.syscall('close', keepW);
  }
});

test('spawn with inheritFds: the mapped fds, plus every fd the parent does not close on exec', async () => {
  const [keepR, keepW] = await m.syscall('pipe', 0);
  const [shutR, shutW] = await m.syscall('pipe', O_CLOEXEC);
  try {
    const fds = await childFds({ inheritFds: true }, [[40, keepR]]);
    assert.ok(fds.includes(1), `fd 1 mapped: ${fds}`);
    assert.ok(fds.includes(40), `fd 40 mapped: ${fds}`);
    assert.ok(fds.includes(keepR) && fds.includes(keepW), `inherited ${keepR}, ${keepW}: ${fds}`);
    assert.ok(!fds.includes(shutR) && !fds.includes(shutW), `close-on-exec ${shutR}, ${shutW} not inherited: ${fds}`);
  } finally {
    for (const fd of [keepR, keepW, shutR, shutW]) await m.syscall('close', fd);
  }
});

test('spawn: a sigDefault that is no signal set (negative, fractional, NaN, past 2^NSIG) is EINVAL', async () => {
  for (const sigDefault of [-1, 1.5, Number.NaN, 2 ** 40, Infinity]) {
    await assert.rejects(
      m.syscall('spawn', { path: '/tmp/fds', argv: ['/tmp/fds'], env: [], fds: [], sigDefault }),
      (e: SysError) => e.errno === Errno.EINVAL,
      `sigDefault ${sigDefault}`,
    );
  }
});

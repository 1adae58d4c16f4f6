// A restore in a persistent VM makes the stored snapshot the checkpoint
// without copying it (a hard link switched in by renaming CURRENT), shares
// its bytes until either is replaced, and a crash at any step of the switch
// leaves the old layer or the new one (decision 0068).

import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

async function sh(vm: AgentVM, cmd: string): Promise<string> {
  const r = await vm.exec(cmd);
  assert.equal(r.exitCode, 0, r.stderr);
  return r.stdout;
}

async function opened(state: string, cmd: string): Promise<string> {
  const vm = new AgentVM({ state });
  await vm.start();
  try {
    return await sh(vm, cmd);
  } finally {
    await vm.stop();
  }
}

test('restore in place: the checkpoint is the snapshot file itself; both change alone afterwards; a later fold returns to layer.*', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-restore-'));
  const state = join(dir, 'vm');
  try {
    const vm = new AgentVM({ state });
    await vm.start();
    try {
      await sh(vm, 'echo one > a');
      await vm.snapshot('s');
      await sh(vm, 'echo two > a; echo extra > b');
      await vm.restore('s');
      const current = readlinkSync(join(state, 'CURRENT'));
      assert.equal(statSync(join(state, `${current}.ckpt`)).ino, statSync(join(state, 'snapshots', 's.aosnap')).ino, 'no copy: one file, two names');
      assert.ok(!existsSync(join(state, 'layer.ckpt')), 'the old checkpoint is gone');
      await sh(vm, 'echo three > c');
      await vm.snapshot('s'); // replaces the snapshot's file: the layer keeps the old one
      assert.notEqual(statSync(join(state, `${current}.ckpt`)).ino, statSync(join(state, 'snapshots', 's.aosnap')).ino);
      await sh(vm, 'echo four > d');
    } finally {
      await vm.stop();
    }
    assert.equal(await opened(state, 'cat a c d; ls'), 'one\nthree\nfour\na\nc\nd\n', 'the restore and what followed are durable');
    // A journal past 8 MB is folded into a new checkpoint: back to layer.*, CURRENT removed.
    const big = new AgentVM({ state });
    await big.start();
    try {
      for (let i = 0; i < 3; i++) await sh(big, `head -c 5000000 /dev/zero > z${i}`);
    } finally {
      await big.stop();
    }
    assert.ok(!existsSync(join(state, 'CURRENT')), 'the fold switched back');
    assert.deepEqual(readdirSync(state).filter((f) => /\.(ckpt|journal)$/.test(f)).sort(), ['layer.ckpt', 'layer.journal']);
    assert.equal(await opened(state, 'cat a c d; wc -c < z2'), 'one\nthree\nfour\n5000000\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('restore in place: a crash before CURRENT is renamed leaves the old layer, after it the new one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-restore-'));
  const state = join(dir, 'vm');
  try {
    const vm = new AgentVM({ state });
    await vm.start();
    let before: string;
    try {
      await sh(vm, 'echo old > f');
      await vm.snapshot('s');
      await sh(vm, 'echo newer > f; echo more > g');
      await vm.exec('sync');
      before = join(dir, 'before');
      cpSync(state, before, { recursive: true, verbatimSymlinks: true });
      await vm.restore('s');
    } finally {
      await vm.stop();
    }
    const current = readlinkSync(join(state, 'CURRENT'));
    // Before the rename: the new pair and CURRENT.tmp exist, CURRENT does not (nor does anything else change).
    const crashedBefore = join(dir, 'crashed-before');
    cpSync(before, crashedBefore, { recursive: true, verbatimSymlinks: true });
    cpSync(join(state, `${current}.ckpt`), join(crashedBefore, `${current}.ckpt`));
    writeFileSync(join(crashedBefore, `${current}.journal`), '');
    symlinkSync(current, join(crashedBefore, 'CURRENT.tmp'));
    assert.equal(await opened(crashedBefore, 'cat f g'), 'newer\nmore\n', 'the old layer, whole');
    assert.ok(!existsSync(join(crashedBefore, `${current}.ckpt`)), 'the unused pair is removed at open');
    // After the rename, before the old checkpoint and journal were removed.
    const crashedAfter = join(dir, 'crashed-after');
    cpSync(state, crashedAfter, { recursive: true, verbatimSymlinks: true });
    cpSync(join(before, 'layer.ckpt'), join(crashedAfter, 'layer.ckpt'));
    cpSync(join(before, 'layer.journal'), join(crashedAfter, 'layer.journal'));
    assert.equal(await opened(crashedAfter, 'cat f; ls'), 'old\nf\n', 'the new layer, whole');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The VMs of one Node process read one copy of the base image, shared in
// place (src/host/node/kernel-thread.ts). What a VM writes over an image file
// goes to its own layer, and bytes handed out of a VM are copies: changing
// them, or the file, in one VM changes nothing in another.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boot } from '../../src/host/node/index.js';

const FILE = '/etc/os-release';

test('VMs sharing the base image do not see each other\'s writes or changed copies', async () => {
  const [a, b, c] = await Promise.all([boot(), boot(), boot()]);
  try {
    const original = await b.readFile(FILE);
    assert.ok(original.length > 0);
    // The copy the host got is its own: scribbling on it changes no VM's file.
    const handed = await b.readFile(FILE);
    handed.fill(0x58);
    assert.deepEqual(await c.readFile(FILE), original);
    // A write over the image file lands in that VM's layer only.
    await a.writeFile(FILE, 'NAME=changed\n');
    assert.equal(new TextDecoder().decode(await a.readFile(FILE)), 'NAME=changed\n');
    assert.deepEqual(await b.readFile(FILE), original);
    assert.deepEqual(await c.readFile(FILE), original);
    // A VM booted later, from the same shared copy, sees the image unchanged.
    const d = await boot();
    try {
      assert.deepEqual(await d.readFile(FILE), original);
    } finally {
      await d.stop();
    }
  } finally {
    await Promise.all([a.stop(), b.stop(), c.stop()]);
  }
});

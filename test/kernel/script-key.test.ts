// The kernel opens a js program's script for the new process (kernel/script-key.ts)
// so a worker that compiled it already runs it without looking it up: the
// cache must never stand in for the checks open(2) makes.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

let vm: AgentVM;
before(async () => {
  vm = new AgentVM();
  await vm.start();
});
after(() => vm.stop());

const PROGRAM = `rm -f /tmp/prog; printf '#!/usr/libexec/agentos/js\\nagentos.sys.writeAll(1, "ran\\\\n");\\n' > /tmp/prog; chmod 755 /tmp/prog`;
/** Enough runs that every pooled worker has compiled the program. */
const RUNS = 'for i in 1 2 3 4 5 6 7 8; do /tmp/prog; done';

test('a compiled program still needs read permission: after chmod 111 it fails as an unreadable script does', async () => {
  const first = await vm.exec(`${PROGRAM}; ${RUNS}`);
  assert.equal(first.stdout, 'ran\n'.repeat(8), first.stderr);
  // chmod changes neither size nor mtime: the cache key is the same file's.
  const r = await vm.exec(`chmod 111 /tmp/prog; ${RUNS}`);
  assert.equal(r.stdout, '', 'no run came from a cached compile');
  assert.match(r.stderr, /Permission denied/);
  assert.notEqual(r.exitCode, 0);
});

test('a program rewritten in place (same inode) runs its new text in workers that compiled the old one', async () => {
  await vm.exec(`${PROGRAM}; ${RUNS}`);
  const r = await vm.exec(`printf '#!/usr/libexec/agentos/js\\nagentos.sys.writeAll(1, "new text\\\\n");\\n' > /tmp/prog; ${RUNS}`);
  assert.equal(r.stdout, 'new text\n'.repeat(8), r.stderr);
});

test('a program rewritten in place with the same size and its old mtime put back (touch -r) runs its new text', async () => {
  await vm.exec(`${PROGRAM}; ${RUNS}`);
  // dev, ino, size and mtime all as before: only ctime (which no call can set) tells the rewrite.
  const r = await vm.exec(
    `touch -r /tmp/prog /tmp/prog.ref; printf '#!/usr/libexec/agentos/js\\nagentos.sys.writeAll(1, "new\\\\n");\\n' > /tmp/prog; ` +
      `touch -r /tmp/prog.ref /tmp/prog; ${RUNS}`,
  );
  assert.equal(r.stdout, 'new\n'.repeat(8), r.stderr);
});

test('a WebAssembly file rewritten with the same size and its old mtime put back is compiled again (the kernel keeps no stale Module)', async () => {
  // Two 8-byte files: an empty module (valid, no _start) and one with a version V8 refuses.
  const first = await vm.exec(`printf '\\0asm\\1\\0\\0\\0' > /tmp/w; chmod 755 /tmp/w; /tmp/w`);
  assert.match(first.stderr, /no _start function/);
  const r = await vm.exec(`touch -r /tmp/w /tmp/w.ref; printf '\\0asm\\2\\0\\0\\0' > /tmp/w; touch -r /tmp/w.ref /tmp/w; /tmp/w`);
  assert.match(r.stderr, /invalid WebAssembly module/);
  assert.equal(r.exitCode, 126);
});

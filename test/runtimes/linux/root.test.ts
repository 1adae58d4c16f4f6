// `linux --root debian` (decision 0079): the command runs in a Debian i386 root (python3, gcc,
// make, perl) that the runtime serves to the guest lazily over 9p, read-only. Needs dist/linux
// (scripts/build-linux.mjs) and dist/linux-root (scripts/build-linux-root.mjs), both optional
// builds from Debian's packages: without them every test here skips and says why.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

const built = existsSync(new URL('../../../linux/package.json', import.meta.url)) && existsSync(new URL('../../../linux-root/manifest.gzip', import.meta.url));
const skip = !built && 'dist/linux or dist/linux-root is not built (scripts/build-linux.mjs and scripts/build-linux-root.mjs need apt and the Debian mirror)';

/** An emulated python3 start takes ~1,200 9p messages: minutes on a loaded machine, not hours. */
const LIMIT = 400_000;

let vm: AgentVM;

before(async () => {
  if (!built) return;
  vm = new AgentVM();
  await vm.start();
  const r = await vm.exec('agentos-software install linux >/dev/null');
  assert.equal(r.exitCode, 0, r.stderr);
});

after(async () => {
  await vm?.stop();
});

test('linux --root debian runs python3, gcc, make and perl from the Debian root', { skip, timeout: LIMIT }, async () => {
  const r = await vm.exec(`linux --root debian -c 'python3 -c "print(1+1)"; gcc --version; make --version; perl -v'`);
  assert.deepEqual([r.exitCode, r.stderr], [0, '']);
  assert.match(r.stdout, /^2\ngcc \(Debian 12\.[^\n]*\n/);
  assert.match(r.stdout, /\nGNU Make 4\.\d/);
  assert.match(r.stdout, /This is perl 5, version \d+/);
});

test('in the Debian root the cwd and the files are agentOS\'s, the root itself is read-only, and --root takes busybox or debian only', { skip, timeout: LIMIT }, async () => {
  await vm.exec('mkdir -p ~/deb && cd ~/deb && echo from-agentos > in.txt');
  const r = await vm.exec(`cd ~/deb && linux --root debian -c 'cat in.txt; echo from-debian > out.txt; pwd; cat /etc/debian_version; touch /usr/bin/x || echo refused'`);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /^from-agentos\n\/home\/[^\n]+\/deb\n12\.\d+\nrefused\n$/);
  assert.match(r.stderr, /Read-only file system/);
  assert.equal((await vm.exec('cat ~/deb/out.txt')).stdout, 'from-debian\n');
  const bad = await vm.exec('linux --root alpine true');
  assert.equal(bad.exitCode, 2);
  assert.match(bad.stderr, /^linux: --root: 'alpine' is not busybox or debian\n/);
});

test('a shared writable mapping of an agentOS file works in the guest and its bytes reach agentOS (the share is mounted cache=mmap)', { skip, timeout: LIMIT }, async () => {
  const py = 'import mmap\nf = open("/tmp/mapped", "w+b"); f.write(b"x" * 4096); f.flush()\nm = mmap.mmap(f.fileno(), 4096); m[0:2] = b"hi"; m.flush(); m.close(); f.close()\n';
  const r = await vm.exec(`linux --root debian python3 -c '${py}'`);
  assert.deepEqual([r.exitCode, r.stderr], [0, '']);
  assert.equal((await vm.exec('head -c 4 /tmp/mapped')).stdout, 'hixx');
});

// The js runtime runs the next process of a reentrant program (the coreutils
// bundle) from the main it kept in that worker (decision 0088). A guest that
// runs first in a worker tries to leave state behind for whoever runs next:
// through coreutils' own modules, and through the reuse API itself.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

let vm: AgentVM;
before(async () => {
  vm = new AgentVM();
  await vm.start();
});
after(() => vm.stop());

/** More runs than the pool has workers: every worker that runs the victim ran the guest before. */
const RUNS = 16;
const loop = (body: string) => `for i in $(seq ${RUNS}); do ${body}; done`;

test("echo -e '\\xc3' does not make a later echo print a literal 'Ã' as the raw byte", async () => {
  // The set of bytes made by escapes was module state: the next echo wrote 'Ã' (U+00C3) as 0xc3, not UTF-8.
  // coreutils' echo by its path: the shell's builtin is not the bundle.
  const r = await vm.exec(loop(`/opt/agentos/bin/echo -e '\\xc3' >/dev/null; /opt/agentos/bin/echo 'Ã' | od -An -tx1`));
  assert.equal(r.stdout, ' c3 83 0a\n'.repeat(RUNS), r.stderr);
});

test('a user name read by one process is read again by the next (no stale /etc/passwd)', async () => {
  const r = await vm.exec(
    `cp /etc/passwd /tmp/passwd.orig; ${loop('stat -c %U /tmp >/dev/null')}; ` +
      `sudo -n sed -i 's/^root:/ruut:/' /etc/passwd; ${loop('stat -c %U /tmp')}; sudo -n cp /tmp/passwd.orig /etc/passwd`,
  );
  assert.equal(r.stdout, 'ruut\n'.repeat(RUNS), r.stderr);
});

test("a guest program's reuse() keeps a main for its own file only: coreutils and other programs run their own code", async () => {
  const evil =
    'globalThis.__program = { reentrant: true, default: (a) => a.print("PWNED\\n") };' +
    'const bad = (a) => a.print("PWNED\\n"); agentos.reuse(bad); agentos.reuse = () => {};' +
    'agentos.print("guest\\n");';
  await vm.writeFile('/tmp/evil', `#!/usr/libexec/agentos/js\n${evil}\n`, 0o755);
  await vm.writeFile('/tmp/other', '#!/usr/libexec/agentos/js\nagentos.print("other\\n");\n', 0o755);
  const r = await vm.exec(loop('/tmp/evil >/dev/null; echo hi | wc -c; /tmp/other'));
  assert.equal(r.stdout, '3\nother\n'.repeat(RUNS), r.stderr);
  // Its own later runs get its own kept main: the program chose that for itself.
  const own = await vm.exec(loop('/tmp/evil'));
  assert.match(own.stdout, /PWNED/);
});

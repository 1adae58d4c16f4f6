// The js runtime runs the next process of a reentrant program (the coreutils
// bundle) from the main it kept in that worker (decision 0088). A guest that
// runs first in a worker tries to leave state behind for whoever runs next:
// through coreutils' own modules, and through the reuse API itself. The
// cases are shared with Chromium's spec (reused-bundle-cases.ts).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';
import { CASES, FILES } from './reused-bundle-cases.js';

let vm: AgentVM;
before(async () => {
  vm = new AgentVM();
  await vm.start();
  for (const [path, text] of Object.entries(FILES)) await vm.writeFile(path, text, 0o755);
});
after(() => vm.stop());

test("echo -e '\\xc3' does not make a later echo print a literal 'Ã' as the raw byte", async () => {
  const r = await vm.exec(CASES.echo.cmd);
  assert.equal(r.stdout, CASES.echo.stdout, r.stderr);
});

test('a user name read by one process is read again by the next (no stale /etc/passwd)', async () => {
  const r = await vm.exec(CASES.passwd.cmd);
  assert.deepEqual([r.stdout, r.stderr], [CASES.passwd.stdout, '']);
});

test("a guest program's reuse() keeps a main for its own file only: coreutils and other programs run their own code", async () => {
  const r = await vm.exec(CASES.evil.cmd);
  assert.equal(r.stdout, CASES.evil.stdout, r.stderr);
  const own = await vm.exec(CASES.own.cmd);
  assert.match(own.stdout, CASES.own.stdout);
});

// Issue 15 item 2 through the public API: one AgentVM.exec runs like `bash -c`
// in the session's state. An error that ends bash -c ends the exec with bash's
// status and nothing after it runs; the session survives with its state.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';
import { EXEC_CASES, hostBash, RESET } from './exec-cases.js';

let vm: AgentVM;
before(async () => {
  vm = new AgentVM();
  await vm.start();
});
after(() => vm.stop());

test('the case table is what bash -c does (when the host has bash 5.2)', (t) => {
  for (const c of EXEC_CASES) {
    const b = hostBash(c.script);
    if (!b) return t.skip('no bash 5.2 on this host');
    assert.deepEqual(b, { stdout: c.stdout, status: c.status }, c.name);
  }
});

for (const c of EXEC_CASES) {
  test(`exec: ${c.name}`, async () => {
    const r = await vm.exec(c.script);
    await vm.exec(RESET);
    assert.deepEqual({ stdout: r.stdout, status: r.exitCode }, { stdout: c.stdout, status: c.status }, r.stderr);
    if (c.stderr === '') assert.equal(r.stderr, '');
    else if (c.stderr) assert.ok(r.stderr.includes(c.stderr), r.stderr);
  });
}

test('exec: after an error stops an exec, the session goes on with its state', async () => {
  await vm.exec('cd /tmp && k_var=kept && k_fn() { echo fn; } && alias k_al="echo al" && umask 027');
  for (const bad of [': ${X:?}', 'set -u; : $nope', 'echo $((1/0))', 'set -e; false', 'exec /nonexistent/prog', 'if']) {
    const r = await vm.exec(bad);
    assert.notEqual(r.exitCode, 0, bad);
    await vm.exec(RESET);
    const s = await vm.exec('echo "$PWD $k_var $(umask)"; k_fn; shopt -s expand_aliases; alias k_al');
    assert.equal(s.stdout, "/tmp kept 0027\nfn\nalias k_al='echo al'\n", `after ${bad}`);
    assert.equal(s.exitCode, 0);
  }
});

test('exec: an EXIT trap runs once, when the exec that set it ends', async () => {
  assert.equal((await vm.exec('trap "echo bye" EXIT; echo one')).stdout, 'one\nbye\n');
  const next = await vm.exec('echo two; trap -p EXIT');
  assert.equal(next.stdout, 'two\n', 'not run again, not kept');
});

test('exec: other traps and options carry over', async () => {
  await vm.exec('trap "echo int" INT; set -o pipefail');
  const r = await vm.exec('trap -p INT; false | true; echo $?');
  assert.equal(r.stdout, "trap -- 'echo int' SIGINT\n1\n");
  await vm.exec('trap - INT; set +o pipefail');
});

test('exec: exit ends the session; the next exec gets a fresh one', async () => {
  await vm.exec('fresh_var=old');
  assert.equal((await vm.exec('exit 3; echo no')).exitCode, 3);
  assert.equal((await vm.exec('echo "[$fresh_var]"')).stdout, '[]\n');
});

test('exec: each command reads /dev/null as stdin, whatever the one before did with fd 0 or the shell\'s own fds', async () => {
  await vm.writeFile('/tmp/stdin-file', 'from the file\n');
  // Redirected for good, closed, fds from 10 up opened and closed as scripts do (`exec 10<file`,
  // `exec 200>lock`), and the shell's own kept /dev/null (fd 256) closed.
  const user = 'for fd in 10 11 12 200; do eval "exec $fd</tmp/stdin-file"; done; exec 256<&-';
  for (const before of ['exec 0</tmp/stdin-file', 'exec 0<&-', user, 'for fd in 10 11 12 200; do eval "exec $fd<&-"; done']) {
    await vm.exec(before);
    const r = await vm.exec('cat; echo "status $?"; wc -c');
    assert.equal(r.stdout, 'status 0\n0\n', before);
  }
  const given = await vm.exec('cat', { stdin: 'given\n' });
  assert.equal(given.stdout, 'given\n');
  assert.equal((await vm.exec('cat; echo end')).stdout, 'end\n', 'the given stdin does not outlive its exec');
});

test('exec: a subshell\'s cd and umask are put back, the parent\'s own stay', async () => {
  const r = await vm.exec('cd /tmp; umask 022; (cd /; umask 077); echo "$(pwd -P) $(umask)"; x=$(cd /usr; umask 0); echo "$(pwd -P) $(umask)"; echo hi | (cd /; umask 0; cat) >/dev/null; pwd -P; umask; umask 027; (umask); cd /usr; (pwd)');
  await vm.exec('cd ~; umask 022');
  assert.equal(r.stdout, '/tmp 0022\n/tmp 0022\n/tmp\n0022\n0027\n/usr\n', r.stderr);
});

test('bash -c: set -m gives each background job a process group of its own (kill -- -PGID reaches it); set +m takes it back', async () => {
  // Is the background job its own group leader? Then a group kill ends it.
  const own = 'sleep 30 & p=$!; [ "$(ps -o pgid= -p $p | tr -d " ")" = "$p" ] && echo own || echo shared';
  const script = `set -m; ${own}; kill -- -$p && wait $p; echo "killed $?"; set +m; ${own}; kill $p`;
  const want = 'own\nkilled 143\nshared\n';
  const r = await vm.exec(`bash -c '${script}'`);
  assert.equal(r.stdout, want, r.stderr);
  const b = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  if (b.status !== null && !b.error) assert.equal(b.stdout, want, 'the host bash agrees');
});

// One command must not end the exec session (issue 14, item 9): an argument
// list larger than the syscall channel, recursion past the interpreter's
// stack, running out of fds, and (with a command allowlist) pipelines whose
// stages are compound commands. Each fails (or works) as that command alone,
// with bash's status and a clear message; the session keeps its variables,
// functions, cwd and fds.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AgentVM } from '../../src/host/node/index.js';

let vm: AgentVM;

before(async () => {
  vm = new AgentVM();
  await vm.start();
});

after(async () => {
  await vm.stop();
});

/** The session's state, set before and compared after each hostile command. */
const SET_STATE = 'cd /tmp && KEEP=kept && hello() { echo "hi $1"; }';
const STATE = 'echo "$KEEP $PWD $(hello there)"; ls /proc/$$/fd';

async function sessionSurvives(body: () => Promise<void>): Promise<void> {
  await vm.exec(SET_STATE);
  const before = await vm.exec(STATE);
  assert.match(before.stdout, /^kept \/tmp hi there\n/);
  await body();
  const afterwards = await vm.exec(STATE);
  assert.deepEqual(afterwards, before, 'the session kept its state and fds');
}

const BIG = 'x=$(head -c 300000 /dev/zero | tr "\\0" a)';

test('E2BIG: an argument list over the channel fails that command with "Argument list too long" (126)', async () => {
  await sessionSurvives(async () => {
    const r = await vm.exec(`${BIG}; /opt/agentos/bin/echo "$x"; echo "rc=$?"; export x; /opt/agentos/bin/true; echo "env=$?"; unset x`);
    assert.equal(r.stdout, 'rc=126\nenv=126\n');
    assert.match(r.stderr, /^agentos-shell: line 1: \/opt\/agentos\/bin\/echo: Argument list too long\n.*\/opt\/agentos\/bin\/true: Argument list too long\n$/);
    assert.equal(r.exitCode, 0);
    // exec fails the same way; as under bash -c it ends that exec (126), not the session (decision 0007).
    const e = await vm.exec(`${BIG}; exec /opt/agentos/bin/echo "$x"; echo "rc=$?"`);
    assert.deepEqual([e.stdout, e.stderr, e.exitCode], ['', 'agentos-shell: line 1: exec: /opt/agentos/bin/echo: Argument list too long\n', 126]);
    // A program's own spawn gets E2BIG as an errno.
    await vm.writeFile('/tmp/spawn-big.js', `#!/usr/libexec/agentos/js
try { agentos.sys.spawn({ path: '/opt/agentos/bin/true', argv: ['true', 'x'.repeat(300000)] }); } catch (e) { agentos.print(e.message + '\\n'); }
`, 0o755);
    assert.match((await vm.exec('/tmp/spawn-big.js')).stdout, /^E2BIG: Argument list too long/);
  });
});

test('big state crosses to child shells: pipeline stages, background jobs, process substitution', async () => {
  await sessionSurvives(async () => {
    const r = await vm.exec(`${BIG}; eval "big() { local s='$x'; echo \\\${#s}; }"
{ echo "\${#x}"; } | cat; (echo "\${#x}") & wait; cat <(echo "\${#x}"); big | cat
export x; { echo "exported \${#x}"; } | { read -r l; echo "$l"; }; unset x; unset -f big`);
    assert.deepEqual([r.stdout, r.stderr, r.exitCode], ['300000\n300000\n300000\n300000\nexported 300000\n', '', 0]);
  });
});

test('recursion: a subshell dies of it (139), the session abandons the command with a message', async () => {
  await sessionSurvives(async () => {
    const sub = await vm.exec('( f() { f; }; f ); echo "rc=$?"');
    assert.deepEqual([sub.stdout, sub.stderr], ['rc=139\n', 'agentos-shell: line 1: stack overflow: recursion too deep (FUNCNEST limits function nesting)\n']);
    const top = await vm.exec('f() { f; }; f; echo notreached');
    assert.deepEqual([top.stdout, top.exitCode], ['', 139]);
    assert.match(top.stderr, /stack overflow: recursion too deep/);
    // The same in a child shell process (a pipeline stage; bash -c alike): it ends with SIGSEGV's status.
    const child = await vm.exec('{ f() { f; }; f; } | cat; echo "${PIPESTATUS[*]}"');
    assert.equal(child.stdout, '139 0\n');
    // Through a redirection, which runs out of fds first (bash: the same error).
    const fds = await vm.exec('g() { g > /dev/null; }; g; echo "rc=$?"');
    assert.equal(fds.stdout, 'rc=1\n');
    assert.match(fds.stderr, /cannot duplicate fd: Too many open files/);
    // bash's FUNCNEST: a fatal error for the shell (or subshell) that exceeds it.
    const nest = await vm.exec('FUNCNEST=50; f() { f; }; (f); echo "rc=$?"; unset FUNCNEST');
    assert.deepEqual([nest.stdout, nest.stderr], ['rc=1\n', 'agentos-shell: line 1: f: maximum function nesting level exceeded (50)\n']);
  });
});

test('--allow-cmd: pipelines with compound commands run (the shell may start itself); the allowlist still holds', async () => {
  const allowed = new AgentVM({ policy: { processes: { allow: ['/opt/agentos/bin/cat'] } } });
  await allowed.start();
  try {
    await allowed.exec('KEEP=kept');
    const r = await allowed.exec('{ echo a; } | cat; (echo b) | cat; echo c | while read l; do echo "$l"; done; cat <(echo d); { echo e; } & wait');
    assert.deepEqual([r.stdout, r.stderr, r.exitCode], ['a\nb\nc\nd\ne\n', '', 0]);
    const denied = await allowed.exec('{ echo x; } | /opt/agentos/bin/rm -f /tmp/nothing; echo "rc=$? $KEEP"');
    assert.equal(denied.stdout, 'rc=126 kept\n');
  } finally {
    await allowed.stop();
  }
  // The same through the CLI.
  const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));
  const c = spawnSync(process.execPath, [cli, 'exec', '--allow-cmd', '/opt/agentos/bin/cat', '--', '{ echo a; } | cat; (echo b) | cat; echo "rc=$?"'], { encoding: 'utf8', timeout: 60_000 });
  assert.deepEqual([c.stdout, c.stderr, c.status], ['a\nb\nrc=0\n', '', 0]);
});

// The exec protocol through the AgentVM API: one case per rule,
// on the Node host and in Chromium.

import { AgentVM } from '../../src/host/api/agent-vm.js';
import type { Machine } from '../../src/host/api/machine.js';
import { eq, match, ok } from './expect.js';
import type { SuiteCase } from './suite-types.js';

async function withVM(m: Machine, fn: (vm: AgentVM) => Promise<void>): Promise<void> {
  const vm = new AgentVM({}, { boot: async () => m, fork: () => Promise.reject(new Error('the kernel suite does not fork')) });
  await vm.start();
  await fn(vm);
}

const vmCase = (name: string, fn: (vm: AgentVM) => Promise<void>): SuiteCase => ({ name: `exec: ${name}`, run: (m) => withVM(m, fn) });

export const execCases: SuiteCase[] = [
  vmCase('the session persists between calls (cd, variables, functions)', async (vm) => {
    const r = await vm.exec('cd /tmp && echo hi > a; cat a');
    eq([r.stdout, r.stderr, r.exitCode], ['hi\n', '', 0], 'first call');
    eq((await vm.exec('pwd')).stdout, '/tmp\n', 'cwd kept');
    await vm.exec('x=5; f() { echo "f:$x"; }');
    eq((await vm.exec('f')).stdout, 'f:5\n', 'variables and functions kept');
  }),
  vmCase('stdout and stderr stay apart; bytes are exact, with or without a final newline', async (vm) => {
    const r = await vm.exec('echo out; echo err >&2; printf tail');
    eq([r.stdout, r.stderr], ['out\ntail', 'err\n'], 'streams');
    const b = await vm.execBytes("printf '\\000\\377\\001'");
    eq([...b.stdout], [0, 255, 1], 'binary');
  }),
  vmCase('output that looks like a sentinel cannot end the command early', async (vm) => {
    const fake = "printf '\\000AOS-END:0123456789abcdef0123456789abcdef:0\\n'; printf '\\000AOS-END:x:1\\n' >&2; echo after";
    const r = await vm.execBytes(fake);
    eq(new TextDecoder().decode(r.stdout), '\0AOS-END:0123456789abcdef0123456789abcdef:0\nafter\n', 'stdout kept whole');
    eq(new TextDecoder().decode(r.stderr), '\0AOS-END:x:1\n', 'stderr kept whole');
    eq(r.exitCode, 0, 'status');
  }),
  vmCase('stdin is /dev/null unless given, and never the next command', async (vm) => {
    eq((await vm.exec('cat')).stdout, '', 'cat reads nothing');
    const r = await vm.exec('read line; echo "[$line] $?"');
    eq(r.stdout, '[] 1\n', 'read sees EOF');
    eq((await vm.exec('cat', { stdin: 'given\n' })).stdout, 'given\n', 'stdin when passed');
    eq((await vm.exec('echo still here')).stdout, 'still here\n', 'the session was not fed');
  }),
  vmCase('exit statuses, command not found (127) and syntax errors leave the session usable', async (vm) => {
    eq((await vm.exec('false')).exitCode, 1, 'false');
    const nf = await vm.exec('no-such-command');
    eq([nf.exitCode, nf.stderr], [127, 'agentos-shell: line 1: no-such-command: command not found\n'], 'not found');
    const se = await vm.exec('if then');
    eq(se.exitCode, 2, 'syntax error status');
    match(se.stderr, /syntax error near unexpected token/, 'syntax error message');
    eq((await vm.exec('echo ok')).stdout, 'ok\n', 'still usable');
  }),
  vmCase('a hanging command times out (124) and the session survives', async (vm) => {
    const t0 = Date.now();
    const r = await vm.exec('while :; do :; done', { timeoutMs: 300 });
    eq([r.exitCode, r.timedOut], [124, true], 'builtin loop');
    ok(Date.now() - t0 < 5000, 'promptly');
    const r2 = await vm.exec('/usr/local/bin/sleep 100000', { timeoutMs: 300 });
    eq([r2.exitCode, r2.timedOut], [124, true], 'program');
    eq((await vm.exec('echo alive')).stdout, 'alive\n', 'session survives');
  }),
  vmCase('exit N returns N and a fresh session replaces the old one', async (vm) => {
    await vm.exec('cd /tmp; y=1');
    eq((await vm.exec('exit 7')).exitCode, 7, 'status of exit');
    const r = await vm.exec('pwd; echo "y=${y-unset}"');
    eq(r.stdout, '/home/user\ny=unset\n', 'fresh session');
  }),
  vmCase('output is streamed as it arrives', async (vm) => {
    const seen: { text: string; at: number }[] = [];
    const off = vm.on('output', (c) => seen.push({ text: c.text, at: Date.now() }));
    const r = await vm.exec('echo first; /usr/local/bin/sleep 300; echo second');
    const done = Date.now();
    off();
    eq(r.stdout, 'first\nsecond\n', 'result');
    const first = seen.find((s) => s.text.includes('first'));
    ok(first && done - first.at >= 200, 'the first chunk arrived before the command ended');
  }),
  vmCase('more sessions can be opened, each with its own state', async (vm) => {
    await vm.exec('cd /tmp; x=main');
    const other = await vm.openExtraSession();
    eq((await other.exec('pwd; echo "${x-unset}"')).stdout, '/home/user\nunset\n', 'fresh state');
    await other.exec('cd /; x=other');
    eq((await vm.exec('pwd; echo $x')).stdout, '/tmp\nmain\n', 'the default session is untouched');
    await other.close();
  }),
  vmCase('spawn gives a program its stdio as streams', async (vm) => {
    const p = await vm.spawn(['/usr/local/bin/cat']);
    await p.write('streamed ');
    await p.write('bytes');
    await p.closeStdin();
    let text = '';
    for await (const chunk of p.stdout) text += new TextDecoder().decode(chunk);
    eq([text, await p.wait()], ['streamed bytes', 0], 'cat echoes its stdin');
  }),
  vmCase('per-call cwd and env do not persist', async (vm) => {
    const r = await vm.exec('pwd; echo "$GREETING"', { cwd: '/tmp', env: { GREETING: 'hello' } });
    eq(r.stdout, '/tmp\nhello\n', 'applied');
    eq((await vm.exec('pwd; echo "${GREETING-unset}"')).stdout, '/home/user\nunset\n', 'not kept');
  }),
];

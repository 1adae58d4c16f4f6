// The `linux` runtime (decision 0067): a real i386 Linux guest (v86) resumed from the package's
// saved state, wired to the agentOS process. Needs dist/linux/ (scripts/build-linux.mjs, an
// optional build from Debian's packages): without it every test here skips and says why.
// One VM for the file, so later calls find the worker's guest warm.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

const built = existsSync(new URL('../../../linux/package.json', import.meta.url));
const skip = !built && 'dist/linux is not built (node scripts/build-linux.mjs needs apt and the Debian mirror)';

/** A guest that stops answering fails its test instead of hanging the suite. */
const LIMIT = 120_000;

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

test('linux -c runs a real Linux kernel: its version and its one CPU', { skip, timeout: LIMIT }, async () => {
  const r = await vm.exec("linux -c 'uname -sr; grep -c processor /proc/cpuinfo'");
  assert.deepEqual([r.exitCode, r.stderr], [0, '']);
  assert.match(r.stdout, /^Linux 6\.1\.\d+-\d+-686\n1\n$/);
});

test('argv, env, cwd, stderr and the exit status cross; files written on either side are seen on the other, owned by the VM user', { skip, timeout: LIMIT }, async () => {
  await vm.exec('mkdir -p ~/lx && cd ~/lx && echo from-agentos > in.txt');
  const r = await vm.exec(`cd ~/lx && linux -c 'cat in.txt; echo from-guest > out.txt; ls -ln out.txt | cut -c1-30; echo oops >&2; echo "$0|$1|$FOO|$PWD"; exit 7' name 'a b'`, { env: { FOO: "it's" } });
  assert.deepEqual([r.exitCode, r.stderr], [7, 'oops\n']);
  assert.match(r.stdout, /^from-agentos\n-rw-r--r-- +1 0 +0 .*\nname\|a b\|it's\|\/home\/user\/lx\n$/);
  const back = await vm.exec('cat ~/lx/out.txt; stat -c %u:%g ~/lx/out.txt');
  assert.equal(back.stdout, 'from-guest\n1000:1000\n');
});

test('stdin and stdout carry every byte value exactly', { skip, timeout: LIMIT }, async () => {
  const bytes = new Uint8Array(1024).map((_, i) => (i * 7) % 256);
  const r = await vm.execBytes('linux cat', { stdin: bytes });
  assert.equal(r.exitCode, 0);
  assert.deepEqual(Buffer.from(r.stdout), Buffer.from(bytes));
});

test('SIGINT (Ctrl-C) ends the guest program; the exec timeout kills it', { skip, timeout: LIMIT }, async () => {
  const r = await vm.exec("linux -c 'echo started; sleep 100' >/tmp/lx.out & p=$!; until grep -q started /tmp/lx.out 2>/dev/null; do sleep 0.1; done; kill -INT $p; wait $p; echo $?");
  assert.equal(r.stdout, '130\n');
  const t = await vm.exec('linux sleep 100', { timeoutMs: 1500 });
  assert.equal(t.exitCode, 124);
});

test('stdin a job left unread does not reach the next job of the same guest', { skip, timeout: LIMIT }, async () => {
  const r = await vm.exec("printf 'stale\\n' | linux true; linux cat </dev/null; echo end");
  assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, 'end\n', '']);
});

test('on a terminal the guest\'s program has one, sized as the caller\'s; ^C typed there ends it; the next job has pipes again', { skip, timeout: LIMIT }, async () => {
  const term = await vm.openTerminal({ argv: ['/opt/agentos/bin/linux', '-c', "tty; stty size; echo ready; sleep 100; echo not-reached"], cols: 91, rows: 37 });
  let out = '';
  term.onData((b) => (out += new TextDecoder().decode(b)));
  const until = async (re: RegExp) => {
    while (!re.test(out)) await new Promise((r) => setTimeout(r, 50));
  };
  await until(/ready\r\n/);
  // After the progress line, if this worker had the image to load (erased once loaded).
  assert.match(out, /^(?:(?:\rlinux: loading the image: \d+\.\d\/\d+\.\d MB)+\r.\[K)?\/dev\/ttyS1\r\n37 91\r\nready\r\n$/);
  term.write('\x03');
  assert.equal(await term.exited, 130);
  const r = await vm.exec("linux -c 'tty; printf \"a\\nb\"' | od -c | head -1");
  assert.equal(r.stdout, '0000000   n   o   t       a       t   t   y  \\n   a  \\n   b\n');
});

/** A terminal whose output is collected; `until` waits for a pattern in it. */
async function recorded(argv: string[], size = { cols: 80, rows: 24 }) {
  const term = await vm.openTerminal({ argv, ...size });
  let out = '';
  term.onData((b) => (out += new TextDecoder().decode(b)));
  const until = async (re: RegExp) => {
    // Bounded, so that a missing line fails here, with what came, rather than at the test's limit.
    for (const end = Date.now() + 60_000; !re.test(out); await new Promise((r) => setTimeout(r, 50))) {
      if (Date.now() > end) assert.fail(`${re} never came; the terminal showed ${JSON.stringify(out)}`);
    }
  };
  return { term, until, out: () => out };
}

test('a resize of the caller\'s terminal reaches the guest\'s program: SIGWINCH, and stty size there changes', { skip, timeout: LIMIT }, async () => {
  const { term, until, out } = await recorded(['/opt/agentos/bin/linux', '-c', 'unset LINES COLUMNS; trap "echo winch" WINCH; stty size; echo ready; read x; stty size'], { cols: 80, rows: 24 });
  await until(/ready\r\n/);
  term.resize(100, 50);
  await until(/winch\r\n/);
  term.write('\r');
  assert.equal(await term.exited, 0);
  assert.match(out(), /24 80\r\nready\r\n[^]*winch\r\n[^]*50 100\r\n/);
});

test('a linux killed by SIGKILL leaves the caller\'s terminal as it found it', { skip, timeout: LIMIT }, async () => {
  const { term, until, out } = await recorded(['/bin/sh', '-c', '/opt/agentos/bin/linux -c "echo ready; sleep 100"; echo "status $?"; stty -a']);
  await until(/ready\r\n/);
  const k = await vm.exec("kill -KILL $(pgrep -x linux)");
  assert.equal(k.exitCode, 0, k.stderr);
  assert.equal(await term.exited, 0);
  assert.match(out(), /status 137\r\n/);
  // Cooked again: the line discipline edits lines, echoes and makes ^C a signal.
  assert.match(out(), /[^-]icanon/);
  assert.match(out(), /[^-]echo /);
  assert.match(out(), /[^-]isig/);
});

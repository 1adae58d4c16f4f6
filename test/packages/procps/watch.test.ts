// watch (procps-ng 4.0.2 compatible). No differential case: procps' watch
// always draws with curses, even without a terminal, where agentOS's prints
// each run in turn. These check that behaviour and the terminal one (a pty
// from AgentVM.openTerminal): the alternate screen, the title, redraws, exits.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM, boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/api/machine.js';

let m: Machine;
const dec = new TextDecoder();

async function sh(script: string): Promise<{ out: string; err: string; code: number }> {
  const r = await m.run(['/bin/sh', '-c', script], { cwd: '/tmp', timeoutMs: 20_000 });
  return { out: dec.decode(r.stdout), err: dec.decode(r.stderr), code: r.exitCode };
}

before(async () => {
  m = await boot();
});

after(async () => {
  await m.stop();
});

test('watch: without a terminal, each run is printed with its title; -g exits when the output changes', async () => {
  // The change comes after watch's first run (a file it writes says so), however slow the machine.
  const r = await sh('rm -f n o; watch -n 0.1 -g "echo run; cat n 2>/dev/null" > o & pid=$!; until grep -q "^run" o 2>/dev/null; do sleep 0.05; done; echo changed > n; wait $pid; s=$?; cat o; echo "status $s"');
  assert.match(r.out, /^Every 0\.1s: echo run; cat n 2>\/dev\/null\t\S+: \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\n\nrun\n/);
  assert.match(r.out, /run\nchanged\nstatus 0\n$/);
  assert.ok((r.out.match(/^Every /gm) ?? []).length >= 2, 'more than one run before the change');
});

test('watch: -t drops the title; -e exits with the failing command status; -x runs without a shell', async () => {
  assert.equal((await sh('watch -t -e -n 0.1 "echo out; exit 3"; echo "status $?"')).out, 'out\nstatus 3\n');
  assert.equal((await sh('watch -t -e -x sh -c "echo via-exec; exit 4"; echo "status $?"')).out, 'via-exec\nstatus 4\n');
});

test('watch: SIGINT (Ctrl-C) ends it with status 0', async () => {
  // Signalled once a run has happened (its handlers are set by then), however slow the machine.
  const r = await sh('rm -f ran; watch -t -n 0.1 "touch ran" & pid=$!; until [ -e ran ]; do sleep 0.05; done; kill -INT $pid; wait $pid; echo "status $?"');
  assert.equal(r.out, 'status 0\n');
  // Interrupted while it waits for a run's output: that run ends, then watch (the next run is 10 s away).
  const mid = await sh('rm -f started; watch -t -n 10 "touch started; sleep 1; echo ran" & pid=$!; until [ -e started ]; do sleep 0.05; done; kill -INT $pid; wait $pid; echo "status $?"');
  assert.equal(mid.out, 'ran\nstatus 0\n');
});

test('watch: bad options and a missing command are usage errors', async () => {
  const a = await sh('watch; echo "status $?"');
  assert.match(a.err, /Usage:\n watch \[options\] command/);
  assert.match(a.out, /status 1/);
  const b = await sh('watch -n x true; echo "status $?"');
  assert.match(b.err, /^watch: failed to parse argument: 'x'/);
  assert.match(b.out, /status 1/);
});

test('watch: on a terminal, the alternate screen, a full-width title and redraws; Ctrl-C restores the screen, status 0', async () => {
  const vm = new AgentVM();
  await vm.start();
  try {
    await vm.exec('mkdir -p /tmp/w && echo old > /tmp/w/f');
    const term = await vm.openTerminal({ rows: 10, cols: 60, cwd: '/tmp/w', argv: ['watch', '-n', '0.1', '-d', 'cat f'] });
    let raw = '';
    const seen = (re: RegExp) => new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re}: ${JSON.stringify(raw.slice(-400))}`)), 8000);
      const check = () => {
        if (!re.test(raw)) return;
        clearTimeout(timer);
        off();
        resolve();
      };
      const off = term.onData((b) => {
        raw += dec.decode(b);
        check();
      });
      check();
    });
    // eslint-disable-next-line no-control-regex -- the terminal's escape sequences are what is checked
    await seen(/\x1b\[\?1049h[^]*\x1b\[H\x1b\[2JEvery 0\.1s: cat f {2,}\S+: \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\r\n\r\nold/);
    await vm.exec('echo new > /tmp/w/f');
    // -d: the changed characters in reverse video.
    // eslint-disable-next-line no-control-regex -- the terminal's escape sequences are what is checked
    await seen(/\x1b\[7mn\x1b\[0m\x1b\[7me\x1b\[0m\x1b\[7mw\x1b\[0m/);
    // eslint-disable-next-line no-control-regex -- the terminal's escape sequences are what is checked
    const restored = seen(/\x1b\[\?25h\x1b\[\?1049l$/);
    term.write('\x03');
    assert.equal(await term.exited, 0);
    await restored;
  } finally {
    await vm.stop();
  }
});

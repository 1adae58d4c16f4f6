// BrowserVM({ browser: ENGINE }) and the app's pages in each engine: the exec
// protocol, byte-exact files, output events and a terminal, snapshots,
// persistence across a page reload, the web component, and a page that is not
// cross-origin isolated (a plain error, never a hang).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { after, before } from 'node:test';
import { WEBKIT_NO_PROFILE } from '../../src/host/playwright/engine-webkit.js';
import { BrowserVM, DEFAULT_APP_DIR, openEnginePage, within } from '../../src/host/playwright/index.js';
import { serveStatic } from '../../src/host/playwright/static-server.js';
import { lateTraceEvent } from '../agent/late-trace.js';
import { ENGINE, openApp, skipped, t, waitFor } from './engine.js';

const freePort = () => new Promise<number>((ok) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => ok(port));
  });
});

let vm: BrowserVM;
const text = (b: Uint8Array) => new TextDecoder().decode(b);

before(async () => {
  if (skipped()) return;
  vm = new BrowserVM({ browser: ENGINE, env: { GREETING: 'hi' }, cwd: '/tmp' });
  await vm.start();
  assert.equal(vm.engine.engine, ENGINE);
});

after(async () => {
  if (!skipped()) await vm.stop();
});

t('BrowserVM exec: stdout, stderr, exit codes, options, stdin bytes, timeout, one session', async () => {
  assert.deepEqual(await vm.exec('echo out; echo err >&2; exit 3'), { stdout: 'out\n', stderr: 'err\n', exitCode: 3, timedOut: false });
  assert.equal((await vm.exec('echo $GREETING; pwd')).stdout, 'hi\n/tmp\n');
  await vm.exec('cd /etc && X=42');
  assert.equal((await vm.exec('pwd; echo $X')).stdout, '/etc\n42\n', 'cwd and variables persist');
  const stdin = new Uint8Array([0, 1, 0xfe, 0xff, 10]);
  assert.deepEqual((await vm.execBytes('cat', { stdin })).stdout, stdin);
  const slow = await vm.exec('sleep 10', { timeoutMs: 300 });
  assert.equal(slow.timedOut, true);
  assert.equal(slow.exitCode, 124);
  const run = await vm.run(['/bin/sh', '-c', 'echo ran; exit 7']);
  assert.equal(text(run.stdout), 'ran\n');
  assert.equal(run.exitCode, 7);
  assert.equal((await vm.exec('seq 1 3 | sort -r | tr "\\n" " "')).stdout, '3 2 1 ', 'a pipeline of processes');
});

t('BrowserVM agents: run (mock), an ask intent decided by the host, list, trace and on(trace), pause/resume/kill', async () => {
  const line = (o: object) => JSON.stringify(o);
  await vm.writeFile('/tmp/agent.jsonl', [
    line({ text: '', tool_calls: [{ name: 'bash', arguments: { command: 'echo ran > /tmp/agent-ran; echo done' } }] }),
    line({ text: 'finished', match: '^done' }),
    '',
  ].join('\n'));
  const seen: { pid: number; type: unknown }[] = [];
  const off = vm.agents.on('trace', ({ pid, event }) => seen.push({ pid, type: event.type }));
  const until = async <T>(what: string, get: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
    for (let i = 0; i < 400; i++) {
      const v = await get();
      if (ok(v)) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`BrowserVM agents: never ${what}`);
  };
  try {
    const a = await vm.agents.run('go', { mock: '/tmp/agent.jsonl', tools: ['bash'], ask: ['bash'] });
    // The bash call waits as an intent until the host decides; nothing ran yet.
    const pending = await until('an intent', () => vm.agents.pending(a.pid), (p) => p.intents.length > 0);
    assert.equal(pending.intents[0].tool, 'bash');
    assert.equal((await vm.agents.list()).find((x) => x.pid === a.pid)?.status, 'waiting_human');
    assert.equal((await vm.exec('test -e /tmp/agent-ran; echo $?')).stdout, '1\n');
    await vm.agents.approve(pending.intents[0].id, true, 'ok from the test');
    assert.deepEqual(await a.wait(), { code: 0, answer: 'finished\n', stderr: '' });
    assert.deepEqual(await a.wait(), { code: 0, answer: 'finished\n', stderr: '' }, 'wait() again: the same result');
    assert.equal(text(await vm.readFile('/tmp/agent-ran')), 'ran\n');
    const info = (await vm.agents.list()).find((x) => x.pid === a.pid);
    assert.equal(info?.exit?.code, 0);
    const types = (await vm.agents.trace(a.pid)).map((e) => e.type);
    for (const ty of ['start', 'model_call', 'intent', 'decision', 'tool_result', 'exit']) assert.ok(types.includes(ty), `trace has ${ty}: ${types.join(' ')}`);
    await until('the exit event through on(trace)', async () => seen, (s) => s.some((e) => e.pid === a.pid && e.type === 'exit'));

    // Pause, resume and kill: an agent whose bash tool sleeps.
    await vm.writeFile('/tmp/sleepy.jsonl', `${line({ text: '', tool_calls: [{ name: 'bash', arguments: { command: 'sleep 60' } }] })}\n`);
    const b = await vm.agents.run('sleep', { mock: '/tmp/sleepy.jsonl' });
    const status = () => vm.agents.list().then((l) => l.find((x) => x.pid === b.pid)?.status);
    await until('running', status, (s) => s === 'running');
    await vm.agents.signal(b.pid, 'STOP');
    await until('paused', status, (s) => s === 'paused');
    await vm.agents.signal(b.pid, 'CONT');
    await until('resumed', status, (s) => s === 'running');
    await vm.agents.signal(b.pid, 'KILL');
    assert.equal((await b.wait()).code, 128 + 9);
    await vm.exec('pkill -x sleep'); // its bash tool's child, left running by the KILL
    await assert.rejects(vm.agents.signal(b.pid, 'HUP' as 'KILL'), /unknown signal HUP/);
  } finally {
    off();
  }
});

t("BrowserVM agents: on('trace') gives an event recorded after the agent exited", async () => {
  await lateTraceEvent(vm, 500);
});

t('BrowserVM files are byte-exact', async () => {
  const all = new Uint8Array(256).map((_, i) => i);
  await vm.writeFile('/home/user/all.bin', all);
  assert.deepEqual(await vm.readFile('/home/user/all.bin'), all);
  const big = new Uint8Array(600_000).map((_, i) => (i * 7) & 255);
  await vm.writeFile('/tmp/big.bin', big);
  assert.deepEqual(await vm.readFile('/tmp/big.bin'), big);
  assert.ok((await vm.listDirectory('/home/user')).some((e) => e.name === 'all.bin'));
});

t('BrowserVM output events and a terminal reach Node', async () => {
  let out = '';
  const off = vm.on('output', (chunk) => {
    out += chunk.text;
  });
  await vm.exec('echo streamed');
  for (let i = 0; i < 100 && !out.includes('streamed'); i++) await new Promise((r) => setTimeout(r, 50));
  off();
  assert.match(out, /streamed/);
  const term = await vm.openTerminal({ argv: ['/bin/sh'] });
  let screen = '';
  term.onData((b) => (screen += text(b)));
  term.write('echo term-$((6*7))\n');
  for (let i = 0; i < 200 && !screen.includes('term-42'); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(screen, /term-42/);
  term.write('exit 5\n');
  assert.equal(await term.exited, 5);
});

t('BrowserVM snapshots: snapshot, change, restore, export and import', async () => {
  await vm.writeFile('/home/user/snap.txt', 'one');
  await vm.snapshot('s1');
  await vm.writeFile('/home/user/snap.txt', 'two');
  await vm.restore('s1');
  assert.equal(text(await vm.readFile('/home/user/snap.txt')), 'one');
  const file = await vm.snapshots.export('s1');
  await vm.snapshots.import('s2', file);
  assert.deepEqual((await vm.snapshots.list()).map((s) => s.name).sort(), ['s1', 's2']);
});

t('persistence: a persistent VM\'s files survive a page reload', async () => {
  const app = await openApp('sandbox.html');
  // Each step bounded: a hang fails here, naming the step.
  const step = <T>(what: string, p: Promise<T>) => within(p, 60_000, `${ENGINE}: reload test: ${what}`);
  try {
    const call = (m: string, a: unknown[]) => app.page.evaluate<{ ok: boolean; value?: unknown; message?: string }>('({ m, a }) => globalThis.agentos.call(m, a)', { m, a });
    const ok = async (m: string, a: unknown[]) => {
      const r = await step(m, call(m, a));
      assert.ok(r.ok, `${m}: ${r.message}`);
      return r.value;
    };
    assert.ok(await waitFor(app.page, 'globalThis.agentos'));
    await ok('start', [{ persist: 'engines' }]);
    await ok('exec', ['echo kept > /home/user/kept.txt', {}]);
    await ok('sync', []);
    await step('reload', app.page.goto(app.url));
    assert.ok(await step('page load', waitFor(app.page, 'globalThis.agentos')));
    await ok('start', [{ persist: 'engines' }]);
    assert.equal(atob(String(await ok('readFile', ['/home/user/kept.txt']))), 'kept\n');
    await ok('stop', []);
  } finally {
    await app.release();
  }
});

test(`${ENGINE}: persistence: a persistent VM's files survive a browser restart (userDataDir)`, {
  skip: skipped() || (ENGINE === 'webkit' && WEBKIT_NO_PROFILE),
}, async () => {
  const profile = mkdtempSync(join(tmpdir(), `agentos-${ENGINE}-profile-`));
  const port = await freePort(); // storage is per origin: the same port both times
  try {
    const first = new BrowserVM({ browser: ENGINE, persist: 'restart', userDataDir: profile, port });
    await first.start();
    await first.writeFile('/home/user/restart.txt', 'still here');
    await first.stop();
    const second = new BrowserVM({ browser: ENGINE, persist: 'restart', userDataDir: profile, port });
    await second.start();
    try {
      assert.equal(text(await second.readFile('/home/user/restart.txt')), 'still here');
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});

t('web component: <agentos-terminal> boots, renders and runs exec on a host page', async () => {
  const server = await serveStatic({
    root: DEFAULT_APP_DIR,
    prefix: '/vendor/agentos/',
    isolate: true,
    pages: { '/site/page.html': '<!doctype html><meta charset="utf-8"><agentos-terminal id="a" autostart cwd="/tmp"></agentos-terminal><script type="module" src="/vendor/agentos/agentos-terminal.js"></script>' },
  });
  const page = await openEnginePage(ENGINE);
  try {
    await page.goto(`${server.url}/site/page.html`);
    assert.ok(await waitFor(page, 'customElements.get("agentos-terminal")'), 'the element is defined');
    const r = await page.evaluate<{ stdout: string; exitCode: number; rows: number }>(
      '() => document.getElementById("a").vm.exec("echo comp; pwd").then((r) => ({ stdout: r.stdout, exitCode: r.exitCode, rows: document.getElementById("a").xterm?.rows ?? 0 }))',
    );
    assert.equal(r.stdout, 'comp\n/tmp\n');
    assert.equal(r.exitCode, 0);
    assert.ok(r.rows > 0, 'xterm rendered');
  } finally {
    await page.close();
    await server.close();
  }
});

t('a page that is not cross-origin isolated: start() fails in plain words, no hang', async () => {
  const server = await serveStatic({ root: DEFAULT_APP_DIR, isolate: false });
  const plain = new BrowserVM({ browser: ENGINE, appUrl: `${server.url}/` });
  try {
    await assert.rejects(plain.start(), /not cross-origin isolated/);
  } finally {
    await plain.stop();
    await server.close();
  }
});

t('playground: the terminal comes up, a typed command runs, files survive a reload', async () => {
  const app = await openApp(`?vm=engines-${Date.now()}`);
  const step = <T>(what: string, p: Promise<T>) => within(p, 60_000, `${ENGINE}: playground: ${what}`);
  const ready = async () => {
    assert.ok(await step('page load', waitFor(app.page, 'window.agentos')), 'window.agentos');
    await step('boot', app.page.evaluate('() => window.agentos.ready.then(() => true)'));
  };
  // The terminal's screen, scrollback included.
  const screen = '(() => { const b = window.__playground.view.xterm.buffer.active; let s = ""; for (let i = 0; i < b.length; i++) s += (b.getLine(i)?.translateToString(true) ?? "") + "\\n"; return s; })()';
  try {
    await ready();
    assert.ok(await waitFor(app.page, `${screen}.includes("$ ")`), 'a prompt');
    // Typed as keys are: xterm's input() goes the way a keystroke does.
    await app.page.evaluate('() => window.__playground.view.xterm.input("echo typed-$((6*7))\\r", true)');
    assert.ok(await waitFor(app.page, `${screen}.includes("typed-42")`), 'the command\'s output on the screen');
    await step('exec', app.page.evaluate('() => window.agentos.exec("echo kept > kept.txt")'));
    await step('reload', app.page.goto(app.url));
    await ready();
    const r = await step('cat', app.page.evaluate<{ stdout: string }>('() => window.agentos.exec("cat kept.txt")'));
    assert.equal(r.stdout, 'kept\n');
  } finally {
    await app.release();
  }
});

// One VM per state directory (issue 14, item 14): the lock must die with its
// holder — a SIGKILLed holder's lock is free at once, a pid reused by an
// unrelated process does not keep it — and taking over a stale lock must have
// no race: of processes racing for it, exactly one wins and the others are
// told the directory is in use.
//
// The same file is the child: AGENTOS_LOCK_CHILD=vm:<dir> holds a VM open,
// AGENTOS_LOCK_CHILD=lock:<dir>:<at> takes the bare lock at time <at>.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs, { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AgentVM } from '../../src/host/node/index.js';
import { lockStateDir } from '../../src/host/node/dir-lock.js';

const role = process.env.AGENTOS_LOCK_CHILD;

if (role?.startsWith('vm:')) {
  const vm = new AgentVM({ state: role.slice(3) });
  await vm.start();
  process.stdout.write('ready\n');
  setInterval(() => {}, 1 << 30);
} else if (role?.startsWith('lock:')) {
  const [, dir, at] = role.split(':');
  // A slow disk: each read of a file in the state directory takes 150 ms, so
  // every contender reads the stale lock before any of them acts on it.
  const read = fs.readFileSync;
  fs.readFileSync = ((file: string, ...rest: []) => {
    const r = read(file, ...rest);
    if (String(file).startsWith(dir)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
    return r;
  }) as typeof fs.readFileSync;
  syncBuiltinESMExports();
  while (Date.now() < Number(at)); // all contenders start in the same millisecond
  try {
    lockStateDir(dir);
    process.stdout.write('won\n');
  } catch (e) {
    process.stdout.write(`lost ${(e as Error).message}\n`);
  }
  // Hold it until the test has every answer (it then kills us: the lock goes stale).
  setInterval(() => {}, 1 << 30);
} else {
  const self = fileURLToPath(import.meta.url);
  const child = (env: string): ChildProcess => spawn(process.execPath, [self], { env: { ...process.env, AGENTOS_LOCK_CHILD: env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const firstLine = (c: ChildProcess): Promise<string> => new Promise((ok, fail) => {
    let out = '';
    c.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) ok(out);
    });
    c.once('exit', (code) => fail(new Error(`child exited (${code}) without an answer`)));
  });
  const exited = (c: ChildProcess): Promise<void> => new Promise((ok) => (c.exitCode !== null || c.signalCode !== null ? ok() : c.once('exit', () => ok())));

  /** A VM opened on `state` by another process, which is then SIGKILLed: its lock stays behind. Returns that pid. */
  async function killedHolder(state: string): Promise<number> {
    const c = child(`vm:${state}`);
    await new Promise<void>((ok, fail) => {
      c.stdout!.setEncoding('utf8').on('data', (d: string) => d.includes('ready') && ok());
      c.once('exit', (code) => fail(new Error(`holder exited (${code}) before it was ready`)));
    });
    c.kill('SIGKILL');
    await exited(c);
    return c.pid!;
  }

  /** Every file of the lock, wherever it is kept in `state`, whose text names `pid`. */
  function lockFiles(state: string, pid: number): string[] {
    return readdirSync(state, { recursive: true, encoding: 'utf8' })
      .map((f) => join(state, f))
      .filter((f) => statSync(f).isFile() && statSync(f).size < 4096 && new RegExp(`\\b${pid}\\b`).test(readFileSync(f, 'utf8')));
  }

  const withDir = async (fn: (state: string) => Promise<void>) => {
    const dir = mkdtempSync(join(tmpdir(), 'agentos-lock-'));
    try {
      await fn(join(dir, 'vm'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  test('lock: a SIGKILLed holder\'s lock is taken over at once', { timeout: 60_000 }, () => withDir(async (state) => {
    await killedHolder(state);
    const vm = new AgentVM({ state });
    await vm.start();
    try {
      assert.equal((await vm.exec('echo ok')).stdout, 'ok\n');
    } finally {
      await vm.stop();
    }
  }));

  test('lock: a stale lock whose pid now names a live, unrelated process is taken over', { timeout: 60_000 }, () => withDir(async (state) => {
    const dead = await killedHolder(state);
    // The pid is reused: a live process that has nothing to do with the VM now has it.
    const unrelated = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    try {
      const files = lockFiles(state, dead);
      assert.ok(files.length > 0, 'the dead holder left its lock');
      for (const f of files) writeFileSync(f, readFileSync(f, 'utf8').replace(new RegExp(`\\b${dead}\\b`, 'g'), String(unrelated.pid)));
      const vm = new AgentVM({ state });
      await vm.start();
      await vm.stop();
    } finally {
      unrelated.kill('SIGKILL');
    }
  }));

  test('lock: processes racing to take over a stale lock: exactly one wins, the others are told it is in use', { timeout: 90_000 }, () => withDir(async (state) => {
    for (let round = 0; round < 3; round++) {
      // A stale lock: its holder was killed (round 0), or the last round's contenders were.
      if (round === 0) {
        const holder = child(`lock:${state}:0`);
        await firstLine(holder);
        holder.kill('SIGKILL');
        await exited(holder);
      }
      const at = Date.now() + 500;
      const contenders = Array.from({ length: 3 }, () => child(`lock:${state}:${at}`));
      const outs = await Promise.all(contenders.map(firstLine));
      for (const c of contenders) c.kill('SIGKILL');
      await Promise.all(contenders.map(exited));
      const won = outs.filter((o) => o === 'won\n');
      assert.equal(won.length, 1, `round ${round}: ${JSON.stringify(outs)}`);
      for (const o of outs) if (o !== 'won\n') assert.match(o, /^lost agentOS: state directory .* is in use by process \d+\n$/);
    }
  }));
}

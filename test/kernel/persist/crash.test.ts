// Durability on the Node host, proven by killing: a child process runs a
// persistent VM through a write workload and is SIGKILLed at a random moment;
// the reopened layer must hold every write whose exec had returned, and every
// file must hold one complete version — never a torn one.
//
// The same file is the child: run with AGENTOS_CRASH_CHILD=<state dir>.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';
import { checkLayer, workloadCommand } from './workload.js';

async function child(state: string): Promise<void> {
  const vm = new AgentVM({ state });
  await vm.start();
  const r = await vm.exec('cat last 2>/dev/null || echo -1');
  for (let i = Number(r.stdout.trim()) + 1; ; i++) {
    const res = await vm.exec(workloadCommand(i));
    if (res.exitCode !== 0) throw new Error(`child: exec failed: ${res.stderr}`);
    process.stdout.write(`done ${i}\n`);
  }
}

if (process.env.AGENTOS_CRASH_CHILD) {
  await child(process.env.AGENTOS_CRASH_CHILD);
} else {
  test('persist: SIGKILL at random moments never loses a returned exec nor tears a file', { timeout: 120_000 }, async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'agentos-crash-')), 'vm');
    const log = `${state}.log`;
    let lastDone = -1;
    try {
      for (let round = 0; round < 6; round++) {
        lastDone = await runAndKill(state, 150 + Math.floor(Math.random() * 600), log, lastDone);
        const vm = new AgentVM({ state });
        await vm.start();
        try {
          const { problems, last } = await checkLayer((name) => vm.readFile(`/home/user/${name}`).catch(() => null), lastDone);
          assert.deepEqual(problems, [], `round ${round}`);
          lastDone = last;
        } finally {
          await vm.stop();
        }
        appendFileSync(log, `round ${round}: verified at ${lastDone}\n`);
      }
      console.log(readFileSync(log, 'utf8').trimEnd());
    } finally {
      rmSync(join(state, '..'), { recursive: true, force: true });
    }
  });
}

/** Run the child until `ms` after its first completed exec, SIGKILL it, return the last exec it reported done. */
function runAndKill(state: string, ms: number, log: string, before: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
      env: { ...process.env, AGENTOS_CRASH_CHILD: state },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let last = before;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let err = '';
    c.stdout.setEncoding('utf8').on('data', (d: string) => {
      for (const m of d.matchAll(/done (\d+)/g)) last = Number(m[1]);
      timer ??= setTimeout(() => c.kill('SIGKILL'), ms);
    });
    c.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    c.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      appendFileSync(log, `killed after ${ms} ms at done ${last} (${signal ?? code})\n`);
      if (signal !== 'SIGKILL') reject(new Error(`child ended by itself (${code}): ${err}`));
      else resolve(last);
    });
  });
}

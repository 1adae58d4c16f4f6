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
import { AgentVM } from '../../src/host/node/index.js';

const FILES = 4;
/** Lines of version i of a file: varies so files grow and shrink (several writes each). */
const linesOf = (i: number) => 2000 + ((i * 7919) % 28000);
const expected = (i: number) => Array.from({ length: linesOf(i) }, (_, n) => `v${i} ${n + 1}`).join('\n') + '\n';

async function child(state: string): Promise<void> {
  const vm = new AgentVM({ state });
  await vm.start();
  const r = await vm.exec('cat last 2>/dev/null || echo -1');
  for (let i = Number(r.stdout.trim()) + 1; ; i++) {
    // Three files per exec, the last through a rename, so a commit can fall between them.
    const cmds = [0, 1, 2].map((k) => {
      const v = 3 * i + k;
      const f = `f${v % FILES}`;
      const gen = `awk 'BEGIN { for (n = 1; n <= ${linesOf(v)}; n++) print "v${v} " n }'`;
      return k === 2 ? `${gen} > tmp.$$ && mv tmp.$$ ${f}` : `${gen} > ${f}`;
    });
    const res = await vm.exec(`${cmds.join(' && ')} && echo ${i} > last`);
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
          const last = Number((await vm.exec('cat last')).stdout.trim());
          assert.ok(last >= lastDone, `round ${round}: 'last' is ${last} but exec ${lastDone} had returned`);
          assert.ok(last <= lastDone + 1, `round ${round}: 'last' is ${last}, beyond the exec running at the kill`);
          for (let k = 0; k < FILES; k++) {
            const newestDurable = newestVersionOf(k, last);
            const bytes = await vm.readFile(`/home/user/f${k}`).catch(() => null);
            if (!bytes) {
              assert.equal(newestDurable, -1, `round ${round}: f${k} is missing`);
              continue;
            }
            const text = new TextDecoder().decode(bytes);
            const v = Number(/^v(\d+) /.exec(text)?.[1]);
            assert.equal(v % FILES, k, `round ${round}: f${k} holds version ${v}`);
            assert.ok(text === expected(v), `round ${round}: f${k} (version ${v}, ${text.length} bytes) is torn`);
            // Every version written by an exec that returned is there (or a newer one).
            assert.ok(v >= newestDurable, `round ${round}: f${k} is version ${v}, older than durable ${newestDurable}`);
          }
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

/** The newest version of file k written by execs 0..last. */
function newestVersionOf(k: number, last: number): number {
  for (let v = 3 * last + 2; v >= 0; v--) if (v % FILES === k) return v;
  return -1;
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

// The agent-task corpus (test/tasks/NNN-*.sh): realistic multi-step scripts, each run in a fresh
// directory on files it makes itself, through the three ways agents drive agentOS — `agentos exec`
// read through a pipe, `AgentVM.exec`, and the `exec` tool of `agentos mcp` — and in real bash on
// this machine under LANG=C.UTF-8, the oracle. Stdout and the exit status must match; the only
// normalisation is the task's working directory, which differs by surface (it becomes `<dir>`).
// Known divergences are listed in DIVERGENCES.md and expected to differ: a listed task that now
// matches fails too, so the list stays true. Decision 0044.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AgentVM } from '../../src/host/node/index.js';
import { parseDivergences, type Surface } from './divergences.js';

// This file runs from dist/test/tasks/; the scripts stay in the source tree.
const taskDir = fileURLToPath(new URL('../../../test/tasks/', import.meta.url));
const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));
const tasks = readdirSync(taskDir).filter((f) => /^\d{3}-.*\.sh$/.test(f)).sort().map((f) => f.slice(0, -3));
const script = (name: string) => readFileSync(join(taskDir, `${name}.sh`), 'utf8');
const divergences = parseDivergences(readFileSync(join(taskDir, 'DIVERGENCES.md'), 'utf8'));
const TASK_TIMEOUT_S = 120;

type Result = { stdout: string; exitCode: number };
const normalise = (r: Result, dir: string): Result => ({ stdout: r.stdout.split(dir).join('<dir>'), exitCode: r.exitCode });

/** Run a command to completion, reading stdout through a pipe. */
function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Result & { stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout.on('data', (d: Buffer) => out.push(d));
    p.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => p.kill('SIGKILL'), opts.timeoutMs);
    p.on('error', reject);
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), exitCode: code ?? 128 + (signal === 'SIGKILL' ? 9 : 15) });
    });
  });
}

/** The oracle: `bash TASK.sh` in a fresh directory, a minimal environment, LANG=C.UTF-8. */
async function hostRun(root: string): Promise<Map<string, Result>> {
  const results = new Map<string, Result>();
  for (const name of tasks) {
    const dir = join(root, name);
    mkdirSync(dir);
    const env = { PATH: process.env.PATH, HOME: root, LANG: 'C.UTF-8', TZ: 'UTC' };
    const r = await run('bash', [join(taskDir, `${name}.sh`)], { cwd: dir, env, timeoutMs: TASK_TIMEOUT_S * 1000 });
    results.set(name, normalise(r, dir));
  }
  return results;
}

/** `agentos exec` with the corpus mounted read-only: one VM runs `bash TASK.sh` for every task,
 *  each in its own directory, and the whole output is read through a pipe, split by tokened marks. */
async function cliRun(): Promise<Map<string, Result>> {
  const token = randomBytes(16).toString('hex');
  const driver = `for n in ${tasks.join(' ')}; do
  d=/tmp/tasks/cli/$n; mkdir -p "$d"; printf '\\0TASK:${token}:%s\\n' "$n"
  (cd "$d" && timeout ${TASK_TIMEOUT_S} bash "/mnt/tasks/$n.sh" </dev/null 2>/dev/null); printf '\\0END:${token}:%d\\n' $?
done`;
  const r = await run(process.execPath, [cli, 'exec', '--env', 'LANG=C.UTF-8', '--env', 'TZ=UTC', '--mount', `${taskDir}:/mnt/tasks:ro`, '--', driver],
    { timeoutMs: tasks.length * TASK_TIMEOUT_S * 1000 });
  const results = new Map<string, Result>();
  const re = new RegExp(`\\0TASK:${token}:([^\\n]*)\\n([^]*?)\\0END:${token}:(\\d+)\\n`, 'g');
  for (const m of r.stdout.matchAll(re)) results.set(m[1]!, normalise({ stdout: m[2]!, exitCode: Number(m[3]) }, `/tmp/tasks/cli/${m[1]!}`));
  return results;
}

/** Each task as one exec (like `bash -c`) in its own directory; `exit` after it, so the next task
 *  starts in a fresh session rather than inheriting this one's variables, options and traps. */
async function execRun(surface: Surface, exec: (cmd: string, cwd?: string) => Promise<Result>): Promise<Map<string, Result>> {
  const results = new Map<string, Result>();
  for (const name of tasks) {
    const dir = `/tmp/tasks/${surface}/${name}`;
    await exec(`mkdir -p ${dir}`);
    results.set(name, normalise(await exec(script(name), dir), dir));
    await exec('exit 0');
  }
  return results;
}

const surfaces: Surface[] = ['cli', 'vm', 'mcp'];
const got = new Map<Surface, Map<string, Result>>();
let oracle = new Map<string, Result>();
let hostRoot = '';
let vm: AgentVM | undefined;
let mcp: Client | undefined;

before(async () => {
  hostRoot = mkdtempSync(join(tmpdir(), 'agentos-tasks-'));
  vm = new AgentVM({ env: { LANG: 'C.UTF-8', TZ: 'UTC' } });
  await vm.start();
  mcp = new Client({ name: 'agentos-tasks', version: '1.0.0' });
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], stderr: 'ignore' }));
  const client = mcp;
  const agent = vm;
  // The surfaces are independent VMs: run them side by side, the oracle alongside.
  const [host, c, v, m] = await Promise.all([
    hostRun(hostRoot),
    cliRun(),
    execRun('vm', async (cmd, cwd) => agent.exec(cmd, { cwd, timeoutMs: TASK_TIMEOUT_S * 1000 })),
    execRun('mcp', async (command, cwd) => {
      const r = (await client.callTool({ name: 'exec', arguments: { command, cwd, timeout_seconds: TASK_TIMEOUT_S } },
        undefined, { timeout: TASK_TIMEOUT_S * 1000 + 10_000 })) as { content: { text: string }[] };
      return JSON.parse(r.content[0]!.text) as Result;
    }),
  ]);
  oracle = host;
  got.set('cli', c).set('vm', v).set('mcp', m);
});

after(async () => {
  await mcp?.close();
  await vm?.stop();
  rmSync(hostRoot, { recursive: true, force: true });
});

test('the divergence list names only tasks and surfaces that exist', () => {
  for (const d of divergences) {
    assert.ok(tasks.includes(d.task), `DIVERGENCES.md lists unknown task ${d.task}`);
    for (const s of d.surfaces) assert.ok(surfaces.includes(s), `DIVERGENCES.md: unknown surface ${s}`);
  }
});

for (const surface of surfaces) {
  describe(`tasks through ${surface}`, () => {
    for (const name of tasks) {
      const known = divergences.find((d) => d.task === name && d.surfaces.includes(surface));
      test(name, () => {
        const want = oracle.get(name);
        const have = got.get(surface)?.get(name);
        assert.ok(want && have, `${name} did not run on the host or through ${surface}`);
        const same = want.stdout === have.stdout && want.exitCode === have.exitCode;
        if (known) assert.ok(!same, `${name} now matches bash through ${surface}: remove it from DIVERGENCES.md`);
        else assert.deepEqual(have, want);
      });
    }
  });
}

test('match rate per surface', (t) => {
  for (const surface of surfaces) {
    const r = got.get(surface);
    const matched = tasks.filter((n) => r?.get(n)?.stdout === oracle.get(n)?.stdout && r?.get(n)?.exitCode === oracle.get(n)?.exitCode);
    t.diagnostic(`${surface}: ${matched.length}/${tasks.length} tasks match bash`);
  }
});

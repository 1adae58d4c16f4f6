// The agent-task corpus (test/tasks/NNN-*.sh): realistic multi-step scripts, each run in a fresh
// directory on files it makes itself, through the three ways agents drive agentOS — `agentos exec`
// read through a pipe, `AgentVM.exec`, and the `exec` tool of
// `agentos mcp` — and in real bash on this machine under LANG=C.UTF-8, the oracle. Stdout and the exit
// status must match; the only normalisation is the task's working directory, which differs by surface
// (it becomes `<dir>`). A task whose script has `#--- next invocation ---` lines is run as separate
// invocations: a new `bash` per part on the host, and per part a new VM on the same persistent state
// (`agentos exec --state`, `new AgentVM({ state })`, `agentos mcp --state`), so what lasts from one
// call to the next (files) and what does not (variables, the cwd, /tmp) is compared too.
// Known divergences are listed in DIVERGENCES.md and expected to differ: a listed task that now
// matches fails too, so the list stays true. Decision 0044.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
/** A task's invocations: the script cut at its `#--- next invocation ---` lines (most tasks have one). */
const parts = (name: string) => script(name).split(/^#--- next invocation ---\n/m);
const divergences = parseDivergences(readFileSync(join(taskDir, 'DIVERGENCES.md'), 'utf8'));
const TASK_TIMEOUT_S = 120;

type Result = { stdout: string; exitCode: number };
const normalise = (r: Result, dir: string): Result => ({ stdout: r.stdout.split(dir).join('<dir>'), exitCode: r.exitCode });
/** Several invocations as one result: each part's output followed by its status. */
const joinParts = (rs: Result[]): Result =>
  rs.length === 1 ? rs[0]! : { stdout: rs.map((r, i) => `${r.stdout}[invocation ${i + 1} exited ${r.exitCode}]\n`).join(''), exitCode: rs.at(-1)!.exitCode };

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

/** Each task's parts as files `NAME.N.sh` in `dir` (the host runs them; the CLI mounts them). */
function writeParts(dir: string): void {
  mkdirSync(dir);
  for (const name of tasks) parts(name).forEach((text, i) => writeFileSync(join(dir, `${name}.${i + 1}.sh`), text));
}

/** Run `work` for each task in turn, into a map by task. */
async function eachTask(work: (name: string) => Promise<Result>): Promise<Map<string, Result>> {
  const results = new Map<string, Result>();
  for (const name of tasks) results.set(name, await work(name));
  return results;
}

/** The oracle: `bash TASK.N.sh` for each part in a fresh directory, a minimal environment, LANG=C.UTF-8. */
async function hostRun(root: string, partsDir: string): Promise<Map<string, Result>> {
  return eachTask(async (name) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    const env = { PATH: process.env.PATH, HOME: root, LANG: 'C.UTF-8', TZ: 'UTC' };
    const rs: Result[] = [];
    for (let i = 1; i <= parts(name).length; i++) {
      rs.push(normalise(await run('bash', [join(partsDir, `${name}.${i}.sh`)], { cwd: dir, env, timeoutMs: TASK_TIMEOUT_S * 1000 }), dir));
    }
    return joinParts(rs);
  });
}

/** `agentos exec` with the parts mounted read-only at /mnt/parts, its output read through a pipe.
 *  Tasks of one invocation all run in one CLI process (booting a VM per task costs 3–20 s on a loaded
 *  2-core machine): a driver runs `bash TASK.1.sh` for each in its own directory, between marks carrying
 *  a random token and the task's status. Tasks of several invocations get one CLI process per
 *  invocation on a persistent VM (`--state`), working under $HOME since /tmp starts empty at each boot. */
async function cliRun(partsDir: string, stateRoot: string): Promise<Map<string, Result>> {
  const cliExec = (cmd: string, state: string[]) => run(process.execPath, [cli, 'exec', ...state, '--env', 'LANG=C.UTF-8', '--env', 'TZ=UTC',
    '--mount', `${partsDir}:/mnt/parts:ro`, '--', cmd], { timeoutMs: tasks.length * TASK_TIMEOUT_S * 1000 });
  const single = tasks.filter((n) => parts(n).length === 1);
  const token = randomBytes(16).toString('hex');
  const driver = `for n in ${single.join(' ')}; do
  d=/tmp/tasks/cli/$n; mkdir -p "$d"; printf '\\0TASK:${token}:%s\\n' "$n"
  (cd "$d" && timeout ${TASK_TIMEOUT_S} bash "/mnt/parts/$n.1.sh" </dev/null 2>/dev/null); printf '\\0END:${token}:%d\\n' $?
done`;
  const r = await cliExec(driver, []);
  const results = new Map<string, Result>();
  const re = new RegExp(`\\0TASK:${token}:([^\\n]*)\\n([^]*?)\\0END:${token}:(\\d+)\\n`, 'g');
  for (const m of r.stdout.matchAll(re)) results.set(m[1]!, normalise({ stdout: m[2]!, exitCode: Number(m[3]) }, `/tmp/tasks/cli/${m[1]!}`));
  for (const name of tasks.filter((n) => parts(n).length > 1)) {
    const dir = `/home/user/tasks/${name}`;
    const rs: Result[] = [];
    for (let i = 1; i <= parts(name).length; i++) {
      const cmd = `mkdir -p ${dir} && cd ${dir} && timeout ${TASK_TIMEOUT_S} bash /mnt/parts/${name}.${i}.sh </dev/null 2>/dev/null`;
      rs.push(normalise(await cliExec(cmd, ['--state', join(stateRoot, 'cli', name)]), dir));
    }
    results.set(name, joinParts(rs));
  }
  return results;
}

/** Each task as one exec (like `bash -c`) in its own directory; `exit` after it, so the next task
 *  starts in a fresh session rather than inheriting this one's variables, options and traps. Tasks of
 *  several invocations get a VM of their own per invocation, from `open(stateDir)`. */
async function execRun(surface: Surface, exec: (cmd: string, cwd?: string) => Promise<Result>,
  open: (state: string) => Promise<{ exec: typeof exec; close(): Promise<void> }>, stateRoot: string): Promise<Map<string, Result>> {
  return eachTask(async (name) => {
    const ps = parts(name);
    if (ps.length === 1) {
      const dir = `/tmp/tasks/${surface}/${name}`;
      await exec(`mkdir -p ${dir}`);
      const r = normalise(await exec(ps[0]!, dir), dir);
      await exec('exit 0');
      return r;
    }
    const dir = `/home/user/tasks/${name}`;
    const rs: Result[] = [];
    for (const part of ps) {
      const vm = await open(join(stateRoot, surface, name));
      try {
        await vm.exec(`mkdir -p ${dir}`);
        rs.push(normalise(await vm.exec(part, dir), dir));
      } finally {
        await vm.close();
      }
    }
    return joinParts(rs);
  });
}

const surfaces: Surface[] = ['cli', 'vm', 'mcp'];
const got = new Map<Surface, Map<string, Result>>();
let oracle = new Map<string, Result>();
let hostRoot = '';
let vm: AgentVM | undefined;
let mcp: Client | undefined;

before(async () => {
  hostRoot = mkdtempSync(join(tmpdir(), 'agentos-tasks-'));
  const partsDir = join(hostRoot, '.parts');
  const stateRoot = join(hostRoot, '.state');
  writeParts(partsDir);
  const env = { LANG: 'C.UTF-8', TZ: 'UTC' };
  vm = new AgentVM({ env });
  await vm.start();
  mcp = await mcpClient([]);
  const client = mcp;
  const agent = vm;
  const vmExec = (v: AgentVM) => async (cmd: string, cwd?: string) => v.exec(cmd, { cwd, timeoutMs: TASK_TIMEOUT_S * 1000 });
  const mcpExec = (c: Client) => async (command: string, cwd?: string) => {
    const r = (await c.callTool({ name: 'exec', arguments: { command, cwd, timeout_seconds: TASK_TIMEOUT_S } },
      undefined, { timeout: TASK_TIMEOUT_S * 1000 + 10_000 })) as { content: { text: string }[] };
    return JSON.parse(r.content[0]!.text) as Result;
  };
  // The surfaces are independent VMs: run them side by side, the oracle alongside.
  const [host, c, v, m] = await Promise.all([
    hostRun(join(hostRoot, 'host'), partsDir),
    cliRun(partsDir, stateRoot),
    execRun('vm', vmExec(agent), async (state) => {
      const p = new AgentVM({ env, state });
      await p.start();
      return { exec: vmExec(p), close: () => p.stop() };
    }, stateRoot),
    execRun('mcp', mcpExec(client), async (state) => {
      const p = await mcpClient(['--state', state]);
      return { exec: mcpExec(p), close: () => p.close() };
    }, stateRoot),
  ]);
  oracle = host;
  got.set('cli', c).set('vm', v).set('mcp', m);
});

/** A client of a new `agentos mcp` server. */
async function mcpClient(args: string[]): Promise<Client> {
  const c = new Client({ name: 'agentos-tasks', version: '1.0.0' });
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', ...args], stderr: 'ignore' }));
  return c;
}

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

// Differential tests of agentOS awk against the host's GNU awk: the same
// fixture tree at the same absolute path on the host and in one booted VM,
// each command line run by `bash -c` on both sides. stdout must match byte for
// byte, the exit status exactly, and stderr by shape: exactly (after the
// `awk: ` prefix) unless a case says only that there must be some.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/node/index.js';
import { CASES, divergences, FILES, type Case } from './cases.js';

interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const TIMEOUT_MS = 20_000;
const ENV = { PATH: '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', TERM: 'dumb', HOME: '/tmp' };

let root = '';
let m: Machine | null = null;
const results: { cmd: string; ok: boolean; detail: string }[] = [];

before(async () => {
  root = join(realpathSync(mkdtempSync(join(tmpdir(), 'agentos-awk-'))), 'fx');
  m = await boot();
  await m.mkdirp(root);
  for (const [rel, content] of Object.entries(FILES)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
    await m.mkdirp(dirname(p));
    await m.writeFile(p, typeof content === 'string' ? content : new Uint8Array(content));
  }
});

after(async () => {
  if (root) rmSync(dirname(root), { recursive: true, force: true });
  if (m) await m.stop();
});

function runHost(c: Case): Outcome {
  const r = spawnSync('bash', ['-c', c.cmd], { cwd: root, env: ENV, input: c.stdin ?? '', timeout: TIMEOUT_MS, maxBuffer: 64 << 20 });
  const sig = r.signal ? ((constants.signals as Record<string, number>)[r.signal] ?? 0) : 0;
  return {
    stdout: r.stdout?.toString('latin1') ?? '',
    stderr: r.stderr?.toString('latin1') ?? '',
    exitCode: r.status ?? 128 + sig,
  };
}

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

async function runVm(c: Case): Promise<Outcome> {
  const r = await m!.run(['/bin/bash', '-c', c.cmd], { cwd: root, env: ENV, stdin: c.stdin ?? '', timeoutMs: TIMEOUT_MS });
  return { stdout: latin1(r.stdout), stderr: latin1(r.stderr), exitCode: r.exitCode };
}

/** stderr shape: each line's program-name prefix normalised to `awk: `. */
const shape = (s: string) => s.replace(/^\S*awk: /gm, 'awk: ');

const sortLines = (s: string) => s.split('\n').sort().join('\n');

const clip = (s: string) => JSON.stringify(s.length > 300 ? `${s.slice(0, 300)}…` : s);

test('awk: the case list is well formed', () => {
  const seen = new Set<string>();
  const dups = CASES.filter((c) => (seen.has(c.cmd) ? true : (seen.add(c.cmd), false))).map((c) => c.cmd);
  assert.deepEqual(dups, [], 'command lines must be unique');
  assert.ok(CASES.length >= 120, `at least 120 invocations; there are ${CASES.length}`);
  const unknown = Object.keys(divergences).filter((k) => !seen.has(k));
  assert.deepEqual(unknown, [], 'divergences names cases that do not exist');
});

test('awk: differential against GNU awk', async () => {
  const host = spawnSync('awk', ['--version'], { encoding: 'utf8' });
  assert.match(host.stdout ?? '', /GNU Awk/, 'the oracle must be GNU awk (apt-get install gawk)');
  for (const c of CASES) {
    const want = runHost(c);
    const got = await runVm(c);
    const diffs: string[] = [];
    if (c.sorted) {
      want.stdout = sortLines(want.stdout);
      got.stdout = sortLines(got.stdout);
    }
    if (want.stdout !== got.stdout) diffs.push(`stdout: want ${clip(want.stdout)}\n            got  ${clip(got.stdout)}`);
    const stderrOk = c.ignoreStderr || (c.someStderr ? want.stderr !== '' && got.stderr !== '' : shape(want.stderr) === shape(got.stderr));
    if (!stderrOk) diffs.push(`stderr: want ${clip(want.stderr)}\n            got  ${clip(got.stderr)}`);
    if (want.exitCode !== got.exitCode) diffs.push(`exit:   want ${want.exitCode} got ${got.exitCode}`);
    results.push({ cmd: c.cmd, ok: diffs.length === 0, detail: diffs.join('\n    ') });
  }
  const passed = results.filter((r) => r.ok).length;
  const unexpected = results.filter((r) => !r.ok && !(r.cmd in divergences));
  const fixed = results.filter((r) => r.ok && r.cmd in divergences);
  console.log(`awk diff: ${passed}/${results.length} passed (${((100 * passed) / results.length).toFixed(1)}%), ${Object.keys(divergences).length} known divergences`);
  for (const r of results) if (!r.ok && r.cmd in divergences) console.log(`  divergence: ${r.cmd}: ${divergences[r.cmd]}`);
  for (const r of fixed) console.log(`  note: ${r.cmd} is listed in divergences but now matches`);
  assert.equal(unexpected.length, 0, unexpected.map((r) => `✗ ${r.cmd}\n    ${r.detail}`).join('\n'));
});

// The CLI's policy flags: `agentos exec --read-only ... --hidden ... --max-procs ...`,
// `--policy FILE.json`, `--approve` and `--audit FILE`.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));
const agentos = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000 });

test('agentos exec: policy flags, a policy file, approvals and the audit file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-policy-cli-'));
  try {
    const audit = join(dir, 'audit.jsonl');
    const r = agentos('exec', '--read-only', '/etc', '--hidden', '/etc/hostname', '--max-output', '5', '--json', '--audit', audit, '--',
      'echo x > /etc/motd; cat /etc/hostname; echo 1234567890');
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { stdout: string; stderr: string; truncated?: boolean };
    assert.equal(out.stdout, '12345');
    assert.equal(out.truncated, true);
    const events = readFileSync(audit, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(events.filter((e) => e.type === 'policy').map((e) => e.rule), ['fs.readOnly', 'fs.hidden']);

    const file = join(dir, 'policy.json');
    writeFileSync(file, JSON.stringify({ processes: { ask: ['/opt/agentos/bin/rm'] } }));
    const denied = agentos('exec', '--policy', file, '--', 'touch f; rm f; ls f');
    assert.equal(denied.stdout, 'f\n');
    const approved = agentos('exec', '--policy', file, '--approve', 'once', '--', 'touch f; rm f; ls f');
    assert.equal(approved.stdout, '');
    assert.equal(agentos('exec', '--max-procs', 'lots', '--', 'true').status, 2);
    // A bad policy is a usage error, found before the VM boots.
    const bad = agentos('exec', '--policy', file, '--hidden', 'relative/path', '--', 'true');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /policy: fs.hidden: 'relative\/path' is not an absolute path/);
    const net = agentos('exec', '--policy', file, '--allow-host', 'https://x.com/path', '--', 'true');
    assert.equal(net.status, 2);
    assert.match(net.stderr, /is not an origin/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('agentos exec --secret NAME=ENV_VAR@HOST: the guest sees a placeholder; a missing variable is a usage error', () => {
  const value = 'sk-from-the-host-0123456789';
  const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, MY_KEY: value } });
  const r = run('exec', '--secret', 'API_KEY=MY_KEY@api.example.com,*.example.org', '--', 'echo "$API_KEY"; cat /proc/self/environ');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^aos-secret-API_KEY-[0-9a-f]{32}\n/);
  assert.ok(!r.stdout.includes(value));
  const missing = run('exec', '--secret', 'API_KEY=NO_SUCH_VAR_X@api.example.com', '--', 'true');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--secret API_KEY: the environment variable NO_SUCH_VAR_X is not set/);
  const bad = run('exec', '--secret', 'API_KEY=MY_KEY@https://api.example.com', '--', 'true');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /not a host name/);
  assert.ok(!bad.stderr.includes(value));
  // The older, weaker kind keeps its flag: --secret NAME (and --mask-env NAME) masks a value the VM holds.
  const masked = run('exec', '--secret', 'TOKEN', '--mask-env', 'OTHER', '--', 'echo ok');
  assert.equal(masked.status, 0, masked.stderr);
});

// agentOS's node against the host's real node (v20): each corpus script is
// written to the same absolute path on both sides and run there; stdout and
// the exit status must match exactly, stderr after dropping what legitimately
// differs (stack frames, the "Node.js vX" line, the source excerpt above an
// uncaught error).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/api/machine.js';
import { CASES } from './corpus.js';

/** Every case runs in the byte locale and again in UTF-8 (the VM's default). */
const LOCALES: { name: string; env: Record<string, string> }[] = [
  { name: 'LC_ALL=C', env: { PATH: '/usr/bin:/bin', HOME: '/tmp', LC_ALL: 'C' } },
  { name: 'LANG=C.UTF-8', env: { PATH: '/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8' } },
];
const dec = new TextDecoder();
let m: Machine;
let root: string;

before(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'agentos-node-')));
  m = await boot();
});

after(async () => {
  await m.stop();
  rmSync(root, { recursive: true, force: true });
});

/** stderr without what differs between two correct implementations. */
export function normalizeStderr(s: string): string {
  const out: string[] = [];
  const lines = s.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (/^\s+at /.test(l) || /^Node\.js v/.test(l)) continue;
    // "file:line", the source line, the caret: positions differ (throw vs construction site).
    if (/^(\/|file:\/\/|node:|\[eval\]|\[stdin\]).*:\d+$/.test(l) && /^\s*\^+\s*$/.test(lines[i + 2] ?? '')) { i += 2; continue; }
    out.push(l);
  }
  return out.join('\n').replace(/\n{2,}/g, '\n').trim();
}

const slug = (s: string) => s.replace(/[^a-z0-9]+/gi, '-').toLowerCase();

for (const { name: locale, env: ENV } of LOCALES) for (const c of CASES) {
  test(`node: ${c.name} (${locale})`, async () => {
    const dir = join(root, slug(`${c.name} ${locale}`));
    mkdirSync(dir, { recursive: true });
    await m.mkdirp(dir);
    for (const [rel, content] of Object.entries(c.files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), content);
      await m.mkdirp(dirname(join(dir, rel)));
      await m.writeFile(join(dir, rel), content);
    }
    const host = spawnSync(process.execPath, c.args, { cwd: dir, env: ENV, input: c.stdin ?? '', encoding: 'utf8', timeout: 20_000 });
    const vm = await m.run(['/usr/bin/node', ...c.args], { cwd: dir, env: ENV, stdin: c.stdin ?? '', timeoutMs: 20_000 });
    const got = { stdout: dec.decode(vm.stdout), stderr: normalizeStderr(dec.decode(vm.stderr)), status: vm.exitCode };
    const want = { stdout: host.stdout, stderr: normalizeStderr(host.stderr), status: host.status };
    assert.deepEqual(got, want);
  });
}

// Differential tests of agentOS sqlite3 against the host's sqlite3 (3.40):
// the same fixture tree (with a database the host's sqlite3 built) at the
// same absolute path on the host and in one booted VM, each command line run
// by `bash -c` on both sides. stdout must match byte for byte, the exit
// status exactly, and stderr exactly unless a case says otherwise. Then the
// other direction: databases agentOS wrote are read by the host's sqlite3.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { checkCaseList, ENV, LOCALES, runCases, setupFixtures, summarize, teardownFixtures, type Fixture, type Judgement } from '../oracle.js';
import { CASES, divergences, FILES, FIXTURE_SQL } from './cases.js';

let fx: Fixture | null = null;
let work = '';

/** Run the host's sqlite3 with SQL on stdin. */
function hostSqlite(args: string[], input = ''): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync('sqlite3', args, { input: Buffer.from(input, 'utf8'), encoding: 'latin1', env: ENV });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'agentos-sqlite3-db-'));
  const db = join(work, 'fx.db');
  const made = hostSqlite([db], FIXTURE_SQL);
  assert.equal(made.status, 0, `the host's sqlite3 could not build the fixture: ${made.stderr}`);
  fx = await setupFixtures('agentos-sqlite3-', { ...FILES, 'fx.db': readFileSync(db) });
});

after(async () => {
  await teardownFixtures(fx);
  if (work) rmSync(work, { recursive: true, force: true });
});

test('sqlite3: the case list is well formed', () => {
  checkCaseList(CASES, divergences, { min: 100, key: (c) => `${c.cmd}\0${c.stdin ?? ''}` });
});

for (const loc of LOCALES) {
  test(`sqlite3: differential against the host sqlite3 (${loc.name})`, async () => {
    const v = hostSqlite(['-version']);
    assert.match(v.stdout, /^3\.\d+\.\d+ /, 'the oracle must be SQLite\'s sqlite3 shell (apt-get install sqlite3)');
    const judge = (c: (typeof CASES)[number]): Judgement => ({ sorted: false, stderrOk: (want, got) => !!c.ignoreStderr || want === got });
    const results = await runCases(fx!, CASES, judge, loc.env);
    summarize(`sqlite3 [${loc.name}]`, results, divergences);
  });
}

/** A script whose results compare a database across both implementations. */
const INTEROP_SQL = `
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB, note TEXT);
CREATE INDEX t_name ON t(name);
CREATE VIEW v AS SELECT name, score * 2 AS double FROM t;
CREATE TRIGGER t_ins AFTER INSERT ON t WHEN new.score > 100 BEGIN UPDATE t SET note = 'high' WHERE id = new.id; END;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
INSERT INTO t(name, score, data) SELECT 'name' || i, i * 0.5, zeroblob(i % 7) || x'ff' FROM n;
UPDATE t SET name = 'späcial ✓' WHERE id = 42;
DELETE FROM t WHERE id % 10 = 0;
`;
const INTEROP_QUERY = [
  'PRAGMA integrity_check;',
  'SELECT count(*), sum(score), sum(length(data)), count(note) FROM t;',
  "SELECT id, name, hex(data) FROM t WHERE id IN (1, 42, 299, 2999);",
  'SELECT * FROM v ORDER BY double DESC LIMIT 3;',
  '.schema',
].join('\n');

test('sqlite3: a database agentOS writes is read by the host sqlite3, and the reverse', async () => {
  const m = fx!.m;
  const dir = fx!.root;
  // agentOS writes; the host reads.
  const vmRun = await m.run(['/bin/bash', '-c', 'rm -f interop.db; sqlite3 interop.db'], { cwd: dir, env: ENV, stdin: INTEROP_SQL, timeoutMs: 60_000 });
  assert.equal(vmRun.exitCode, 0, Buffer.from(vmRun.stderr).toString());
  const fromVm = join(work, 'from-vm.db');
  writeFileSync(fromVm, await m.readFile(`${dir}/interop.db`));
  const hostMade = join(work, 'host-made.db');
  assert.equal(hostSqlite([hostMade], INTEROP_SQL).status, 0);
  const want = hostSqlite([hostMade], INTEROP_QUERY);
  const got = hostSqlite([fromVm], INTEROP_QUERY);
  assert.equal(got.stderr, '');
  assert.equal(got.stdout, want.stdout);
  assert.match(got.stdout, /^ok\n2700\|/);
  // The host writes; agentOS reads (and changes it, and the host reads that back).
  await m.writeFile(`${dir}/host-made.db`, readFileSync(hostMade));
  const vmQuery = await m.run(['/bin/bash', '-c', 'sqlite3 host-made.db'], { cwd: dir, env: ENV, stdin: INTEROP_QUERY, timeoutMs: 60_000 });
  assert.equal(Buffer.from(vmQuery.stdout).toString('latin1'), want.stdout);
  const vmEdit = await m.run(['/bin/bash', '-c', "sqlite3 host-made.db \"INSERT INTO t(name, score) VALUES('from agentOS', 1000)\""], { cwd: dir, env: ENV, timeoutMs: 60_000 });
  assert.equal(vmEdit.exitCode, 0);
  const edited = join(work, 'edited.db');
  writeFileSync(edited, await m.readFile(`${dir}/host-made.db`));
  const check = hostSqlite([edited], "PRAGMA integrity_check; SELECT name, note FROM t WHERE score = 1000;");
  assert.equal(check.stdout, 'ok\nfrom agentOS|high\n');
});

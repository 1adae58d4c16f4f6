// The differential conformance suite of agentos-shell: every script in
// cases/*.ts runs through the real bash on this machine and through
// agentos-shell (/bin/bash, /bin/sh for posix cases) in ONE booted VM, under
// LANG=C and again under LANG=C.UTF-8; stdout,
// exit status and the shape of stderr must match. One test per topic, then an
// overall test that fails below a 95% pass rate.
//
// AGENTOS_DIFF_ORACLE_ONLY=1 checks the scripts themselves instead (no VM):
// each one runs twice through bash and must give identical results; posix
// cases must also agree with dash on stdout and status.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/node/index.js';
import { TOPICS } from './cases/index.js';
import { DIVERGENCES } from './divergences.js';
import {
  diffCase,
  hostHas,
  LOCALES,
  oracleCase,
  summarise,
  summaryLine,
  vmHasCommand,
  vmHasFile,
  Workspace,
  type CaseResult,
  type TopicReport,
} from './run.js';
import type { DiffCase } from './types.js';

const ORACLE_ONLY = process.env.AGENTOS_DIFF_ORACLE_ONLY === '1';
/** The issue's bar. */
const REQUIRED_RATE = 0.95;

const allCases = TOPICS.flatMap((t) => t.cases);
const reports: TopicReport[] = [];

let ws: Workspace;
let m: Machine | null = null;
/** Set when agentos-shell is not installed in the VM: every test fails with it. */
let notInstalled = '';
const hasDash = hostHas('dash');

const commandCache = new Map<string, boolean>();
async function missing(c: DiffCase): Promise<string[]> {
  const out: string[] = [];
  for (const cmd of c.needs ?? []) {
    if (!commandCache.has(cmd)) commandCache.set(cmd, m ? await vmHasCommand(m, cmd) : false);
    if (!commandCache.get(cmd)) out.push(cmd);
  }
  return out;
}

before(async () => {
  ws = new Workspace();
  if (ORACLE_ONLY) return;
  m = await boot();
  const absent = [];
  for (const p of ['/bin/bash', '/bin/sh']) if (!(await vmHasFile(m, p))) absent.push(p);
  if (absent.length) {
    notInstalled =
      `agentos-shell is not installed in the VM: ${absent.join(' and ')} ${absent.length > 1 ? 'do' : 'does'} not exist. ` +
      'The differential suite compares it with the real bash and cannot run without it ' +
      '(set AGENTOS_DIFF_ORACLE_ONLY=1 to check the scripts against bash alone).';
  }
});

after(async () => {
  ws?.dispose();
  if (m) await m.stop();
});

test('shell diff: the suite is well formed', () => {
  const names = new Set<string>();
  const dup = allCases.filter((c) => (names.has(c.name) ? true : (names.add(c.name), false))).map((c) => c.name);
  assert.deepEqual(dup, [], 'case names must be unique');
  const unknown = Object.keys(DIVERGENCES).filter((n) => !names.has(n));
  assert.deepEqual(unknown, [], 'divergences.ts names cases that do not exist');
  const topics = TOPICS.map((t) => t.topic);
  assert.equal(new Set(topics).size, topics.length, 'topic names must be unique');
  assert.ok(allCases.length >= 400, `the issue asks for at least 400 scripts; there are ${allCases.length}`);
  console.log(`shell diff: ${allCases.length} scripts in ${TOPICS.length} topics, ${Object.keys(DIVERGENCES).length} known divergences`);
});

// Every topic under LANG=C, then again under LANG=C.UTF-8 (the oracle once: it checks the scripts).
const runs = ORACLE_ONLY ? (['C'] as const) : LOCALES;
for (const locale of runs) for (const { topic, cases } of TOPICS) {
  test(`shell diff: ${topic}${locale === 'C' ? '' : ` (${locale})`}`, async () => {
    if (notInstalled) assert.fail(notInstalled);
    const results: CaseResult[] = [];
    for (const c of cases) {
      results.push(ORACLE_ONLY ? oracleCase(ws, c, hasDash) : await diffCase(m!, ws, c, DIVERGENCES[c.name], missing, locale));
    }
    const r = summarise(locale === 'C' ? topic : `${topic} (${locale})`, results);
    reports.push(r);
    console.log(summaryLine(r, ORACLE_ONLY ? 'deterministic (oracle only)' : 'passed'));
    for (const x of results) {
      if (x.status === 'divergent-pass') console.log(`  note: ${x.name}: ${x.detail}`);
    }
    const failures = results.filter((x) => x.status === 'fail');
    if (failures.length) {
      assert.fail(`${failures.length} of ${cases.length} cases in topic ${topic} differ:\n${failures.map((x) => x.detail).join('\n')}`);
    }
  });
}

test('shell diff: overall pass rate', () => {
  if (notInstalled) assert.fail(notInstalled);
  const results = reports.flatMap((r) => r.results);
  const tot = summarise('ALL', results);
  const rate = tot.run ? tot.passed / tot.run : 0;
  const pct = (100 * rate).toFixed(1);
  const all = allCases.length * runs.length;
  const counted = results.length === all ? '' : ` (only ${results.length} of ${all} runs of a case)`;
  console.log(
    `shell diff: overall ${tot.passed}/${tot.run} ${ORACLE_ONLY ? 'deterministic (oracle only)' : 'passed'} = ${pct}%` +
      `, ${tot.divergent} known divergences, ${tot.skipped} skipped, ${tot.failed} unexpected failures${counted}`,
  );
  const div = results.filter((x) => x.status === 'divergent');
  if (div.length) console.log(`shell diff: known divergences:\n${div.map((x) => `  - ${x.name}: ${x.detail}`).join('\n')}`);
  const skipped = results.filter((x) => x.status === 'skipped');
  if (skipped.length) console.log(`shell diff: skipped:\n${skipped.map((x) => `  - ${x.name}: ${x.detail}`).join('\n')}`);
  const nowPassing = results.filter((x) => x.status === 'divergent-pass');
  if (nowPassing.length) console.log(`shell diff: known divergences that now pass (remove them from divergences.ts):\n${nowPassing.map((x) => `  - ${x.name}`).join('\n')}`);
  assert.equal(results.length, all, 'every topic must have run in every locale');
  const notPassing = results.filter((x) => x.status === 'fail' || x.status === 'divergent').map((x) => x.name);
  assert.ok(
    rate >= REQUIRED_RATE,
    `pass rate ${pct}% is below ${100 * REQUIRED_RATE}%; not passing:\n${notPassing.map((n) => `  - ${n}`).join('\n')}`,
  );
});

// Network `ask` entries and the network audit trail on the Node host, against
// a local server: a request to an `ask` entry waits in the kernel for the
// host's answer (once / always / never / deny; a timeout denies), and every
// request's decision is recorded without the URL's query.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AgentVM, type Answer, type ApprovalRequest, type AuditEvent } from '../../../src/host/node/index.js';
import { NetPolicy } from '../../../src/kernel/net/policy.js';
import { startServer, type TestServer } from './server.js';

let srv: TestServer;
before(async () => {
  srv = await startServer();
});
after(() => srv.close());

const net = (events: AuditEvent[]) => events.filter((e) => e.type === 'network').map((e) => [e.method, e.url, e.decision, e.rule]);

test('ask entries parse, and an entry that allows outright wins over one that asks', () => {
  const p = new NetPolicy({ allow: ['a.test POST ask', { origin: 'https://b.test', ask: true }, 'a.test GET'] });
  assert.equal(p.asks, true);
  assert.deepEqual(p.check('POST', 'http://a.test/'), { allowed: true, allowPrivate: false, rule: 'a.test POST ask', ask: true });
  assert.deepEqual(p.check('GET', 'http://a.test/'), { allowed: true, allowPrivate: false, rule: 'a.test GET' });
  assert.deepEqual(p.check('GET', 'https://b.test/'), { allowed: true, allowPrivate: false, rule: 'https://b.test ask', ask: true });
  assert.equal(new NetPolicy({ allow: ['a.test'] }).asks, false);
  assert.throws(() => new NetPolicy({ allow: [{ origin: 'a.test', ask: true, asks: true } as never] }), /unknown key 'asks'/);
});

test('a request to an ask entry waits for the host: once, deny, always; audited without the query', async () => {
  const answers: Answer[] = ['once', 'deny', 'always'];
  const asked: ApprovalRequest[] = [];
  const vm = new AgentVM({
    policy: { network: { allow: [`${srv.base} ask`] } },
    onApproval: async (req) => {
      asked.push(req);
      await new Promise((r) => setTimeout(r, 50)); // the request really waits
      return answers.shift() ?? 'deny';
    },
  });
  await vm.start();
  try {
    let r = await vm.exec(`curl -sS '${srv.base}/hello?token=s3cret'`);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].rule, `network.ask:${srv.base} ask`);
    assert.equal(asked[0].detail, `GET ${srv.base}/hello?…`);
    const seen = srv.seen.length;
    r = await vm.exec(`curl -sS -X POST ${srv.base}/echo`);
    assert.equal(r.exitCode, 7);
    assert.equal(r.stderr, `curl: (7) network access to POST ${srv.base} denied by the host (policy network.ask:${srv.base} ask)\n`);
    assert.equal(srv.seen.length, seen, 'a denied request never reaches the server');
    r = await vm.exec(`curl -sS ${srv.base}/hello && curl -sS ${srv.base}/hello`);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(asked.length, 3, "'always' is remembered for the entry");
    const trail = await vm.audit();
    assert.deepEqual(net(trail), [
      ['GET', `${srv.base}/hello?…`, 'allow', `network.ask:${srv.base} ask`],
      ['POST', `${srv.base}/echo`, 'deny', `network.ask:${srv.base} ask`],
      ['GET', `${srv.base}/hello`, 'allow', `network.ask:${srv.base} ask`],
      ['GET', `${srv.base}/hello`, 'allow', `network.ask:${srv.base} ask`],
    ]);
    assert.deepEqual(trail.filter((e) => e.type === 'approval').map((e) => e.answer), ['once', 'deny', 'always']);
    // (curl's argv in process.start has it: that is the command line, not the request.)
    const requests = trail.filter((e) => e.type === 'network' || e.type === 'approval');
    assert.ok(!JSON.stringify(requests).includes('s3cret'), 'the query never reaches the request records');
    // The guest reads the same trail.
    assert.match((await vm.exec('grep -c \'"type":"network"\' /proc/agentos/audit')).stdout, /^4\n$/);
  } finally {
    await vm.stop();
  }
});

test('no answer in time denies; without onApproval an ask is denied at once', async () => {
  const slow = new AgentVM({ policy: { network: { allow: [{ origin: srv.base, ask: true }] }, approvalTimeoutMs: 300 }, onApproval: () => new Promise<Answer>(() => {}) });
  await slow.start();
  try {
    const t0 = Date.now();
    const r = await slow.exec(`curl -sS ${srv.base}/hello`);
    assert.equal(r.exitCode, 7);
    assert.match(r.stderr, /denied by the host/);
    assert.ok(Date.now() - t0 >= 250);
    assert.deepEqual((await slow.audit()).filter((e) => e.type === 'approval').map((e) => e.answer), ['timeout']);
  } finally {
    await slow.stop();
  }
  const none = new AgentVM({ policy: { network: { allow: [`${srv.base} ask`] } } });
  await none.start();
  try {
    const t0 = Date.now();
    assert.equal((await none.exec(`curl -sS ${srv.base}/hello`)).exitCode, 7);
    assert.ok(Date.now() - t0 < 30_000, 'not left to the 60 s timeout');
  } finally {
    await none.stop();
  }
});

test('allowed and denied requests of every mode are in the audit trail', async () => {
  const vm = new AgentVM({ policy: { network: { allow: [`${srv.base} GET`] } } });
  await vm.start();
  try {
    await vm.exec(`curl -sS ${srv.base}/hello; curl -sS -d x ${srv.base}/echo; curl -sS http://example.com/x`);
    assert.deepEqual(net(await vm.audit()), [
      ['GET', `${srv.base}/hello`, 'allow', `${srv.base} GET`],
      ['POST', `${srv.base}/echo`, 'deny', `allowlist: ${srv.base} GET`],
      ['GET', 'http://example.com/x', 'deny', `allowlist: ${srv.base} GET`],
    ]);
  } finally {
    await vm.stop();
  }
});

test('agentos exec --ask-host with --approve', async () => {
  const cli = fileURLToPath(new URL('../../../../bin/agentos.js', import.meta.url));
  // Not spawnSync: the server runs in this process.
  const run = (answer: string) => new Promise<{ status: number | null; stderr: string }>((done) => {
    const child = execFile(process.execPath, [cli, 'exec', '--ask-host', srv.base, '--approve', answer, '--', `curl -sS ${srv.base}/hello`], { timeout: 60_000 }, (_e, _out, stderr) => done({ status: child.exitCode, stderr }));
  });
  assert.equal((await run('once')).status, 0);
  const denied = await run('deny');
  assert.equal(denied.status, 7);
  assert.match(denied.stderr, /denied by the host/);
});

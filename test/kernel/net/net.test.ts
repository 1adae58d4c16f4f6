// curl and wget in the VM against a local server, under each network policy:
// denials (messages, statuses), allowlists re-checked at every redirect hop,
// DNS-rebinding refusal, streaming a big download with flat memory, uploads,
// timeouts and SIGINT cancelling a transfer.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { AgentVM, type AgentVMOptions } from '../../../src/host/node/index.js';
import { closedPort, startServer, type TestServer } from './server.js';

let srv: TestServer;
let other: TestServer;

before(async () => {
  srv = await startServer();
  other = await startServer();
});

after(async () => {
  await srv?.close();
  await other?.close();
});

async function withVm(network: AgentVMOptions['network'], fn: (vm: AgentVM) => Promise<void>): Promise<void> {
  const vm = new AgentVM({ network });
  await vm.start();
  try {
    await fn(vm);
  } finally {
    await vm.stop();
  }
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

describe('network: none (the default)', () => {
  let vm: AgentVM;
  before(async () => {
    vm = new AgentVM();
    await vm.start();
  });
  after(async () => vm?.stop());

  test('curl and wget are denied, naming the policy', async () => {
    const c = await vm.exec('curl -sS http://example.com/hello');
    assert.equal(c.exitCode, 7);
    assert.equal(c.stdout, '');
    assert.equal(c.stderr, "curl: (7) network access to http://example.com denied by the VM's network policy (network: none)\n");
    const w = await vm.exec('wget -O - http://example.com/hello');
    assert.equal(w.exitCode, 4);
    assert.match(w.stderr, /wget: network access to http:\/\/example\.com denied by the VM's network policy \(network: none\)\n$/);
  });

  test("the host's loopback is not the VM's: refused (nothing listens in the VM), and never reached", async () => {
    const c = await vm.exec(`curl -sS ${srv.base}/hello`);
    assert.equal(c.exitCode, 7);
    assert.match(c.stderr, /^curl: \(7\) Failed to connect to 127\.0\.0\.1 port \d+ after \d+ ms: Couldn't connect to server\n$/);
    assert.deepEqual(srv.seen.filter((p) => p === '/hello'), [], 'nothing reached the server');
  });

  test('-s hides the denial, -w still reports 000', async () => {
    const r = await vm.exec(`curl -s -w '%{http_code} %{exitcode}\\n' ${srv.base}/hello`);
    assert.deepEqual([r.exitCode, r.stdout, r.stderr], [7, '000 7\n', '']);
  });

  test('the guest cannot change the policy: the syscall checks every request', async () => {
    const r = await vm.exec(`X=1 curl -sS --url ${srv.base}/hello -H 'Host: allowed.example'`);
    assert.equal(r.exitCode, 7);
  });
});

describe('network: allowlist', () => {
  test('hosts, origins and methods; redirects re-checked at every hop', async () => {
    await withVm({ allow: [`http://127.0.0.1:${srv.port} GET,POST,HEAD`] }, async (vm) => {
      let r = await vm.exec(`curl -sS ${srv.base}/hello`);
      assert.deepEqual([r.exitCode, r.stdout], [0, 'hello\n']);
      r = await vm.exec(`curl -sS -X DELETE ${srv.base}/echo`);
      assert.equal(r.exitCode, 7);
      assert.equal(r.stderr, `curl: (7) network access to DELETE ${srv.base} denied by the VM's network policy (allowlist: http://127.0.0.1:${srv.port} GET,POST,HEAD)\n`);
      r = await vm.exec(`curl -sS ${other.base}/hello`);
      assert.equal(r.exitCode, 7, 'another port is another origin');
      // A redirect to an origin outside the list is refused at that hop, after the first one was served.
      const before = other.seen.length;
      r = await vm.exec(`curl -sSL '${srv.base}/redirect?to=${encodeURIComponent(`${other.base}/hello`)}'`);
      assert.equal(r.exitCode, 7);
      // The policy names only srv's port: on another port 127.0.0.1 is the VM's own loopback, where nothing listens.
      assert.match(r.stderr, new RegExp(`Failed to connect to 127\\.0\\.0\\.1 port ${other.port} `));
      assert.equal(other.seen.length, before, 'the other origin saw nothing');
      // Without -L the redirect itself is the answer.
      r = await vm.exec(`curl -s -o /dev/null -w '%{http_code} %{redirect_url}' '${srv.base}/redirect?to=/hello'`);
      assert.deepEqual([r.exitCode, r.stdout], [0, `302 ${srv.base}/hello`]);
      // Inside the list, redirects are followed.
      r = await vm.exec(`curl -sL -w '%{num_redirects}' ${srv.base}/chain/3`);
      assert.deepEqual([r.exitCode, r.stdout], [0, 'end of chain\n3']);
    });
  });

  test('a wildcard, host entries across ports, and localhost as a different host from 127.0.0.1', async () => {
    await withVm({ allow: ['127.0.0.1', '*.example.test'] }, async (vm) => {
      let r = await vm.exec(`curl -s ${srv.base}/hello && curl -s ${other.base}/hello`);
      assert.deepEqual([r.exitCode, r.stdout], [0, 'hello\nhello\n']);
      // localhost is not named: it is the VM's own loopback, where nothing listens.
      r = await vm.exec(`curl -sS http://localhost:${srv.port}/hello`);
      assert.equal(r.exitCode, 7);
      assert.match(r.stderr, /Failed to connect to localhost port \d+ /);
    });
  });

  test('DNS rebinding: a name resolving to a loopback address is refused unless marked private', async () => {
    const hosts = { 'rebind.example.test': '127.0.0.1' };
    await withVm({ allow: ['rebind.example.test'], hosts }, async (vm) => {
      const r = await vm.exec(`curl -sS http://rebind.example.test:${srv.port}/hello`);
      assert.equal(r.exitCode, 7);
      assert.match(r.stderr, /network access to rebind\.example\.test \(127\.0\.0\.1\) denied by the VM's network policy \(private address/);
    });
    await withVm({ allow: [{ origin: 'rebind.example.test', private: true }], hosts }, async (vm) => {
      const r = await vm.exec(`curl -sS http://rebind.example.test:${srv.port}/hello`);
      assert.deepEqual([r.exitCode, r.stdout], [0, 'hello\n']);
    });
  });

  test("localhost named literally is allowed; under network: all the loopback is the VM's own", async () => {
    await withVm({ allow: ['localhost'] }, async (vm) => {
      const r = await vm.exec(`curl -sS http://localhost:${srv.port}/hello`);
      assert.deepEqual([r.exitCode, r.stdout], [0, 'hello\n']);
    });
    await withVm('all', async (vm) => {
      const r = await vm.exec(`curl -sS ${srv.base}/hello; curl -sS http://no-such-host.invalid/`);
      assert.equal(r.exitCode, 6);
      assert.match(r.stderr, /^curl: \(7\) Failed to connect to 127\.0\.0\.1 port \d+ after \d+ ms: Couldn't connect to server\n/);
      assert.match(r.stderr, /curl: \(6\) Could not resolve host: no-such-host\.invalid\n$/);
    });
  });
});

describe('transfers (allowlist: 127.0.0.1)', () => {
  let vm: AgentVM;
  before(async () => {
    vm = new AgentVM({ network: { allow: ['127.0.0.1'] } });
    await vm.start();
  });
  after(async () => vm?.stop());

  test('a 200 MB download streams through the kernel pipe with flat memory', async () => {
    // Warm up first: heaps grow to their working size on the first transfers, then stay.
    await vm.exec(`curl -s -o /dev/null ${srv.base}/big?mb=50 && curl -s ${srv.base}/big?mb=20 | wc -c`);
    const base = process.memoryUsage().rss;
    let peak = base;
    const t = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const t0 = performance.now();
    const r = await vm.exec(`curl -s -o /dev/null -w '%{size_download}' ${srv.base}/big?mb=200`);
    const ms = performance.now() - t0;
    clearInterval(t);
    assert.deepEqual([r.exitCode, r.stdout], [0, String(200 * 1024 * 1024)]);
    const grew = (peak - base) / 1024 / 1024;
    console.log(`# 200 MB through curl -o /dev/null: ${ms.toFixed(0)} ms (${((200 / ms) * 1000).toFixed(0)} MB/s), rss grew ${grew.toFixed(1)} MB`);
    assert.ok(grew < 64, `memory grew by ${grew.toFixed(1)} MB for a 200 MB download`);
  });

  test('a download to a file matches byte for byte; -O and wget name files; wget -c resumes', async () => {
    let r = await vm.exec(`curl -s -o /tmp/big ${srv.base}/big?mb=2 && sha256sum < /tmp/big && wc -c < /tmp/big`);
    assert.equal(r.exitCode, 0);
    const { createHash } = await import('node:crypto');
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31 + 7) & 0xff;
    const want = createHash('sha256').update(chunk).update(chunk).digest('hex');
    assert.equal(r.stdout, `${want}  -\n${2 * 1024 * 1024}\n`);
    r = await vm.exec(`cd /tmp && curl -s -O ${srv.base}/files/a.txt && cat a.txt && wget -q ${srv.base}/files/a.txt && cat a.txt.1`);
    assert.deepEqual([r.exitCode, r.stdout], [0, 'file content\nfile content\n']);
    r = await vm.exec(`cd /tmp && printf 0123456789 > part && wget -q -c -O part ${srv.base}/range && cat part && wget -c -O part ${srv.base}/range`);
    assert.equal(r.exitCode, 0);
    assert.match(r.stdout, /^0123456789abcdefghij$/);
    assert.match(r.stderr, /The file is already fully retrieved; nothing to do/);
  });

  test('uploads: -d, --data-binary @file, -T streams the file', async () => {
    await vm.writeFile('/tmp/up.bin', new Uint8Array(300_000).map((_, i) => i & 0xff));
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(new Uint8Array(300_000).map((_, i) => i & 0xff)).digest('hex');
    let r = await vm.exec(`curl -s -T /tmp/up.bin ${srv.base}/echo`);
    assert.equal(r.stdout, `PUT \ncontent-length: 300000\n300000 ${sha}\n`);
    r = await vm.exec(`curl -s -d a=1 -d b=2 ${srv.base}/echo`);
    assert.equal(r.stdout, `POST \ncontent-length: 7\ncontent-type: application/x-www-form-urlencoded\n7 ${createHash('sha256').update('a=1&b=2').digest('hex')}\n`);
    r = await vm.exec(`printf 'x\\ny' > /tmp/d; curl -s --data-binary @/tmp/d -H 'Content-Type: text/plain' ${srv.base}/echo`);
    assert.match(r.stdout, /^POST \ncontent-length: 3\ncontent-type: text\/plain\n3 /);
    // From a pipe (chunked), and a failed request lets go of the pipe so its writer ends.
    const seq = Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`).join('');
    r = await vm.exec(`seq 100000 | curl -s -T - ${srv.base}/echo`);
    assert.equal(r.stdout.split('\n').at(-2), `${seq.length} ${createHash('sha256').update(seq).digest('hex')}`);
    r = await vm.exec(`seq 100000 | curl -sS -T - http://127.0.0.1:${await closedPort()}/; echo "rc=$?"`, { timeoutMs: 20_000 });
    assert.match(r.stdout, /^rc=7\n$/);
    assert.match(r.stdout + r.stderr, /Couldn't connect to server/);
    r = await vm.exec(`wget -q -O - --post-data=k=v ${srv.base}/echo`);
    assert.match(r.stdout, /^POST \naccept-encoding: identity\ncontent-length: 3\ncontent-type: application\/x-www-form-urlencoded\n3 /);
  });

  test('headers, HEAD, -f, --compressed, -u', async () => {
    let r = await vm.exec(`curl -s -H 'X-One: 1' -H 'X-Two: two' -u me:pw -e http://ref/ ${srv.base}/echo`);
    assert.equal(r.stdout.split('\n').slice(1, 5).join('\n'), `authorization: Basic ${Buffer.from('me:pw').toString('base64')}\nreferer: http://ref/\nx-one: 1\nx-two: two`);
    r = await vm.exec(`curl -sI ${srv.base}/hello`);
    assert.match(r.stdout, /^HTTP\/1\.1 200 OK\r\nContent-Type: text\/plain\r\nX-Test: yes\r\n/);
    assert.ok(r.stdout.endsWith('\r\n\r\n'));
    r = await vm.exec(`curl -sf ${srv.base}/status/503; echo " $?"; curl -s --fail-with-body ${srv.base}/status/404; echo " $?"`);
    assert.equal(r.stdout, ' 22\nstatus 404\n 22\n');
    r = await vm.exec(`curl -s --compressed ${srv.base}/gzip | head -2`);
    assert.equal(r.stdout, 'compressed hello\ncompressed hello\n');
    r = await vm.exec(`wget -S --spider ${srv.base}/hello; echo "rc=$?"; wget -q ${srv.base}/status/404; echo "rc=$?"`);
    assert.match(r.stderr, / {2}HTTP\/1\.1 200 OK\n {2}Content-Type: text\/plain\n/);
    assert.match(r.stderr, /Remote file exists\./);
    assert.equal(r.stdout, 'rc=0\nrc=8\n');
  });

  test('errors: refused, timeouts (curl -m, wget -T), too many redirects', async () => {
    const port = await closedPort();
    let r = await vm.exec(`curl -sS http://127.0.0.1:${port}/`);
    assert.equal(r.exitCode, 7);
    assert.match(r.stderr, new RegExp(`^curl: \\(7\\) Failed to connect to 127\\.0\\.0\\.1 port ${port} after \\d+ ms: Couldn't connect to server\\n$`));
    const t0 = Date.now();
    r = await vm.exec(`curl -sS -m 1 ${srv.base}/slow?ms=5000`);
    assert.equal(r.exitCode, 28);
    assert.match(r.stderr, /^curl: \(28\) Operation timed out after 1\d{3} milliseconds with 0 bytes received\n$/);
    assert.ok(Date.now() - t0 < 4000);
    r = await vm.exec(`curl -sS -m 1.5 -o /dev/null ${srv.base}/drip`);
    assert.equal(r.exitCode, 28, 'a timeout during the body');
    assert.match(r.stderr, /with [12] bytes received/);
    r = await vm.exec(`wget -q -T 1 -t 1 ${srv.base}/slow?ms=5000`);
    assert.equal(r.exitCode, 4);
    r = await vm.exec(`curl -sSL --max-redirs 2 ${srv.base}/chain/5`);
    assert.deepEqual([r.exitCode, r.stderr], [47, 'curl: (47) Maximum (2) redirects followed\n']);
    await sleep(100);
    assert.ok(srv.aborted.includes('/slow') && srv.aborted.includes('/drip'), 'timed-out requests were cancelled at the server');
  });

  test('SIGINT cancels a transfer waiting for headers and one streaming a body', async () => {
    for (const path of ['/slow?ms=20000', '/drip']) {
      const name = path.replace(/\?.*/, '');
      const abortedBefore = srv.aborted.filter((p) => p === name).length;
      const seenBefore = srv.seen.length;
      const p = await vm.spawn(['/opt/agentos/bin/curl', '-s', '-o', '/dev/null', `${srv.base}${path}`]);
      for (let i = 0; i < 100 && srv.seen.length === seenBefore; i++) await sleep(20);
      await sleep(200);
      await p.kill(2);
      assert.equal(await p.wait(), 130);
      for (let i = 0; i < 50 && srv.aborted.filter((q) => q === name).length === abortedBefore; i++) await sleep(20);
      assert.equal(srv.aborted.filter((q) => q === name).length, abortedBefore + 1, `${path}: the server saw the client go`);
    }
  });
});

describe('the policy on the host API and the CLI', () => {
  const cli = fileURLToPath(new URL('../../../../bin/agentos.js', import.meta.url));
  // Asynchronous: the server runs in this process and must keep answering.
  const agentos = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [cli, ...args], { timeout: 60_000 }, (e, stdout, stderr) =>
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr }),
      ),
    );

  test('a malformed policy is refused before anything boots', () => {
    assert.throws(() => new AgentVM({ network: { allow: ['ftp://x.com'] } }), /only http and https/);
    assert.throws(() => new AgentVM({ network: 'everything' as never }), /want 'none', 'all'/);
  });

  test('agentos exec --allow-host / --network', async () => {
    let r = await agentos('exec', '--allow-host', `http://127.0.0.1:${srv.port} GET`, '--', `curl -sS ${srv.base}/hello; curl -sS -d x ${srv.base}/echo`);
    assert.equal(r.code, 7);
    assert.equal(r.stdout, 'hello\n');
    assert.match(r.stderr, /network access to POST http:\/\/127\.0\.0\.1:\d+ denied by the VM's network policy \(allowlist: http:\/\/127\.0\.0\.1:\d+ GET\)/);
    r = await agentos('exec', '--', 'curl -sS http://example.com/hello');
    assert.equal(r.code, 7, 'none by default');
    assert.match(r.stderr, /\(network: none\)/);
    r = await agentos('exec', '--network', 'all', '--allow-host', 'x.com', '--', 'true');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--allow-host does not go with --network all/);
  });
});

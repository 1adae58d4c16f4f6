// The Linux guest's network (decision 0084): a guest program's HTTP requests are the kernel's
// `http` syscall of the `linux` process, so the VM's network policy and host-held secrets apply
// as they do to curl. A server on 127.0.0.1 (a name mapped to it by the policy's `hosts`) records
// what reaches it. Needs dist/linux/ (scripts/build-linux.mjs); without it the tests skip.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

const built = existsSync(new URL('../../../linux/package.json', import.meta.url));
const skip = !built && 'dist/linux is not built (node scripts/build-linux.mjs needs apt and the Debian mirror)';
const LIMIT = 120_000;
const VALUE = 'sk-REAL-linux-5e1c0a9d77';

let server: Server;
let port = 0;
const seen: { url: string; host: string; auth: string; method: string; body: string }[] = [];
let vm: AgentVM;

before(async () => {
  if (!built) return;
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      seen.push({ url: req.url ?? '', host: req.headers.host ?? '', auth, method: req.method ?? '', body: Buffer.concat(parts).toString() });
      // Echoes the credential it got: the kernel masks the value back to the placeholder.
      res.end(`body of ${req.url} auth=${auth}\n`);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as AddressInfo).port;
  vm = new AgentVM({
    policy: {
      secrets: { API_KEY: { value: VALUE, hosts: ['api.listed.test'] } },
      network: {
        allow: [{ origin: '127.0.0.1' }, { origin: 'api.listed.test', private: true }],
        hosts: { 'api.listed.test': '127.0.0.1', 'other.test': '127.0.0.1' },
      },
    },
  });
  await vm.start();
  const r = await vm.exec('agentos-software install linux >/dev/null');
  assert.equal(r.exitCode, 0, r.stderr);
});

after(async () => {
  await vm?.stop();
  await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
});

const run = (cmd: string) => vm.exec(`linux -c '${cmd.replaceAll('$P', String(port))}'`);

test("an allowed host: the guest's wget gets the body, and the request reached the server", { skip, timeout: LIMIT }, async () => {
  const from = seen.length;
  const r = await run('wget -qO- http://127.0.0.1:$P/x');
  assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, 'body of /x auth=\n', '']);
  assert.deepEqual(seen.slice(from).map((s) => [s.method, s.url, s.host]), [['GET', '/x', `127.0.0.1:${port}`]]);
});

test('any HTTP/1.x client over TCP: a POST written by hand with nc reaches the server with its body', { skip, timeout: LIMIT }, async () => {
  const from = seen.length;
  const r = await run(`printf "POST http://127.0.0.1:$P/post HTTP/1.1\\r\\nHost: 127.0.0.1:$P\\r\\nContent-Length: 7\\r\\nConnection: close\\r\\n\\r\\na=1&b=2" | nc 192.168.86.1 80`);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nbody of \/post auth=\n$/);
  assert.deepEqual(seen.slice(from).map((s) => [s.method, s.url, s.body]), [['POST', '/post', 'a=1&b=2']]);
});

test("a host-held secret: the guest holds the placeholder, the listed host gets the value, the guest reads the placeholder back", { skip, timeout: LIMIT }, async () => {
  const from = seen.length;
  const r = await run('wget -qO- --header "Authorization: Bearer $API_KEY" http://api.listed.test:$P/s');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /^body of \/s auth=Bearer aos-secret-API_KEY-[0-9a-f]{32}\n$/);
  assert.deepEqual(seen.slice(from).map((s) => s.auth), [`Bearer ${VALUE}`]);
});

test("a host the policy does not allow: wget fails with the policy's words, the server sees nothing", { skip, timeout: LIMIT }, async () => {
  const from = seen.length;
  const r = await run('wget -qO- http://other.test:$P/no');
  assert.equal(r.exitCode, 1);
  assert.match(r.stderr, /403 network access to .*other\.test.* denied by the VM's network policy/);
  assert.equal(seen.length, from);
});

test('the request is in the audit trail, as curl’s are', { skip, timeout: LIMIT }, async () => {
  const r = await vm.exec('cat /proc/agentos/audit');
  assert.match(r.stdout, new RegExp(`127\\.0\\.0\\.1:${port}/x`));
});

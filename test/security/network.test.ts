// Issue 14, item 4: a hostile guest reaching the host's own machine or LAN
// through the network syscall. Under `network: 'all'` every spelling of a
// loopback, unspecified, link-local, private, shared, multicast or reserved
// address — IPv4 in decimal/octal/hex/short forms, IPv4-mapped and embedding
// IPv6 forms, `0`, trailing dots, `localhost` names, percent-encoded and IDN
// hosts, userinfo tricks — is refused before any connection is made (the
// servers count connections), names that resolve to such addresses are
// refused after resolving, redirects are re-checked at every hop, and an
// allow entry naming the host (in any spelling) still allows it. A URL on
// the VM's own loopback (localhost, 127/8, ::1, 0.0.0.0, ::: net/loopback.ts)
// is served by the VM's sockets instead: refused here, since nothing listens
// in the VM, and still no host server sees a connection
// (loopback-http.test.ts has the VM's servers).

import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { AgentVM, type AgentVMOptions } from '../../src/host/node/index.js';
import { startServer, type TestServer } from '../kernel/net/server.js';
import { loopbackAddresses } from '../../src/kernel/net/loopback.js';

let v4: TestServer;
/** A server on ::1, when this machine has IPv6 loopback. */
let v6: TestServer | null = null;

before(async () => {
  v4 = await startServer();
  v6 = await startServer('::1').catch(() => null);
});

after(async () => {
  await v4?.close();
  await v6?.close();
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

const connections = () => v4.connections + (v6?.connections ?? 0);

/** `$P` is the IPv4 server's port, `$Q` the IPv6 one's (rows with `$Q` are skipped without IPv6). */
const port = (url: string) => url.replace('$P', String(v4.port)).replace('$Q', String(v6?.port));

/** Spellings a guest may use, and the kind of address each one names. */
const SPELLINGS: [url: string, kind: string][] = [
  // The loopback in the IPv4 forms the URL parser (and inet_aton) accept.
  ['http://127.0.0.1:$P/', 'loopback'],
  ['http://127.1:$P/', 'loopback'],
  ['http://127.0.1:$P/', 'loopback'],
  ['http://127.255.255.254:$P/', 'loopback'],
  ['http://2130706433:$P/', 'loopback'],
  ['http://0x7f000001:$P/', 'loopback'],
  ['http://0x7f.0.0.1:$P/', 'loopback'],
  ['http://0X7F.1:$P/', 'loopback'],
  ['http://0177.0.0.1:$P/', 'loopback'],
  ['http://0177.1:$P/', 'loopback'],
  ['http://017700000001:$P/', 'loopback'],
  ['http://127.000.000.001:$P/', 'loopback'],
  ['http://127.0.0.1.:$P/', 'loopback'],
  ['http://%31%32%37.0.0.1:$P/', 'loopback'],
  ['http://１２７.０.０.１:$P/', 'loopback'],
  ['http://127。0。0。1:$P/', 'loopback'],
  ['http://evil.example@127.0.0.1:$P/', 'loopback'],
  ['http://127.0.0.1:$P\\@evil.example/', 'loopback'],
  // The loopback in IPv6: mapped, compatible, NAT64, 6to4 and Teredo embeddings of 127.0.0.1, and ::1.
  ['http://[::ffff:127.0.0.1]:$P/', 'loopback'],
  ['http://[::ffff:7f00:1]:$P/', 'loopback'],
  ['http://[0:0:0:0:0:ffff:127.0.0.1]:$P/', 'loopback'],
  ['http://[::FFFF:7F00:0001]:$P/', 'loopback'],
  ['http://[::127.0.0.1]:$P/', 'loopback'],
  ['http://[64:ff9b::127.0.0.1]:$P/', 'loopback'],
  ['http://[2002:7f00:1::]:$P/', 'loopback'],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:$P/', 'loopback'],
  ['http://[::1]:$Q/', 'loopback'],
  ['http://[0:0:0:0:0:0:0:1]:$Q/', 'loopback'],
  ['http://[0000::0001]:$Q/', 'loopback'],
  // Unspecified addresses (Linux connects 0.0.0.0 to the loopback).
  ['http://0.0.0.0:$P/', 'unspecified'],
  ['http://0:$P/', 'unspecified'],
  ['http://0x0:$P/', 'unspecified'],
  ['http://0.1.2.3:$P/', 'unspecified'],
  ['http://[::]:$Q/', 'unspecified'],
  ['http://[::ffff:0.0.0.0]:$P/', 'unspecified'],
  // Names that are the loopback by definition (RFC 6761), however spelt.
  ['http://localhost:$P/', 'loopback'],
  ['http://LocalHost:$P/', 'loopback'],
  ['http://localhost.:$P/', 'loopback'],
  ['http://api.localhost:$P/', 'loopback'],
  ['http://%6c%6f%63%61%6c%68%6f%73%74:$P/', 'loopback'],
  ['http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:$P/', 'loopback'],
  // Link-local: the cloud metadata service, and IPv6 link-local.
  ['http://169.254.169.254/latest/meta-data/', 'link-local'],
  ['http://2852039166/', 'link-local'],
  ['http://0xa9.0xfe.0xa9.0xfe/', 'link-local'],
  ['http://[::ffff:169.254.169.254]/', 'link-local'],
  ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
  ['http://[fe80::1]/', 'link-local'],
  // Private, shared (CGNAT), multicast and reserved ranges.
  ['http://10.0.0.1/', 'private'],
  ['http://012.1/', 'private'],
  ['http://172.16.0.1/', 'private'],
  ['http://172.31.255.255/', 'private'],
  ['http://192.168.0.1/', 'private'],
  ['http://[::ffff:192.168.0.1]/', 'private'],
  ['http://[64:ff9b::10.0.0.1]/', 'private'],
  ['http://[fc00::1]/', 'private'],
  ['http://[fd00:ec2::254]/', 'private'],
  ['http://100.64.0.1/', 'shared'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://240.0.0.1/', 'reserved'],
  ['http://255.255.255.255/', 'reserved'],
];

describe("network: 'all' refuses every spelling of a non-public address", () => {
  let vm: AgentVM;
  before(async () => {
    vm = new AgentVM({ network: 'all' });
    await vm.start();
  });
  after(async () => vm?.stop());

  for (const [url, kind] of SPELLINGS) {
    test(`${kind}: ${url}`, async (t) => {
      if (url.includes('$Q') && !v6) return t.skip('no IPv6 loopback here');
      const seen = connections();
      // -m bounds the test should a refusal ever fail (an unreachable address would hang).
      const r = await vm.exec(`curl -sS -m 5 '${port(url)}'`);
      assert.equal(r.exitCode, 7, r.stderr);
      if (loopbackAddresses(new URL(port(url)).hostname)) assert.match(r.stderr, /^curl: \(7\) Failed to connect to \S+ port \d+ after \d+ ms: Couldn't connect to server\n$/);
      else assert.match(r.stderr, new RegExp(`^curl: \\(7\\) network access to \\S+ (\\(\\S+\\) )?denied by the VM's network policy \\(private address: ${kind}; `));
      assert.equal(connections(), seen, 'no server saw a connection');
    });
  }

  test('the refusal is the kernel\'s, for every client: wget, and a program calling the syscall with the raw string', async () => {
    const seen = connections();
    let r = await vm.exec(`wget -T 5 -O - 'http://[::127.0.0.1]:${v4.port}/hello'`);
    assert.equal(r.exitCode, 4);
    assert.match(r.stderr, /denied by the VM's network policy \(private address: loopback; /);
    await vm.writeFile('/tmp/raw.js', `#!/usr/libexec/agentos/js
for (const url of ['http://0x7f.1:${v4.port}/hello', '\\thttp://[::ffff:127.0.0.1]:${v4.port}/hello', 'HTTP://LOCALHOST.:${v4.port}/hello']) {
  try { agentos.sys.http({ method: 'GET', url, timeoutMs: 5000 }); agentos.print('reached ' + url + '\\n'); }
  catch (e) { agentos.print(e.code + ' ' + e.message + '\\n'); }
}
`);
    r = await vm.exec('chmod +x /tmp/raw.js && /tmp/raw.js');
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 3, r.stdout + r.stderr);
    // The VM's own loopback, where nothing listens.
    for (const l of lines) assert.match(l, /^ECONNREFUSED ECONNREFUSED: Connection refused \(nothing listens on \S+ port \d+ in the VM\)$/);
    assert.equal(connections(), seen);
  });

  test('a name the system resolver maps to the loopback is refused after resolving', async (t) => {
    // Names such as the machine's own (in /etc/hosts) are not recognisable by
    // their spelling: the Node host checks the address it resolved.
    let name: string | null = null;
    for (const n of [hostname(), 'ip6-localhost', 'ip6-loopback']) {
      const a = await lookup(n).catch(() => null);
      if (a && /^(127\.|::1$)/.test(a.address) && !/localhost/i.test(n)) {
        name = n;
        break;
      }
    }
    if (!name) return t.skip('no name here resolves to the loopback');
    const seen = connections();
    const r = await vm.exec(`curl -sS -m 5 http://${name}:${v4.port}/hello`);
    assert.equal(r.exitCode, 7, r.stderr);
    assert.match(r.stderr, new RegExp(`network access to ${name} \\(\\S+\\) denied by the VM's network policy \\(private address: `));
    assert.equal(connections(), seen);
  });
});

describe('names resolving to non-public addresses (DNS rebinding)', () => {
  // `hosts` is the resolver the test controls (the Node host uses it instead of DNS).
  const hosts = {
    'loop.example.test': '127.0.0.1',
    'mapped.example.test': '::ffff:127.0.0.1',
    'mapped-hex.example.test': '::ffff:7f00:1',
    'v6.example.test': '::1',
    'meta.example.test': '169.254.169.254',
    'nat64.example.test': '64:ff9b::a9fe:a9fe',
  };

  test('are refused under an allowlist of every public host', async () => {
    await withVm({ allow: ['*'], hosts }, async (vm) => {
      for (const [name, address] of Object.entries(hosts)) {
        const seen = connections();
        const p = address === '::1' && v6 ? v6.port : v4.port;
        const r = await vm.exec(`curl -sS -m 5 http://${name}:${p}/hello`);
        assert.equal(r.exitCode, 7, `${name}: ${r.stderr}`);
        assert.match(r.stderr, new RegExp(`^curl: \\(7\\) network access to ${name.replace(/\./g, '\\.')} \\(\\S+\\) denied by the VM's network policy \\(private address: `), name);
        assert.equal(connections(), seen, `${name}: no server saw a connection`);
      }
    });
  });

  test('redirects from an allowed host to a non-public one are refused at that hop', async () => {
    // The "public" host is the test's own server, reached by name through `hosts`
    // (it needs `private: true` only because the test serves it from the loopback).
    const policy = { allow: [{ origin: 'public.example.test', private: true }, '*'], hosts: { ...hosts, 'public.example.test': '127.0.0.1' } };
    await withVm(policy, async (vm) => {
      const from = `http://public.example.test:${v4.port}/redirect?to=`;
      for (const to of [`http://[::ffff:7f00:1]:${v4.port}/hello`, `http://2130706433:${v4.port}/hello`, `http://localhost.:${v4.port}/hello`, `http://loop.example.test:${v4.port}/hello`, 'http://169.254.169.254/latest/meta-data/']) {
        const seen = connections();
        const hellos = v4.seen.filter((p) => p === '/hello').length;
        const r = await vm.exec(`curl -sSL -m 5 '${from}${encodeURIComponent(to)}'`);
        assert.equal(r.exitCode, 7, `${to}: ${r.stderr}`);
        if (loopbackAddresses(new URL(to).hostname)) assert.match(r.stderr, /Failed to connect to \S+ port \d+ /, to);
        else assert.match(r.stderr, /denied by the VM's network policy \(private address: (loopback|link-local); /, to);
        assert.equal(connections(), seen + 1, `${to}: only the first hop connected`);
        assert.equal(v4.seen.filter((p) => p === '/hello').length, hellos, `${to}: the redirect target saw nothing`);
      }
    });
  });
});

describe('explicit allow entries still allow private addresses, in any spelling', () => {
  test('an entry naming the address allows its other spellings, and nothing else', async () => {
    await withVm({ allow: [`127.0.0.1:${v4.port}`] }, async (vm) => {
      for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '127.0.0.1.', '[::ffff:7f00:1]']) {
        const r = await vm.exec(`curl -sS -m 5 http://${host}:${v4.port}/hello`);
        assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, 'hello\n', ''], host);
      }
      const r = await vm.exec(`curl -sS -m 5 http://localhost:${v4.port}/hello`);
      assert.equal(r.exitCode, 7, 'localhost is another host: not named, the VM\'s own loopback');
      assert.match(r.stderr, /Failed to connect to localhost port \d+ /);
    });
  });

  test('entries in other spellings, localhost names and IPv6 literals', async () => {
    const allow = [`http://0x7f.1:${v4.port}`, 'localhost', ...(v6 ? [`[0:0:0:0:0:0:0:1]:${v6.port}`] : [])];
    await withVm({ allow }, async (vm) => {
      const urls = [`http://127.0.0.1:${v4.port}/hello`, `http://localhost:${v4.port}/hello`];
      if (v6) urls.push(`http://[::1]:${v6.port}/hello`);
      for (const url of urls) {
        const r = await vm.exec(`curl -sS -m 5 ${url}`);
        assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, 'hello\n', ''], url);
      }
    });
  });

  test('private: true on a name allows what it resolves to', async () => {
    await withVm({ allow: [{ origin: 'mapped.example.test', private: true }], hosts: { 'mapped.example.test': '::ffff:7f00:1' } }, async (vm) => {
      const r = await vm.exec(`curl -sS -m 5 http://mapped.example.test:${v4.port}/hello`);
      assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, 'hello\n', '']);
    });
  });
});

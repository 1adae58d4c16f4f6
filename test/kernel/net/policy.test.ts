// The network policy object alone: parsing, matching, denial messages.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { policyFromFlags } from '../../../src/cli/policy-flags.js';
import { NetPolicy } from '../../../src/kernel/net/policy.js';

const allowed = (p: NetPolicy, m: string, u: string) => p.check(m, u).allowed;

test('policy: none denies everything and names itself', () => {
  const d = new NetPolicy('none').check('GET', 'https://x.com/a?b');
  assert.deepEqual(d, { allowed: false, message: "network access to https://x.com denied by the VM's network policy (network: none)" });
  assert.equal(new NetPolicy().mode, 'none');
});

test('policy: all allows public http(s) only, never private addresses', () => {
  const p = new NetPolicy('all');
  assert.deepEqual(p.check('DELETE', 'https://x.com/'), { allowed: true, allowPrivate: false, rule: 'network: all' });
  assert.equal(allowed(p, 'GET', 'ftp://x.com/'), false);
  assert.equal(allowed(p, 'GET', 'not a url'), false);
});

test('policy: hosts, origins, ports, wildcards', () => {
  const p = new NetPolicy({ allow: ['example.com', '*.api.test', 'https://secure.test', 'http://plain.test:8080', 'local:9000'] });
  assert.equal(allowed(p, 'GET', 'http://example.com/x'), true);
  assert.equal(allowed(p, 'GET', 'https://example.com:8443/x'), true, 'a host entry allows any scheme and port');
  assert.equal(allowed(p, 'GET', 'https://www.example.com/'), false, 'no implicit subdomains');
  assert.equal(allowed(p, 'GET', 'https://a.api.test/'), true);
  assert.equal(allowed(p, 'GET', 'https://a.b.api.test/'), true);
  assert.equal(allowed(p, 'GET', 'https://api.test/'), false, 'a wildcard does not match the apex');
  assert.equal(allowed(p, 'GET', 'https://evilapi.test/'), false);
  assert.equal(allowed(p, 'GET', 'https://secure.test/path'), true);
  assert.equal(allowed(p, 'GET', 'https://secure.test:443/'), true);
  assert.equal(allowed(p, 'GET', 'http://secure.test/'), false, 'an origin entry pins the scheme');
  assert.equal(allowed(p, 'GET', 'https://secure.test:444/'), false, 'and the port');
  assert.equal(allowed(p, 'GET', 'http://plain.test:8080/'), true);
  assert.equal(allowed(p, 'GET', 'http://plain.test/'), false);
  assert.equal(allowed(p, 'GET', 'http://local:9000/'), true);
  assert.equal(allowed(p, 'GET', 'http://local:9001/'), false);
  assert.equal(allowed(p, 'GET', 'http://EXAMPLE.com/'), true, 'host names are case-insensitive');
});

test('policy: methods per entry', () => {
  const p = new NetPolicy({ allow: ['https://api.x.com GET,post', { origin: 'up.x.com', methods: ['PUT'] }] });
  assert.equal(allowed(p, 'GET', 'https://api.x.com/'), true);
  assert.equal(allowed(p, 'POST', 'https://api.x.com/'), true);
  const d = p.check('DELETE', 'https://api.x.com/v1');
  assert.equal(d.allowed, false);
  assert.equal(!d.allowed && d.message, "network access to DELETE https://api.x.com denied by the VM's network policy (allowlist: https://api.x.com GET,post, up.x.com PUT)");
  assert.equal(allowed(p, 'PUT', 'http://up.x.com/'), true);
  assert.equal(allowed(p, 'GET', 'http://up.x.com/'), false);
});

test('policy: private addresses only for hosts named literally or marked private', () => {
  const p = new NetPolicy({ allow: ['localhost', '127.0.0.1:8080', 'svc.test', { origin: 'db.test', private: true }, '*'] });
  assert.deepEqual(p.check('GET', 'http://localhost:3000/'), { allowed: true, allowPrivate: true, rule: 'localhost' });
  assert.deepEqual(p.check('GET', 'http://127.0.0.1:8080/'), { allowed: true, allowPrivate: true, rule: '127.0.0.1:8080' });
  assert.deepEqual(p.check('GET', 'http://svc.test/'), { allowed: true, allowPrivate: false, rule: 'svc.test' }, 'a name may not rebind to a private address');
  assert.deepEqual(p.check('GET', 'http://db.test/'), { allowed: true, allowPrivate: true, rule: 'db.test' });
  assert.deepEqual(p.check('GET', 'http://anything.example/'), { allowed: true, allowPrivate: false, rule: '*' }, '* is every public host');
});

test('policy: malformed policies are refused', () => {
  assert.throws(() => new NetPolicy('some' as never), /want 'none', 'all'/);
  assert.throws(() => new NetPolicy({ allow: ['https://x.com/path'] }), /not an origin/);
  assert.throws(() => new NetPolicy({ allow: ['ftp://x.com'] }), /only http and https/);
  assert.throws(() => new NetPolicy({ allow: ['x.com GET PUT'] }), /bad entry/);
  assert.throws(() => new NetPolicy({ allow: ['x.com G3T'] }), /bad method/);
  assert.throws(() => new NetPolicy({ allow: ['a b/c'] }), /bad host|bad method/);
});

test('policy: CLI flags', () => {
  assert.equal(policyFromFlags(undefined, []), 'none');
  assert.equal(policyFromFlags('all', []), 'all');
  assert.deepEqual(policyFromFlags(undefined, ['a.com', 'https://b.com GET']), { allow: ['a.com', 'https://b.com GET'] });
  assert.throws(() => policyFromFlags('all', ['a.com']), /does not go with/);
  assert.throws(() => policyFromFlags('some', []), /must be none, all/);
});

test('policy: non-public addresses are refused by their spelling, on every host', () => {
  const urls = ['http://127.1/', 'http://0x7f000001/', 'http://[::ffff:7f00:1]/', 'http://[::ffff:a9fe:a9fe]/', 'http://0/', 'http://api.localhost/', 'http://localhost./'];
  for (const p of [new NetPolicy('all'), new NetPolicy({ allow: ['*'] })]) {
    for (const url of urls) {
      const d = p.check('GET', url);
      assert.equal(d.allowed, false, `${p.describe()} ${url}`);
      assert.match(!d.allowed ? d.message : '', /denied by the VM's network policy \(private address: (loopback|link-local|unspecified); /);
    }
  }
  assert.equal(allowed(new NetPolicy({ allow: ['*.localhost'] }), 'GET', 'http://api.localhost/'), false, 'a wildcard does not name a host');
  const d = new NetPolicy('all').check('GET', 'http://[::ffff:7f00:1]:8080/x');
  assert.deepEqual(d, { allowed: false, message: "network access to [::ffff:7f00:1] (127.0.0.1) denied by the VM's network policy (private address: loopback; allow the host by name or with private: true)" });
  assert.deepEqual(new NetPolicy('all').check('GET', 'http://[::ffff:808:808]/'), { allowed: true, allowPrivate: false, rule: 'network: all' }, 'a mapped public address is public');
  assert.equal(allowed(new NetPolicy({ allow: [{ origin: '*', private: true }] }), 'GET', 'http://10.1/'), true, 'private: true allows them');
});

test('policy: entries and requests are compared in one canonical spelling', () => {
  const p = new NetPolicy({ allow: ['0x7f.1:8080', 'http://[0:0:0:0:0:0:0:1]:9000', 'Example.COM.', '*.Api.Test'] });
  for (const url of ['http://127.0.0.1:8080/', 'http://2130706433:8080/', 'http://[::ffff:127.0.0.1]:8080/', 'http://127.0.0.1.:8080/']) {
    assert.deepEqual(p.check('GET', url), { allowed: true, allowPrivate: true, rule: '0x7f.1:8080' }, url);
  }
  assert.deepEqual(p.check('GET', 'http://[::1]:9000/'), { allowed: true, allowPrivate: true, rule: 'http://[0:0:0:0:0:0:0:1]:9000' });
  assert.equal(allowed(p, 'GET', 'http://127.0.0.2:8080/'), false, 'another address');
  assert.equal(allowed(p, 'GET', 'http://localhost:8080/'), false, 'a name for it is another host');
  assert.equal(allowed(p, 'GET', 'http://example.com/'), true);
  assert.equal(allowed(p, 'GET', 'http://EXAMPLE.com./'), true);
  assert.equal(allowed(p, 'GET', 'http://x.api.test./'), true);
  const h = new NetPolicy({ allow: ['a.test'], hosts: { 'A.Test.': '0x7f.1', 'b.test': '::FFFF:127.0.0.1' } });
  assert.deepEqual([...h.hosts], [['a.test', '127.0.0.1'], ['b.test', '::ffff:7f00:1']]);
  assert.throws(() => new NetPolicy({ allow: [], hosts: { 'a.test': 'b.test' } }), /hosts: 'a\.test' must map to an IP address/);
});

// The policy object's shape: strict checking (a misspelt or malformed rule is
// an error, never a looser VM) and the network policy as part of it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';
import { checkPolicy, networkOf } from '../../../src/kernel/policy/types.js';

test('policy.network is checked with the rest, copied and frozen', () => {
  const input = { network: { allow: ['example.com'] } };
  const p = checkPolicy(input);
  input.network.allow.push('*');
  assert.deepEqual(p.network, { allow: ['example.com'] }, 'later changes to the input do not reach the VM');
  assert.throws(() => checkPolicy({ network: 'some' }), /policy: network policy: want 'none', 'all'/);
  assert.throws(() => checkPolicy({ network: { allow: ['https://x.com/path'] } }), /is not an origin/);
  assert.throws(() => checkPolicy({ netwrok: 'all' }), /unknown key netwrok/);
});

test('the network given twice must agree; policy.network alone is the VM network', () => {
  assert.equal(networkOf(checkPolicy({ network: 'all' }), undefined), 'all');
  assert.equal(networkOf(checkPolicy({}), undefined), 'none');
  assert.equal(networkOf(checkPolicy({ network: 'all' }), 'all'), 'all');
  assert.throws(() => networkOf(checkPolicy({ network: 'none' }), 'all'), /given twice/);
  assert.throws(() => new AgentVM({ policy: { network: 'none' }, network: 'all' }), /given twice/);
  assert.throws(() => new AgentVM({ policy: { network: { allow: 'x.com' } as never } }), /network/);
});

test('policy.network is enforced by the kernel', async () => {
  const vm = new AgentVM({ policy: { network: { allow: ['localhost:9 GET'] } } });
  await vm.start();
  try {
    const r = await vm.exec('curl -sS http://example.com/');
    assert.equal(r.stderr, "curl: (7) network access to http://example.com denied by the VM's network policy (allowlist: localhost:9 GET)\n");
  } finally {
    await vm.stop();
  }
});

// The message a node http/https client writes, turned into the kernel's http request (http-kernel.ts):
// the request goes to the host the client named, whatever its path says.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kernelRequest } from '../../../src/runtimes/node/http-kernel.js';

const head = (target: string) => new TextEncoder().encode(`GET ${target} HTTP/1.1\r\nHost: evil.test\r\nX-A: 1\r\n\r\n`);

test('a path that does not start with / cannot move the request to another host (userinfo, absolute form)', () => {
  for (const target of ['@evil.test/x', 'http://evil.test/x', '.evil.test/x', ':1@evil.test/']) {
    const req = kernelRequest(head(target), 'http://allowed.test:8080');
    const u = new URL(req.url);
    assert.equal(u.host, 'allowed.test:8080', `${target} -> ${req.url}`);
    assert.equal(u.username + u.password, '');
  }
  const req = kernelRequest(head('/a?b=1'), 'https://allowed.test');
  assert.equal(req.url, 'https://allowed.test/a?b=1');
  assert.deepEqual(req.headers, [['X-A', '1']]);
});

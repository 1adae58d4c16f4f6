// The kernel's HTTP path with host-held secrets (src/kernel/net/secrets.ts),
// driven directly as the kernel's own model service drives it (NetStack.fetch
// with the key header set to the placeholder): what the host's fetch is
// given, and what comes back — the value masked across every chunk boundary,
// and a stream's bytes passed on at once unless they may start a value.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NetError, type HostFetch, type HostRequest, type HostResponse } from '../../../src/kernel/net/host.js';
import { NetPolicy } from '../../../src/kernel/net/policy.js';
import { NetStack } from '../../../src/kernel/net/stack.js';
import { HostSecrets } from '../../../src/kernel/net/secrets.js';

const VALUE = 'sk-kernel-0123456789';
const enc = new TextEncoder();
const dec = new TextDecoder();

function stack(fetch: HostFetch): { net: NetStack; token: string } {
  const secrets = new HostSecrets({ KEY: { value: VALUE, hosts: ['api.x.com', '*.y.org'] } });
  const token = secrets.environ(['A=1']).find((kv) => kv.startsWith('KEY='))!.slice(4);
  return { net: new NetStack(new NetPolicy('all'), fetch, secrets), token };
}

function request(url: string, headers: [string, string][]): HostRequest {
  return { method: 'POST', url, headers, body: enc.encode('body'), allowPrivate: false, hosts: new Map(), connectTimeoutMs: 1000, mayFollow: true, signal: new AbortController().signal };
}

/** A response whose body is `chunks`, each handed over when `release` is called (or at once). */
function response(chunks: string[], extra: Partial<HostResponse> = {}): HostResponse {
  let i = 0;
  return {
    status: 200, statusText: 'OK', httpVersion: '1.1', headers: [], url: 'https://api.x.com/', remote: '', decoded: false,
    body: { next: () => Promise.resolve(i < chunks.length ? { done: false, value: enc.encode(chunks[i++]) } : { done: true, value: undefined }) },
    ...extra,
  };
}

async function readAll(res: HostResponse): Promise<string[]> {
  const out: string[] = [];
  for (;;) {
    const r = await res.body.next();
    if (r.done) return out;
    out.push(dec.decode(r.value));
  }
}

test('the token becomes the value in header values for a listed host only; URL and body keep it', async () => {
  const sent: HostRequest[] = [];
  const { net, token } = stack(async (req) => (sent.push(req), response([])));
  assert.match(token, /^aos-secret-KEY-[0-9a-f]{32}$/);
  const cases: [url: string, substituted: boolean][] = [
    ['https://api.x.com/v1', true],
    ['https://API.X.COM./v1', true],
    ['http://api.x.com:8443/v1', true],
    ['https://eu.y.org/', true],
    ['https://y.org/', false],
    ['https://api.x.com.evil.com/', false],
    ['https://evilapi.x.com/', false],
    ['https://x.com/', false],
    [`https://other.com/?k=${token}`, false],
  ];
  for (const [url, substituted] of cases) {
    await net.fetch!(request(url, [['Authorization', `Bearer ${token}`], [`X-${token}`, 'n']]));
    const req = sent.at(-1)!;
    assert.equal(req.headers[0][1], substituted ? `Bearer ${VALUE}` : `Bearer ${token}`, url);
    assert.equal(req.headers[1][0], `X-${token}`, 'header names keep the token');
    assert.equal(req.url, url);
    assert.equal(dec.decode(req.body as Uint8Array), 'body');
    // Carrying a value: no compressed echo, and no redirect the host would follow on its own.
    assert.equal(req.mayFollow, !substituted, url);
    assert.equal(req.headers.some(([k, v]) => k === 'Accept-Encoding' && v === 'identity'), substituted, url);
  }
  // A request without the token is passed as it is, whatever its host.
  const plain = request('https://api.x.com/', [['Accept-Encoding', 'gzip']]);
  await net.fetch!(plain);
  assert.equal(sent.at(-1), plain);
});

test('an echo is masked in status text, headers and a body cut at every position', async () => {
  const echo = `{"you sent":"${VALUE}","again":"${VALUE}${VALUE}"}`;
  for (let cut = 0; cut <= echo.length; cut++) {
    for (const third of [cut, Math.min(echo.length, cut + 3)]) {
      const chunks = [echo.slice(0, cut), echo.slice(cut, third), echo.slice(third)];
      const { net, token } = stack(async () => response(chunks, { statusText: `bad ${VALUE}`, headers: [['X-Echo', VALUE], [VALUE, '1']] }));
      const res = await net.fetch!(request('https://api.x.com/', [['x-api-key', token]]));
      const body = (await readAll(res)).join('');
      assert.equal(body, echo.replaceAll(VALUE, token), `cut at ${cut}, ${third}`);
      assert.equal(res.statusText, `bad ${token}`);
      assert.deepEqual(res.headers, [['X-Echo', token], [token, '1']]);
    }
  }
});

test('a stream is passed on at once: only a tail that may start the value waits', async () => {
  const { net, token } = stack(async () => response(['data: {"a":1}\n\n', 'data: sk-ker', 'nel-0123456789 ok\n\n', 'data: sk-x\n\n']));
  const res = await net.fetch!(request('https://api.x.com/', [['x-api-key', token]]));
  assert.deepEqual(await readAll(res), ['data: {"a":1}\n\n', 'data: ', `${token} ok\n\n`, 'data: sk-x\n\n']);
});

test('an encoded response to a request carrying a value is refused; host errors quoting it are masked', async () => {
  let returned = false;
  const gz = response(['x'], { headers: [['Content-Encoding', 'gzip']] });
  gz.body.return = async () => ((returned = true), { done: true, value: undefined });
  const a = stack(async () => gz);
  await assert.rejects(a.net.fetch!(request('https://api.x.com/', [['x-api-key', a.token]])), (e: NetError) => e instanceof NetError && /encoded \(gzip\)/.test(e.message));
  assert.ok(returned, 'the body is let go');
  const b = stack(async () => {
    throw new NetError(71, `server said: bad key ${VALUE}`);
  });
  await assert.rejects(b.net.fetch!(request('https://api.x.com/', [['x-api-key', b.token]])), (e: NetError) => e.errno === 71 && e.message === `server said: bad key ${b.token}`);
});

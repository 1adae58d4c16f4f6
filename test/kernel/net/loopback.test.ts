// The http syscall to the VM's own loopback (decision 0070): curl, wget,
// node's fetch and Python's urllib reach a server listening in the VM (a
// guest program, vm-server.ts), through the kernel's HTTP/1.1 client over
// the VM's sockets — under the default policy, network: none. Framing
// (Content-Length, chunked, to the close, 1xx), HEAD, POST and streamed
// uploads, megabytes both ways, redirects, a body cut short (an error, not a
// shorter answer), timeouts, and nothing listening (refused).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';
import { serve, VM_SERVER } from './vm-server.js';

let vm: AgentVM;

before(async () => {
  vm = new AgentVM();
  await vm.start();
  await vm.writeFile('/tmp/srv.js', VM_SERVER);
  await vm.exec('chmod +x /tmp/srv.js');
});
after(async () => {
  await vm?.stop();
});

/** Run `cmd` with the VM server on `port` around it. */
async function withServer(port: number, cmd: string, address?: string) {
  return vm.exec(`${serve(port, address)} ${cmd}; kill $SRV; wait $SRV 2>/dev/null; true`, { timeoutMs: 60_000 });
}

/** The bytes /big sends: byte i is (i*31+7)&255. */
function pattern(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + 7) & 0xff;
  return b;
}

/** FNV-1a, as the server hashes what it received. */
function fnv(b: Uint8Array): string {
  let h = 0x811c9dc5;
  for (const x of b) h = Math.imul(h ^ x, 16777619) >>> 0;
  return h.toString(16);
}

describe('curl and wget reach servers in the VM', () => {
  test('GET localhost: the head, the body, and the request as the server saw it', async () => {
    const r = await withServer(18080, `curl -sS -i http://localhost:18080/hello; curl -sS 'http://localhost:18080/echo?q=1' -H 'X-One: 1'`);
    assert.equal(r.stderr, '');
    assert.equal(
      r.stdout,
      'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Served-By: vm\r\nContent-Length: 6\r\n\r\nhello\n' +
        'GET ?q=1\nhost: localhost:18080\nx-one: 1\nconnection: close\n0 811c9dc5\n',
    );
  });

  test('every loopback spelling: 127.0.0.1, 127.1, [::1], [::ffff:127.0.0.1], 0.0.0.0, LOCALHOST., api.localhost; wget too', async () => {
    const urls = ['127.0.0.1', '127.1', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0', 'LOCALHOST.', 'api.localhost'].map((h) => `http://${h}:18081/hello`);
    const r = await withServer(18081, `for u in ${urls.join(' ')}; do curl -sS $u; done; wget -qO- http://127.0.0.1:18081/hello`, '::');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'hello\n'.repeat(urls.length + 1));
  });

  test('a server bound to 127.0.0.2 is reached by that address only', async () => {
    const r = await withServer(18082, 'curl -sS http://127.0.0.2:18082/hello; curl -s http://127.0.0.1:18082/hello; echo "rc=$?"', '127.0.0.2');
    assert.equal(r.stdout, 'hello\nrc=7\n');
  });

  test('HEAD, POST with a body, a streamed (chunked) upload, and a 100 Continue', async () => {
    const r = await withServer(
      18083,
      `curl -sSI http://localhost:18083/hello; curl -sS -d 'a=1&b=2' http://localhost:18083/echo; seq 3 | curl -sS -T - http://localhost:18083/echo; curl -sS http://localhost:18083/continue`,
    );
    assert.equal(r.stderr, '');
    const posted = fnv(Buffer.from('a=1&b=2'));
    const streamed = fnv(Buffer.from('1\n2\n3\n'));
    assert.equal(
      r.stdout,
      'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Served-By: vm\r\nContent-Length: 6\r\n\r\n' +
        `POST \nhost: localhost:18083\ncontent-type: application/x-www-form-urlencoded\ncontent-length: 7\nconnection: close\n7 ${posted}\n` +
        `PUT \nhost: localhost:18083\ntransfer-encoding: chunked\nconnection: close\n6 ${streamed}\n` +
        'ok\n',
    );
  });

  test('megabytes both ways: an 8 MiB download and a 4 MiB streamed upload arrive whole', async () => {
    const down = 8 * 1024 * 1024;
    const up = 4 * 1024 * 1024;
    // --data-binary passes its bytes through the syscall channel (at most 256 KiB); -T streams from the fd.
    const small = 200 * 1024;
    const r = await withServer(
      18084,
      `curl -sS http://localhost:18084/big?n=${down} | sha256sum; head -c ${small} /dev/zero > /tmp/up; curl -sS --data-binary @/tmp/up http://localhost:18084/echo | tail -1; head -c ${up} /dev/zero | curl -sS -T - http://localhost:18084/echo | tail -1`,
    );
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, `${createHash('sha256').update(pattern(down)).digest('hex')}  -\n${small} ${fnv(new Uint8Array(small))}\n${up} ${fnv(new Uint8Array(up))}\n`);
  });

  test('chunked and close-delimited bodies', async () => {
    const r = await withServer(18085, 'curl -sS http://localhost:18085/chunked; curl -sS -i http://localhost:18085/close');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'first second third\nHTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the close\n');
  });

  test('redirects are followed hop by hop, to another server in the VM too', async () => {
    const to = encodeURIComponent('http://127.0.0.1:18087/hello');
    const r = await withServer(18086, `${serve(18087).replace('SRV=', 'SRV2=')} curl -sSL -w '%{num_redirects}\\n' 'http://localhost:18086/redirect?to=/hello' 'http://localhost:18086/redirect?to=${to}'; kill $SRV2`);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'hello\n1\nhello\n1\n');
  });

  test('a body cut short is an error (curl 18, wget 4), not a shorter answer', async () => {
    const r = await withServer(18088, `curl -sS -o /dev/null http://localhost:18088/cut; echo "rc=$?"; curl -sS -o /dev/null http://localhost:18088/cut-chunked; echo "rc=$?"; wget -q -O /dev/null http://localhost:18088/cut; echo "rc=$?"`);
    assert.equal(r.stdout, 'rc=18\nrc=18\nrc=4\n');
    assert.match(r.stderr, /^curl: \(18\) transfer closed with 90 bytes remaining to read\ncurl: \(18\) transfer closed with outstanding read data remaining\n/);
  });

  test('timeouts: curl -m on a server that never answers; the server then serves the next request', async () => {
    const r = await withServer(18089, `curl -sS -m 1 http://localhost:18089/hang; echo "rc=$?"; wget -q -T 1 -t 1 -O - http://localhost:18089/hang; echo "rc=$?"; curl -sS http://localhost:18089/hello`);
    assert.equal(r.stdout, 'rc=28\nrc=4\nhello\n');
    assert.match(r.stderr, /^curl: \(28\) Operation timed out after 1\d{3} milliseconds with 0 bytes received\n/);
  });

  test('nothing listening: refused, as for any host (curl 7, wget 4)', async () => {
    const r = await vm.exec('curl -sS http://localhost:18090/; echo "rc=$?"; wget -q -O - http://127.0.0.1:18090/; echo "rc=$?"');
    assert.equal(r.stdout, 'rc=7\nrc=4\n');
    assert.match(r.stderr, /^curl: \(7\) Failed to connect to localhost port 18090 after \d+ ms: Couldn't connect to server\n/);
  });

  test('https to a server in the VM is a protocol error (no TLS in the kernel)', async () => {
    const r = await withServer(18091, 'curl -sS https://localhost:18091/hello; echo "rc=$?"');
    assert.equal(r.stdout, 'rc=56\n');
    assert.match(r.stderr, /TLS is not available to servers in the VM/);
  });
});

describe('runtimes on the http syscall reach servers in the VM', () => {
  test("node's global fetch", async () => {
    await vm.writeFile('/tmp/f.mjs', `
      const res = await fetch('http://localhost:18092/hello');
      console.log(res.status, res.headers.get('x-served-by'), JSON.stringify(await res.text()));
      const post = await fetch('http://127.0.0.1:18092/echo', { method: 'POST', body: 'xyz' });
      console.log((await post.text()).split('\\n')[0]);
      try { await fetch('http://localhost:18093/'); } catch (e) { console.log(e.cause?.code ?? e.message); }
    `);
    const r = await withServer(18092, 'node /tmp/f.mjs');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, '200 vm "hello\\n"\nPOST \nECONNREFUSED\n');
  });

  test("Python's urllib", async () => {
    await vm.writeFile('/tmp/u.py', `
import urllib.request, urllib.error, errno
with urllib.request.urlopen('http://localhost:18094/hello') as r:
    print(r.status, r.headers['X-Served-By'], r.read())
try:
    urllib.request.urlopen('http://127.0.0.1:18095/')
except urllib.error.URLError as e:
    print('URLError', e.reason.errno == errno.ECONNREFUSED)
`);
    const r = await withServer(18094, 'python3 /tmp/u.py');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, "200 vm b'hello\\n'\nURLError True\n");
  });
});

// Non-ASCII through the kernel's loopback HTTP path (decision 0070), under
// LANG=C.UTF-8: curl and Python's urllib (the http syscall) to a node http
// server in the VM. Header values are bytes (the syscall takes them one char
// per byte, as fetch's Headers): text from curl's command line goes as its
// UTF-8, a str from urllib as latin-1 (CPython's http.client), a server's
// latin1 byte reaches curl's output as that byte. Paths are percent-encoded
// UTF-8, bodies exact. A value that names no byte is a clean error.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

let vm: AgentVM;

/** Echoes the URL, the X-Name header's bytes and the body's, in hex; /latin1 answers a header Node writes as latin1 (é = 0xE9). */
const SERVER = `const http = require('http');
const hex = (s) => Buffer.from(s, 'latin1').toString('hex');
http.createServer((req, res) => {
  const parts = [];
  req.on('data', (d) => parts.push(d));
  req.on('end', () => {
    if (req.url === '/latin1') res.setHeader('X-Latin', 'caf\\u00e9');
    if (req.url === '/wide') {
      try { res.setHeader('X-Wide', 'caf\\u0115'); } catch (e) { res.setHeader('X-Err', e.code + ': ' + e.message); }
    }
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    const body = Buffer.concat(parts);
    res.end(req.url + ' ' + hex(req.headers['x-name'] || '') + ' ' + body.toString('hex') + ' ' + body.toString() + ' ✓ ünï\\n');
  });
}).listen(3100, () => require('fs').writeFileSync('/tmp/ready', 'y'));
`;

before(async () => {
  vm = new AgentVM({ env: { LANG: 'C.UTF-8' } });
  await vm.start();
  await vm.writeFile('/tmp/srv.js', SERVER);
  const r = await vm.exec('node /tmp/srv.js >/tmp/srv.log 2>&1 & until [ -s /tmp/ready ]; do :; done');
  assert.equal(r.exitCode, 0);
});
after(async () => {
  await vm?.stop();
});

const hex = (s: string) => Buffer.from(s).toString('hex');

test('curl: a UTF-8 header value, path and body reach the server as their UTF-8 bytes; the UTF-8 answer is exact', async () => {
  const r = await vm.exec(`curl -sS -H 'X-Name: café ✓' --data-binary 'žluťoučký' 'http://localhost:3100/päth/caf%C3%A9?q=ü'`);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, `/p%C3%A4th/caf%C3%A9?q=%C3%BC ${hex('café ✓')} ${hex('žluťoučký')} žluťoučký ✓ ünï\n`);
});

test('curl -i and -D: a latin1 byte in a response header comes out as that byte, not re-encoded', async () => {
  const r = await vm.exec(`curl -sS -i -D /tmp/h http://localhost:3100/latin1 | grep -a '^X-Latin' | od -An -tx1; grep -a '^X-Latin' /tmp/h | od -An -tx1`);
  assert.equal(r.stderr, '');
  const line = ' 58 2d 4c 61 74 69 6e 3a 20 63 61 66 e9 0d 0a\n'; // "X-Latin: caf\xe9\r\n"
  assert.equal(r.stdout, line + line);
});

test("python urllib: a str header is latin-1, bytes go as they are, a char past latin-1 is UnicodeEncodeError; the server's latin1 header reads back", { timeout: 60_000 }, async () => {
  const r = await vm.exec(`python3 -c '
import urllib.request
def get(path, name, data=None):
    req = urllib.request.Request("http://localhost:3100" + path, data=data, headers={"X-Name": name})
    with urllib.request.urlopen(req) as r:
        return r.read().decode(), r.headers.get("X-Latin")
print(get("/p%C3%A4th", "café", "žluť".encode()))
print(get("/latin1", "café ✓".encode()))
try:
    get("/", "✓")
except UnicodeEncodeError as e:
    print("UnicodeEncodeError", e.reason)
'`);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, [
    `('/p%C3%A4th 636166e9 ${hex('žluť')} žluť ✓ ünï\\n', None)`,
    `('/latin1 ${hex('café ✓')}   ✓ ünï\\n', 'café')`,
    'UnicodeEncodeError ordinal not in range(256)',
    '',
  ].join('\n'));
});

test("bad header bytes: node's setHeader refuses a char past 0xFF (ERR_INVALID_CHAR), the server answers a control byte with 400, the http syscall refuses a value that names no byte", async () => {
  const wide = await vm.exec(`curl -sS -i http://localhost:3100/wide | grep -a '^X-'`);
  assert.equal(wide.stdout, 'X-Err: ERR_INVALID_CHAR: Invalid character in header content ["X-Wide"]\r\n');
  const ctl = await vm.exec(`curl -sS -o /dev/null -w '%{http_code}\\n' -H $'X-Name: a\\x01b' http://localhost:3100/`);
  assert.equal(ctl.stdout, '400\n');
  await vm.writeFile('/tmp/wide.js', `#!/usr/libexec/agentos/js
try { agentos.sys.http({ method: 'GET', url: 'http://localhost:3100/', headers: [['X-Name', '\\u2713']] }); } catch (e) { agentos.sys.writeAll(1, e.message + '\\n'); }
`);
  const sys = await vm.exec('chmod +x /tmp/wide.js && /tmp/wide.js');
  assert.match(sys.stdout, /^EINVAL\b.*http: header 'X-Name' has a char past 0xFF/);
});

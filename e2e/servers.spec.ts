// Servers inside the VM, in Chromium, the way users meet them (issue 20): a
// BrowserVM's exec() starts a server in the background and `curl` in the same
// VM answers it, all on the kernel's sockets in Web Workers — node's `http`
// and `net`, `python3 -m http.server`, Python's AF_UNIX sockets, `nc -U`,
// and the errors (EADDRINUSE, ECONNREFUSED) as each runtime names them.
// Servers tell they listen by a file (an event in the VM, not a sleep).

import { expect, test, type Page } from '@playwright/test';

// python3's first start in a worker loads Pyodide (1-3 s, more on a loaded machine).
test.describe.configure({ timeout: 180_000 });

async function run(page: Page, cmds: string[]) {
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
  return page.evaluate(([c]) => window.__agentos.netRun('none', c), [cmds] as const);
}

const waitFile = (f: string) => `until [ -s ${f} ]; do :; done`;

/** A node http server on argv[2] (a port or a unix path) echoing method, url, body and a header. */
const NODE_SERVER = `cat > /tmp/server.js <<'JS'
const http = require('http');
const where = /^\\d+$/.test(process.argv[2]) ? Number(process.argv[2]) : process.argv[2];
const srv = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    if (req.url === '/stream') { res.write('one,'); res.write('two,'); return res.end('three\\n'); }
    res.setHeader('Content-Type', 'text/plain');
    res.end(req.method + ' ' + req.url + ' ' + JSON.stringify(body) + ' ' + (req.headers['x-who'] || '-') + '\\n');
  });
});
srv.listen(where, () => require('fs').writeFileSync('/tmp/ready', JSON.stringify(srv.address())));
JS
`;

test('servers (browser): node server.js & answered by curl in the VM (GET, POST, chunked), then killed', async ({ page }) => {
  const [r] = await run(page, [`${NODE_SERVER}
node /tmp/server.js 3000 & ${waitFile('/tmp/ready')}; cat /tmp/ready; echo
curl -sS -i http://localhost:3000/hello | tr -d '\\r' | grep -v '^Date:'
curl -sS -H 'X-Who: curl' -d 'a=1&b=2' http://127.0.0.1:3000/form
curl -sS http://localhost:3000/stream
kill $!; wait $!; echo "server $?"
curl -sS http://localhost:3000/; echo "rc=$?"`]);
  expect(r.stdout).toBe([
    '{"address":"::","family":"IPv6","port":3000}',
    'HTTP/1.1 200 OK',
    'Content-Type: text/plain',
    'Content-Length: 16',
    'Connection: close',
    '',
    'GET /hello "" -',
    'POST /form "a=1&b=2" curl',
    'one,two,three',
    'server 143',
    'rc=7',
    '',
  ].join('\n'));
  expect(r.stderr).toMatch(/^curl: \(7\) Failed to connect to localhost port 3000 after \d+ ms: Couldn't connect to server\n$/);
});

test('servers (browser): python3 -m http.server answered by curl in the VM; killed, it frees its port', async ({ page }) => {
  const [r] = await run(page, [`mkdir -p /tmp/www && cd /tmp/www && echo 'hello from the VM' > index.txt
python3 -u -m http.server 8000 >/tmp/http.out 2>/tmp/http.log &
until grep -q '^Serving HTTP on 0.0.0.0 port 8000' /tmp/http.out 2>/dev/null; do :; done
curl -sS -D /tmp/h http://localhost:8000/index.txt; grep -i '^content-type' /tmp/h | tr -d '\\r'
curl -sS http://127.0.0.1:8000/ | grep -c 'href="index.txt"'
curl -sS -o /dev/null -w '%{http_code}\\n' http://localhost:8000/missing
kill %1; wait %1; echo "server $?"
grep -c '"GET /index.txt HTTP/1.1" 200' /tmp/http.log
curl -sS http://localhost:8000/ 2>/dev/null; echo "rc=$?"`]);
  expect(r.stderr).toBe('');
  expect(r.stdout).toBe('hello from the VM\nContent-type: text/plain\n1\n404\nserver 143\n1\nrc=7\n');
});

test('servers (browser): AF_UNIX echo servers — node net, python socket, nc -U — each answering a client in another process', async ({ page }) => {
  const [r] = await run(page, [`cat > /tmp/userver.js <<'JS'
const net = require('net');
const srv = net.createServer({ allowHalfOpen: true }, (s) => {
  let got = '';
  s.on('data', (d) => (got += d));
  s.on('end', () => { s.end('upper: ' + got.toUpperCase()); srv.close(); });
});
srv.listen('/tmp/n.sock', () => require('fs').writeFileSync('/tmp/nready', String(srv.address())));
JS
node /tmp/userver.js & ${waitFile('/tmp/nready')}
printf 'over a unix socket' | nc -N -U /tmp/n.sock; echo; wait $!; echo "node server $?"; [ -e /tmp/n.sock ] || echo 'socket file removed'
python3 -c '
import socket
u = socket.socket(socket.AF_UNIX)
u.bind("/tmp/p.sock"); u.listen()
open("/tmp/pready", "w").write("y")
c, _ = u.accept()
while data := c.recv(100):
    c.sendall(data[::-1])
c.close()
' & ${waitFile('/tmp/pready')}
printf 'abc' | nc -N -U /tmp/p.sock; echo; wait $!; echo "python server $?"
nc -l -U /tmp/c.sock > /tmp/got & until [ -S /tmp/c.sock ]; do :; done
node -e "const c = require('net').connect('/tmp/c.sock', () => c.end('from node'))"; wait $!; echo "nc server $?"; cat /tmp/got; echo`]);
  expect(r.stderr).toBe('');
  expect(r.stdout).toBe('upper: OVER A UNIX SOCKET\nnode server 0\nsocket file removed\ncba\npython server 0\nnc server 0\nfrom node\n');
});

test('servers (browser): EADDRINUSE and ECONNREFUSED from node, python, nc and curl', async ({ page }) => {
  const [r] = await run(page, [`cat > /tmp/errs.js <<'JS'
const net = require('net'), http = require('http');
const show = (e) => console.log(e.code, e.errno, e.syscall, e.address, e.port, '|', e.message);
const a = net.createServer().listen(4306, () => {
  net.createServer().listen(4306).on('error', (e) => {
    show(e);
    net.connect(4307, '127.0.0.1').on('error', (e) => {
      show(e);
      http.get('http://127.0.0.1:4307/').on('error', (e) => { show(e); a.close(); });
    });
  });
});
JS
node /tmp/errs.js; echo "node $?"
python3 -c '
import socket, errno
a = socket.socket(); a.bind(("127.0.0.1", 4306)); a.listen()
b = socket.socket()
try: b.bind(("127.0.0.1", 4306))
except OSError as e: print(type(e).__name__, errno.errorcode[e.errno], e.strerror)
try: socket.create_connection(("127.0.0.1", 4307))
except OSError as e: print(type(e).__name__, errno.errorcode[e.errno], e.strerror)
'
nc -l 4306 & until grep -q ':10D2 00000000:0000 0A' /proc/net/tcp; do :; done
nc -l 4306; echo "nc $?"; kill %1; wait %1
nc 127.0.0.1 4307 </dev/null; echo "nc $?"
curl -sS http://127.0.0.1:4307/; echo "curl $?"`]);
  expect(r.stdout).toBe([
    'EADDRINUSE -98 listen :: 4306 | listen EADDRINUSE: address already in use :::4306',
    'ECONNREFUSED -111 connect 127.0.0.1 4307 | connect ECONNREFUSED 127.0.0.1:4307',
    'ECONNREFUSED -111 connect 127.0.0.1 4307 | connect ECONNREFUSED 127.0.0.1:4307',
    'node 0',
    'OSError EADDRINUSE Address already in use',
    'ConnectionRefusedError ECONNREFUSED Connection refused',
    'nc 1',
    'nc 1',
    'curl 7',
    '',
  ].join('\n'));
  expect(r.stderr).toMatch(/^nc: .*Address already in use\nnc: .*Connection refused\ncurl: \(7\) .*\n$/);
});

test('servers (browser): non-ASCII under LANG=C.UTF-8 — curl and urllib to a node server: UTF-8 path, header and body exact, a latin1 header byte kept', async ({ page }) => {
  const [r] = await run(page, [`export LANG=C.UTF-8; cat > /tmp/u8.js <<'JS'
const http = require('http');
http.createServer((req, res) => {
  const parts = [];
  req.on('data', (d) => parts.push(d));
  req.on('end', () => {
    res.setHeader('X-Latin', 'caf\\u00e9');
    const body = Buffer.concat(parts);
    res.end(req.url + ' ' + Buffer.from(req.headers['x-name'] || '', 'latin1').toString('hex') + ' ' + body.toString() + ' ✓\\n');
  });
}).listen(3100, () => require('fs').writeFileSync('/tmp/u8ready', 'y'));
JS
node /tmp/u8.js & ${waitFile('/tmp/u8ready')}
curl -sS -H 'X-Name: é✓' --data-binary 'žluť' 'http://localhost:3100/päth?q=ü'
curl -sS -D - -o /dev/null http://localhost:3100/ | grep -a '^X-Latin' | od -An -tx1
python3 -c '
import urllib.request
with urllib.request.urlopen(urllib.request.Request("http://localhost:3100/p%C3%A4th", data="žluť".encode(), headers={"X-Name": "é"})) as r:
    print(r.read().decode(), end=""); print(r.headers["X-Latin"])
'
kill %1`]);
  expect(r.stderr).toBe('');
  expect(r.stdout).toBe([
    '/p%C3%A4th?q=%C3%BC c3a9e29c93 žluť ✓',
    ' 58 2d 4c 61 74 69 6e 3a 20 63 61 66 e9 0d 0a',
    '/p%C3%A4th e9 žluť ✓',
    'café',
    '',
  ].join('\n'));
});

test('servers (browser): a client that half-closes at once gets what nc -l reads from a stage that writes later', async ({ page }) => {
  const [r] = await run(page, [`{ until [ -e /tmp/go ]; do :; done; echo late; } | nc -l 7030 & until grep -q ':1B76 00000000:0000 0A' /proc/net/tcp; do :; done
nc -N 127.0.0.1 7030 < /dev/null > /tmp/late & touch /tmp/go; wait; cat /tmp/late`]);
  expect([r.stdout, r.stderr]).toEqual(['late\n', '']);
});

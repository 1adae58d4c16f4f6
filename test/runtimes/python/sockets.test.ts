// Python's socket module on the kernel's sockets (issue 20, item 2; decision
// 0071): the calls, their errors and timeouts as CPython on Linux gives them,
// select/selectors, AF_UNIX, and the servers of the standard library
// (http.server, socketserver) answering clients in other processes.
// Pyodide processes are slow to start: few programs, each checking much.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

let vm: AgentVM;
before(async () => {
  vm = new AgentVM();
  await vm.start();
});
after(async () => {
  await vm?.stop();
});

async function run(script: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  await vm.writeFile('/tmp/t.sh', script);
  return vm.exec('sh /tmp/t.sh');
}

/** Wait (in the VM) until a file exists: a server writes it once it listens. */
const waitFor = (path: string) => `while [ ! -e ${path} ]; do sleep 0.05; done`;
/** Wait until the last background process sleeps in a syscall (after its ready file: the call under test). */
const waitAsleep = "until grep -q 'S (sleeping)' /proc/$!/status; do sleep 0.05; done";

test('the socket calls in one process: TCP, errors, timeouts, select, selectors, socketpair, AF_UNIX, UDP, names, asyncio', { timeout: 60_000 }, async () => {
  await vm.writeFile('/tmp/calls.py', `
import socket, select, selectors, errno, os
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(('127.0.0.1', 0))
srv.listen()
port = srv.getsockname()[1]
print('reuse', srv.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR), 32768 <= port <= 60999)
c = socket.create_connection(('localhost', port), timeout=5)
conn, peer = srv.accept()
print('accept', peer[0], conn.getpeername() == c.getsockname(), c.getpeername() == ('127.0.0.1', port))
c.sendall(b'x' * 100000)
got = b''
while len(got) < 100000: got += conn.recv(65536)
print('sendall', len(got))
print('select', select.select([conn, srv], [], [], 0.05), select.select([], [c], [], 0)[1] == [c])
conn.sendall(b'ping')
sel = selectors.DefaultSelector()
sel.register(c, selectors.EVENT_READ, 'client')
print('selectors', [(k.data, ev) for k, ev in sel.select(1)], c.recv(10))
c.settimeout(0.1)
try:
    c.recv(10)
except socket.timeout as e:
    print('timeout', type(e).__name__, e)
c.setblocking(False)
try:
    c.recv(10)
except BlockingIOError as e:
    print('nonblocking', e.errno == errno.EAGAIN)
buf = bytearray(8)
conn.sendall(b'into')
c.setblocking(True)
print('recv_into', c.recv_into(buf), bytes(buf[:4]))
try:
    socket.socket().bind(('127.0.0.1', port))
except OSError as e:
    print('bind', e.errno == errno.EADDRINUSE, e.strerror)
try:
    socket.create_connection(('127.0.0.1', 1))
except ConnectionRefusedError as e:
    print('connect', e.errno == errno.ECONNREFUSED, e.strerror)
try:
    socket.create_connection(('example.com', 80))
except socket.gaierror as e:
    print('resolve', e.errno == socket.EAI_NONAME)
c.shutdown(socket.SHUT_WR)
print('half-close', conn.recv(10), conn.send(b'after') == 5, c.recv(10))
c.close()
try:
    conn.send(b'gone')
except BrokenPipeError:
    print('broken pipe, no SIGPIPE')
conn.close()
print('closed', c.fileno())
a, b = socket.socketpair()
f = b.makefile('rwb')
a.sendall(b'line one\\nline two\\n')
print('socketpair', a.family.name, f.readline(), f.readline())
a.close()
print('eof', f.read())
os.chdir('/tmp')
u = socket.socket(socket.AF_UNIX)
u.bind('echo.sock')
u.listen()
uc = socket.socket(socket.AF_UNIX)
uc.connect('/tmp/echo.sock')
us, _ = u.accept()
uc.sendall(b'unix')
print('unix', us.recv(10), u.getsockname(), uc.getpeername(), os.path.exists('/tmp/echo.sock'))
d1 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
d1.bind(('::1', 0))
d2 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
d2.sendto(b'datagram', d1.getsockname()[:2])
data, frm = d1.recvfrom(100)
print('udp', data, frm[0], frm[1] == d2.getsockname()[1])
print('names', socket.getaddrinfo('localhost', 80, socket.AF_INET, socket.SOCK_STREAM)[0][4], socket.gethostbyname('localhost'))
ab = socket.socket(socket.AF_UNIX)
ab.bind(b'\\0abstract')
print('abstract', ab.getsockname())
import asyncio
async def streams():
    async def handle(r, w):
        w.write((await r.readline()).upper())
        await w.drain()
        w.close()
    srv = await asyncio.start_server(handle, '127.0.0.1', 0)
    r, w = await asyncio.open_connection(*srv.sockets[0].getsockname())
    w.write(b'asyncio\\n')
    print('asyncio', await r.readline())
    w.close()
    srv.close()
asyncio.run(streams())
`);
  const r = await vm.exec('python3 /tmp/calls.py');
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, [
    'reuse 1 True',
    'accept 127.0.0.1 True True',
    'sendall 100000',
    'select ([], [], []) True',
    "selectors [('client', 1)] b'ping'",
    'timeout TimeoutError timed out',
    'nonblocking True',
    "recv_into 4 b'into'",
    'bind True Address already in use',
    'connect True Connection refused',
    'resolve True',
    "half-close b'' True b'after'",
    'broken pipe, no SIGPIPE',
    'closed -1',
    "socketpair AF_UNIX b'line one\\n' b'line two\\n'",
    "eof b''",
    "unix b'unix' echo.sock echo.sock True",
    "udp b'datagram' ::1 True",
    "names ('127.0.0.1', 80) 127.0.0.1",
    "abstract b'\\x00abstract'",
    "asyncio b'ASYNCIO\\n'",
    '',
  ].join('\n'));
});

test('python3 -m http.server serves the cwd to http.client in another process; killed, it frees its port', { timeout: 90_000 }, async () => {
  const r = await run(`mkdir -p /tmp/www && cd /tmp/www && echo 'hello from the VM' > index.txt
python3 -u -m http.server 8000 >/tmp/http.out 2>/tmp/http.log &
until grep -q '^Serving HTTP on 0.0.0.0 port 8000' /tmp/http.out 2>/dev/null; do sleep 0.05; done
python3 -c '
import http.client
c = http.client.HTTPConnection("localhost", 8000, timeout=10)
c.request("GET", "/index.txt")
r = c.getresponse()
print(r.status, r.getheader("Content-Type"), r.read())
c.request("GET", "/")
r = c.getresponse()
print(r.status, b"index.txt" in r.read())
c.close()
'
kill %1; wait %1; echo "server status=$?"
grep -c '"GET /index.txt HTTP/1.1" 200' /tmp/http.log
python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 8000)); print("port free")'
`);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, "200 text/plain b'hello from the VM\\n'\n200 True\nserver status=143\n1\nport free\n");
});

test('socketserver TCP echo and an AF_UNIX echo server, each answering a client in another process', { timeout: 90_000 }, async () => {
  const r = await run(`cd /tmp
python3 -c '
import socketserver, socket, os
class Echo(socketserver.StreamRequestHandler):
    def handle(self):
        self.wfile.write(self.rfile.readline().upper())
tcp = socketserver.TCPServer(("127.0.0.1", 0), Echo)
with open("/tmp/echo.port", "w") as f: f.write(str(tcp.server_address[1]))
tcp.handle_request()
unix = socket.socket(socket.AF_UNIX)
unix.bind("/tmp/u.sock")
unix.listen()
open("/tmp/unix.ready", "w").close()
conn, _ = unix.accept()
while data := conn.recv(100):
    conn.sendall(data[::-1])
conn.close()
' &
server=$!
${waitFor('/tmp/echo.port')}
python3 -c '
import socket
port = int(open("/tmp/echo.port").read())
with socket.create_connection(("127.0.0.1", port)) as s:
    s.sendall(b"echo me\\n")
    print(s.makefile("rb").readline())
import os
while not os.path.exists("/tmp/unix.ready"): pass
u = socket.socket(socket.AF_UNIX)
u.connect("/tmp/u.sock")
u.sendall(b"abc")
print(u.recv(100))
u.shutdown(socket.SHUT_WR)
print(u.recv(100))
'
wait $server; echo "server status=$?"
`);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, "b'ECHO ME\\n'\nb'cba'\nb''\nserver status=0\n");
});

test('Ctrl-C (SIGINT) reaches a program blocked in accept() or select(): KeyboardInterrupt', { timeout: 60_000 }, async () => {
  const r = await run(`
python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 9001)); s.listen()
open("/tmp/accept.ready", "w").close()
try:
    s.accept()
except KeyboardInterrupt:
    print("KeyboardInterrupt in accept", flush=True)
    raise
' 2>/dev/null &
${waitFor('/tmp/accept.ready')}
${waitAsleep}
kill -INT $!; wait $!; echo "status=$?"
python3 -c '
import socket, select
s = socket.socket(); s.bind(("127.0.0.1", 9001)); s.listen()
open("/tmp/select.ready", "w").close()
try:
    select.select([s], [], [])
except KeyboardInterrupt:
    print("KeyboardInterrupt in select", flush=True)
' &
${waitFor('/tmp/select.ready')}
${waitAsleep}
kill -INT $!; wait $!; echo "status=$?"
`);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, 'KeyboardInterrupt in accept\nstatus=130\nKeyboardInterrupt in select\nstatus=0\n');
});

// node's `net` and `http` on the kernel's sockets (issue 20, item 2): servers
// started in the background with `node server.js &`, answered by a second node
// process, by bash's /dev/tcp and by `nc`; a net echo, an AF_UNIX server, Node's
// error codes, and the process lifetime rule (a listening server keeps node
// alive; closing everything ends it; a kill ends it). Clients wait for a server
// by its "listening" line in a file (an event in the VM, not a sleep).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

let vm: AgentVM;

/** An http server on argv[2] (a port or a unix path); it closes itself after argv[3] requests when given. */
const SERVER = `const http = require('http');
const where = /^\\d+$/.test(process.argv[2]) ? Number(process.argv[2]) : process.argv[2];
const max = Number(process.argv[3] || 0);
let n = 0;
const srv = http.createServer((req, res) => {
  const k = ++n;
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    if (req.url === '/stream') { res.write('one,'); res.write('two,'); res.end('three'); }
    else if (req.url === '/missing') { res.statusCode = 404; res.end('no such page'); }
    else {
      res.setHeader('Content-Type', 'text/plain');
      res.setHeader('X-Count', String(k));
      res.end(req.method + ' ' + req.url + ' ' + JSON.stringify(body) + ' ' + (req.headers['x-who'] || '-'));
    }
    if (max && n >= max) srv.close(() => require('fs').writeFileSync('/tmp/closed-' + process.pid, ''));
  });
});
srv.listen(where, () => require('fs').writeFileSync(process.argv[4] || '/tmp/ready', JSON.stringify(srv.address())));
`;

/** http.get (or POST with argv[3] as the body) to a port; prints status, headers of note and body. */
const CLIENT = `const http = require('http');
const [port, path, body] = process.argv.slice(2);
const req = http.request({ port: Number(port), path, method: body ? 'POST' : 'GET', headers: { 'X-Who': 'client' } }, (res) => {
  let b = '';
  res.setEncoding('utf8');
  res.on('data', (d) => (b += d));
  res.on('end', () => console.log(res.statusCode, res.headers['content-type'] || '-', res.headers['transfer-encoding'] || res.headers['content-length'], b));
});
req.on('error', (e) => { console.log('error', e.code, e.message); process.exitCode = 1; });
req.end(body);
`;

const waitFile = (f: string) => `until [ -s ${f} ]; do :; done`;

before(async () => {
  vm = new AgentVM();
  await vm.start();
  await vm.writeFile('/tmp/server.js', SERVER);
  await vm.writeFile('/tmp/client.js', CLIENT);
});
after(async () => {
  await vm?.stop();
});

describe('http', () => {
  test('node server.js & answered by a second node process (http.get and a POST), then killed: it ends', async () => {
    const r = await vm.exec(`rm -f /tmp/ready; node /tmp/server.js 4301 & ${waitFile('/tmp/ready')}; cat /tmp/ready; echo
      node /tmp/client.js 4301 /hello; node /tmp/client.js 4301 /form 'a=1&b=2'; node /tmp/client.js 4301 /stream; node /tmp/client.js 4301 /missing
      kill -0 $! && echo alive; kill $!; wait $!; echo "server $?"`);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, [
      '{"address":"::","family":"IPv6","port":4301}',
      '200 text/plain 20 GET /hello "" client',
      '200 text/plain 27 POST /form "a=1&b=2" client',
      '200 - chunked one,two,three',
      '404 - 12 no such page',
      'alive',
      'server 143',
      '',
    ].join('\n'));
  });

  test('raw HTTP/1.1 through /dev/tcp: keep-alive, pipelining, a chunked request body, a bad request gets 400', async () => {
    const r = await vm.exec(`rm -f /tmp/ready; node /tmp/server.js 4302 & ${waitFile('/tmp/ready')}
      exec 3<>/dev/tcp/127.0.0.1/4302
      printf 'GET /a HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nPOST /b HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n3\\r\\nabc\\r\\n2;ext=1\\r\\nde\\r\\n0\\r\\n\\r\\nGET /c HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n' >&3
      cat <&3 | grep -v '^Date:'; exec 3<&-
      exec 3<>/dev/tcp/127.0.0.1/4302; printf 'BAD\\r\\n\\r\\n' >&3; cat <&3; exec 3<&-
      kill $!; wait $!`);
    assert.equal(r.stderr, '');
    const want = (url: string, body: string, n: number, conn: string) => {
      const text = `${url.startsWith('/b') ? 'POST' : 'GET'} ${url} ${JSON.stringify(body)} -`;
      return `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Count: ${n}\r\nContent-Length: ${text.length}\r\nConnection: ${conn}\r\n\r\n${text}`;
    };
    assert.equal(r.stdout, want('/a', '', 1, 'keep-alive') + want('/b', 'abcde', 2, 'keep-alive') + want('/c', '', 3, 'close') +
      '\nHTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });

  test('nc sends a raw HTTP/1.0 request; the server closes itself after its last request and node exits 0', async () => {
    const r = await vm.exec(`rm -f /tmp/ready; node /tmp/server.js 4303 2 & ${waitFile('/tmp/ready')}
      printf 'GET /nc HTTP/1.0\\r\\nX-Who: nc\\r\\n\\r\\n' | nc 127.0.0.1 4303 | grep -v '^Date:'; echo
      node /tmp/client.js 4303 /last; wait $!; echo "server $?"; [ -e /tmp/closed-$! ] && echo 'close callback ran'`);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Count: 1\r\nContent-Length: 13\r\nConnection: close\r\n\r\nGET /nc "" nc\n\n' +
      '200 text/plain 19 GET /last "" client\nserver 0\nclose callback ran\n');
  });

  test('many concurrent requests from one client to a server on a unix socket, and on loopback', async () => {
    await vm.writeFile('/tmp/many.js', `const http = require('http');
      const opts = (i) => process.argv[2] === 'unix' ? { socketPath: '/tmp/h.sock', path: '/n' + i } : { port: 4304, path: '/n' + i };
      let ok = 0;
      for (let i = 0; i < 60; i++) http.get(opts(i), (res) => { let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => { if (b.startsWith('GET /n' + i + ' ')) ok++; }); });
      process.on('exit', () => console.log(process.argv[2], ok));`);
    const r = await vm.exec(`rm -f /tmp/ready /tmp/ready2; node /tmp/server.js /tmp/h.sock 0 /tmp/ready & U=$!; node /tmp/server.js 4304 0 /tmp/ready2 & T=$!
      ${waitFile('/tmp/ready')}; ${waitFile('/tmp/ready2')}; cat /tmp/ready; echo; ls -l /tmp/h.sock | cut -c1
      node /tmp/many.js unix; node /tmp/many.js tcp; kill -INT $U $T; wait $U; echo "SIGINT $?"; wait $T; echo "SIGINT $?"`);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, '"/tmp/h.sock"\ns\nunix 60\ntcp 60\nSIGINT 130\nSIGINT 130\n');
  });

  test('large bodies both ways: a 3 MiB upload read with for await, a 5 MiB chunked answer written with drain', async () => {
    await vm.writeFile('/tmp/big.js', `const http = require('http');
      const { once } = require('events');
      (async () => {
        const srv = http.createServer(async (req, res) => {
          let n = 0;
          for await (const c of req) n += c.length;
          const big = Buffer.alloc(5 * 1024 * 1024, 120);
          res.setHeader('X-Got', n);
          let off = 0;
          const pump = () => {
            while (off < big.length) if (!res.write(big.subarray(off, (off += 65536)))) return void res.once('drain', pump);
            res.end();
          };
          pump();
        });
        srv.listen(0);
        await once(srv, 'listening');
        const req = http.request({ port: srv.address().port, method: 'PUT', path: '/up' }, async (res) => {
          let n = 0;
          for await (const c of res) n += c.length;
          console.log(res.headers['x-got'], n, res.headers['transfer-encoding']);
          srv.close();
        });
        req.end(Buffer.alloc(3 * 1024 * 1024 + 7, 65));
      })();`);
    const r = await vm.exec('node /tmp/big.js; echo "exit $?"');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, `${3 * 1024 * 1024 + 7} ${5 * 1024 * 1024} chunked\nexit 0\n`);
  });

  test('graceful stop: a SIGTERM handler closes the server, an idle keep-alive connection is closed, node exits 0', async () => {
    await vm.writeFile('/tmp/graceful.js', `const http = require('http');
      const srv = http.createServer((req, res) => res.end('served')).listen(4310, () => require('fs').writeFileSync('/tmp/gready', 'x'));
      process.on('SIGTERM', () => srv.close(() => console.log('closed')));`);
    const r = await vm.exec(`rm -f /tmp/gready; node /tmp/graceful.js > /tmp/glog & ${waitFile('/tmp/gready')}
      exec 3<>/dev/tcp/127.0.0.1/4310; printf 'GET / HTTP/1.1\r\nHost: x\r\n\r\n' >&3; while IFS= read -r line <&3 && [ "$line" != $'\\r' ]; do :; done; head -c 6 <&3; echo
      kill $!; wait $!; echo "server $?"; cat /tmp/glog; cat <&3; echo "connection ended"`);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'served\nserver 0\nclosed\nconnection ended\n');
  });
});

describe('net', () => {
  test('an echo server and client: Duplex data, end and close, addresses, setNoDelay/setKeepAlive, bytes counted', async () => {
    await vm.writeFile('/tmp/echo.js', `const net = require('net');
      let seen;
      const srv = net.createServer((s) => {
        s.setNoDelay(true).setKeepAlive(true, 1000);
        seen = ['server sees', s.remoteAddress, typeof s.remotePort, s.localPort].join(' ');
        s.pipe(s);
      });
      srv.listen(4305, '127.0.0.1', () => {
        const c = net.createConnection({ port: 4305, host: '127.0.0.1' }, () => {
          console.log('connected', c.remoteAddress, c.remotePort, c.remoteFamily, c.localPort > 32767);
          c.write('hello ');
          c.end(Buffer.from('world'));
        });
        c.setEncoding('utf8');
        let got = '';
        c.on('data', (d) => (got += d));
        c.on('end', () => { console.log(seen); console.log('echoed', got, c.bytesRead, c.bytesWritten); });
        c.on('close', (hadError) => { console.log('closed', hadError); srv.close(() => console.log('server closed')); });
      });`);
    const r = await vm.exec('node /tmp/echo.js; echo "exit $?"');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'connected 127.0.0.1 4305 IPv4 true\nserver sees 127.0.0.1 number 4305\nechoed hello world 11 11\nclosed false\nserver closed\nexit 0\n');
  });

  test('an AF_UNIX server in one process, a client in another; the socket file goes when the server closes', async () => {
    await vm.writeFile('/tmp/userver.js', `const net = require('net');
      const srv = net.createServer({ allowHalfOpen: true }, (s) => {
        let got = '';
        s.on('data', (d) => (got += d));
        s.on('end', () => { s.end('upper: ' + got.toUpperCase()); srv.close(); });
      });
      srv.listen('/tmp/u.sock', () => require('fs').writeFileSync('/tmp/uready', String(srv.address())));`);
    await vm.writeFile('/tmp/uclient.js', `const net = require('net');
      const c = net.connect('/tmp/u.sock');
      c.on('connect', () => c.end('over a unix socket'));
      c.on('data', (d) => process.stdout.write(d));
      c.on('end', () => console.log());`);
    const r = await vm.exec(`rm -f /tmp/uready; node /tmp/userver.js & ${waitFile('/tmp/uready')}; cat /tmp/uready; echo
      node /tmp/uclient.js; wait $!; echo "server $?"; [ -e /tmp/u.sock ] || echo 'socket file removed'`);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, '/tmp/u.sock\nupper: OVER A UNIX SOCKET\nserver 0\nsocket file removed\n');
  });

  test("EADDRINUSE, ECONNREFUSED and a missing unix path, with Node's codes, messages and fields", async () => {
    await vm.writeFile('/tmp/errs.js', `const net = require('net'), http = require('http');
      const show = (e) => console.log(e.code, e.errno, e.syscall, e.address, e.port, '|', e.message);
      const a = net.createServer().listen(4306, () => {
        net.createServer().listen(4306).on('error', (e) => {
          show(e);
          net.connect(4307, '127.0.0.1').on('error', (e) => {
            show(e);
            net.connect('/tmp/nowhere.sock').on('error', (e) => {
              show(e);
              http.get('http://127.0.0.1:4307/').on('error', (e) => { show(e); a.close(); });
            });
          });
        });
      });`);
    const r = await vm.exec('node /tmp/errs.js; echo "exit $?"');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, [
      'EADDRINUSE -98 listen :: 4306 | listen EADDRINUSE: address already in use :::4306',
      'ECONNREFUSED -111 connect 127.0.0.1 4307 | connect ECONNREFUSED 127.0.0.1:4307',
      'ENOENT -2 connect /tmp/nowhere.sock undefined | connect ENOENT /tmp/nowhere.sock',
      'ECONNREFUSED -111 connect 127.0.0.1 4307 | connect ECONNREFUSED 127.0.0.1:4307',
      'exit 0',
      '',
    ].join('\n'));
  });

  test('an unhandled listen error ends node with the error, status 1', async () => {
    const r = await vm.exec(`node -e "require('net').createServer().listen(4308); require('net').createServer().listen(4308)"; echo "exit $?"`);
    assert.match(r.stderr, /^Error: listen EADDRINUSE: address already in use :::4308\b/);
    assert.match(r.stderr, /code: 'EADDRINUSE'/);
    assert.equal(r.stdout, 'exit 1\n');
  });

  test('unref: a listening server that is unref()ed does not keep node alive', async () => {
    const r = await vm.exec(`node -e "require('net').createServer().listen(4309, () => console.log('up')).unref()"; echo "exit $?"`);
    assert.equal(r.stdout, 'up\nexit 0\n');
  });
});

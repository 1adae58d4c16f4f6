// An HTTP/1.1 server that runs INSIDE the VM (a guest JS program on the
// kernel's sockets), for the loopback tests: the kernel's client must reach
// it, and only it. One connection at a time, forever (the test kills it).
// Routes:
//   /hello                  200, Content-Length (HEAD: the head only)
//   /echo                   method, a few request headers, body length and FNV-1a hash
//   /redirect?to=URL        302 to URL
//   /big?n=BYTES            n bytes of the pattern (i*31+7)&255, Content-Length
//   /chunked                three chunks, and a trailer
//   /close                  HTTP/1.0, no length: the body ends at the close
//   /cut                    Content-Length 100, 10 bytes, then the close
//   /cut-chunked            a chunk cut short, then the close
//   /hang                   no answer until the client goes away
//   /continue               a 100 Continue, then 200
// Run as `/tmp/srv.js PORT [ADDRESS]`; it writes `ready` to stdout once it listens.

export const VM_SERVER = String.raw`#!/usr/libexec/agentos/js
const s = agentos.sys;
const enc = new TextEncoder(), dec = new TextDecoder('latin1');
const port = Number(agentos.argv[1]);
const v6 = (agentos.argv[2] ?? '').includes(':');
const l = s.socket(v6 ? 10 : 2, 1);
s.setsockopt(l, 1, 2, 1);
s.bind(l, { family: v6 ? 10 : 2, address: agentos.argv[2] ?? '0.0.0.0', port });
s.listen(l, 16);
agentos.print('ready\n');

function conn(c) {
  let buf = new Uint8Array(0);
  const more = () => {
    const b = s.read(c, 65536);
    if (!b.length) return false;
    const n = new Uint8Array(buf.length + b.length);
    n.set(buf); n.set(b, buf.length); buf = n;
    return true;
  };
  const line = () => {
    for (;;) {
      const i = buf.indexOf(10);
      if (i >= 0) { const t = dec.decode(buf.subarray(0, i)).replace(/\r$/, ''); buf = buf.subarray(i + 1); return t; }
      if (!more()) return null;
    }
  };
  const take = (n, sink) => {
    while (n > 0) {
      if (!buf.length && !more()) throw new Error('short body');
      const k = Math.min(n, buf.length);
      sink(buf.subarray(0, k)); buf = buf.subarray(k); n -= k;
    }
  };
  return { line, take, rest: () => { while (more()); } };
}

let h = 0x811c9dc5, len = 0;
const hash = (b) => { for (let i = 0; i < b.length; i++) { h ^= b[i]; h = Math.imul(h, 16777619) >>> 0; } len += b.length; };
const send = (c, text) => s.writeAll(c, typeof text === 'string' ? enc.encode(text) : text);

for (;;) {
  const [c] = s.accept(l);
  try {
    const r = conn(c);
    const first = r.line();
    if (!first) { s.close(c); continue; }
    const [method, target] = first.split(' ');
    const headers = [];
    for (let t = r.line(); t; t = r.line()) headers.push([t.slice(0, t.indexOf(':')).toLowerCase(), t.slice(t.indexOf(':') + 1).trim()]);
    const get = (n) => headers.find(([k]) => k === n)?.[1];
    const url = new URL(target, 'http://x');
    const p = url.pathname;
    h = 0x811c9dc5; len = 0;
    if (get('transfer-encoding') === 'chunked') {
      for (let size = parseInt(r.line(), 16); size > 0; size = parseInt(r.line(), 16)) { r.take(size, hash); r.line(); }
      r.line();
    } else if (get('content-length')) r.take(Number(get('content-length')), hash);
    if (p === '/hello') send(c, 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Served-By: vm\r\nContent-Length: 6\r\n\r\n' + (method === 'HEAD' ? '' : 'hello\n'));
    else if (p === '/echo') {
      const shown = headers.filter(([k]) => /^(x-|authorization$|content-type$|content-length$|transfer-encoding$|host$|connection$)/.test(k)).map(([k, v]) => k + ': ' + v + '\n').join('');
      const body = method + ' ' + url.search + '\n' + shown + len + ' ' + h.toString(16) + '\n';
      send(c, 'HTTP/1.1 200 OK\r\nContent-Length: ' + enc.encode(body).length + '\r\n\r\n' + body);
    } else if (p === '/redirect') send(c, 'HTTP/1.1 302 Found\r\nLocation: ' + url.searchParams.get('to') + '\r\nContent-Length: 0\r\n\r\n');
    else if (p === '/big') {
      const n = Number(url.searchParams.get('n'));
      const block = new Uint8Array(65536);
      for (let i = 0; i < block.length; i++) block[i] = (i * 31 + 7) & 255;
      send(c, 'HTTP/1.1 200 OK\r\nContent-Length: ' + n + '\r\n\r\n');
      for (let off = 0; off < n; off += block.length) send(c, block.subarray(0, Math.min(block.length, n - off)));
    } else if (p === '/chunked') send(c, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nfirst \r\n7;ext=1\r\nsecond \r\n6\r\nthird\n\r\n0\r\nX-Trailer: t\r\n\r\n');
    else if (p === '/close') send(c, 'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the close\n');
    else if (p === '/cut') send(c, 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789');
    else if (p === '/cut-chunked') send(c, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nonly half');
    else if (p === '/hang') r.rest();
    else if (p === '/continue') send(c, 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n');
    else send(c, 'HTTP/1.1 404 Not Found\r\nContent-Length: 10\r\n\r\nnot found\n');
  } catch (e) {
    agentos.eprint('srv: ' + e.message + '\n');
  }
  s.close(c);
}
`;

/** Shell: start the server on `port` in the background ($SRV is its pid) and wait until it listens. */
export const serve = (port: number, address = '0.0.0.0') =>
  `/tmp/srv.js ${port} ${address} > /tmp/srv.${port} & SRV=$!; until grep -q ready /tmp/srv.${port} 2>/dev/null; do :; done;`;

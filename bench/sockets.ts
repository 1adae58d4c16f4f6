// Sockets on the VM's loopback (kernel/socket/): TCP throughput and a
// connect + request + response round trip, each beside the same exchange
// over a pipe in the VM and over the host's own loopback (Node's net), all in
// one run; and the same round trip answered by an http server in the VM's
// `node` beside one in the host's Node. Guest ends: test/programs/netbench.ts.

import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server } from 'node:net';
import { AF_INET, SOCK_STREAM } from '../src/abi/socket.js';
import { boot, type Machine } from '../src/host/node/index.js';
import type { Figure } from './run.js';

const here = new URL('.', import.meta.url);
const dec = new TextDecoder();
const TOTAL = 256 * 1024 * 1024;
const CHUNK = 65536;
const RTT_N = 2000;
const NODE_HTTP_N = 500;
const HTTP_N = 1000;

/** The http server the VM's node runs for the round-trip figure (answers each HTTP/1.0 request, then closes). */
const HTTP_SERVER = `require('http').createServer((req, res) => res.end('ok')).listen(Number(process.argv[2]), '127.0.0.1', () => require('fs').writeFileSync('/tmp/http-ready', ''));`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function listener(m: Machine): Promise<[number, number]> {
  const fd = await m.syscall('socket', AF_INET, SOCK_STREAM);
  await m.syscall('bind', fd, { family: AF_INET, address: '127.0.0.1', port: 0 });
  await m.syscall('listen', fd, 128);
  return [fd, (await m.syscall('getsockname', fd)).port];
}

/** Run `argv` with fds; its stdout (or stderr) as text once it exits. */
async function output(m: Machine, argv: string[], fds: [number, number][] = [], stream: 1 | 2 = 1): Promise<[number, Promise<string>]> {
  const [r, w] = await m.syscall('pipe');
  const pid = await m.spawn(argv, { fds: [...fds, [stream, w]] });
  await m.syscall('close', w);
  const text = (async () => {
    let s = '';
    for (let b = await m.syscall('read', r, 4096); b.byteLength; b = await m.syscall('read', r, 4096)) s += dec.decode(b);
    await m.syscall('close', r);
    await m.wait(pid);
    return s.trim();
  })();
  return [pid, text];
}

/** MB/s of TOTAL bytes from a source process to a sink process over TCP or a pipe. */
async function throughputOnce(m: Machine, over: 'tcp' | 'pipe'): Promise<number> {
  const t0 = performance.now();
  let counted: Promise<string>;
  if (over === 'tcp') {
    const [l, port] = await listener(m);
    [, counted] = await output(m, ['/usr/local/bin/netbench', 'sink', '3'], [[3, l]]);
    await m.syscall('close', l);
    await m.wait(await m.spawn(['/usr/local/bin/netbench', 'source', String(port), String(TOTAL), String(CHUNK)]));
  } else {
    const [r, w] = await m.syscall('pipe');
    [, counted] = await output(m, ['/usr/local/bin/netbench', 'sink', '0'], [[0, r]]);
    const src = await m.spawn(['/usr/local/bin/netbench', 'source', '-', String(TOTAL), String(CHUNK)], { fds: [[1, w]] });
    for (const fd of [r, w]) await m.syscall('close', fd);
    await m.wait(src);
  }
  const n = Number(await counted);
  if (n !== TOTAL) throw new Error(`socket bench: the sink counted ${n}, expected ${TOTAL}`);
  return TOTAL / 1e6 / ((performance.now() - t0) / 1000);
}

async function nativeThroughput(): Promise<number> {
  const chunk = Buffer.alloc(CHUNK, 97);
  return new Promise((resolve) => {
    let got = 0;
    let t0 = 0;
    const srv: Server = createServer((c) => {
      c.on('data', (d: Buffer) => (got += d.byteLength));
      c.on('end', () => {
        srv.close();
        resolve(TOTAL / 1e6 / ((performance.now() - t0) / 1000));
      });
    }).listen(0, '127.0.0.1', () => {
      t0 = performance.now();
      const c = connect((srv.address() as { port: number }).port, '127.0.0.1');
      let left = TOTAL;
      const pump = () => {
        while (left > 0) {
          left -= CHUNK;
          if (!c.write(chunk)) return void c.once('drain', pump);
        }
        c.end();
      };
      c.on('connect', pump);
    });
  });
}

async function nativeRtt(http = false, n = RTT_N): Promise<number> {
  const srv = http
    ? createHttpServer((_req, res) => res.end('ok'))
    : createServer((c) => c.once('data', () => c.end('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok')));
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      const c = connect(port, '127.0.0.1', () => c.write('GET / HTTP/1.0\r\n\r\n'));
      c.on('data', () => {});
      c.on('end', () => resolve());
    });
    times.push((performance.now() - t0) * 1000);
  }
  srv.close();
  return median(times.slice(n / 10));
}

/** p50 µs of the guest's connect + request + response loop against `node` running an http server in the VM. */
async function nodeHttpRtt(m: Machine): Promise<number> {
  await m.writeFile('/tmp/http-bench.js', HTTP_SERVER);
  const port = 8181;
  const server = await m.spawn(['/usr/bin/node', '/tmp/http-bench.js', String(port)]);
  for (;;) {
    try {
      await m.readFile('/tmp/http-ready');
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const [, rtt] = await output(m, ['/usr/local/bin/netbench', 'rtt', String(port), String(NODE_HTTP_N)]);
  const us = Number(await rtt);
  await m.syscall('kill', server, 15);
  await m.wait(server);
  return us;
}

export async function runSocketBenches(): Promise<Figure[]> {
  const m = await boot();
  try {
    await m.writeFile('/usr/local/bin/netbench', `#!/usr/libexec/agentos/js\n${readFileSync(new URL('../programs/netbench.js', here), 'utf8')}`, 0o755);
    // Interleaved, after a warm-up of each: medians of 5.
    await throughputOnce(m, 'tcp');
    await throughputOnce(m, 'pipe');
    const tcp: number[] = [], pipe: number[] = [];
    for (let i = 0; i < 5; i++) {
      tcp.push(await throughputOnce(m, 'tcp'));
      pipe.push(await throughputOnce(m, 'pipe'));
    }
    const native = await nativeThroughput();
    // Round trips: a guest echo server accepting on a listener the host made.
    const [l, port] = await listener(m);
    const server = await m.spawn(['/usr/local/bin/netbench', 'echo', '3'], { fds: [[3, l]] });
    await m.syscall('close', l);
    const [, rtt] = await output(m, ['/usr/local/bin/netbench', 'rtt', String(port), String(RTT_N)]);
    const tcpRtt = Number(await rtt);
    // The http syscall to the same server (decision 0070), interleaved with the raw socket round trip: medians of 3.
    const httpRtts: number[] = [], rawRtts: number[] = [];
    for (let i = 0; i < 3; i++) {
      httpRtts.push(Number(await (await output(m, ['/usr/local/bin/netbench', 'httprtt', String(port), String(HTTP_N)]))[1]));
      rawRtts.push(Number(await (await output(m, ['/usr/local/bin/netbench', 'rtt', String(port), String(HTTP_N)]))[1]));
    }
    await m.syscall('kill', server, 9);
    const [inR, inW] = await m.syscall('pipe');
    const [outR, outW] = await m.syscall('pipe');
    const pong = await m.spawn(['/usr/local/bin/netbench', 'pong'], { fds: [[0, inR], [1, outW]] });
    const [, ping] = await output(m, ['/usr/local/bin/netbench', 'pingpong', String(RTT_N)], [[0, outR], [1, inW]], 2);
    for (const fd of [inR, inW, outR, outW]) await m.syscall('close', fd);
    const pipeRtt = Number(await ping);
    await m.wait(pong);
    const nativeRttUs = await nativeRtt();
    const nodeHttp = await nodeHttpRtt(m);
    const nativeHttp = await nativeRtt(true, NODE_HTTP_N);
    return [
      {
        name: 'loopback TCP throughput, source → sink, 64 KiB writes (256 MB, median of 5)',
        host: 'node', value: median(tcp), unit: 'MB/s', goal: '≥ 200 MB/s', met: median(tcp) >= 200,
        baseline: { name: `native loopback (Node net); pipe in the VM, same run: ${median(pipe).toFixed(0)} MB/s`, value: native, unit: 'MB/s' },
      },
      {
        name: `loopback TCP connect + request + response (p50 of ${RTT_N})`,
        host: 'node', value: tcpRtt / 1000, unit: 'ms', goal: '≤ 1 ms', met: tcpRtt / 1000 <= 1,
        baseline: { name: `native loopback (Node net); a pipe request + response in the VM, same run: ${(pipeRtt / 1000).toFixed(3)} ms`, value: nativeRttUs / 1000, unit: 'ms' },
      },
      {
        name: `node http server in the VM: connect + GET + response (p50 of ${NODE_HTTP_N}, client: a guest program)`,
        host: 'node', value: nodeHttp / 1000, unit: 'ms', goal: '—', met: null,
        baseline: { name: 'the same server in the host\'s Node, native client', value: nativeHttp / 1000, unit: 'ms' },
      },
      {
        name: `http syscall (curl's path) GET to a server in the VM, whole round trip (p50 of ${HTTP_N}, median of 3)`,
        host: 'node', value: median(httpRtts) / 1000, unit: 'ms', goal: '', met: null,
        baseline: { name: 'the same request + response on a raw socket (connect, write, read, close) in the VM, interleaved', value: median(rawRtts) / 1000, unit: 'ms' },
      },
    ];
  } finally {
    await m.stop();
  }
}

// netbench MODE ...: the two ends of the socket benchmarks (bench/sockets.ts), and
// the same over pipes for the baseline row.
//   sink FD            read FD (an accepted connection, if FD listens) to EOF; print the byte count
//   source PORT|- TOTAL CHUNK   write TOTAL bytes in CHUNK writes to 127.0.0.1:PORT (or stdout for -)
//   echo FD            accept on FD forever: read one request, answer it, close
//   rtt PORT N         N times: connect, send a request, read the answer, close; print the p50 in µs
//   httprtt PORT N     the same through the http syscall (the kernel's HTTP client on the VM's sockets)
//   pingpong N         N times: write stdout, read stdin (a pipe echo at the other end); print the p50 in µs
//   pong               read stdin, write it back to stdout, until EOF
import type { AgentosApi } from '../../src/runtimes/js/api.js';

const AF_INET = 2, SOCK_STREAM = 1, SO_ACCEPTCONN = 30, SOL_SOCKET = 1;

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export default function main(os: AgentosApi): void {
  const s = os.sys;
  const [, mode, a, b, c] = os.argv;
  const addr = (port: string) => ({ family: AF_INET, address: '127.0.0.1', port: Number(port) });
  if (mode === 'sink') {
    let fd = Number(a);
    let listening = false;
    try {
      listening = s.getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN) === 1;
    } catch {
      // a pipe
    }
    if (listening) fd = s.accept(fd)[0];
    let n = 0;
    for (let got = s.read(fd, 262144); got.byteLength; got = s.read(fd, 262144)) n += got.byteLength;
    os.print(`${n}\n`);
  } else if (mode === 'source') {
    let fd = 1;
    if (a !== '-') {
      fd = s.socket(AF_INET, SOCK_STREAM);
      s.connect(fd, addr(a));
    }
    const chunk = new Uint8Array(Number(c)).fill(97);
    for (let left = Number(b); left > 0; left -= chunk.byteLength) s.writeAll(fd, left >= chunk.byteLength ? chunk : chunk.subarray(0, left));
    if (fd !== 1) s.close(fd);
  } else if (mode === 'echo') {
    const answer = new TextEncoder().encode('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok');
    for (;;) {
      const [conn] = s.accept(Number(a));
      s.read(conn, 4096);
      s.writeAll(conn, answer);
      s.close(conn);
    }
  } else if (mode === 'rtt') {
    const req = new TextEncoder().encode('GET / HTTP/1.0\r\n\r\n');
    const times: number[] = [];
    for (let i = 0; i < Number(b); i++) {
      const t0 = performance.now();
      const fd = s.socket(AF_INET, SOCK_STREAM);
      s.connect(fd, addr(a));
      s.writeAll(fd, req);
      while (s.read(fd, 4096).byteLength);
      s.close(fd);
      times.push((performance.now() - t0) * 1000);
    }
    os.print(`${p50(times.slice(Math.floor(times.length / 10)))}\n`);
  } else if (mode === 'httprtt') {
    const times: number[] = [];
    for (let i = 0; i < Number(b); i++) {
      const t0 = performance.now();
      const res = s.http({ method: 'GET', url: `http://127.0.0.1:${a}/`, headers: [] });
      while (s.read(res.fd, 4096).byteLength);
      s.close(res.fd);
      times.push((performance.now() - t0) * 1000);
    }
    os.print(`${p50(times.slice(Math.floor(times.length / 10)))}\n`);
  } else if (mode === 'pingpong') {
    const req = new TextEncoder().encode('GET / HTTP/1.0\r\n\r\n');
    const times: number[] = [];
    for (let i = 0; i < Number(a); i++) {
      const t0 = performance.now();
      s.writeAll(1, req);
      s.read(0, 4096);
      times.push((performance.now() - t0) * 1000);
    }
    s.writeAll(2, `${p50(times.slice(Math.floor(times.length / 10)))}\n`);
  } else if (mode === 'pong') {
    for (let got = s.read(0, 4096); got.byteLength; got = s.read(0, 4096)) s.writeAll(1, got);
  }
}

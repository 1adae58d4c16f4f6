// vm.expose on Node: a real TCP server on the host's 127.0.0.1 (never another
// interface: the VM's server is for this machine's user, not its network).
// Each connection to it is joined to a new connection into the VM's listener
// and piped both ways as bytes arrive, with backpressure: the host socket is
// paused while the VM's queue is full, and the VM is not read while the host
// socket's buffer is. A port nothing listens on in the VM resets the host
// connection, as a refused connect would.

import { createServer, type Server, type Socket } from 'node:net';
import type { ExposedPort, Exposer } from '../api/expose.js';
import { checkPort } from '../api/expose.js';
import type { Machine } from '../api/machine.js';
import type { PortConnection } from '../api/port-connection.js';

const LOOPBACK = '127.0.0.1';

export const exposeOnHost: Exposer = async (m, vmPort, opts) => {
  const hostPort = opts.hostPort === undefined ? 0 : checkPort(opts.hostPort, 'expose: hostPort');
  const sockets = new Set<Socket>();
  // Half-open: a client that has finished sending still gets the VM's answer.
  const server = createServer({ pauseOnConnect: true, allowHalfOpen: true }, (sock) => {
    sockets.add(sock);
    sock.once('close', () => sockets.delete(sock));
    void join(m, vmPort, sock);
  });
  await listen(server, hostPort);
  const port = (server.address() as { port: number }).port;
  let closing: Promise<void> | null = null;
  const exposed: ExposedPort = {
    url: `http://${LOOPBACK}:${port}/`,
    vmPort,
    hostPort: port,
    close: () =>
      (closing ??= new Promise<void>((done) => {
        server.close(() => done());
        for (const s of sockets) s.destroy();
      })),
  };
  return exposed;
};

function listen(server: Server, port: number): Promise<void> {
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen({ host: LOOPBACK, port, exclusive: true }, () => {
      server.off('error', fail);
      ok();
    });
  });
}

/** Pipe host socket `sock` into a new connection to the VM's `vmPort`, both ways, until both ends are done. */
async function join(m: Machine, vmPort: number, sock: Socket): Promise<void> {
  let conn: PortConnection;
  try {
    conn = await m.connectPort(vmPort);
  } catch {
    sock.resetAndDestroy();
    return;
  }
  let open = true;
  // Host → VM writes, chained in order (below).
  let sent = Promise.resolve();
  const finish = () => {
    if (!open) return;
    open = false;
    void conn.close().catch(() => {});
  };
  sock.on('error', () => finish());
  // A socket that ended cleanly may close while its last chunks are still on
  // their way into the VM ('end' comes while a paused socket's write is under
  // way, and our end of the reply may be done): close after they are queued,
  // or the VM's server reads a short upload.
  sock.once('close', () => void (sock.readableEnded ? sent.then(finish, finish) : finish()));
  // Host → VM: one chunk at a time, the socket paused until the VM has queued
  // it; the end follows the last chunk ('end' may come while a write is under way).
  sock.on('data', (chunk: Buffer) => {
    sock.pause();
    // A copy: a view would carry Node's whole pooled buffer to the kernel.
    const data = new Uint8Array(chunk);
    sent = sent.then(() => conn.write(data)).then(
      () => void sock.resume(),
      () => void sock.destroy(), // the VM's server closed its end
    );
  });
  sock.once('end', () => void sent.then(() => conn.end()).catch(() => {}));
  sock.resume();
  // VM → host: read while the host socket takes it.
  try {
    for (;;) {
      const b = await conn.read();
      if (!b.byteLength) break;
      if (sock.destroyed) return;
      if (!sock.write(b)) await new Promise<void>((ok) => { sock.once('drain', ok); sock.once('close', ok); });
    }
    sock.end();
  } catch {
    sock.destroy();
  }
}

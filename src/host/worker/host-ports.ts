// The host's connections into the VM's listeners (vm.expose, browser
// previews), kept in the kernel worker by id: the host reads and writes them
// through the control channel, one call per chunk, each waiting as a blocking
// syscall would (so a slow reader on either side holds the other back: the
// connection's bounded queues are the backpressure). The kernel side is
// kernel/socket/host-connect.ts.

import { Errno, SysError } from '../../abi/errno.js';
import { SHUT_WR } from '../../abi/socket.js';
import { connectFromHost, loopbackPorts } from '../../kernel/socket/host-connect.js';
import type { StreamSocket } from '../../kernel/socket/stream.js';
import type { SocketTable } from '../../kernel/socket/table.js';
import { WaitQueue } from '../../kernel/waitqueue.js';

/** Bytes one read call returns at most. */
const READ_MAX = 256 * 1024;

/** Run `step` until it no longer answers with a queue to wait on. */
async function untilDone<T>(step: () => T | WaitQueue): Promise<T> {
  for (;;) {
    const r = step();
    if (!(r instanceof WaitQueue)) return r;
    await new Promise<void>((wake) => r.add(wake));
  }
}

/** The VM's listening ports, and the change count they were read at. */
export interface ListeningPorts {
  seq: number;
  ports: number[];
}

export class HostPorts {
  private readonly conns = new Map<number, StreamSocket>();
  private last = 0;

  constructor(private readonly table: SocketTable) {}

  /** Connect to the VM's `port`; the connection's id. ECONNREFUSED when nothing listens. */
  async connect(port: number): Promise<number> {
    const s = await untilDone(() => connectFromHost(this.table, port));
    this.conns.set(++this.last, s);
    return this.last;
  }

  /** Up to `max` bytes the VM's server sent (a copy, waiting for some); empty at its end. */
  async read(id: number, max = READ_MAX): Promise<Uint8Array> {
    const s = this.conn(id);
    // Closed meanwhile (the host gave up on it): nothing more comes.
    const b = await untilDone(() => (s.closed ? new Uint8Array(0) : s.read(Math.min(Math.max(max, 1), READ_MAX), false, false)));
    return b.slice();
  }

  /** Send all of `data` to the VM's server, waiting for room; EPIPE once it has closed. */
  async write(id: number, data: Uint8Array): Promise<void> {
    const s = this.conn(id);
    for (let off = 0; off < data.byteLength; ) {
      off += await untilDone(() => {
        if (s.closed) throw new SysError(Errno.EPIPE);
        return s.write(data.subarray(off), false);
      });
    }
  }

  /** No more bytes to the server: it reads end of file. */
  shutdown(id: number): void {
    const s = this.conns.get(id);
    if (s && !s.wrShut && s.state === 'connected') s.shutdown(SHUT_WR);
  }

  close(id: number): void {
    const s = this.conns.get(id);
    this.conns.delete(id);
    s?.close();
  }

  /** The listening ports once they differ from what the caller saw at `seq` (at once if they do now). */
  async listening(seq: number): Promise<ListeningPorts> {
    await untilDone(() => (this.table.listenSeq === seq ? this.table.listenChange : 0));
    return { seq: this.table.listenSeq, ports: loopbackPorts(this.table) };
  }

  private conn(id: number): StreamSocket {
    const s = this.conns.get(id);
    if (!s) throw new SysError(Errno.EBADF, `no host connection ${id}`);
    return s;
  }
}

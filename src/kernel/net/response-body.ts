// A response body as a pipe the guest reads: the kernel pulls the host's
// stream only while the pipe has room (backpressure through the pipe, so a
// big download never sits in memory), and a failure after the headers
// (reset, timeout) is the reader's errno once the bytes before it are read.

import { Errno, SysError } from '../../abi/errno.js';
import { O_RDONLY } from '../../abi/fcntl.js';
import { OpenFile } from '../file.js';
import { openPipeEnd, type Pipe } from '../pipe.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import type { FileOps } from '../vfs/types.js';
import { WaitQueue } from '../waitqueue.js';

export class ResponseBody {
  private readonly pipe: Pipe;
  private readonly writer: FileOps;
  readonly file: OpenFile;
  private error: SysError | null = null;
  private closed = false;

  constructor(k: Kernel, p: Process, private readonly abort: () => void) {
    const inode = k.pipefs.newPipeInode(p.uid, p.gid);
    this.pipe = k.fifos.pipeOf(inode);
    const reader = openPipeEnd(this.pipe, 'r');
    this.writer = openPipeEnd(this.pipe, 'w');
    const ops: FileOps = {
      ...reader,
      read: (f, len) => {
        const r = reader.read(f, len);
        if (this.error && r instanceof Uint8Array && r.byteLength === 0) throw this.error;
        return r;
      },
      release: (f) => {
        reader.release?.(f);
        // The guest stopped reading (closed, exited, killed): stop the transfer.
        if (!this.closed) this.abort();
      },
    };
    this.file = new OpenFile(inode, O_RDONLY, ops, `http:[${inode.ino}]`);
  }

  /** Copy the host's body into the pipe; `fail` maps a host error to the guest's errno. */
  async pump(body: AsyncIterator<Uint8Array>, fail: (e: unknown) => SysError): Promise<void> {
    try {
      for (;;) {
        const { value, done } = await body.next();
        if (done) break;
        for (let off = 0; off < value.byteLength; ) {
          if (this.pipe.readers === 0) return;
          const r = this.pipe.write(value.subarray(off), false);
          if (r instanceof WaitQueue) await new Promise<void>((wake) => r.add(wake));
          else off += r;
        }
      }
    } catch (e) {
      if (this.pipe.readers > 0) this.error = e instanceof SysError && e.errno === Errno.EPIPE ? null : fail(e);
    } finally {
      this.closed = true;
      this.writer.release?.(this.file);
      void body.return?.();
    }
  }
}

// The control channel between the host and the VM's process (isolation
// 'process'): messages in V8's serialization (bytes cross as bytes), each
// after its length (4 bytes, little-endian), over a socket pair that is the
// child's fd 3. Not Node's own IPC channel: the permission model does not
// check file descriptors, so code in the VM's process can write any bytes on
// its end, and Node's IPC parser throws on bytes that are not a message — in
// the host process, from a callback nothing can catch. Here a frame that is
// not a message is reported to the reader, which ends the VM.

import type { Socket } from 'node:net';
import { deserialize, serialize } from 'node:v8';

/** The child's end of the channel. */
export const CHANNEL_FD = 3;

const HEAD = 4;

/** Post `message`; `then` runs once it is written (or failed to be: the other end is gone). */
export function sendFrame(socket: Socket, message: unknown, then?: () => void): void {
  if (socket.destroyed || !socket.writable) return void then?.();
  const body = serialize(message);
  const head = Buffer.allocUnsafe(HEAD);
  head.writeUInt32LE(body.length);
  socket.cork(); // one writev
  socket.write(head);
  socket.write(body, then && (() => then()));
  socket.uncork();
}

/**
 * Read `socket`'s frames: `deliver` gets each message, `broken` (once, and
 * then nothing more is read) the reason bytes that are not one arrived.
 */
export function readFrames(socket: Socket, deliver: (message: unknown) => void, broken: (why: string) => void): void {
  let head = Buffer.alloc(0);
  let need = -1; // the body's length, once the head is in
  let parts: Buffer[] = [];
  let got = 0;
  const onData = (chunk: Buffer) => {
    for (let at = 0; ; ) {
      if (need < 0) {
        if (at === chunk.length) return;
        const take = Math.min(HEAD - head.length, chunk.length - at);
        head = Buffer.concat([head, chunk.subarray(at, at + take)]);
        at += take;
        if (head.length < HEAD) return;
        need = head.readUInt32LE(0);
        head = Buffer.alloc(0);
      }
      const take = Math.min(need - got, chunk.length - at);
      parts.push(chunk.subarray(at, at + take));
      got += take;
      at += take;
      if (got < need) return;
      const body = Buffer.concat(parts, need);
      parts = [];
      got = 0;
      need = -1;
      let message: unknown;
      try {
        message = deserialize(body);
      } catch (e) {
        socket.off('data', onData);
        socket.destroy();
        return broken(`a frame that is not a message (${(e as Error).message})`);
      }
      deliver(message);
    }
  };
  socket.on('data', onData);
}

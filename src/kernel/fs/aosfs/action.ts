// Open-file ops of /aos's action files (inbox) and the human channel.
// Action files buffer every write of one open and commit the message when it
// is closed: several writes are one message, each open a fresh one, O_TRUNC
// and O_APPEND change nothing, no seeking (ESPIPE), more than 64 KiB is
// EFBIG (and nothing is committed).

import { AOS_MESSAGE_MAX } from '../../../abi/aos.js';
import { concatBytes } from '../../../abi/bytes.js';
import { Errno, SysError } from '../../../abi/errno.js';
import { SEEK_CUR, SEEK_END, SEEK_SET } from '../../../abi/fcntl.js';
import { POLLIN, POLLOUT } from '../../pipe.js';
import type { FileOps } from '../../vfs/types.js';
import type { WaitQueue } from '../../waitqueue.js';

const utf8 = new TextDecoder();

/** Buffer writes; `commit(text)` runs once at the last close, unless a write failed. */
export function actionOps(commit: (text: string) => void): FileOps {
  const parts: Uint8Array[] = [];
  let size = 0;
  let failed = false;
  return {
    read: () => {
      throw new SysError(Errno.EBADF);
    },
    write(_f, data) {
      if (failed) throw new SysError(Errno.EFBIG);
      if (size + data.byteLength > AOS_MESSAGE_MAX) {
        // The message as a whole is refused: a half prompt must not start an agent.
        failed = true;
        throw new SysError(Errno.EFBIG, `a message takes at most ${AOS_MESSAGE_MAX} bytes`);
      }
      parts.push(data.slice());
      size += data.byteLength;
      return data.byteLength;
    },
    poll: () => POLLOUT,
    release() {
      if (!failed && size > 0) commit(utf8.decode(concatBytes(parts)));
    },
  };
}

/** What the human channel's ops need from the question machinery. */
export interface Channel {
  /** The question written on this open (committed at the first read, or at close). */
  ask(text: string): void;
  /**
   * The bytes to read now: the answer to this reader's question (null until
   * there is one), or, for a reader with no question, the questions waiting.
   */
  content(): Uint8Array | null;
  /** Woken when the answer arrives. */
  readonly queue: () => WaitQueue | null;
}

/** Write a question, then read: the read blocks until a person answers. */
export function channelOps(ch: Channel): FileOps {
  const parts: Uint8Array[] = [];
  let size = 0;
  let asked = false;
  let data: Uint8Array | null = null;
  const flush = () => {
    if (asked || size === 0) return;
    asked = true;
    ch.ask(utf8.decode(concatBytes(parts)));
  };
  return {
    read(f, len) {
      flush();
      data ??= ch.content();
      if (!data) return ch.queue() ?? new Uint8Array(0);
      const out = data.slice(f.pos, f.pos + len);
      f.pos += out.byteLength;
      return out;
    },
    write(_f, bytes) {
      if (asked) throw new SysError(Errno.EINVAL, 'one question per open');
      if (size + bytes.byteLength > AOS_MESSAGE_MAX) throw new SysError(Errno.EFBIG, `a question takes at most ${AOS_MESSAGE_MAX} bytes`);
      parts.push(bytes.slice());
      size += bytes.byteLength;
      return bytes.byteLength;
    },
    poll: () => POLLOUT | (data || ch.content() ? POLLIN : 0),
    release: flush,
  };
}

/**
 * An append-only log read as it grows: every read sees the content as it is
 * now, from the description's position, so a reader at the end finds what
 * was appended since (tail -f, or a loop of reads).
 */
export function liveOps(content: () => Uint8Array): FileOps {
  return {
    read(f, len, pos) {
      const at = pos ?? f.pos;
      const out = content().slice(at, at + len);
      if (pos === undefined) f.pos = at + out.byteLength;
      return out;
    },
    write: () => {
      throw new SysError(Errno.EBADF);
    },
    seek(f, offset, whence) {
      const base = whence === SEEK_SET ? 0 : whence === SEEK_CUR ? f.pos : whence === SEEK_END ? content().byteLength : NaN;
      const to = base + offset;
      if (!Number.isSafeInteger(to) || to < 0) throw new SysError(Errno.EINVAL);
      return (f.pos = to);
    },
    poll: () => POLLIN,
  };
}

// Open-file ops for generated files, after Linux's seq_file: the content is
// produced at open, served by position, and produced afresh when a reader
// comes back to offset 0 (top and friends lseek to 0 and read again).

import { Errno, SysError } from '../../../abi/errno.js';
import { SEEK_CUR, SEEK_SET } from '../../../abi/fcntl.js';
import { POLLIN, POLLOUT } from '../../pipe.js';
import type { FileOps } from '../../vfs/types.js';

export interface SnapshotSource {
  generate(): Uint8Array;
  /** Absent: writes fail with `writeErrno`. */
  write?(data: Uint8Array): number;
  writeErrno: number;
}

export function snapshotOps(src: SnapshotSource): FileOps {
  let data = src.generate();
  let fresh = true;
  return {
    read(f, len, pos) {
      const at = pos ?? f.pos;
      if (at === 0 && !fresh) data = src.generate();
      fresh = false;
      const out = data.slice(at, at + len);
      if (pos === undefined) f.pos = at + out.length;
      return out;
    },
    write(_f, bytes) {
      if (!src.write) throw new SysError(src.writeErrno);
      return src.write(bytes);
    },
    // seq_lseek: SEEK_END is meaningless for content of unknown length.
    seek(f, offset, whence) {
      if (whence !== SEEK_SET && whence !== SEEK_CUR) throw new SysError(Errno.EINVAL, 'whence');
      const pos = (whence === SEEK_SET ? 0 : f.pos) + offset;
      if (!Number.isSafeInteger(pos) || pos < 0) throw new SysError(Errno.EINVAL, 'negative offset');
      return (f.pos = pos);
    },
    poll: () => POLLIN | POLLOUT,
  };
}

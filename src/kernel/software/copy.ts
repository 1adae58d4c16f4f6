// Copy a staged package tree into /opt/agentos. Packages are plain files and
// directories: symlinks, devices and FIFOs are refused, set-id bits dropped.

import { Errno, SysError } from '../../abi/errno.js';
import { O_CREAT, O_DIRECTORY, O_EXCL, O_WRONLY } from '../../abi/fcntl.js';
import { isDir, isReg } from '../../abi/stat.js';
import type { Cred } from '../vfs/types.js';
import type { Vfs } from '../vfs/vfs.js';

/** The names in directory `dir`, without `.` and `..`. */
export function dirNames(vfs: Vfs, cred: Cred, dir: string): string[] {
  const f = vfs.open(cred, vfs.root(), dir, O_DIRECTORY, 0);
  if (!('ops' in f)) throw new SysError(Errno.EAGAIN, dir);
  try {
    return vfs.readdirOf(f).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
  } finally {
    f.unref();
  }
}

/** First pass: refuse anything that is not a plain file or directory, before writing a byte. */
export function checkTree(vfs: Vfs, cred: Cred, src: string): void {
  for (const name of dirNames(vfs, cred, src)) {
    const path = `${src}/${name}`;
    const st = vfs.stat(cred, vfs.root(), path, false);
    if (isDir(st.mode)) checkTree(vfs, cred, path);
    else if (!isReg(st.mode)) throw new SysError(Errno.EPERM, `${path}: packages may hold only files and directories`);
  }
}

/** Copy `src` (a directory readable by `reader`) to a new directory `dst`, written as `writer`. */
export function copyTree(vfs: Vfs, reader: Cred, writer: Cred, src: string, dst: string): void {
  vfs.mkdir(writer, vfs.root(), dst, 0o755);
  for (const name of dirNames(vfs, reader, src)) {
    const from = `${src}/${name}`;
    const to = `${dst}/${name}`;
    const st = vfs.stat(reader, vfs.root(), from, false);
    if (isDir(st.mode)) {
      copyTree(vfs, reader, writer, from, to);
      continue;
    }
    const mode = st.mode & 0o777;
    const r = vfs.open(reader, vfs.root(), from, 0, 0);
    const w = vfs.open(writer, vfs.root(), to, O_WRONLY | O_CREAT | O_EXCL, mode);
    if (!('ops' in r) || !('ops' in w)) throw new SysError(Errno.EAGAIN, from);
    try {
      for (;;) {
        const b = r.ops.read(r, 65536);
        if (!(b instanceof Uint8Array) || b.byteLength === 0) break;
        w.ops.write(w, b);
      }
    } finally {
      r.unref();
      w.unref();
    }
    vfs.chmod(writer, vfs.root(), to, mode);
  }
}

// Python's view of the world: the VFS mounted live over Emscripten's tree, and
// fds 0-2 (and pipes made for subprocesses) as the kernel's fds.
//
// Emscripten's root stays an in-memory tree because Pyodide keeps its
// standard library there (/lib/python3.*, /lib/python3*.zip); every top-level
// entry of the VFS is mounted over it, except /dev and /proc, which
// Emscripten provides itself (its /dev/null, /dev/urandom, /proc/self/fd) —
// but /dev/stdin, /dev/stdout, /dev/stderr and /dev/tty are the kernel's.

import { O_ACCMODE, O_CLOEXEC, O_NONBLOCK, O_RDWR } from '../../abi/fcntl.js';
import { TIOCGWINSZ, type Winsize } from '../../abi/termios.js';
import { isDir, isLnk, S_IFCHR, S_IFIFO } from '../../abi/stat.js';
import type { Sys } from '../../libc/sys.js';
import type { EmFS, EmStream, Kfs } from './kfs.js';

const KEEP = new Set(['.', '..', 'dev', 'proc']);

export function mountVfs(FS: EmFS, kfs: Kfs, sys: Sys): void {
  for (const { name } of sys.readdir('/')) {
    if (KEEP.has(name)) continue;
    if (name === 'lib') {
      mountBelow(FS, kfs, sys, '/lib');
      continue;
    }
    mountAt(FS, kfs, sys, `/${name}`);
  }
}

/** Pyodide's /lib holds the standard library: the VFS's /lib entries are mounted one by one beside it. */
function mountBelow(FS: EmFS, kfs: Kfs, sys: Sys, dir: string): void {
  let entries;
  try {
    entries = sys.readdir(dir);
  } catch {
    return;
  }
  for (const { name } of entries) {
    if (name !== '.' && name !== '..' && !/^python3/.test(name)) mountAt(FS, kfs, sys, `${dir}/${name}`);
  }
}

function mountAt(FS: EmFS, kfs: Kfs, sys: Sys, path: string): void {
  let mode: number;
  try {
    mode = sys.lstat(path).mode;
  } catch {
    return;
  }
  if (isLnk(mode)) {
    if (!FS.analyzePath(path).exists) FS.symlink(sys.readlink(path), path);
  } else if (isDir(mode)) {
    FS.mkdirTree(path);
    FS.mount(kfs.type, { root: path }, path);
  }
}

/**
 * An Emscripten fd over kernel fd `kfd` (stdio, a pipe end), at Emscripten fd
 * `fd` or the next free one. A terminal gets a `tty`, which is what makes
 * Emscripten answer isatty(); its window size is the kernel terminal's.
 */
export function wrapFd(FS: EmFS, kfs: Kfs, kfd: number, flags: number, fd = -1, tty: Sys | null = null): number {
  const node = { mode: (tty ? S_IFCHR : S_IFIFO) | 0o600, id: -1 - kfd, name: `fd${kfd}` };
  const stream: EmStream = FS.createStream(
    { node, flags, seekable: false, position: 0, stream_ops: kfs.fdOps, ungotten: [], error: false, kfd },
    fd,
  );
  if (tty) stream.tty = ttyOps(tty, kfd);
  return stream.fd;
}

/** What makes Emscripten answer isatty() for a stream: its window size is the kernel terminal's. */
function ttyOps(sys: Sys, kfd: number): object {
  const winsize = () => {
    const w = sys.ioctl(kfd, TIOCGWINSZ) as unknown as Winsize;
    return [w.rows, w.cols];
  };
  return { ops: { ioctl_tiocgwinsz: winsize } };
}

/** Emscripten's devices of these names are its console; Linux's reopen the process's fds 0-2 and its terminal. */
const KERNEL_DEVICES = ['stdin', 'stdout', 'stderr', 'tty', 'zero', 'full'];
const KERNEL_DEVICE_MAJOR = 241;

/** /dev/stdin, /dev/stdout, /dev/stderr, /dev/tty, /dev/zero and /dev/full become devices that open the same names in the kernel; /dev/fd is the kernel's. */
export function installKernelDevices(FS: EmFS, kfs: Kfs, sys: Sys): void {
  KERNEL_DEVICES.forEach((name, minor) => {
    const path = `/dev/${name}`;
    const dev = FS.makedev(KERNEL_DEVICE_MAJOR, minor);
    FS.registerDevice(dev, {
      ...kfs.fdOps,
      open(stream: EmStream) {
        try {
          stream.kfd = sys.open(path, (stream.flags & (O_ACCMODE | O_NONBLOCK)) | O_CLOEXEC);
          if (sys.isatty(stream.kfd)) stream.tty = ttyOps(sys, stream.kfd);
        } catch (e) {
          kfs.rethrow(e);
        }
        stream.seekable = false;
      },
    });
    if (FS.analyzePath(path).exists) FS.unlink(path);
    FS.mkdev(path, S_IFCHR | 0o666, dev);
  });
  // /dev/fd/N is the kernel's fd N (what a shell's <(…) hands over), opened as Linux reopens it.
  FS.mkdirTree('/dev/fd');
  FS.mount(kfs.type, { root: '/dev/fd', follow: true }, '/dev/fd');
}

/** Replace Emscripten's fds 0-2 by the process's kernel fds 0-2. */
export function installStdio(FS: EmFS, kfs: Kfs, sys: Sys): void {
  for (const fd of [0, 1, 2]) {
    if (FS.streams[fd]) FS.closeStream(fd);
    let tty = false;
    try {
      tty = sys.isatty(fd);
    } catch {
      continue; // not open in the kernel: leave it closed for Python too
    }
    wrapFd(FS, kfs, fd, O_RDWR, fd, tty ? sys : null);
  }
}

/** The kernel fd behind an Emscripten fd, if any. */
export function kernelFd(FS: EmFS, fd: number): number | undefined {
  const s = FS.streams[fd];
  return s?.kfd;
}

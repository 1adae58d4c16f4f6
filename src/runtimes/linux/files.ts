// The package's files a resume needs (share/linux/), read through the caller's syscalls — so the
// VM's policy binds them as any file — once per worker: a later resume in the same worker (its
// guest crashed, or was killed mid-job) takes them from memory, as long as the state file is the
// same one. The saved state is stored uncompressed (34 MiB): v86's own zstd decode of it took
// most of a resume (decision 0085).

import type { Sys } from '../../libc/sys.js';
import type { GuestFiles } from './guest.js';

/** Bytes per read of the state: a progress step. */
const CHUNK = 1 << 20;
/** Progress lines at most this often (a terminal redraws each). */
const PROGRESS_MS = 100;

let kept: { key: string; files: GuestFiles } | null = null;

/**
 * share/linux/ of the package whose runtime image is `file` (libexec/linux). While the state is
 * read, a terminal on stderr shows `linux: loading the image: N.N/M.M MB`, erased when done.
 */
export async function guestFiles(sys: Sys, file: string): Promise<GuestFiles> {
  const share = `${file.slice(0, file.lastIndexOf('/libexec/'))}/share/linux`;
  // Opened by this caller even when kept: what the VM's policy or permissions deny it, it never gets from memory.
  const fd = sys.open(`${share}/state.bin`);
  let state: Uint8Array;
  let key: string;
  let wasm: Promise<WebAssembly.Module>;
  try {
    const st = sys.fstat(fd);
    key = `${share}:${st.ino}:${st.size}:${st.mtimeMs}`;
    if (kept?.key === key) return kept.files;
    // The engine compiles v86 in the background while the state is read.
    wasm = WebAssembly.compile(sys.readFile(`${share}/v86.wasm`) as Uint8Array<ArrayBuffer>);
    state = readWithProgress(sys, fd, st.size);
  } finally {
    sys.close(fd);
  }
  const files: GuestFiles = {
    bios: sys.readFile(`${share}/bios.bin`),
    vgaBios: sys.readFile(`${share}/vgabios.bin`),
    wasm: await wasm,
    state: state.buffer as ArrayBuffer,
  };
  kept = { key, files };
  return files;
}

function readWithProgress(sys: Sys, fd: number, size: number): Uint8Array {
  const tty = sys.isatty(2);
  const out = new Uint8Array(size);
  const mb = (n: number) => (n / 1e6).toFixed(1);
  let at = 0;
  let shown = 0;
  while (at < size) {
    const part = sys.pread(fd, Math.min(CHUNK, size - at), at);
    if (!part.length) throw new Error('the image is shorter than its size');
    out.set(part, at);
    at += part.length;
    if (tty && performance.now() - shown >= PROGRESS_MS) {
      shown = performance.now();
      sys.writeAll(2, `\rlinux: loading the image: ${mb(at)}/${mb(size)} MB`);
    }
  }
  if (tty && shown) sys.writeAll(2, '\r\x1b[K');
  return out;
}

// binfmt: choose how to run a file from its leading bytes, never its name.
// Mirrors Linux binfmt_script semantics.

import { Errno, SysError } from '../abi/errno.js';
import { X_OK } from '../abi/fcntl.js';
import { isReg, S_ISUID } from '../abi/stat.js';
import type { Image } from './process.js';
import type { Cred, Inode } from './vfs/types.js';
import type { Vfs } from './vfs/vfs.js';

/** Bytes of header read, like Linux's BINPRM_BUF_SIZE. */
export const BINPRM_BUF_SIZE = 256;
/** Handlers run per exec before ELOOP: Linux's exec_binprm allows depth 0..5 (five nested scripts). */
export const MAX_INTERP_DEPTH = 5;

/** agentOS's native executable: a runtime image, `\x7fAOS <runtime>\n`, like ELF is Linux's. */
export const RUNTIME_MAGIC = [0x7f, 0x41, 0x4f, 0x53];

// The #! line names a path and an argument, read as every other path and argument is: UTF-8.
const UTF8 = new TextDecoder();

function startsWith(buf: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => buf[i] === b);
}

export function runtimeImageBytes(runtime: string): Uint8Array {
  return new Uint8Array([...RUNTIME_MAGIC, 0x20, ...new TextEncoder().encode(`${runtime}\n`)]);
}

/** What exec found: the image to run and the inode of its file (for the kernel's module cache). */
export interface Loaded {
  image: Image;
  inode: Inode;
  /** The file exec'd is a set-user-ID program the kernel honours (setuid.ts): it runs as root. */
  setuid?: boolean;
}

/**
 * Resolve `path` and read its header; returns what the runner needs to start
 * it. `setuid` decides whether the file exec'd (not an interpreter) elevates,
 * given it and its canonical path; if so the interpreter gets that path.
 */
export function loadImage(
  vfs: Vfs, cred: Cred, cwd: Inode, path: string, argv: string[], setuid?: (inode: Inode, path: string) => boolean,
): Loaded {
  let file = path;
  let args = argv.length ? [...argv] : [path];
  let elevated = false;
  for (let depth = 0; ; depth++) {
    if (depth > MAX_INTERP_DEPTH) throw new SysError(Errno.ELOOP, path);
    const found = vfs.namei.resolve(cred, cwd, file, true);
    const inode = found.inode;
    if (!isReg(inode.mode)) throw new SysError(Errno.EACCES, file);
    vfs.access(cred, cwd, file, X_OK);
    if (depth === 0 && setuid && inode.mode & S_ISUID) {
      const canonical = vfs.describe(found, file);
      if (setuid(inode, canonical)) {
        elevated = true;
        file = canonical;
      }
    }
    const head = inode.fs.read(inode, 0, BINPRM_BUF_SIZE);
    if (head[0] === 0x23 && head[1] === 0x21) {
      // #!interpreter [one optional argument]
      let end = head.indexOf(0x0a);
      const truncated = end < 0 && head.length === BINPRM_BUF_SIZE;
      if (end < 0) end = head.length;
      const line = UTF8.decode(head.subarray(2, end)).replace(/^[ \t]+/, '').replace(/[ \t\r]+$/, '');
      const m = /^(\S+)(?:[ \t]+(.*))?$/.exec(line);
      if (!m) throw new SysError(Errno.ENOEXEC, file);
      // As Linux: a truncated argument is passed on, a truncated interpreter name is refused.
      if (truncated && m[2] === undefined) throw new SysError(Errno.ENOEXEC, `${file}: #! line too long`);
      const interp = m[1];
      args = m[2] ? [interp, m[2], file, ...args.slice(1)] : [interp, file, ...args.slice(1)];
      file = interp;
      continue;
    }
    // The image names the file that runs by its canonical path (Linux's /proc/self/exe): a
    // runtime that starts itself again uses it, never a name the cwd or $PATH could reinterpret.
    if (startsWith(head, [0x00, 0x61, 0x73, 0x6d])) return { image: { runtime: 'wasm', file: vfs.describe(found, file), argv: args }, inode, setuid: elevated };
    if (startsWith(head, RUNTIME_MAGIC)) {
      let end = head.indexOf(0x0a);
      if (end < 0) end = head.length;
      const runtime = UTF8.decode(head.subarray(4, end)).trim();
      if (!runtime) throw new SysError(Errno.ENOEXEC, file);
      return { image: { runtime, file: vfs.describe(found, file), argv: args }, inode, setuid: elevated };
    }
    // ELF, Mach-O, PE and anything else: no handler (the shell may retry via /bin/sh).
    throw new SysError(Errno.ENOEXEC, file);
  }
}

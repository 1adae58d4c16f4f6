// Copy the static tree in src/image/rootfs/ into the image. Git keeps no
// owners and only the execute bit, so the image gets root:root, 0644 files
// (0755 if executable) and 0755 directories; existing directories (from the
// FHS skeleton) keep their modes. Tokens `@NAME@` in files are replaced
// with `vars[NAME]` (os-release's version).

import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isDir } from '../abi/stat.js';
import type { Vfs } from '../kernel/vfs/vfs.js';
import { ROOT, mkdir, writeFile } from './tree.js';

export function copyTree(vfs: Vfs, hostDir: string, imageDir: string, vars: Record<string, string>): number {
  let count = 0;
  for (const name of readdirSync(hostDir).sort()) {
    const from = join(hostDir, name);
    const to = `${imageDir === '/' ? '' : imageDir}/${name}`;
    const st = lstatSync(from);
    if (st.isDirectory()) {
      if (!exists(vfs, to)) mkdir(vfs, to, 0o755);
      count += copyTree(vfs, from, to, vars);
    } else if (st.isSymbolicLink()) {
      vfs.symlink(ROOT, vfs.root(), readlinkSync(from), to);
      count++;
    } else if (st.isFile()) {
      writeFile(vfs, to, substitute(readFileSync(from), vars), st.mode & 0o111 ? 0o755 : 0o644);
      count++;
    }
  }
  return count;
}

/** chown -R, without following symlinks. */
export function chownTree(vfs: Vfs, path: string, uid: number, gid: number): void {
  vfs.chown(ROOT, vfs.root(), path, uid, gid, false);
  const inode = vfs.resolve(ROOT, vfs.root(), path, false);
  if (!isDir(inode.mode)) return;
  for (const e of inode.fs.readdir(inode, ROOT)) chownTree(vfs, `${path}/${e.name}`, uid, gid);
}

function exists(vfs: Vfs, path: string): boolean {
  try {
    vfs.resolve(ROOT, vfs.root(), path, false);
    return true;
  } catch {
    return false;
  }
}

function substitute(bytes: Uint8Array, vars: Record<string, string>): Uint8Array {
  const text = new TextDecoder().decode(bytes);
  const keys = Object.keys(vars).filter((k) => text.includes(`@${k}@`));
  if (keys.length === 0) return bytes; // binary files pass through untouched
  return new TextEncoder().encode(keys.reduce((t, k) => t.split(`@${k}@`).join(vars[k]), text));
}

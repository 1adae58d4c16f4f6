// A package's metadata: package.json's name, version and bin map.

import { concatBytes } from '../../abi/bytes.js';
import { Errno, SysError } from '../../abi/errno.js';
import type { Vfs } from '../vfs/vfs.js';
import type { Cred, Inode } from '../vfs/types.js';
import { checkCommandName, checkPackageName, checkVersion } from './names.js';

export interface PackageMeta {
  name: string;
  version: string;
  /** command → entry file, relative to the package root. */
  bin: Record<string, string>;
}

const utf8 = new TextDecoder();

export function readText(vfs: Vfs, cred: Cred, base: Inode, path: string): string {
  const f = vfs.open(cred, base, path, 0, 0);
  if (!('ops' in f)) throw new SysError(Errno.EAGAIN, path);
  try {
    const parts: Uint8Array[] = [];
    for (;;) {
      const b = f.ops.read(f, 65536);
      if (!(b instanceof Uint8Array) || b.byteLength === 0) break;
      parts.push(b.slice());
    }
    return utf8.decode(concatBytes(parts));
  } finally {
    f.unref();
  }
}

export function readPackageMeta(vfs: Vfs, cred: Cred, dir: string): PackageMeta {
  let raw: unknown;
  try {
    raw = JSON.parse(readText(vfs, cred, vfs.root(), `${dir}/package.json`));
  } catch (e) {
    if (e instanceof SysError) throw new SysError(e.errno, `${dir}/package.json`);
    throw new SysError(Errno.EINVAL, `${dir}/package.json: not valid JSON`);
  }
  const pkg = raw as { name?: unknown; version?: unknown; bin?: unknown };
  if (typeof pkg.name !== 'string' || typeof pkg.version !== 'string') {
    throw new SysError(Errno.EINVAL, `${dir}/package.json: needs a name and a version`);
  }
  checkPackageName(pkg.name);
  checkVersion(pkg.version);
  const bin: Record<string, string> = {};
  if (typeof pkg.bin === 'string') bin[pkg.name.replace(/^@[^/]+\//, '')] = pkg.bin;
  else if (pkg.bin && typeof pkg.bin === 'object') {
    for (const [cmd, entry] of Object.entries(pkg.bin)) {
      if (typeof entry !== 'string') throw new SysError(Errno.EINVAL, `bin entry ${cmd} is not a path`);
      bin[cmd] = entry;
    }
  }
  for (const cmd of Object.keys(bin)) checkCommandName(cmd);
  return { name: pkg.name, version: pkg.version, bin };
}

// Projecting a package into the filesystem: its bin/ symlink farm, its `current`
// pointer, and its commands' links in /opt/agentos/bin. Used by the image
// builder for base packages and by the kernel's software broker at run time,
// so base and runtime-installed packages are laid out identically.

import { Errno, SysError } from '../../abi/errno.js';
import { isDir, isLnk, isReg } from '../../abi/stat.js';
import type { Cred } from '../vfs/types.js';
import type { Vfs } from '../vfs/vfs.js';
import { dirNames } from './copy.js';
import { BIN, MAX_LINKS, OPT, WARN_AT } from './layout.js';
import type { PackageMeta } from './manifest.js';
import { checkCommandName, packageDirName } from './names.js';

export interface LinkResult {
  linked: string[];
  warnings: string[];
}

function exists(vfs: Vfs, cred: Cred, path: string, follow = false): boolean {
  try {
    vfs.stat(cred, vfs.root(), path, follow);
    return true;
  } catch (e) {
    if (e instanceof SysError && (e.errno === Errno.ENOENT || e.errno === Errno.ENOTDIR)) return false;
    throw e;
  }
}

function mkdirp(vfs: Vfs, cred: Cred, path: string): void {
  let cur = '';
  for (const part of path.split('/').filter(Boolean)) {
    cur += `/${part}`;
    if (!exists(vfs, cred, cur, true)) vfs.mkdir(cred, vfs.root(), cur, 0o755);
  }
}

/** Replace `path` by a symlink to `target` in one rename, so readers never see it missing. */
export function atomicSymlink(vfs: Vfs, cred: Cred, target: string, path: string): void {
  const dir = path.slice(0, path.lastIndexOf('/'));
  const tmp = `${dir}/.${path.slice(dir.length + 1)}.tmp-${Date.now().toString(36)}`;
  vfs.symlink(cred, vfs.root(), target, tmp);
  vfs.rename(cred, vfs.root(), tmp, vfs.root(), path);
}

/**
 * The entry file of a command, checked: a regular file whose real path stays
 * inside the package root (guest packages may not point outside themselves).
 */
export function checkEntry(vfs: Vfs, cred: Cred, root: string, cmd: string, entry: string): { clean: string; real: string } {
  const clean = entry.replace(/^\.\//, '');
  if (clean.startsWith('/')) throw new SysError(Errno.EINVAL, `bin entry for ${cmd} must be relative: ${entry}`);
  const realRoot = vfs.realpath(cred, vfs.root(), root);
  let real: string;
  try {
    real = vfs.realpath(cred, vfs.root(), `${root}/${clean}`);
  } catch (e) {
    if (e instanceof SysError) throw new SysError(e.errno, `bin entry for ${cmd}: ${root}/${clean}`);
    throw e;
  }
  if (!real.startsWith(`${realRoot}/`)) {
    throw new SysError(Errno.EACCES, `bin entry for ${cmd} resolves outside the package: ${real}`);
  }
  if (!isReg(vfs.stat(cred, vfs.root(), real, true).mode)) {
    throw new SysError(Errno.EINVAL, `bin entry for ${cmd} is not a regular file: ${real}`);
  }
  return { clean, real };
}

/** Build <root>/bin/<cmd> → ../<entry> for every command of the bin map. */
export function projectBinFarm(vfs: Vfs, cred: Cred, root: string, meta: PackageMeta): void {
  const entries = Object.entries(meta.bin).map(([cmd, entry]) => [cmd, checkEntry(vfs, cred, root, cmd, entry).clean]);
  mkdirp(vfs, cred, `${root}/bin`);
  for (const [cmd, entry] of entries) {
    const link = `${root}/bin/${cmd}`;
    if (exists(vfs, cred, link)) vfs.unlink(cred, vfs.root(), link);
    vfs.symlink(cred, vfs.root(), `../${entry}`, link);
  }
}

/** Point /opt/agentos/<name>/current at <version> (one atomic rename). */
export function setCurrent(vfs: Vfs, cred: Cred, name: string, version: string): void {
  const dir = `${OPT}/${packageDirName(name)}`;
  if (!exists(vfs, cred, `${dir}/${version}`, true)) throw new SysError(Errno.ENOENT, `${name} ${version} is not installed`);
  atomicSymlink(vfs, cred, version, `${dir}/current`);
}

/**
 * Link commands into /opt/agentos/bin: `cmd → target(cmd)`. A name linked to
 * anything outside `ownerPrefix` is a conflict (EEXIST); the link count is bounded.
 */
export function linkCommands(
  vfs: Vfs, cred: Cred, cmds: string[], target: (cmd: string) => string, ownerPrefix: string,
): LinkResult {
  mkdirp(vfs, cred, BIN);
  for (const cmd of cmds) checkCommandName(cmd);
  const fresh = cmds.filter((c) => !exists(vfs, cred, `${BIN}/${c}`));
  for (const cmd of cmds) {
    if (fresh.includes(cmd)) continue;
    const path = `${BIN}/${cmd}`;
    const st = vfs.stat(cred, vfs.root(), path, false);
    const current = isLnk(st.mode) ? vfs.readlink(cred, vfs.root(), path) : '';
    if (!current.startsWith(ownerPrefix)) {
      throw new SysError(Errno.EEXIST, `${path} already exists (${current || 'not a link'}); unlink it first`);
    }
  }
  const count = dirNames(vfs, cred, BIN).length;
  if (count + fresh.length > MAX_LINKS) {
    throw new SysError(
      Errno.EMLINK,
      `link limit reached: ${BIN} may hold at most ${MAX_LINKS} links (has ${count}, ${fresh.length} more requested)`,
    );
  }
  for (const cmd of cmds) atomicSymlink(vfs, cred, target(cmd), `${BIN}/${cmd}`);
  const warnings =
    count + fresh.length >= WARN_AT
      ? [`${BIN} holds ${count + fresh.length} of at most ${MAX_LINKS} links`]
      : [];
  return { linked: cmds, warnings };
}

/** Full projection of an installed package /opt/agentos/<name>/<version>. */
export function linkInstalledPackage(vfs: Vfs, cred: Cred, meta: PackageMeta): LinkResult {
  const dir = packageDirName(meta.name);
  const root = `${OPT}/${dir}/${meta.version}`;
  projectBinFarm(vfs, cred, root, meta);
  if (!exists(vfs, cred, `${OPT}/${dir}/current`)) setCurrent(vfs, cred, meta.name, meta.version);
  return linkCommands(vfs, cred, Object.keys(meta.bin), (cmd) => `../${dir}/current/bin/${cmd}`, `../${dir}/`);
}

/** Remove links from /opt/agentos/bin (only those pointing under `ownerPrefix`, when given). */
export function unlinkCommands(vfs: Vfs, cred: Cred, ownerPrefix: string | null, cmds: string[]): string[] {
  const removed: string[] = [];
  for (const cmd of cmds) {
    const path = `${BIN}/${cmd}`;
    if (!exists(vfs, cred, path)) continue;
    const st = vfs.stat(cred, vfs.root(), path, false);
    if (!isLnk(st.mode)) continue;
    if (ownerPrefix && !vfs.readlink(cred, vfs.root(), path).startsWith(ownerPrefix)) continue;
    vfs.unlink(cred, vfs.root(), path);
    removed.push(cmd);
  }
  return removed;
}

export function isDirectory(vfs: Vfs, cred: Cred, path: string): boolean {
  return exists(vfs, cred, path, true) && isDir(vfs.stat(cred, vfs.root(), path, true).mode);
}

export { exists, mkdirp };

// The software broker: the trusted side of `agentos-software`. The
// CLI has no privilege of its own; it asks the kernel, which validates and
// writes /opt/agentos as root. Linking changes discoverability, not privilege.

import { Errno, SysError } from '../../abi/errno.js';
import { isDir, isLnk } from '../../abi/stat.js';
import type { Cred } from '../vfs/types.js';
import type { Vfs } from '../vfs/vfs.js';
import { checkTree, copyTree, dirNames } from './copy.js';
import { BIN, OPT } from './layout.js';
import {
  checkEntry, exists, isDirectory, linkCommands, linkInstalledPackage, mkdirp, projectBinFarm, setCurrent, unlinkCommands,
  type LinkResult,
} from './link.js';
import { readPackageMeta, type PackageMeta } from './manifest.js';
import { packageDirName } from './names.js';

const ROOT: Cred = { uid: 0, gid: 0, groups: [], pid: 1, umask: 0o022 };

export interface ListedLink {
  command: string;
  target: string;
}

export class SoftwareBroker {
  constructor(private readonly vfs: Vfs) {}

  /** Link a package directory or node module directory, read with the caller's rights. */
  link(caller: Cred, path: string): LinkResult {
    const root = this.vfs.realpath(caller, this.vfs.root(), path);
    const meta = readPackageMeta(this.vfs, caller, root);
    if (root === `${OPT}/${packageDirName(meta.name)}/${meta.version}`) return linkInstalledPackage(this.vfs, ROOT, meta);
    // A module elsewhere: each command links straight to its (checked) entry file.
    const targets: Record<string, string> = {};
    for (const [cmd, entry] of Object.entries(meta.bin)) targets[cmd] = checkEntry(this.vfs, caller, root, cmd, entry).real;
    return linkCommands(this.vfs, ROOT, Object.keys(targets), (cmd) => targets[cmd], `${root}/`);
  }

  /** Remove the links of a package (by name) or of one command. */
  unlink(name: string): string[] {
    const dir = packageDirName(name);
    if (isDirectory(this.vfs, ROOT, `${OPT}/${dir}/current`)) {
      const meta = readPackageMeta(this.vfs, ROOT, `${OPT}/${dir}/current`);
      return unlinkCommands(this.vfs, ROOT, `../${dir}/`, Object.keys(meta.bin));
    }
    const removed = unlinkCommands(this.vfs, ROOT, null, [name]);
    if (!removed.length) throw new SysError(Errno.ENOENT, `no package or command named ${name}`);
    return removed;
  }

  list(): ListedLink[] {
    return dirNames(this.vfs, ROOT, BIN)
      .map((command) => {
        const path = `${BIN}/${command}`;
        const st = this.vfs.stat(ROOT, this.vfs.root(), path, false);
        return { command, target: isLnk(st.mode) ? this.vfs.readlink(ROOT, this.vfs.root(), path) : '' };
      })
      .sort((a, b) => (a.command < b.command ? -1 : 1));
  }

  /**
   * Install a staged package tree (e.g. an extracted npm tarball's `package/`)
   * as /opt/agentos/<name>/<version>, then project and link it. `upgrade`
   * also re-points `current` to the new version.
   */
  install(caller: Cred, staging: string, upgrade: boolean): LinkResult & { name: string; version: string } {
    const meta = readPackageMeta(this.vfs, caller, staging);
    const dir = packageDirName(meta.name);
    const dest = `${OPT}/${dir}/${meta.version}`;
    if (exists(this.vfs, ROOT, dest)) throw new SysError(Errno.EEXIST, `${meta.name} ${meta.version} is already installed`);
    checkTree(this.vfs, caller, staging);
    mkdirp(this.vfs, ROOT, `${OPT}/${dir}`);
    copyTree(this.vfs, caller, ROOT, staging, dest);
    try {
      projectBinFarm(this.vfs, ROOT, dest, meta);
    } catch (e) {
      this.removeTree(dest);
      throw e;
    }
    return { ...this.activate(meta, upgrade), name: meta.name, version: meta.version };
  }

  /** Re-point `current` at an installed version and relink its commands. */
  upgrade(name: string, version: string): LinkResult {
    const dir = packageDirName(name);
    const meta = readPackageMeta(this.vfs, ROOT, `${OPT}/${dir}/${version}`);
    return this.activate(meta, true);
  }

  private activate(meta: PackageMeta, repoint: boolean): LinkResult {
    const dir = packageDirName(meta.name);
    const currentPath = `${OPT}/${dir}/current`;
    if (repoint && exists(this.vfs, ROOT, currentPath)) {
      const old = readPackageMeta(this.vfs, ROOT, currentPath);
      const gone = Object.keys(old.bin).filter((c) => !(c in meta.bin));
      setCurrent(this.vfs, ROOT, meta.name, meta.version);
      unlinkCommands(this.vfs, ROOT, `../${dir}/`, gone);
    }
    return linkInstalledPackage(this.vfs, ROOT, meta);
  }

  private removeTree(path: string): void {
    const st = this.vfs.stat(ROOT, this.vfs.root(), path, false);
    if (isDir(st.mode)) {
      for (const n of dirNames(this.vfs, ROOT, path)) this.removeTree(`${path}/${n}`);
      this.vfs.rmdir(ROOT, this.vfs.root(), path);
    } else this.vfs.unlink(ROOT, this.vfs.root(), path);
  }
}

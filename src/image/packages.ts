// The base image's packages: each built package tree (dist/packages/<name>/,
// made by scripts/build-packages.mjs from src/packages/<name>/) is copied to
// /opt/agentos/<name>/<version>/ and projected exactly as a runtime install
// is — bin/ farm, `current`, /opt/agentos/bin links — by the same code
// (src/kernel/software/link.ts). The shipped trees carry no symlinks.

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Cred } from '../kernel/vfs/types.js';
import type { Vfs } from '../kernel/vfs/vfs.js';
import { OPT } from '../kernel/software/layout.js';
import { linkInstalledPackage } from '../kernel/software/link.js';
import { readPackageMeta } from '../kernel/software/manifest.js';
import { packageDirName } from '../kernel/software/names.js';
import { mkdir, writeFile } from './tree.js';

/** Files of the FHS that are links into packages, like a distribution's /usr/bin/env. */
const FHS_LINKS: Record<string, string> = {
  '/usr/bin/env': '/opt/agentos/bin/env',
  '/usr/bin/python3': '/opt/agentos/bin/python3',
  '/bin/sh': '/opt/agentos/bin/sh',
  '/bin/bash': '/opt/agentos/bin/bash',
  '/usr/bin/sudo': '/opt/agentos/bin/sudo',
  '/bin/su': '/opt/agentos/bin/su',
};

function copyHostTree(vfs: Vfs, from: string, to: string): void {
  mkdir(vfs, to, 0o755);
  for (const name of readdirSync(from).sort()) {
    const src = join(from, name);
    const st = statSync(src);
    if (st.isDirectory()) copyHostTree(vfs, src, `${to}/${name}`);
    else writeFile(vfs, `${to}/${name}`, readFileSync(src), st.mode & 0o111 ? 0o755 : 0o644);
  }
}

/** agentos-package.json's `setuid`: files of the package installed set-user-ID root. */
function setuidFiles(dir: string): string[] {
  const meta = JSON.parse(readFileSync(join(dir, 'agentos-package.json'), 'utf8')) as { setuid?: string[] };
  return meta.setuid ?? [];
}

export function installBasePackages(vfs: Vfs, cred: Cred, packagesDir = join(process.cwd(), 'dist/packages')): void {
  if (!existsSync(packagesDir)) throw new Error(`image: ${packagesDir} missing: build the packages first`);
  for (const name of readdirSync(packagesDir).sort()) {
    const pkg = JSON.parse(readFileSync(join(packagesDir, name, 'package.json'), 'utf8')) as { name: string; version: string };
    const root = `${OPT}/${packageDirName(pkg.name)}/${pkg.version}`;
    mkdir(vfs, `${OPT}/${packageDirName(pkg.name)}`, 0o755);
    copyHostTree(vfs, join(packagesDir, name), root);
    // Only the base image makes set-user-ID root files (sudo, su): runtime installs drop the bits.
    for (const file of setuidFiles(join(packagesDir, name))) vfs.chmod(cred, vfs.root(), `${root}/${file}`, 0o4755);
    linkInstalledPackage(vfs, cred, readPackageMeta(vfs, cred, root));
  }
  for (const [path, target] of Object.entries(FHS_LINKS)) vfs.symlink(cred, vfs.root(), target, path);
}

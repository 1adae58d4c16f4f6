// The base image builder, run in Node by `npm run build` (scripts/build.mjs
// bundles this file and calls buildImage). It builds the root tree in a MemFs
// through the VFS, as root, serializes it (src/abi/image.ts) and writes
//   <outDir>/agentos-base-<sha256[0:16]>.img      content-addressed, cacheable forever
//   <outDir>/agentos-base-<sha256[0:16]>.img.gz   the same, gzip -9: what the browser fetches
//   <outDir>/manifest.json                         which image is current
// The browser decompresses the .gz itself (DecompressionStream), so any static
// server will do: no Content-Encoding negotiation needed (decision 0057).
// File times are the source date, so the same inputs give the same image.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import { readImageHeader, serializeImage } from '../abi/image.js';
import { MemFs } from '../kernel/fs/memfs.js';
import { Vfs } from '../kernel/vfs/vfs.js';
import { installFhs } from './fhs.js';
import { installBasePackages } from './packages.js';
import { chownTree, copyTree } from './rootfs.js';
import { ROOT } from './tree.js';

export interface ImageManifest {
  version: string;
  /** Image file name, beside the manifest. */
  file: string;
  sha256: string;
  bytes: number;
  /** Inodes in the image. */
  files: number;
  /** Bytes of file data and symlink targets: the payload the index and layout add to. */
  payloadBytes: number;
  /** The image gzipped, beside it: what a browser fetches (and its size on the wire). */
  gz: { file: string; bytes: number };
  /** Time to build, serialize, hash and write the image. */
  buildMs: number;
}

export interface BuildOptions {
  /** The repository root. */
  root: string;
  /** Where the image and manifest go (replaced). */
  outDir: string;
}

export function buildImage(opts: BuildOptions): ImageManifest {
  const t0 = performance.now();
  const version = (JSON.parse(readFileSync(join(opts.root, 'package.json'), 'utf8')) as { version: string }).version;
  const epochMs = sourceDateMs(opts.root);
  const fs = new MemFs({ now: () => epochMs });
  const vfs = new Vfs(fs);

  installFhs(vfs);
  copyTree(vfs, join(opts.root, 'src/image/rootfs'), '/', { VERSION: version });
  chownTree(vfs, '/home/user', 1000, 1000);
  installBasePackages(vfs, ROOT, join(opts.root, 'dist/packages'));

  const image = serializeImage(fs);
  const sha256 = createHash('sha256').update(image).digest('hex');
  const file = `agentos-base-${sha256.slice(0, 16)}.img`;
  rmSync(opts.outDir, { recursive: true, force: true });
  mkdirSync(opts.outDir, { recursive: true });
  writeFileSync(join(opts.outDir, file), image);
  const gz = gzipSync(image, { level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
  writeFileSync(join(opts.outDir, `${file}.gz`), gz);
  const header = readImageHeader(image);
  const manifest: ImageManifest = {
    version, file, sha256, bytes: image.length, files: header.inodeCount, payloadBytes: header.dataBytes,
    gz: { file: `${file}.gz`, bytes: gz.length },
    buildMs: Math.round((performance.now() - t0) * 10) / 10,
  };
  writeFileSync(join(opts.outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/** SOURCE_DATE_EPOCH, else the last commit's time, else now. */
function sourceDateMs(root: string): number {
  const env = Number(process.env.SOURCE_DATE_EPOCH);
  if (Number.isFinite(env) && env > 0) return env * 1000;
  try {
    const s = Number(execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }));
    if (s > 0) return s * 1000;
  } catch {
    /* not a git checkout */
  }
  return Date.now();
}

// Assemble a kernel: the root filesystem — the read-only base image
// (src/image/, read in place by ImageFs) under a writable in-memory layer —
// then /dev, /proc and /tmp, then the process machinery. The image carries
// the FHS, /etc and the runtime images; nothing is unpacked at boot.

import { Errno, SysError } from '../abi/errno.js';
import { O_CREAT, O_RDONLY, O_TRUNC, O_WRONLY } from '../abi/fcntl.js';
import { DeviceTable } from './dev/device.js';
import { registerStandardDevices } from './dev/register.js';
import { FifoTable } from './fifo.js';
import { populateDevfs } from './fs/devfs.js';
import { ImageFs } from './fs/imagefs.js';
import { MemFs } from './fs/memfs.js';
import { OverlayFs } from './fs/overlayfs.js';
import { ProcFs } from './fs/procfs.js';
import { AosFs } from './fs/aosfs.js';
import { Kernel } from './kernel.js';
import { PTMX_RDEV } from './tty/pty.js';
import { S_IFCHR } from '../abi/stat.js';
import type { Persister } from './persist/persister.js';
import type { NetStack } from './net/stack.js';
import type { WorkerFactory } from './runner.js';
import type { Cred, FileOps, FileSystem } from './vfs/types.js';
import { Vfs } from './vfs/vfs.js';
import { procNet } from './socket/proc-net.js';

export interface BootOptions {
  workers: WorkerFactory;
  /** The base image (dist/image/agentos-base-*.img): used in place, never copied or modified. */
  image: Uint8Array;
  warmWorkers?: number;
  /** Overrides the image's /etc/hostname. */
  hostname?: string;
  /** A persistent writable layer (persist/): its MemFs becomes the root's upper layer. */
  persister?: Persister;
  /** Otherwise the upper layer to start from (a fork's copy); default empty. */
  upper?: MemFs;
  /** The image's identity (its sha256), recorded in layers and snapshots. */
  imageId?: string;
  /** Host filesystems to mount (their mountpoints are created as needed). */
  mounts?: { at: string; fs: FileSystem }[];
  /** The VM's permission policy (kernel/policy/types.ts). */
  policy?: unknown;
  /** The VM's network policy and the host's network. */
  net?: NetStack;
  /** The host's memory in bytes (sizes the default limits). */
  hostMemory?: number;
  /** The host's logical CPUs. */
  cpus?: number;
}

const ROOT: Cred = { uid: 0, gid: 0, groups: [], pid: 1, umask: 0o022 };

export function bootKernel(opts: BootOptions): Kernel {
  const devices = new DeviceTable();
  registerStandardDevices(devices);
  const fifos = new FifoTable();
  const upper = opts.persister?.fs ?? opts.upper ?? new MemFs();
  const root = new OverlayFs(new ImageFs(opts.image), upper);
  const vfs = new Vfs(root, {
    // Terminals need the kernel (sessions, signals): its pty driver serves them.
    devices: { open: (inode, flags, cred): FileOps => (kernel.ptys.owns(inode.rdev) ? kernel.ptys.open(inode, flags, cred) : devices.open(inode, flags, cred)) },
    openFifo: (inode, flags) => fifos.open(inode, flags),
  });
  // Like init: the hostname comes from /etc/hostname unless the host says otherwise.
  if (opts.hostname !== undefined) writeFile(vfs, '/etc/hostname', `${opts.hostname}\n`, 0o644);
  const hostname = opts.hostname ?? readFirstLine(vfs, '/etc/hostname');

  const dev = new MemFs();
  vfs.mount(ROOT, '/dev', dev);
  populateDevfs(dev, ROOT);

  const kernel: Kernel = new Kernel({ vfs, fifos, workers: opts.workers, warmWorkers: opts.warmWorkers, hostname, persister: opts.persister, imageId: opts.imageId, policy: opts.policy, net: opts.net, hostMemory: opts.hostMemory, cpus: opts.cpus });
  kernel.ptys.devfs = dev;
  dev.create(dev.root(), 'ptmx', S_IFCHR | 0o666, PTMX_RDEV, ROOT);
  vfs.mount(ROOT, '/proc', new ProcFs({
    procs: () => kernel.procs.all(),
    get: (pid) => kernel.procs.get(pid),
    bootMs: kernel.bootMs,
    hostname: kernel.hostname,
    cpus: kernel.cpus,
    pathOf: (inode) => vfs.pathOf(inode),
    memory: () => ({ totalKiB: 4 * 1024 * 1024, freeKiB: 3 * 1024 * 1024 }),
    mounts: () => vfs.mounts().map((m) => ({ source: m.type, target: m.target, type: m.type, options: m.readonly ? 'ro' : 'rw' })),
    net: (file) => procNet(kernel.sockets, file),
    audit: () => kernel.policy.audit.jsonl(),
    undumpable: (p) => kernel.policy.isExecShell(p),
    environ: (reader, p) => (reader.pid === p.pid ? p.env : kernel.policy.secrets.redactEnv(p.env)),
  }));
  mkdirs(vfs, '/aos');
  vfs.mount(ROOT, '/aos', new AosFs(kernel));
  const tmp = new MemFs();
  vfs.mount(ROOT, '/tmp', tmp);
  vfs.chmod(ROOT, vfs.root(), '/tmp', 0o1777);
  for (const m of opts.mounts ?? []) {
    mkdirs(vfs, m.at);
    vfs.mount(ROOT, m.at, m.fs);
  }
  // The policy's rules apply to the assembled tree, mounts included.
  kernel.policy.attach([upper, tmp]);
  return kernel;
}

function mkdirs(vfs: Vfs, path: string): void {
  let at = '';
  for (const name of path.split('/').filter(Boolean)) {
    at += '/' + name;
    try {
      vfs.mkdir(ROOT, vfs.root(), at, 0o755);
    } catch (e) {
      if (!(e instanceof SysError && e.errno === Errno.EEXIST)) throw e;
    }
  }
}

function writeFile(vfs: Vfs, path: string, text: string, mode: number): void {
  const f = vfs.open(ROOT, vfs.root(), path, O_WRONLY | O_CREAT | O_TRUNC, mode);
  if (!('ops' in f)) throw new Error(`boot: cannot create ${path}`);
  try {
    f.ops.write(f, new TextEncoder().encode(text));
  } finally {
    f.unref();
  }
}

/** The first line of a small file, or undefined if it is missing or empty. */
function readFirstLine(vfs: Vfs, path: string): string | undefined {
  let f;
  try {
    f = vfs.open(ROOT, vfs.root(), path, O_RDONLY);
  } catch {
    return undefined;
  }
  if (!('ops' in f)) return undefined;
  try {
    const data = f.ops.read(f, 256);
    if (!(data instanceof Uint8Array)) return undefined;
    return new TextDecoder().decode(data).split('\n')[0].trim() || undefined;
  } finally {
    f.unref();
  }
}

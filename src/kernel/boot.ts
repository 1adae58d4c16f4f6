// Assemble a kernel: root filesystem, /dev, /proc, /tmp, the FHS skeleton and
// the runtime images, then the process machinery. The persistence issue swaps
// the root MemFs for the layered image + IndexedDB/host-directory root.

import { DeviceTable } from './dev/device.js';
import { registerStandardDevices } from './dev/register.js';
import { runtimeImageBytes } from './exec.js';
import { FifoTable } from './fifo.js';
import { populateDevfs } from './fs/devfs.js';
import { MemFs } from './fs/memfs.js';
import { ProcFs } from './fs/procfs.js';
import { Kernel } from './kernel.js';
import type { WorkerFactory } from './runner.js';
import type { Cred } from './vfs/types.js';
import { Vfs } from './vfs/vfs.js';

export interface BootOptions {
  workers: WorkerFactory;
  warmWorkers?: number;
  hostname?: string;
}

const ROOT: Cred = { uid: 0, gid: 0, groups: [], pid: 1, umask: 0o022 };

/** Directories every agentOS root has (mode, owner uid). */
const SKELETON: [string, number, number][] = [
  ['/bin', 0o755, 0], ['/sbin', 0o755, 0], ['/etc', 0o755, 0], ['/home', 0o755, 0], ['/home/user', 0o755, 1000],
  ['/root', 0o700, 0], ['/tmp', 0o1777, 0], ['/usr', 0o755, 0], ['/usr/bin', 0o755, 0], ['/usr/sbin', 0o755, 0],
  ['/usr/libexec', 0o755, 0], ['/usr/libexec/agentos', 0o755, 0], ['/usr/local', 0o755, 0],
  ['/usr/local/bin', 0o755, 0], ['/usr/local/sbin', 0o755, 0], ['/var', 0o755, 0], ['/var/tmp', 0o1777, 0],
  ['/opt', 0o755, 0], ['/opt/agentos', 0o755, 0], ['/opt/agentos/bin', 0o755, 0], ['/dev', 0o755, 0],
  ['/proc', 0o555, 0],
];

/** Runtime images installed at boot: path → runtime name. */
export const RUNTIME_IMAGES: Record<string, string> = { '/usr/libexec/agentos/js': 'js' };

export function bootKernel(opts: BootOptions): Kernel {
  const devices = new DeviceTable();
  registerStandardDevices(devices);
  const fifos = new FifoTable();
  const vfs = new Vfs(new MemFs(), {
    devices: { open: (inode, flags, cred) => devices.open(inode, flags, cred) },
    openFifo: (inode, flags) => fifos.open(inode, flags),
  });
  for (const [path, mode, uid] of SKELETON) {
    vfs.mkdir(ROOT, vfs.root(), path, mode);
    vfs.chmod(ROOT, vfs.root(), path, mode); // mkdir applies the umask; the skeleton's modes are exact
    if (uid) vfs.chown(ROOT, vfs.root(), path, uid, uid, true);
  }
  for (const [path, runtime] of Object.entries(RUNTIME_IMAGES)) writeFile(vfs, path, runtimeImageBytes(runtime), 0o755);
  writeFile(vfs, '/etc/hostname', `${opts.hostname ?? 'agentos'}\n`, 0o644);

  const dev = new MemFs();
  vfs.mount(ROOT, '/dev', dev);
  populateDevfs(dev, ROOT);

  const kernel = new Kernel({ vfs, fifos, workers: opts.workers, warmWorkers: opts.warmWorkers, hostname: opts.hostname });
  vfs.mount(ROOT, '/proc', new ProcFs({
    procs: () => kernel.procs.all(),
    get: (pid) => kernel.procs.get(pid),
    bootMs: kernel.bootMs,
    hostname: kernel.hostname,
    pathOf: (inode) => vfs.pathOf(inode),
    memory: () => ({ totalKiB: 4 * 1024 * 1024, freeKiB: 3 * 1024 * 1024 }),
    mounts: () => vfs.mounts().map((m) => ({ source: m.type, target: m.target, type: m.type, options: 'rw' })),
  }));
  vfs.mount(ROOT, '/tmp', new MemFs());
  vfs.chmod(ROOT, vfs.root(), '/tmp', 0o1777);
  return kernel;
}

function writeFile(vfs: Vfs, path: string, data: Uint8Array | string, mode: number): void {
  const f = vfs.open(ROOT, vfs.root(), path, 0o1101 /* O_WRONLY|O_CREAT|O_TRUNC */, mode);
  if (!('ops' in f)) throw new Error(`boot: cannot create ${path}`);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  f.ops.write(f, bytes);
  f.unref();
}

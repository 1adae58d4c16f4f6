// Persistence figures (issue: layered persistent filesystem) on the Node host,
// each beside a native baseline from the same run. Every agentOS figure
// includes making the writes durable (exec returns only then).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentVM } from '../src/host/node/index.js';
import type { Figure } from './run.js';

const time = async (f: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
};

const nativeMs = (script: string, cwd: string): number => {
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', script], { cwd });
  if (r.status !== 0) throw new Error(`native: ${script}: ${r.stderr}`);
  return performance.now() - t0;
};

export const THOUSAND_FILES = "mkdir -p d && for i in $(seq 1000); do printf '%1024s' x > d/f$i; done";

export async function runPersistBenches(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-bench-persist-'));
  const figures: Figure[] = [];
  try {
    const vm = new AgentVM({ state: join(dir, 'vm') });
    await vm.start();
    let files: number;
    let write: number;
    try {
      files = await time(() => vm.exec(THOUSAND_FILES));
      write = await time(() => vm.exec('head -c 104857600 /dev/zero > big'));
      await vm.exec('rm big && mkdir -p many && cd many && for i in $(seq 9000); do echo $i > f$i; done');
    } finally {
      await vm.stop();
    }
    const native = mkdtempSync(join(dir, 'native-'));
    const nativeFiles = nativeMs(`${THOUSAND_FILES} && sync -f d`, native);
    const nativeWrite = nativeMs('dd if=/dev/zero of=big bs=1M count=100 conv=fsync status=none', native);
    figures.push({
      name: '1,000 × 1 KiB files created (shell loop) and durable',
      host: 'node', value: files, unit: 'ms', goal: '≤ 150 ms', met: files <= 150,
      baseline: { name: 'native bash loop + sync', value: nativeFiles, unit: 'ms' },
    });
    const mbs = 100 / (write / 1000);
    figures.push({
      name: 'sequential write of 100 MB to the layer, durable',
      host: 'node', value: mbs, unit: 'MB/s', goal: '≥ 300 MB/s', met: mbs >= 300,
      baseline: { name: 'native dd conv=fsync', value: 100 / (nativeWrite / 1000), unit: 'MB/s' },
    });

    // Reopen: the layer now holds ~10,000 files.
    const reopen = await time(async () => {
      const again = new AgentVM({ state: join(dir, 'vm') });
      await again.start();
      await again.exec('true');
      await again.stop();
    });
    const fresh = await time(async () => {
      const eph = new AgentVM();
      await eph.start();
      await eph.exec('true');
      await eph.stop();
    });
    figures.push({
      name: 'reopen a VM whose layer holds 10,000 files, to first exec',
      host: 'node', value: reopen, unit: 'ms', goal: '≤ 300 ms', met: reopen <= 300,
      baseline: { name: 'ephemeral VM, same', value: fresh, unit: 'ms' },
    });

    // Restore a 10 MB layer.
    const snap = new AgentVM({ state: join(dir, 'snap') });
    await snap.start();
    try {
      await snap.exec('for i in $(seq 100); do head -c 102400 /dev/urandom > r$i; done');
      await snap.exec('sync');
      const create = await time(() => snap.snapshot('ten'));
      await snap.exec('rm r*');
      const restore = await time(() => snap.restore('ten'));
      // Steady state: the same again, now that the code on this path is warm.
      await snap.exec('sync');
      const create2 = await time(() => snap.snapshot('ten2'));
      await snap.exec('rm r*');
      const restore2 = await time(() => snap.restore('ten2'));
      const check = await snap.exec('cat r* | wc -c');
      if (check.stdout.trim() !== '10240000') throw new Error(`restore bench: ${check.stdout}`);
      const nativeCopy = nativeMs('head -c 10240000 /dev/urandom > a && cp a b && sync -f b', native);
      figures.push({
        name: 'snapshot restore of a 10 MB layer (durable), first run',
        host: 'node', value: restore, unit: 'ms', goal: '≤ 20 ms', met: restore <= 20,
        baseline: { name: 'native write+copy 10 MB + sync', value: nativeCopy, unit: 'ms' },
      }, {
        name: 'snapshot restore of a 10 MB layer (durable), steady state',
        host: 'node', value: restore2, unit: 'ms', goal: '≤ 20 ms', met: restore2 <= 20,
        baseline: { name: 'native write+copy 10 MB + sync', value: nativeCopy, unit: 'ms' },
      }, {
        name: 'snapshot create of a 10 MB layer (durable), first run',
        host: 'node', value: create, unit: 'ms', goal: '≤ 20 ms', met: create <= 20,
        baseline: { name: 'native write+copy 10 MB + sync', value: nativeCopy, unit: 'ms' },
      }, {
        name: 'snapshot create of a 10 MB layer (durable), steady state',
        host: 'node', value: create2, unit: 'ms', goal: '≤ 20 ms', met: create2 <= 20,
        baseline: { name: 'native write+copy 10 MB + sync', value: nativeCopy, unit: 'ms' },
      });
      // Fork the same 10 MB layer: a second VM to its first exec.
      let child: AgentVM | undefined;
      const fork = await time(async () => {
        child = await snap.fork();
        await child.start();
        await child.exec('true');
      });
      await child?.stop();
      const plain = new AgentVM();
      const boot = await time(async () => {
        await plain.start();
        await plain.exec('true');
      });
      await plain.stop();
      figures.push({
        name: 'vm.fork() of a 10 MB layer, to first exec', host: 'node', value: fork, unit: 'ms', goal: '—', met: null,
        baseline: { name: 'fresh ephemeral VM, same', value: boot, unit: 'ms' },
      });
    } finally {
      await snap.stop();
    }

    // A host directory mounted into the VM: 100 MB written through it.
    const shared = mkdtempSync(join(dir, 'mount-'));
    const mounted = new AgentVM({ mounts: { '/mnt/host': shared } });
    await mounted.start();
    try {
      const mw = await time(() => mounted.exec('head -c 104857600 /dev/zero > /mnt/host/big'));
      const nw = nativeMs('head -c 104857600 /dev/zero > big2', shared);
      figures.push({
        name: 'write 100 MB to a host mount', host: 'node', value: 100 / (mw / 1000), unit: 'MB/s', goal: '—', met: null,
        baseline: { name: 'native head > file', value: 100 / (nw / 1000), unit: 'MB/s' },
      });
    } finally {
      await mounted.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

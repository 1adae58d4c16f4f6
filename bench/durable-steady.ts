// The durable-write rows' steady state (issue 18): 1,000 × 1 KiB files and a
// 100 MB sequential write, each run twice in one persistent VM (the second
// with the code on that path warm), beside the native baselines of
// bench/persist.ts measured again in this run. bench/persist.ts's rows are the
// first run in a new VM.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentVM } from '../src/host/node/index.js';
import { THOUSAND_FILES } from './persist.js';
import type { Figure } from './run.js';

/** The 100 MB write of bench/persist.ts. */
const WRITE_100MB = 'head -c 104857600 /dev/zero > big';

async function timed(vm: AgentVM, cmd: string): Promise<number> {
  const t0 = performance.now();
  const r = await vm.exec(cmd);
  if (r.exitCode !== 0) throw new Error(`durable bench: ${cmd} failed: ${r.stderr}`);
  return performance.now() - t0;
}

function nativeMs(script: string, cwd: string): number {
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', script], { cwd });
  if (r.status !== 0) throw new Error(`native: ${script}: ${r.stderr}`);
  return performance.now() - t0;
}

export async function runDurableSteadyBenches(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-bench-durable-'));
  try {
    const vm = new AgentVM({ state: join(dir, 'vm') });
    await vm.start();
    /** `cmd` run twice, `undo` between: ms of each run. */
    const twice = async (cmd: string, undo: string): Promise<number[]> => {
      const first = await timed(vm, cmd);
      await timed(vm, undo);
      return [first, await timed(vm, cmd)];
    };
    let files: number[];
    let write: number[];
    try {
      files = await twice(THOUSAND_FILES, 'rm -rf d');
      write = await twice(WRITE_100MB, 'rm big');
    } finally {
      await vm.stop();
    }
    const native = mkdtempSync(join(dir, 'native-'));
    const nativeFiles = nativeMs(`${THOUSAND_FILES} && sync -f d`, native);
    const nativeWrite = nativeMs('dd if=/dev/zero of=big bs=1M count=100 conv=fsync status=none', native);
    const mbs = (ms: number) => 100 / (ms / 1000);
    return [
      {
        name: '1,000 × 1 KiB files created (shell loop) and durable, steady state (second run in the VM)', host: 'node',
        value: files[1], unit: 'ms', goal: '≤ 150 ms', met: files[1] <= 150,
        baseline: { name: `native bash loop + sync (first run in this VM: ${files[0].toFixed(0)} ms)`, value: nativeFiles, unit: 'ms' },
      },
      {
        name: 'sequential write of 100 MB to the layer, durable, steady state (second run in the VM)', host: 'node',
        value: mbs(write[1]), unit: 'MB/s', goal: '≥ 300 MB/s', met: mbs(write[1]) >= 300,
        baseline: { name: `native dd conv=fsync (first run in this VM: ${mbs(write[0]).toFixed(0)} MB/s)`, value: mbs(nativeWrite), unit: 'MB/s' },
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

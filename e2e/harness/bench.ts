// Issue 18's figures measured inside the page (Chromium), for `npm run bench`
// (bench/browser-host.ts drives them): the exec rows on fresh VMs and in the
// steady state, quiet and with busy workers on the cores, beside just-bash
// running in the same page; spawn → exit → waitpid; many processes; idle VMs
// held for the renderer's memory figure.

import { AgentVM, boot } from '../../src/host/browser/index.js';
import { installPrograms } from '../../test/kernel/suite.js';

/** The shell loop of bench/shell.ts. */
const LOOP = 'i=0; while [ $i -lt 10000 ]; do i=$((i+1)); done; echo $i';
/** The userland's `true` program (not the builtin), as bench/procs.ts runs it. */
const VM_TRUE = '/opt/agentos/bin/true';

interface Shell {
  exec(cmd: string): Promise<{ stdout: string; exitCode: number }>;
}

export interface ExecFigures {
  truth: number;
  pipe: number;
  loop: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(sh: Shell, cmd: string, want?: string): Promise<number> {
  const t0 = performance.now();
  const r = await sh.exec(cmd);
  const ms = performance.now() - t0;
  if (r.exitCode !== 0 || (want !== undefined && r.stdout !== want)) throw new Error(`bench: ${cmd} gave ${JSON.stringify(r)}`);
  return ms;
}

async function p50(sh: Shell, cmd: string, n: number, warm: number, want?: string): Promise<number> {
  for (let i = 0; i < warm; i++) await timed(sh, cmd, want);
  const t: number[] = [];
  for (let i = 0; i < n; i++) t.push(await timed(sh, cmd, want));
  return median(t);
}

/** just-bash's browser build, bundled by scripts/bench.mjs to /bench/just-bash.js; null when it is not there. */
async function justBash(): Promise<Shell | null> {
  try {
    const url = new URL('/bench/just-bash.js', location.href).href;
    const { Bash } = (await import(/* @vite-ignore */ url)) as { Bash: new () => Shell };
    return new Bash();
  } catch {
    return null;
  }
}

/** `n` workers spinning on the cores while `run` runs (the page's "under load" condition). */
async function busyWorkers<T>(n: number, run: () => Promise<T>): Promise<T> {
  const url = URL.createObjectURL(new Blob(['postMessage(0); for (;;);'], { type: 'text/javascript' }));
  const hogs = Array.from({ length: n }, () => new Worker(url));
  try {
    await Promise.all(hogs.map((w) => new Promise((ok) => (w.onmessage = ok))));
    return await run();
  } finally {
    hogs.forEach((w) => w.terminate());
    URL.revokeObjectURL(url);
  }
}

async function withVm<T>(f: (vm: AgentVM) => Promise<T>): Promise<T> {
  const vm = new AgentVM();
  await vm.start();
  try {
    return await f(vm);
  } finally {
    await vm.stop();
  }
}

let idle: AgentVM[] = [];

export const benchApi = {
  /** The first exec('true'), then the first pipeline, then the first loop on each of `vms` fresh VMs (p50s, ms); just-bash likewise on new Bash()es. */
  async execFirstRuns(vms: number): Promise<{ vm: ExecFigures; peer: ExecFigures | null }> {
    const firsts = async (make: () => Promise<[Shell, () => Promise<void>]>) => {
      const truth: number[] = [];
      const pipe: number[] = [];
      const loop: number[] = [];
      for (let i = 0; i < vms; i++) {
        const [sh, done] = await make();
        try {
          truth.push(await timed(sh, 'true'));
          pipe.push(await timed(sh, 'echo hi | wc -c', '3\n'));
          loop.push(await timed(sh, LOOP, '10000\n'));
        } finally {
          await done();
        }
      }
      return { truth: median(truth), pipe: median(pipe), loop: median(loop) };
    };
    const vm = await firsts(async () => {
      const v = new AgentVM();
      await v.start();
      return [v, () => v.stop()];
    });
    const peer = (await justBash()) ? await firsts(async () => [(await justBash())!, async () => {}]) : null;
    return { vm, peer };
  },

  /** Steady-state p50s (ms) on one VM and one just-bash, quiet or with `busy` spinning workers. */
  async execSteady(busy: number): Promise<{ vm: ExecFigures; peer: ExecFigures | null }> {
    const rows = (sh: Shell) => async (): Promise<ExecFigures> => ({
      truth: await p50(sh, 'true', 300, 20),
      pipe: await p50(sh, 'echo hi | wc -c', 200, 20, '3\n'),
      loop: await p50(sh, LOOP, 5, 1, '10000\n'),
    });
    const under = <T>(run: () => Promise<T>) => (busy ? busyWorkers(busy, run) : run());
    const vm = await withVm((v) => under(rows(v)));
    const jb = await justBash();
    return { vm, peer: jb ? await under(rows(jb)) : null };
  },

  /** spawn → exit → waitpid of a trivial process on a warm machine (p50 of 200 after 20), beside the page's own new Worker() → first message → terminate. */
  async spawnWait(): Promise<{ p50: number; worker: number }> {
    const m = await boot();
    let p: number;
    try {
      const r = await fetch('/programs/exit.js');
      if (!r.ok) throw new Error(`fetch /programs/exit.js: ${r.status}`);
      await installPrograms(m, { exit: await r.text() });
      const times: number[] = [];
      for (let i = 0; i < 220; i++) {
        const t0 = performance.now();
        const st = await m.wait(await m.spawn(['/usr/local/bin/exit']));
        if (st !== 0) throw new Error(`spawn bench: status ${st}`);
        if (i >= 20) times.push(performance.now() - t0);
      }
      p = median(times);
    } finally {
      await m.stop();
    }
    const url = URL.createObjectURL(new Blob(['postMessage(0);'], { type: 'text/javascript' }));
    const workers: number[] = [];
    for (let i = 0; i < 120; i++) {
      const t0 = performance.now();
      const w = new Worker(url);
      await new Promise((ok) => (w.onmessage = ok));
      w.terminate();
      if (i >= 20) workers.push(performance.now() - t0);
    }
    URL.revokeObjectURL(url);
    return { p50: p, worker: median(workers) };
  },

  /** bench/procs.ts's workloads in one VM (ms): 100 × `sleep 10 &`, 100 × `sleep 0 &; wait`, the 1,000 × true loop first and again. */
  async procs(): Promise<{ bg: number; bgWait: number; loopFirst: number; loop: number }> {
    return withVm(async (vm) => {
      await timed(vm, 'true');
      const bg = await timed(vm, 'for i in $(seq 100); do sleep 10 & done');
      await vm.exec('kill $(jobs -p); wait');
      const bgWait = await timed(vm, 'for i in $(seq 100); do sleep 0 & done; wait');
      const loopCmd = `for i in $(seq 1000); do ${VM_TRUE}; done`;
      const loopFirst = await timed(vm, loopCmd);
      const loop = await timed(vm, loopCmd);
      return { bg, bgWait, loopFirst, loop };
    });
  },

  /** bench/durable-steady.ts in a persistent VM (IndexedDB): 1,000 × 1 KiB files and 100 MB written, each twice (ms). */
  async durableTwice(): Promise<{ files: [number, number]; write: [number, number] }> {
    const vm = new AgentVM({ persist: `bench-durable-${Date.now()}` });
    await vm.start();
    try {
      const files = "mkdir -p d && for i in $(seq 1000); do printf '%1024s' x > d/f$i; done";
      const write = 'head -c 104857600 /dev/zero > big';
      const f0 = await timed(vm, files);
      await timed(vm, 'rm -rf d');
      const f1 = await timed(vm, files);
      const w0 = await timed(vm, write);
      await timed(vm, 'rm big');
      const w1 = await timed(vm, write);
      return { files: [f0, f1], write: [w0, w1] };
    } finally {
      await vm.stop();
    }
  },

  /** Boot `n` VMs, one exec('true') each, and keep them (bench/memory.ts's idle VMs). */
  async idleVmsBoot(n: number): Promise<void> {
    while (idle.length < n) {
      const vm = new AgentVM();
      await vm.start();
      await timed(vm, 'true');
      idle.push(vm);
    }
  },

  /** Check each held VM still answers, then stop them all. */
  async idleVmsStop(): Promise<void> {
    try {
      await Promise.all(idle.map(async (vm) => {
        if ((await vm.exec('echo ok')).stdout !== 'ok\n') throw new Error('memory bench: an idle VM did not answer');
      }));
    } finally {
      await Promise.all(idle.map((vm) => vm.stop()));
      idle = [];
    }
  },
};

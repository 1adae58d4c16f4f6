// The browser test harness: boots real kernels in Web Workers and exposes
// `window.__agentos` for the Playwright specs (kernel suite and benchmarks).

import { AgentVM, boot, nameBytes, nameFromBytes, type RepairReport } from '../../src/host/browser/index.js';
import type { AuditEvent, ExecResult, Policy } from '../../src/host/api/agent-vm.js';
import type { Machine } from '../../src/host/api/machine.js';
import type { NetworkPolicy } from '../../src/api/policy.js';
import { checkLayer, workloadCommand } from '../../test/kernel/persist/workload.js';
import { cases as kernelCases, installPrograms, PROGRAMS } from '../../test/kernel/suite.js';
import { installWasm, WASM_PROGRAMS, wasmCases } from '../../test/runtimes/wasm/cases.js';
import { pythonCases } from '../../test/runtimes/python/cases.js';
import { nodeCases } from '../../test/runtimes/node/cases.js';
import { clangCases } from '../../test/runtimes/wasm/clang-cases.js';
import { rubyCases } from '../../test/runtimes/wasm/ruby-cases.js';
import { wasixProbes } from './wasix.js';
import { benchApi } from './bench.js';

const cases = [...kernelCases, ...wasmCases, ...pythonCases, ...nodeCases, ...rubyCases, ...clangCases];

export interface CaseResult {
  ok: boolean;
  error?: string;
  ms: number;
}

let programs: Record<string, string> | null = null;

async function loadPrograms(): Promise<Record<string, string>> {
  if (!programs) {
    const entries = await Promise.all(
      PROGRAMS.map(async (name) => {
        const r = await fetch(`/programs/${name}.js`);
        if (!r.ok) throw new Error(`fetch /programs/${name}.js: ${r.status}`);
        return [name, await r.text()] as const;
      }),
    );
    programs = Object.fromEntries(entries);
  }
  return programs;
}

let wasm: Record<string, Uint8Array> | null = null;

async function loadWasm(): Promise<Record<string, Uint8Array>> {
  if (!wasm) {
    const entries = await Promise.all(
      WASM_PROGRAMS.map(async (name) => {
        const r = await fetch(`/wasm/${name}.wasm`);
        if (!r.ok) throw new Error(`fetch /wasm/${name}.wasm: ${r.status}`);
        return [name, new Uint8Array(await r.arrayBuffer())] as const;
      }),
    );
    wasm = Object.fromEntries(entries);
  }
  return wasm;
}

async function withMachine<T>(f: (m: Machine) => Promise<T>): Promise<T> {
  const m = await boot();
  try {
    await installPrograms(m, await loadPrograms());
    await installWasm(m, await loadWasm());
    return await f(m);
  } finally {
    await m.stop();
  }
}

const api = {
  ...wasixProbes(loadWasm),
  ...benchApi,

  caseNames: (): string[] => cases.map((c) => c.name),

  async runCase(name: string): Promise<CaseResult> {
    const c = cases.find((x) => x.name === name);
    const t0 = performance.now();
    if (!c) return { ok: false, error: `no case named ${name}`, ms: 0 };
    try {
      await withMachine((m) => c.run(m));
      return { ok: true, ms: performance.now() - t0 };
    } catch (e) {
      // Firefox's and WebKit's stack has no `Name: message` line.
      return { ok: false, error: `${String(e)}\n${(e as Error)?.stack ?? ''}`, ms: performance.now() - t0 };
    }
  },

  /** Mean µs of a synchronous stat() round trip from a process worker. */
  async statRoundTrip(n: number): Promise<number> {
    return withMachine(async (m) => {
      const r = await m.run(['/usr/local/bin/statloop', String(n), '/tmp']);
      return Number(new TextDecoder().decode(r.stdout));
    });
  },

  /** `python3 -c pass` spawn → exit (ms) on a fresh machine: the first run, then `runs` more, each after `pauseMs` idle. */
  async pythonStarts(runs: number, pauseMs: number): Promise<number[]> {
    return withMachine(async (m) => {
      const times: number[] = [];
      for (let i = 0; i <= runs; i++) {
        if (i) await new Promise((r) => setTimeout(r, pauseMs));
        const t0 = performance.now();
        const st = await m.wait(await m.spawn(['/opt/agentos/bin/python3', '-c', 'pass']));
        if (st !== 0) throw new Error(`python3 -c pass: status ${st}`);
        times.push(performance.now() - t0);
      }
      return times;
    });
  },

  /** A fresh VM (image from the Cache API) to its first exec() result through the shell (ms). */
  async bootToFirstExec(): Promise<number> {
    const t0 = performance.now();
    const vm = new AgentVM();
    await vm.start();
    try {
      const r = await vm.exec('echo ready');
      if (r.stdout !== 'ready\n') throw new Error(`unexpected ${JSON.stringify(r)}`);
      return performance.now() - t0;
    } finally {
      await vm.stop();
    }
  },

  // ---- persistent VMs (IndexedDB) ----

  /** Open a persistent VM, run `cmds` in order, stop it; each result, or the open error. */
  /** Commands in a fresh VM under a network policy (e2e/net.spec.ts). */
  async netRun(network: NetworkPolicy, cmds: string[]): Promise<ExecResult[]> {
    const vm = new AgentVM({ network });
    await vm.start();
    try {
      const results = [];
      for (const c of cmds) results.push(await vm.exec(c));
      return results;
    } finally {
      await vm.stop();
    }
  },

  async persistRun(name: string, cmds: string[], takeover = false): Promise<{ results: ExecResult[]; error?: string }> {
    const vm = new AgentVM({ persist: name, takeover });
    try {
      await vm.start();
    } catch (e) {
      return { results: [], error: (e as Error).message };
    }
    try {
      const results = [];
      for (const c of cmds) results.push(await vm.exec(c));
      return { results };
    } finally {
      await vm.stop();
    }
  },

  /** AgentVM.repair of persistent VM `name` (e2e/security-integrity.spec.ts): its report, or the error. */
  async repairVm(name: string): Promise<RepairReport | string> {
    return AgentVM.repair(name).catch((e: Error) => e.message);
  },

  /**
   * Names through the browser host's API (e2e/security-integrity.spec.ts):
   * two files whose names differ only in invalid UTF-8, made by the guest;
   * the listing's names as hex bytes, and what reading them back gives.
   */
  async hostNames(): Promise<{ listed: string[]; contents: string[]; written: string }> {
    const vm = new AgentVM();
    await vm.start();
    try {
      await vm.exec(`mkdir /tmp/n && cd /tmp/n && printf '\\xff' | xargs touch && printf '\\xfe' | xargs touch && echo one > $'\\xff' && echo two > $'\\xfe'`);
      const names = (await vm.listDirectory('/tmp/n')).map((e) => e.name);
      const dec = new TextDecoder();
      const contents = await Promise.all(names.map(async (n) => dec.decode(await vm.readFile(`/tmp/n/${n}`))));
      await vm.writeFile(`/tmp/n/${nameFromBytes(new Uint8Array([0x63, 0xfd]))}`, 'three');
      const written = (await vm.exec(`cat /tmp/n/$'c\\xfd'`)).stdout;
      return { listed: names.map((n) => [...nameBytes(n)].map((b) => b.toString(16).padStart(2, '0')).join('')), contents, written };
    } finally {
      await vm.stop();
    }
  },

  /** Run commands in a fresh VM under `policy` (e2e/policy.spec.ts); files are written by the host first. */
  async policyRun(
    policy: Policy, files: Record<string, string>, cmds: (string | { cmd: string; timeoutMs: number })[],
  ): Promise<{ results: ExecResult[]; audit: AuditEvent[] }> {
    const vm = new AgentVM({ policy });
    await vm.start();
    try {
      for (const [path, text] of Object.entries(files)) {
        await vm.vm.mkdirp(path.slice(0, path.lastIndexOf('/')) || '/');
        // The host's own write (vm.writeFile is the user's, under the policy), given to the user as before.
        await vm.vm.writeFile(path, text, 0o755);
        await vm.vm.syscall('chown', path, 1000, 1000);
      }
      const results = [];
      for (const c of cmds) results.push(typeof c === 'string' ? await vm.exec(c) : await vm.exec(c.cmd, { timeoutMs: c.timeoutMs }));
      return { results, audit: await vm.audit() };
    } finally {
      await vm.stop();
    }
  },

  /** Open a persistent VM and keep it open (for the two-tab test); resolves once it is up. */
  async persistHold(name: string, takeover = false): Promise<string> {
    const vm = new AgentVM({ persist: name, takeover });
    try {
      await vm.start();
    } catch (e) {
      return (e as Error).message;
    }
    held = vm;
    return 'ok';
  },

  /** Exec in the held VM (fails once another tab took it over). */
  async heldExec(cmd: string): Promise<string> {
    const r = await Promise.race([held!.exec(cmd), new Promise<null>((ok) => setTimeout(() => ok(null), 3000))]);
    return r ? r.stdout : 'no answer';
  },

  /** The crash workload: execs forever, publishing the last one that returned in `window.__done`. */
  async workload(name: string): Promise<void> {
    const vm = new AgentVM({ persist: name });
    await vm.start();
    const r = await vm.exec('cat last 2>/dev/null || echo -1');
    for (let i = Number(r.stdout.trim()) + 1; ; i++) {
      const res = await vm.exec(workloadCommand(i));
      if (res.exitCode !== 0) throw new Error(`workload exec ${i}: ${res.stderr}`);
      window.__done = i;
    }
  },

  /** Reopen a VM after a crash and check it against the workload's invariants. */
  async checkWorkload(name: string, lastDone: number): Promise<{ problems: string[]; last: number; layer: unknown }> {
    const vm = new AgentVM({ persist: name });
    await vm.start();
    try {
      const r = await checkLayer((f) => vm.readFile(`/home/user/${f}`).catch(() => null), lastDone);
      return { ...r, layer: await vm.vm.layer() };
    } finally {
      await vm.stop();
    }
  },

  /**
   * Import `file` (base64, made on another host) as a snapshot of the persistent
   * VM `name`, restore it, run `check`, then make and export a snapshot of its own after running `change`.
   */
  async snapshotRoundTrip(name: string, file: string, check: string, change: string): Promise<{ checked: string; exported: string }> {
    const vm = new AgentVM({ persist: name });
    await vm.start();
    try {
      await vm.snapshots.import('from-node', Uint8Array.from(atob(file), (c) => c.charCodeAt(0)));
      await vm.restore('from-node');
      const checked = (await vm.exec(check)).stdout;
      await vm.exec(change);
      await vm.snapshot('from-browser');
      const bytes = await vm.snapshots.export('from-browser');
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return { checked, exported: btoa(bin) };
    } finally {
      await vm.stop();
    }
  },

  /** A persistent VM forked: what the fork sees, and that each then changes alone; plus `df /` of the layer. */
  async forkCheck(name: string): Promise<{ child: string; parent: string; df: string }> {
    const vm = new AgentVM({ persist: name });
    await vm.start();
    try {
      await vm.exec('echo v1 > f && mkdir -p d && echo deep > d/x');
      const fork = await vm.fork();
      await fork.start();
      try {
        await fork.exec('echo child > f && touch only-child');
        await vm.exec('echo parent > g');
        const child = (await fork.exec('cat f d/x; ls')).stdout;
        const parent = (await vm.exec('cat f; ls')).stdout;
        const df = (await vm.exec('df -k / | tail -1')).stdout;
        return { child, parent, df };
      } finally {
        await fork.stop();
      }
    } finally {
      await vm.stop();
    }
  },

  /**
   * A restore shares the snapshot's bytes: what the stored checkpoint is
   * after it, and that the layer stays whole when that snapshot is then
   * deleted or replaced (each step in a VM reopened from IndexedDB).
   */
  async restoreShares(name: string): Promise<Record<string, string>> {
    const stored = async () => {
      const db = await new Promise<IDBDatabase>((ok, fail) => {
        const r = indexedDB.open(`agentos-vm:${name}`);
        r.onsuccess = () => ok(r.result);
        r.onerror = () => fail(r.error);
      });
      try {
        const v = await new Promise<unknown>((ok, fail) => {
          const r = db.transaction('layer').objectStore('layer').get('checkpoint');
          r.onsuccess = () => ok(r.result);
          r.onerror = () => fail(r.error);
        });
        return v instanceof Uint8Array ? `frame of ${v.length} bytes` : JSON.stringify(v);
      } finally {
        db.close();
      }
    };
    const inVm = async (cmds: string[]) => {
      const vm = new AgentVM({ persist: name });
      await vm.start();
      let out = '';
      try {
        for (const c of cmds) {
          const m = /^(snapshot|restore|delete) (\S+)$/.exec(c);
          if (m?.[1] === 'snapshot') await vm.snapshot(m[2]);
          else if (m?.[1] === 'restore') await vm.restore(m[2]);
          else if (m?.[1] === 'delete') await vm.snapshots.delete(m[2]);
          else out += (await vm.exec(c)).stdout;
        }
      } finally {
        await vm.stop();
      }
      return out;
    };
    const out: Record<string, string> = {};
    await inVm(['echo one > f', 'snapshot s', 'echo two > f; echo x > g', 'restore s', 'echo after > h']);
    out.stored = await stored();
    out.reopened = await inVm(['cat f h; ls', 'echo three > f', 'delete s']);
    out.afterDelete = await inVm(['cat f h', 'snapshot t', 'restore t', 'echo four > f', 'snapshot t']);
    out.storedAfterReplace = await stored();
    out.afterReplace = await inVm(['cat f h']);
    return out;
  },

  /** An OPFS directory and a handle-mounted one (as showDirectoryPicker() gives) in a VM: both ways, and the refusals. */
  async mountCheck(name: string): Promise<Record<string, string>> {
    const opfs = await navigator.storage.getDirectory();
    const dir = await opfs.getDirectoryHandle(name, { create: true });
    const seed = await (await dir.getFileHandle('from-page.txt', { create: true })).createWritable();
    await seed.write('written by the page\n');
    await seed.close();
    const vm = new AgentVM({ mounts: { '/mnt/o': { opfs: name }, '/mnt/ro': { directory: dir, readOnly: true } } });
    await vm.start();
    const run = async (cmd: string) => {
      const r = await vm.exec(cmd);
      return r.stdout + r.stderr + `[${r.exitCode}]`;
    };
    try {
      const out: Record<string, string> = {};
      out.seen = await run('cat /mnt/o/from-page.txt; ls /mnt/o');
      out.write = await run('mkdir -p /mnt/o/sub && printf abc > /mnt/o/sub/f && printf XY | dd of=/mnt/o/sub/f bs=1 seek=1 conv=notrunc 2>/dev/null; cat /mnt/o/sub/f; echo; mv /mnt/o/sub /mnt/o/moved && ls /mnt/o/moved && wc -c < /mnt/o/moved/f');
      try {
        out.page = await (await (await (await dir.getDirectoryHandle('moved')).getFileHandle('f')).getFile()).text();
      } catch (e) {
        out.page = String(e);
      }
      out.up = await run('cd /mnt/o/.. && pwd && ls');
      out.links = await run('ln -s /etc/passwd /mnt/o/l; ln /mnt/o/moved/f /mnt/o/h; chmod 600 /mnt/o/moved/f');
      out.ro = await run('echo x > /mnt/ro/new; rm /mnt/ro/from-page.txt; cat /mnt/ro/from-page.txt');
      out.rm = await run('rm -r /mnt/o/moved && ls /mnt/o');
      const big = await run('head -c 3000000 /dev/urandom > /tmp/b && cp /tmp/b /mnt/o/big && cmp /tmp/b /mnt/o/big && echo same');
      out.big = big;
      return out;
    } finally {
      await vm.stop();
    }
  },

  /** Persistence figures in the browser (ms; IndexedDB, strict durability), as bench/persist.ts measures on Node. */
  async persistBench(): Promise<{ files: number; write100: number; reopen: number; restore: number }> {
    const time = async (f: () => Promise<unknown>) => {
      const t0 = performance.now();
      await f();
      return performance.now() - t0;
    };
    const name = `bench-${Date.now()}`;
    let vm = new AgentVM({ persist: name });
    await vm.start();
    const files = await time(() => vm.exec("mkdir -p d && for i in $(seq 1000); do printf '%1024s' x > d/f$i; done"));
    const write100 = await time(() => vm.exec('head -c 104857600 /dev/zero > big'));
    await vm.exec('rm big && mkdir -p many && cd many && for i in $(seq 9000); do echo $i > f$i; done');
    await vm.stop();
    vm = new AgentVM({ persist: name });
    const reopen = await time(async () => {
      await vm.start();
      await vm.exec('true');
    });
    try {
      await vm.exec('rm -rf many d && for i in $(seq 100); do head -c 102400 /dev/urandom > r$i; done');
      await vm.snapshot('ten');
      await vm.exec('rm r*');
      const restore = await time(() => vm.restore('ten'));
      const check = (await vm.exec('cat r* | wc -c')).stdout.trim();
      if (check !== '10240000') throw new Error(`restore bench: ${check}`);
      return { files, write100, reopen, restore };
    } finally {
      await vm.stop();
    }
  },

  /**
   * An interactive shell on a pty (AgentVM.openTerminal): each step types
   * `send` (after an optional resize) and waits until the whole output
   * matches `until`; then 50 keystrokes are timed to their echo.
   */
  async terminal(steps: { send?: string; resize?: [number, number]; delay?: number; until: string; ms?: number }[]): Promise<{ out: string; status: number; echoMs: number[] }> {
    const vm = new AgentVM();
    await vm.start();
    try {
      const term = await vm.openTerminal({ cols: 80, rows: 24, env: { PS1: '$ ' } });
      const dec = new TextDecoder();
      let out = '';
      let wake = () => {};
      term.onData((b) => {
        out += dec.decode(b, { stream: true });
        wake();
      });
      const until = (test: () => boolean, what: string, ms = 10_000) => new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no ${what} in ${JSON.stringify(out.slice(-300))}`)), ms);
        wake = () => {
          if (!test()) return;
          clearTimeout(timer);
          ok();
        };
        wake();
      });
      for (const s of steps) {
        if (s.delay) await new Promise((r) => setTimeout(r, s.delay));
        if (s.resize) term.resize(s.resize[1], s.resize[0]);
        if (s.send) term.write(s.send);
        const re = new RegExp(s.until);
        await until(() => re.test(out), s.until, s.ms);
      }
      const echoMs: number[] = [];
      for (let i = 0; i < 50; i++) {
        const n = out.length;
        const t0 = performance.now();
        term.write('x');
        await until(() => out.length > n && out.endsWith('x'), 'echo');
        echoMs.push(performance.now() - t0);
      }
      term.write('\x15exit 7\r');
      return { out, status: await term.exited, echoMs };
    } finally {
      await vm.stop();
    }
  },

  /** Boot-to-first-result time of a fresh kernel (ms). */
  async bootToFirstResult(): Promise<number> {
    const t0 = performance.now();
    const m = await boot();
    try {
      await m.run(['/usr/libexec/agentos/js']);
      return performance.now() - t0;
    } finally {
      await m.stop();
    }
  },
};

let held: AgentVM | null = null;

declare global {
  interface Window {
    __agentos: typeof api;
    __done: number;
  }
}

window.__agentos = api;
document.getElementById('log')!.textContent = `agentOS e2e harness: ${cases.length} kernel cases ready`;

// `#report`: run every kernel case and print each result on the browser's
// stdout (window.dump), for a browser no WebDriver session drives
// (test/engines/firefox-direct.ts). A case that hangs is left after CASE_MS.
if (location.hash === '#report') {
  const CASE_MS = 60_000;
  const print = (line: object) => (window as unknown as { dump(s: string): void }).dump(`AGENTOS-CASE ${JSON.stringify(line)}\n`);
  void (async () => {
    for (const c of kernelCases) {
      const hang = new Promise<CaseResult>((ok) => setTimeout(() => ok({ ok: false, error: `hung (no result in ${CASE_MS} ms)`, ms: CASE_MS }), CASE_MS));
      print({ name: c.name, ...(await Promise.race([api.runCase(c.name), hang])) });
    }
    print({ end: true });
  })();
}

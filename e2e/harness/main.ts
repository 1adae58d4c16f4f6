// The browser test harness: boots real kernels in Web Workers and exposes
// `window.__agentos` for the Playwright specs (kernel suite and benchmarks).

import { AgentVM, boot } from '../../src/host/browser/index.js';
import type { Machine } from '../../src/host/machine.js';
import { cases as kernelCases, installPrograms, PROGRAMS } from '../../test/kernel/suite.js';
import { installWasm, WASM_PROGRAMS, wasmCases } from '../../test/runtimes/wasm/cases.js';

const cases = [...kernelCases, ...wasmCases];

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
  caseNames: (): string[] => cases.map((c) => c.name),

  async runCase(name: string): Promise<CaseResult> {
    const c = cases.find((x) => x.name === name);
    const t0 = performance.now();
    if (!c) return { ok: false, error: `no case named ${name}`, ms: 0 };
    try {
      await withMachine((m) => c.run(m));
      return { ok: true, ms: performance.now() - t0 };
    } catch (e) {
      return { ok: false, error: (e as Error)?.stack ?? String(e), ms: performance.now() - t0 };
    }
  },

  /** Mean µs of a synchronous stat() round trip from a process worker. */
  async statRoundTrip(n: number): Promise<number> {
    return withMachine(async (m) => {
      const r = await m.run(['/usr/local/bin/statloop', String(n), '/tmp']);
      return Number(new TextDecoder().decode(r.stdout));
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

declare global {
  interface Window {
    __agentos: typeof api;
  }
}

window.__agentos = api;
document.getElementById('log')!.textContent = `agentOS e2e harness: ${cases.length} kernel cases ready`;

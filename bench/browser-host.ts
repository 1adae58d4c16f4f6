// Issue 18's rows on the browser host (Chromium), measured in the e2e harness
// page (e2e/harness/bench.ts): the exec rows first run and steady state, quiet
// and under load, beside just-bash in the same page; spawn → exit → waitpid;
// many processes; durable writes' steady state; memory per idle VM. Each
// beside a baseline from this run.

import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { POOL_IDLE_MS } from '../src/kernel/runner.js';
import type { Figure } from './run.js';

type Api = typeof import('../e2e/harness/bench.js').benchApi;
type ApiWindow = { __agentos: Api };

const FRESH = 5;
const BUSY = 2;
const IDLE_VMS = 20;
const MiB = 2 ** 20;

const fmt = (v: number) => v.toFixed(v >= 10 ? 0 : 2);
const fmtNode = (f: { value: number; unit: string } | null) => (f ? `${fmt(f.value)} ${f.unit}` : 'n/a');

/** Chromium's renderer processes, by the pids CDP names. */
async function renderers(browser: Browser): Promise<number[]> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
    return processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
  } finally {
    await cdp.detach();
  }
}

const rss = (pids: number[]) => pids.reduce((sum, pid) => sum + Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024, 0);

/**
 * Memory per idle VM in Chromium: `IDLE_VMS` VMs booted in a page of a new
 * context (a renderer of its own, that has run nothing else, so memory other
 * rows freed cannot hide the VMs'), idle past the pools' idle period, as that
 * renderer's RSS (the page, its kernel and process workers are its threads)
 * over what it held before. RSS, as the Node host's row measures, not
 * measureUserAgentSpecificMemory(): that counts JS heaps and reports lazily (at
 * a later GC), while a VM's memory is also its workers' stacks, Wasm memories
 * and shared buffers.
 */
async function idleVmMemory(browser: Browser, url: string): Promise<{ before: number; perVm: number; own: boolean }> {
  const old = new Set(await renderers(browser));
  const ctx = await browser.newContext();
  try {
    const page = await ctx.newPage();
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as Partial<ApiWindow>).__agentos !== undefined);
    const fresh = (await renderers(browser)).filter((p) => !old.has(p));
    const pids = fresh.length ? fresh : [...old]; // no renderer of its own: all of them, said in the row's name
    const before = rss(pids);
    await page.evaluate((n) => (window as unknown as ApiWindow).__agentos.idleVmsBoot(n), IDLE_VMS);
    await new Promise((ok) => setTimeout(ok, POOL_IDLE_MS + 1000)); // past the pools' idle period, as on Node
    const perVm = (rss(pids) - before) / IDLE_VMS;
    await page.evaluate(() => (window as unknown as ApiWindow).__agentos.idleVmsStop());
    return { before, perVm, own: fresh.length > 0 };
  } finally {
    await ctx.close();
  }
}

export async function runBrowserHostBenches(browser: Browser, page: Page, nodeFigures: Figure[]): Promise<Figure[]> {
  const call = <K extends keyof Api>(k: K, ...args: Parameters<Api[K]>) =>
    page.evaluate(([k, args]) => ((window as unknown as ApiWindow).__agentos[k] as (...a: unknown[]) => unknown)(...args), [k, args] as const) as ReturnType<Api[K]>;
  const onNode = (prefix: string) => {
    const f = nodeFigures.find((n) => n.name.startsWith(prefix));
    return f ? { name: 'same, Node host', value: f.value, unit: f.unit } : null;
  };
  const nativeBash = nodeFigures.find((n) => n.name.startsWith('10,000-iteration shell loop, first run'))?.baseline?.value ?? null;
  const peerRow = (v: number | undefined, load = '') => (v === undefined ? null : { name: `just-bash in the page${load}`, value: v, unit: 'ms' });
  const loopRow = (what: string, v: number, peer: number | undefined): Figure => ({
    name: what, host: 'browser', value: v, unit: 'ms', goal: '≤ 1.2× bash', met: nativeBash === null ? null : v <= 1.2 * nativeBash,
    baseline: nativeBash === null ? peerRow(peer)
      : { name: `native bash -c, Node group (just-bash in the page: ${peer === undefined ? 'n/a' : `${fmt(peer)} ms`})`, value: nativeBash, unit: 'ms' },
  });

  const first = await call('execFirstRuns', FRESH);
  const quiet = await call('execSteady', 0);
  const busy = await call('execSteady', BUSY);
  const spawn = await call('spawnWait');
  const procs = await call('procs');
  const durable = await call('durableTwice');

  const mem = await idleVmMemory(browser, page.url());

  const figures: Figure[] = [
    {
      name: `exec('true'), first run on a fresh VM (p50 of ${FRESH} VMs)`, host: 'browser', value: first.vm.truth, unit: 'ms',
      goal: '≤ just-bash', met: first.peer ? first.vm.truth <= first.peer.truth : null, baseline: peerRow(first.peer?.truth, ', first exec on a new Bash()'),
    },
    {
      name: "exec('true') round trip, steady state (p50 of 300)", host: 'browser', value: quiet.vm.truth, unit: 'ms',
      goal: '≤ just-bash', met: quiet.peer ? quiet.vm.truth <= quiet.peer.truth : null, baseline: peerRow(quiet.peer?.truth),
    },
    {
      name: `exec('echo hi | wc -c'), first run on a fresh VM (p50 of ${FRESH} VMs)`, host: 'browser', value: first.vm.pipe, unit: 'ms',
      goal: '≤ 1.5 ms', met: first.vm.pipe <= 1.5, baseline: peerRow(first.peer?.pipe, ', first on a new Bash()'),
    },
    {
      name: "exec('echo hi | wc -c'), steady state (p50 of 200)", host: 'browser', value: quiet.vm.pipe, unit: 'ms',
      goal: '≤ 1.5 ms', met: quiet.vm.pipe <= 1.5, baseline: peerRow(quiet.peer?.pipe),
    },
    loopRow(`10,000-iteration shell loop, first run in a fresh VM (p50 of ${FRESH} VMs)`, first.vm.loop, first.peer?.loop),
    loopRow('10,000-iteration shell loop, steady state (p50 of 5)', quiet.vm.loop, quiet.peer?.loop),
  ];
  for (const [key, what] of [['truth', "exec('true')"], ['pipe', "exec('echo hi | wc -c')"], ['loop', '10,000-iteration loop']] as const) {
    const p = busy.peer?.[key];
    figures.push({
      name: `${what} p50, under load (${BUSY} busy workers in the page)${p === undefined ? '' : `: ${(busy.vm[key] / p).toPrecision(2)}× just-bash`}`,
      host: 'browser', value: busy.vm[key], unit: 'ms', goal: '≤ 1.5× just-bash', met: p === undefined ? null : busy.vm[key] <= 1.5 * p,
      baseline: peerRow(p, ', same load'),
    });
  }
  figures.push(
    {
      name: 'spawn → exit → waitpid, trivial process, warm pool (p50 of 200)', host: 'browser', value: spawn.p50, unit: 'ms',
      goal: '≤ 0.5 ms', met: spawn.p50 <= 0.5, baseline: { name: 'the page\'s own new Worker() → first message, p50', value: spawn.worker, unit: 'ms' },
    },
    {
      name: '100 × `sleep 10 &` from one exec (exec returns: all spawned)', host: 'browser', value: procs.bg, unit: 'ms',
      goal: '≤ 1000 ms', met: procs.bg <= 1000, baseline: onNode('100 × `sleep 10 &`'),
    },
    {
      name: '100 × `sleep 0 &`, then wait (all started and ended)', host: 'browser', value: procs.bgWait, unit: 'ms',
      goal: '—', met: null, baseline: onNode('100 × `sleep 0 &`'),
    },
    {
      name: '1000 × /opt/agentos/bin/true loop, first run in a VM', host: 'browser', value: procs.loopFirst, unit: 'ms',
      goal: '≤ 2000 ms', met: procs.loopFirst <= 2000, baseline: onNode('1000 × /opt/agentos/bin/true loop, first run'),
    },
    {
      name: '1000 × /opt/agentos/bin/true loop, steady state', host: 'browser', value: procs.loop, unit: 'ms',
      goal: '≤ 2000 ms', met: procs.loop <= 2000, baseline: onNode('1000 × /opt/agentos/bin/true loop, steady state'),
    },
    {
      name: '1,000 × 1 KiB files created (shell loop) and durable, steady state (second run in a persistent VM)', host: 'browser',
      value: durable.files[1], unit: 'ms', goal: '≤ 200 ms', met: durable.files[1] <= 200,
      baseline: { name: `first run in that VM (Node host, steady: ${fmtNode(onNode('1,000 × 1 KiB files created (shell loop) and durable, steady'))})`, value: durable.files[0], unit: 'ms' },
    },
    {
      name: 'sequential write of 100 MB to the layer, durable, steady state (second run in a persistent VM)', host: 'browser',
      value: 100 / (durable.write[1] / 1000), unit: 'MB/s', goal: '≥ 150 MB/s', met: 100 / (durable.write[1] / 1000) >= 150,
      baseline: { name: `first run in that VM (Node host, steady: ${fmtNode(onNode('sequential write of 100 MB to the layer, durable, steady'))})`, value: 100 / (durable.write[0] / 1000), unit: 'MB/s' },
    },
    {
      name: `memory per idle VM (${IDLE_VMS} VMs in one page; ${mem.own ? "its renderer's" : "all renderers'"} RSS over before, from /proc)`, host: 'browser',
      value: mem.perVm / MiB, unit: 'MB', goal: '≤ 25 MB', met: mem.perVm / MiB <= 25,
      baseline: { name: `the page's ${mem.own ? 'renderer' : 'renderers'} before the first VM, RSS`, value: mem.before / MiB, unit: 'MB' },
    },
  );
  return figures;
}

// BrowserVM from Node (decision 0023): launch to the first exec result, a
// second VM in the running browser, and exec('true') through Playwright —
// beside the Node AgentVM's exec('true') measured in the same run.

import { AgentVM } from '../src/host/node/index.js';
import { BrowserVM } from '../src/host/playwright/index.js';
import type { Figure } from './run.js';

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** exec('true') times (ms) on a started VM, after a warm-up. */
async function execTimes(vm: { exec(c: string): Promise<unknown> }, n: number): Promise<number[]> {
  for (let i = 0; i < 20; i++) await vm.exec('true');
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await vm.exec('true');
    times.push(performance.now() - t0);
  }
  return times;
}

export async function runBrowserVMBenches(): Promise<Figure[]> {
  // A fresh Chromium each time: the previous VM's stop() closed the shared browser.
  const launches: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const vm = new BrowserVM();
    await vm.start();
    await vm.exec('true');
    launches.push(performance.now() - t0);
    await vm.stop();
  }

  const first = new BrowserVM();
  await first.start();
  const more: number[] = [];
  let browserExec: number[];
  try {
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const vm = new BrowserVM();
      await vm.start();
      await vm.exec('true');
      more.push(performance.now() - t0);
      await vm.stop();
    }
    browserExec = await execTimes(first, 300);
  } finally {
    await first.stop();
  }

  const node = new AgentVM();
  await node.start();
  let nodeExec: number[];
  try {
    nodeExec = await execTimes(node, 300);
  } finally {
    await node.stop();
  }
  const nodeP50 = { name: 'Node AgentVM exec(\'true\') p50', value: quantile(nodeExec, 0.5), unit: 'ms' };
  const nodeP95 = { name: 'Node AgentVM exec(\'true\') p95', value: quantile(nodeExec, 0.95), unit: 'ms' };
  return [
    {
      name: 'BrowserVM launch (Chromium, page, boot) to first exec() result (p50 of 3)', host: 'browser',
      value: quantile(launches, 0.5), unit: 'ms', goal: '≤ 3000 ms', met: quantile(launches, 0.5) <= 3000, baseline: null,
    },
    {
      name: 'BrowserVM in a running browser (context, page, boot) to first exec() result (p50 of 5)', host: 'browser',
      value: quantile(more, 0.5), unit: 'ms', goal: '≤ 1000 ms', met: quantile(more, 0.5) <= 1000, baseline: null,
    },
    {
      name: 'exec(\'true\') through BrowserVM (p50 of 300)', host: 'browser',
      value: quantile(browserExec, 0.5), unit: 'ms', goal: '≤ 10 ms', met: quantile(browserExec, 0.5) <= 10, baseline: nodeP50,
    },
    {
      name: 'exec(\'true\') through BrowserVM (p95 of 300)', host: 'browser',
      value: quantile(browserExec, 0.95), unit: 'ms', goal: '≤ 20 ms', met: quantile(browserExec, 0.95) <= 20, baseline: nodeP95,
    },
  ];
}

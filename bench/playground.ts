// The playground in Chromium (issue 8): page load to an interactive prompt
// with a warm cache, and keystroke to echo through xterm.js, the TTY and back.

import type { Page } from '@playwright/test';
import type { Figure } from './run.js';

interface XtermLike {
  buffer: { active: { baseY: number; cursorY: number; getLine(i: number): { translateToString(trim: boolean): string } | undefined } };
  input(data: string, wasUserInput?: boolean): void;
  onWriteParsed(cb: () => void): { dispose(): void };
}
type PlaygroundWindow = Window & { __playground?: { view: { xterm: XtermLike } } };

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** Milliseconds from navigation start until the cursor sits after the first prompt. */
async function loadToPrompt(page: Page, url: string): Promise<number> {
  await page.goto(url);
  const h = await page.waitForFunction(() => {
    const t = (window as PlaygroundWindow).__playground?.view.xterm;
    if (!t) return false;
    const b = t.buffer.active;
    const line = b.getLine(b.baseY + b.cursorY)?.translateToString(true) ?? '';
    return /[$#] $/.test(line) ? performance.now() : false;
  }, null, { polling: 'raf', timeout: 30_000 });
  return (await h.jsonValue()) as number;
}

export async function runPlaygroundBenches(page: Page, base: string): Promise<Figure[]> {
  const url = `${base}/?vm=`; // ephemeral: nothing to replay
  await loadToPrompt(page, url); // fills the HTTP and image caches
  const loads: number[] = [];
  for (let i = 0; i < 5; i++) loads.push(await loadToPrompt(page, url));
  // Keystrokes as xterm receives them from the keyboard; the time until the echo is parsed onto the screen.
  const echo = await page.evaluate(async (n) => {
    const t = (window as PlaygroundWindow).__playground!.view.xterm;
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await new Promise<void>((done) => {
        const sub = t.onWriteParsed(() => {
          sub.dispose();
          done();
        });
        t.input(String.fromCharCode(97 + (i % 26)), true);
      });
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 5));
    }
    t.input('\x15', true); // ^U: clear the line
    return times;
  }, 200);
  const load = pct(loads, 50);
  const p95 = pct(echo, 95);
  return [
    {
      name: 'playground load to interactive prompt, warm cache (p50 of 5)',
      host: 'browser', value: load, unit: 'ms', goal: '≤ 300 ms', met: load <= 300, baseline: null,
    },
    {
      name: 'keystroke to echo on screen, xterm.js ⇄ TTY (p95 of 200)',
      host: 'browser', value: p95, unit: 'ms', goal: '≤ 16 ms', met: p95 <= 16,
      baseline: { name: 'p50', value: pct(echo, 50), unit: 'ms' },
    },
  ];
}

// The harness page in a Firefox that no WebDriver session drives. Under
// WebDriver BiDi, Firefox's Remote Agent watches every worker of the content
// process, and the kernel's worker, which creates and ends a worker per
// process, now and then blocks there for good (decision 0058). So the kernel
// suite launches firefox-esr itself on the page's `#report` mode and reads each
// case's result from the browser's stdout (window.dump, enabled in a fresh profile).

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ENGINE_DEFAULTS } from '../../src/host/playwright/index.js';

export interface CaseReport {
  ok: boolean;
  error?: string;
}

/** Start Firefox on `url` (the harness with #report); `result(name)` resolves with that case's report. */
export function runWithoutDriver(url: string): { result(name: string): Promise<CaseReport>; close(): void } {
  const profile = mkdtempSync(join(tmpdir(), 'agentos-firefox-'));
  writeFileSync(join(profile, 'user.js'), [
    'user_pref("browser.dom.window.dump.enabled", true);',
    'user_pref("browser.shell.checkDefaultBrowser", false);',
    'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
    'user_pref("browser.aboutwelcome.enabled", false);',
  ].join('\n'));
  const ff = spawn(ENGINE_DEFAULTS.firefox.path, ['--headless', '--no-remote', '-profile', profile, url], { stdio: ['ignore', 'pipe', 'ignore'] });
  const waiting = new Map<string, (r: CaseReport) => void>();
  const got = new Map<string, CaseReport>();
  let ended: string | null = null;
  const settle = (name: string, r: CaseReport) => {
    got.set(name, r);
    waiting.get(name)?.(r);
  };
  createInterface({ input: ff.stdout }).on('line', (line) => {
    if (!line.startsWith('AGENTOS-CASE ')) return;
    const r = JSON.parse(line.slice(13)) as CaseReport & { name?: string; end?: boolean };
    if (r.end) ended = 'the page finished';
    else if (r.name) settle(r.name, r);
  });
  ff.on('exit', (code) => {
    ended ??= `firefox exited (${code})`;
    for (const [name, f] of waiting) if (!got.has(name)) f({ ok: false, error: `no result: ${ended}` });
  });
  return {
    result: (name) => new Promise((ok) => {
      const r = got.get(name);
      if (r) return ok(r);
      if (ended) return ok({ ok: false, error: `no result: ${ended}` });
      waiting.set(name, ok);
    }),
    close() {
      ff.kill();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// The CLI's browser options (exec, shell, mcp): run the VM as a BrowserVM in
// headless Chromium instead of on the Node host.

import type { BrowserVM, BrowserVMOptions } from '../host/playwright/browser-vm.js';
import { optionValue } from './option-value.js';

export const BROWSER_USAGE = `Browser options (exec, shell, mcp): the VM runs in headless Chromium (BrowserVM) on the built app:
  --browser               use the browser host (mcp: --host browser)
  --chromium PATH         the Chromium executable (default /usr/bin/chromium, else Playwright's own); implies --browser
  --ws-endpoint URL       connect to a Playwright browser server instead of launching one; implies --browser`;

export interface BrowserFlags {
  browser: boolean;
  chromium?: string;
  wsEndpoint?: string;
}

export function newBrowserFlags(): BrowserFlags {
  return { browser: false };
}

/** If args[i] is a browser flag, apply it and return how many arguments it took; 0 if it is not one. */
export function takeBrowserFlag(args: string[], i: number, f: BrowserFlags): number {
  const flag = args[i];
  if (flag === '--browser') {
    f.browser = true;
    return 1;
  }
  if (flag !== '--chromium' && flag !== '--ws-endpoint') return 0;
  const value = optionValue(args, i);
  if (flag === '--chromium') f.chromium = value;
  else f.wsEndpoint = value;
  f.browser = true;
  return 2;
}

/** A BrowserVM for these flags; loaded on demand, so the Node host never loads Playwright. */
export async function newBrowserVM(f: BrowserFlags, options: BrowserVMOptions): Promise<BrowserVM> {
  const { BrowserVM } = await import('../host/playwright/browser-vm.js');
  return new BrowserVM({ ...options, chromium: f.chromium, wsEndpoint: f.wsEndpoint });
}

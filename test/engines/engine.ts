// The engine test harness: every test/engines/*.test.ts runs once per engine
// (scripts/test.mjs: AGENTOS_ENGINE=chromium|firefox|webkit, one summary line
// each), against the built app (dist/web) served with the isolation headers.
// API: ENGINE, skip (a reason, or false), openApp(path) → an EnginePage on the
// served app, and t(name, fn) — a test that skips with the reason, and fails
// after HANG_MS instead of hanging the file.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
// The host entry: the build makes it an import of dist/node/browser-vm.js, which finds dist/web beside it.
import { DEFAULT_APP_DIR, ENGINE_DEFAULTS, ENGINES, openEnginePage, serveApp, type Engine, type EnginePage } from '../../src/host/playwright/index.js';

export const ENGINE = (process.env.AGENTOS_ENGINE ?? 'chromium') as Engine;
if (!ENGINES.includes(ENGINE)) throw new Error(`AGENTOS_ENGINE=${ENGINE}: not one of ${ENGINES.join(', ')}`);

/** Why this engine's tests cannot run here, in plain words (they are then skipped, not failed). */
export function whyNot(engine: Engine): string | false {
  if (!existsSync(join(DEFAULT_APP_DIR, 'sandbox.html'))) return 'dist/web is not built (node scripts/build.mjs without --node-only)';
  const { path, pkg } = ENGINE_DEFAULTS[engine];
  if (!existsSync(path)) return `${engine} is not installed (no ${path}; Debian package ${pkg})`;
  if (engine === 'webkit' && !process.env.DISPLAY && !existsSync('/usr/bin/xvfb-run')) return 'webkit needs a display: no DISPLAY and no xvfb-run (Debian package xvfb)';
  return false;
}

export const skip = whyNot(ENGINE);

/** A test with no result by then has hung: it fails, and the file's later tests skip instead of hanging in turn. */
const HANG_MS = 90_000;
let hung: string | null = null;
/** Why this engine's tests do not run here (false: they run). */
export const skipped = (): string | false => skip;

export const t = (name: string, ...rest: [() => Promise<void>] | [{ todo?: string }, () => Promise<void>]) => {
  const [o, fn] = rest.length === 1 ? [{}, rest[0]] : rest;
  return test(`${ENGINE}: ${name}`, { skip: skipped(), ...o }, async (ctx) => {
    if (hung) return ctx.skip(`an earlier test hung: ${hung}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hang = new Promise<never>((_, no) => {
      timer = setTimeout(() => {
        hung = name;
        no(new Error(`no result in ${HANG_MS / 1000} s: a hang`));
      }, HANG_MS);
    });
    try {
      await Promise.race([fn(), hang]);
    } finally {
      clearTimeout(timer);
    }
  });
};

/** A fresh page (its own storage) of this engine on `path` of the served app; release() closes both. */
export async function openApp(path: string): Promise<{ page: EnginePage; url: string; release(): Promise<void> }> {
  const app = await serveApp();
  let page: EnginePage;
  try {
    page = await openEnginePage(ENGINE);
  } catch (e) {
    await app.release();
    throw e;
  }
  const url = new URL(path, app.value).href;
  await page.goto(url);
  return { page, url, release: async () => { await page.close(); await app.release(); } };
}

/** Resolves once `expr` (page-side source) is truthy, checked every 50 ms for up to `ms`. */
export function waitFor(page: EnginePage, expr: string, ms = 20_000): Promise<boolean> {
  return page.evaluate<boolean>(`(ms) => new Promise((ok) => { const t0 = Date.now(); const poll = () => { let v = false; try { v = !!(${expr}); } catch {} v ? ok(true) : Date.now() - t0 > ms ? ok(false) : setTimeout(poll, 50); }; poll(); })`, ms);
}

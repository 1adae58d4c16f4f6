// Reading and typing into an xterm.js screen from a Playwright spec, as a
// person would: the text comes from xterm's buffer (what is on the screen),
// keys go through the keyboard.

import { expect, type Page } from '@playwright/test';

/** A function, evaluated in the page, that returns the xterm Terminal under test. */
export type XtermLocator = string;

export const PLAYGROUND: XtermLocator = 'window.__playground.view.xterm';
export const component = (selector: string): XtermLocator => `document.querySelector(${JSON.stringify(selector)}).xterm`;

/** The screen's lines (scrollback included), trailing blanks trimmed. */
export function screenText(page: Page, term: XtermLocator): Promise<string> {
  return page.evaluate((expr) => {
    const t = (0, eval)(expr) as { buffer: { active: { length: number; getLine(i: number): { translateToString(trim: boolean): string } | undefined } } };
    const b = t.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < b.length; i++) lines.push(b.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n').trimEnd();
  }, term);
}

/** The line the cursor is on. */
export function cursorLine(page: Page, term: XtermLocator): Promise<string> {
  return page.evaluate((expr) => {
    const t = (0, eval)(expr) as { buffer: { active: { baseY: number; cursorY: number; getLine(i: number): { translateToString(trim: boolean): string } | undefined } } };
    const b = t.buffer.active;
    return b.getLine(b.baseY + b.cursorY)?.translateToString(true) ?? '';
  }, term);
}

export async function waitForScreen(page: Page, term: XtermLocator, re: RegExp, timeout = 15_000): Promise<string> {
  let text = '';
  await expect.poll(async () => (text = await screenText(page, term)), { timeout }).toMatch(re);
  return text;
}

/** Wait until the cursor sits after a shell prompt (`$ ` at the end of its line). */
export async function waitForPrompt(page: Page, term: XtermLocator, timeout = 15_000): Promise<void> {
  await expect.poll(() => cursorLine(page, term), { timeout }).toMatch(/[$#] $/);
}

/** Count of prompts on the screen, to wait for the next one. */
export async function promptCount(page: Page, term: XtermLocator): Promise<number> {
  return (await screenText(page, term)).split('\n').filter((l) => /[$#] /.test(l)).length;
}

/** Type a command line and press Enter; resolves when the next prompt is up. */
export async function runLine(page: Page, term: XtermLocator, line: string): Promise<void> {
  const before = await promptCount(page, term);
  await page.keyboard.type(line, { delay: 5 });
  await page.keyboard.press('Enter');
  await expect.poll(() => promptCount(page, term), { timeout: 15_000 }).toBeGreaterThan(before);
  await waitForPrompt(page, term);
}

// The playground (index.html) in Chromium: a person at the terminal, the
// files/snapshots panels, persistence across a reload, window.agentos, and
// cross-origin isolation through the service worker when the server sends
// no headers.

import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '../src/host/playwright/static-server.js';
import { cursorLine, PLAYGROUND as T, runLine, screenText, waitForPrompt, waitForScreen } from './xterm.js';

const unique = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

async function open(page: Page, vm: string | null = unique('pg'), base = ''): Promise<void> {
  await page.goto(`${base}/?${vm === null ? 'vm=' : `vm=${vm}`}`);
  await page.waitForFunction(() => window.agentos !== undefined, null, { timeout: 20_000 });
  await page.evaluate(() => window.agentos.ready);
}

async function atPrompt(page: Page): Promise<void> {
  await open(page);
  await waitForPrompt(page, T);
}

test.describe('terminal', () => {
  test('a prompt appears; ls and a pipeline run', async ({ page }) => {
    await atPrompt(page);
    await page.evaluate(() => window.agentos.exec('mkdir -p projects && seq 3 > numbers'));
    await runLine(page, T, 'ls');
    await waitForScreen(page, T, /numbers\s+projects/);
    await runLine(page, T, 'seq 10 | grep 1 | wc -l');
    await waitForScreen(page, T, /wc -l\r?\n2\n/);
  });

  test('the up arrow brings back the previous command', async ({ page }) => {
    await atPrompt(page);
    await runLine(page, T, 'echo first-$((40+2))');
    await waitForScreen(page, T, /first-42/);
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => (await screenText(page, T)).split('\n').at(-1)).toMatch(/echo first-\$\(\(40\+2\)\)$/);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await screenText(page, T)).match(/^first-42$/gm)?.length).toBe(2);
  });

  test('Ctrl-C stops sleep 100', async ({ page }) => {
    await atPrompt(page);
    await page.keyboard.type('sleep 100; echo after=$?');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
    const t0 = Date.now();
    await page.keyboard.press('Control+c');
    await waitForPrompt(page, T, 5000);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await screenText(page, T)).toMatch(/\^C/);
  });

  test('resizing the window changes tput cols', async ({ page }) => {
    await page.setViewportSize({ width: 1200, height: 800 });
    await atPrompt(page);
    const cols = () => page.evaluate(() => window.__playground!.view.xterm.cols);
    const wide = await cols();
    await runLine(page, T, 'tput cols');
    await waitForScreen(page, T, new RegExp(`tput cols\\n${wide}\\n`));
    await page.setViewportSize({ width: 700, height: 800 });
    await expect.poll(cols).toBeLessThan(wide);
    const narrow = await cols();
    // The kernel's window size changes at once; the shell's $COLUMNS (which
    // tput prefers, as ncurses does) follows before the next prompt.
    await runLine(page, T, 'stty size');
    await waitForScreen(page, T, new RegExp(`stty size\\n\\d+ ${narrow}\\n`));
    await runLine(page, T, 'tput cols');
    await waitForScreen(page, T, new RegExp(`tput cols\\n${narrow}\\n`));
  });

  test('Tab completes a command name and a path', async ({ page }) => {
    await atPrompt(page);
    await page.evaluate(() => window.agentos.exec('mkdir -p /tmp/tc && echo completed > /tmp/tc/hello-file'));
    await page.keyboard.type('ca');
    await page.keyboard.press('Tab');
    await page.keyboard.type('l 2026 | head -1 >/dev/null; ');
    await expect.poll(() => cursorLine(page, T)).toMatch(/cal 2026/);
    await page.keyboard.type('cat /tmp/tc/hel');
    await page.keyboard.press('Tab');
    await expect.poll(() => cursorLine(page, T)).toMatch(/cat \/tmp\/tc\/hello-file $/);
    await page.keyboard.press('Enter');
    await waitForScreen(page, T, /\ncompleted\n/);
  });

  test('less and vi draw full-screen on the alternate screen, and the shell comes back', async ({ page }) => {
    const alternate = () => page.evaluate(() => window.__playground!.view.xterm.buffer.active.type);
    await atPrompt(page);
    await page.keyboard.type('seq 500 | less');
    await page.keyboard.press('Enter');
    await expect.poll(alternate).toBe('alternate');
    await waitForScreen(page, T, /^1\n2\n3\n[^]*\n:$/);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await screenText(page, T)).split('\n')[0]).not.toBe('1');
    await page.keyboard.press('q');
    await expect.poll(alternate).toBe('normal');
    await waitForPrompt(page, T);

    await page.keyboard.type('vi notes.txt');
    await page.keyboard.press('Enter');
    await expect.poll(alternate).toBe('alternate');
    await waitForScreen(page, T, /^\n~\n~\n[^]*notes\.txt/);
    await page.keyboard.press('i');
    await page.keyboard.type('written in vi');
    await page.keyboard.press('Escape');
    await page.keyboard.type(':wq');
    await page.keyboard.press('Enter');
    await expect.poll(alternate).toBe('normal');
    await waitForPrompt(page, T);
    const r = await page.evaluate(() => window.agentos.exec('cat notes.txt'));
    expect(r.stdout).toBe('written in vi\n');
  });

  test('exec(cmd, {inTerminal: true}) shows the command and returns its output', async ({ page }) => {
    await atPrompt(page);
    const r = await page.evaluate(() => window.agentos.exec('echo to-out; echo to-err >&2; ls /nonexistent', { inTerminal: true }));
    expect(r.stdout).toBe('to-out\n');
    expect(r.stderr).toMatch(/^to-err\nls: cannot access '\/nonexistent': No such file or directory\n$/);
    expect(r.exitCode).toBe(2);
    await waitForScreen(page, T, /\nto-out\n/);
    const withIn = await page.evaluate(() => window.agentos.exec('tr a-z A-Z', { inTerminal: true, stdin: 'piped\n' }));
    expect(withIn).toMatchObject({ stdout: 'PIPED\n', exitCode: 0 });
  });
});

test.describe('terminal, keyboard and clipboard', () => {
  test('paste with Ctrl+Shift+V, copy the selection with Ctrl+Shift+C', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await atPrompt(page);
    await page.evaluate(() => navigator.clipboard.writeText('echo pasted-$((1+1))'));
    await page.locator('.term-pane .xterm-screen').click();
    await page.keyboard.press('Control+Shift+V');
    await waitForScreen(page, T, /\$ echo pasted-\$\(\(1\+1\)\)$/); // the clipboard is read asynchronously
    await page.keyboard.press('Enter');
    await waitForScreen(page, T, /\npasted-2\n/);
    await page.evaluate(() => window.__playground!.view.xterm.selectAll());
    await page.keyboard.press('Control+Shift+C');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('pasted-2');
  });

  test('keyboard only: Tab stays in the shell, F6 leaves for the panels, arrows switch tabs', async ({ page }) => {
    await atPrompt(page);
    await page.keyboard.type('ech');
    await page.keyboard.press('Tab');
    await expect.poll(async () => (await screenText(page, T)).split('\n').at(-1)).toMatch(/\$ echo$/); // completed (trailing blanks are trimmed)
    await page.keyboard.press('Control+u');
    await page.keyboard.press('F6');
    await expect(page.getByRole('tab', { name: 'Files' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Snapshots' })).toBeFocused();
    await expect(page.locator('#snapshots')).toBeVisible();
    await page.keyboard.press('Shift+Tab');
    await expect(page.locator('.term-pane .xterm-helper-textarea')).toBeFocused();
  });

  test('screen-reader mode can be switched on', async ({ page }) => {
    await atPrompt(page);
    await page.getByLabel('Screen reader mode').check();
    expect(await page.evaluate(() => window.__playground!.view.xterm.options.screenReaderMode)).toBe(true);
    await expect(page.locator('.xterm-accessibility-tree')).toHaveCount(1);
  });

  test('after exit, a key starts a new shell', async ({ page }) => {
    await atPrompt(page);
    await page.keyboard.type('exit 5');
    await page.keyboard.press('Enter');
    await waitForScreen(page, T, /shell exited with status 5; press any key/);
    await page.keyboard.press('Enter');
    await waitForPrompt(page, T);
  });
});

test('window.agentos: exec, files and snapshots, like the Node AgentVM', async ({ page }) => {
  await open(page);
  const r = await page.evaluate(async () => {
    const a = window.agentos;
    const out: unknown[] = [];
    out.push(await a.exec('cd /tmp && pwd; echo e >&2; exit 4'));
    await a.writeFile('/home/user/w.txt', 'written\n');
    out.push(new TextDecoder().decode(await a.readFile('/home/user/w.txt')));
    await a.snapshot('one');
    await a.exec('rm w.txt');
    await a.restore('one');
    out.push((await a.exec('cat w.txt')).stdout);
    return out;
  });
  expect(r[0]).toMatchObject({ stdout: '/tmp\n', stderr: 'e\n', exitCode: 4 });
  expect(r[1]).toBe('written\n');
  expect(r[2]).toBe('written\n');
});

test('files survive a reload of the persistent VM', async ({ page }) => {
  const vm = unique('reload');
  await open(page, vm);
  await page.evaluate(() => window.agentos.exec('echo kept > kept.txt'));
  await page.reload();
  await page.waitForFunction(() => window.agentos !== undefined);
  await page.evaluate(() => window.agentos.ready);
  expect((await page.evaluate(() => window.agentos.exec('cat kept.txt'))).stdout).toBe('kept\n');
  await expect(page.locator('#files li[data-name="kept.txt"]')).toBeVisible();
  await expect(page.locator('#persistence .badge')).toHaveText(`persistent · ${vm}`);
  await expect(page.locator('#persistence .usage')).toHaveText(/\d.* of \d/);
});

test('a second tab is told the VM is in use, and can take it over', async ({ context }) => {
  const vm = unique('tabs');
  const first = await context.newPage();
  await open(first, vm);
  await first.evaluate(() => window.agentos.exec('echo mine > f'));
  const second = await context.newPage();
  await second.goto(`/?vm=${vm}`);
  await expect(second.getByRole('alert')).toContainText('in use by another tab');
  // "agentOS" once: the page's prefix, not the host error's too.
  expect((await second.getByRole('alert').textContent())?.match(/agentOS/g)).toHaveLength(1);
  await second.getByRole('link', { name: 'Use it here instead' }).click();
  await second.waitForFunction(() => window.agentos !== undefined);
  await second.evaluate(() => window.agentos.ready);
  expect((await second.evaluate(() => window.agentos.exec('cat f'))).stdout).toBe('mine\n');
});

test('an ephemeral VM says so and keeps nothing', async ({ page }) => {
  await open(page, null);
  await expect(page.locator('#persistence .badge')).toHaveText('ephemeral');
  await page.evaluate(() => window.agentos.exec('echo x > gone.txt'));
  await page.reload();
  await page.waitForFunction(() => window.agentos !== undefined);
  await page.evaluate(() => window.agentos.ready);
  expect((await page.evaluate(() => window.agentos.exec('ls gone.txt'))).exitCode).not.toBe(0);
});

test('file tree: browse, view, download, upload and drop files', async ({ page }) => {
  await open(page);
  await page.evaluate(() => window.agentos.exec('mkdir -p sub && printf "line one\\n" > notes.txt'));
  const files = page.locator('#files');
  await files.getByRole('button', { name: 'Refresh' }).click();
  await files.getByRole('button', { name: 'notes.txt', exact: true }).click();
  const viewer = page.locator('dialog.viewer');
  await expect(viewer.locator('pre')).toHaveText('line one\n');
  const download = page.waitForEvent('download');
  await viewer.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('notes.txt');
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toHaveCount(0);

  await files.locator('input[type=file]').setInputFiles({ name: 'up.txt', mimeType: 'text/plain', buffer: Buffer.from('uploaded\n') });
  await expect(files.locator('li[data-name="up.txt"]')).toBeVisible();
  expect((await page.evaluate(() => window.agentos.exec('cat up.txt'))).stdout).toBe('uploaded\n');

  // Drag and drop onto a directory row: the file lands in that directory.
  const drop = async (selector: string, name: string, text: string) => {
    const dt = await page.evaluateHandle(([n, t]) => {
      const d = new DataTransfer();
      d.items.add(new File([t], n));
      return d;
    }, [name, text] as const);
    await page.locator(selector).dispatchEvent('dragover', { dataTransfer: dt });
    await page.locator(selector).dispatchEvent('drop', { dataTransfer: dt });
  };
  await drop('#files li[data-name="sub"]', 'dropped.txt', 'into sub\n');
  await expect.poll(async () => (await page.evaluate(() => window.agentos.exec('cat sub/dropped.txt'))).stdout).toBe('into sub\n');
  await drop('.term-pane', 'here.txt', 'into cwd\n');
  await expect.poll(async () => (await page.evaluate(() => window.agentos.exec('cat here.txt'))).stdout).toBe('into cwd\n');

  await files.getByRole('button', { name: 'sub/', exact: true }).click();
  await expect(files.locator('input.path')).toHaveValue('/home/user/sub');
  await expect(files.locator('li[data-name="dropped.txt"]')).toBeVisible();
});

test('snapshot panel: create, restore (after asking), delete', async ({ page }) => {
  await open(page);
  await page.evaluate(() => window.agentos.exec('echo v1 > f'));
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  const panel = page.locator('#snapshots');
  await panel.getByRole('textbox').fill('first');
  await panel.getByRole('button', { name: 'Create snapshot' }).click();
  const row = panel.locator('li[data-name="first"]');
  await expect(row).toBeVisible();
  await page.evaluate(() => window.agentos.exec('echo v2 > f'));
  await row.getByRole('button', { name: 'Restore' }).click();
  await page.locator('dialog.ask').getByRole('button', { name: 'Cancel' }).click();
  expect((await page.evaluate(() => window.agentos.exec('cat f'))).stdout).toBe('v2\n');
  await row.getByRole('button', { name: 'Restore' }).click();
  await page.locator('dialog.ask').getByRole('button', { name: 'Restore' }).click();
  await expect(panel.getByRole('status')).toHaveText("Restored 'first'.");
  expect((await page.evaluate(() => window.agentos.exec('cat f'))).stdout).toBe('v1\n');
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.locator('dialog.ask').getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
});

test('reset asks first, then wipes the persistent VM', async ({ page }) => {
  const vm = unique('reset');
  await open(page, vm);
  await page.evaluate(() => window.agentos.exec('echo precious > p'));
  await page.locator('#reset').click();
  await page.locator('dialog.ask').getByRole('button', { name: 'Cancel' }).click();
  expect((await page.evaluate(() => window.agentos.exec('cat p'))).stdout).toBe('precious\n');
  await page.locator('#reset').click();
  await Promise.all([page.waitForEvent('load'), page.locator('dialog.ask').getByRole('button', { name: 'Reset' }).click()]);
  await page.waitForFunction(() => window.agentos !== undefined);
  await page.evaluate(() => window.agentos.ready);
  expect((await page.evaluate(() => window.agentos.exec('ls p'))).exitCode).not.toBe(0);
});

test('a narrow window keeps the terminal and the panels usable', async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 800 });
  await open(page);
  await expect(page.locator('.term-pane')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Files' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('without COOP/COEP headers the service worker makes the page isolated', async ({ page }) => {
  const server = await serveStatic({ root: fileURLToPath(new URL('../dist/web/', import.meta.url)) });
  try {
    const res = await page.goto(`${server.url}/?vm=`);
    expect(res?.headers()['cross-origin-opener-policy']).toBeUndefined();
    await page.waitForFunction(() => window.agentos !== undefined, null, { timeout: 20_000 });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.dataset.isolation)).toBe('service-worker');
    await page.evaluate(() => window.agentos.ready);
    expect((await page.evaluate(() => window.agentos.exec('echo isolated'))).stdout).toBe('isolated\n');
  } finally {
    await server.close();
  }
});

test('a browser that cannot isolate gets a clear message', async ({ browser }) => {
  const server = await serveStatic({ root: fileURLToPath(new URL('../dist/web/', import.meta.url)) });
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/?vm=`);
    await expect(page.locator('#isolation-error')).toContainText('Cross-Origin-Opener-Policy: same-origin');
  } finally {
    await context.close();
    await server.close();
  }
});

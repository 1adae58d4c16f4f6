// Paths out of the VM in Chromium (issue 14, item 6; docs/security.md, "Paths
// out of the VM"): BrowserVM's file calls and the playground's file tree act
// as the VM user, under the policy — as the Node side does
// (test/security/paths.test.ts).
// Run: npm run build && AGENTOS_E2E_PORT=4204 npx playwright test e2e/security-paths.spec.ts

import { expect, test } from '@playwright/test';
import type { ApprovalRequest, Policy } from '../src/host/api/agent-vm.js';
import { BrowserVM } from '../src/host/playwright/index.js';

/** Objects of the base image: a hidden file and directory, a read-only file the user owns, an ask path. */
const POLICY: Policy = { fs: { hidden: ['/etc/hostname', '/etc/profile.d'], readOnly: ['/home/user/.profile'], ask: ['/etc/os-release'] } };

test('BrowserVM: readFile, writeFile and listDirectory act as the VM user, under the policy', async ({ browser, baseURL }) => {
  const asked: ApprovalRequest[] = [];
  const vm = new BrowserVM({ browser, appUrl: baseURL, policy: POLICY, onApproval: (r) => (asked.push(r), 'deny') });
  await vm.start();
  try {
    const passwd = await vm.readFile('/etc/passwd');
    await expect(vm.writeFile('/etc/passwd', 'root::0:0::/:/bin/sh\n')).rejects.toThrow(/Permission denied \(\/etc\/passwd\)/);
    expect(await vm.readFile('/etc/passwd')).toEqual(passwd);
    await expect(vm.writeFile('/usr/bin/x', 'x')).rejects.toThrow(/Permission denied/);
    expect((await vm.exec('ls /usr/bin/x')).exitCode).not.toBe(0);
    await expect(vm.readFile('/etc/hostname')).rejects.toThrow(/No such file or directory \(\/etc\/hostname\)/);
    await expect(vm.listDirectory('/etc/profile.d')).rejects.toThrow(/No such file or directory/);
    const names = (await vm.listDirectory('/etc')).map((e) => e.name);
    expect(names).toContain('passwd');
    expect(names).not.toContain('hostname');
    expect(names).not.toContain('profile.d');
    await expect(vm.writeFile('/home/user/.profile', 'x')).rejects.toThrow(/Read-only file system/);
    await expect(vm.readFile('/etc/os-release')).rejects.toThrow(/denied by the host/);
    expect(asked.map((r) => r.rule)).toEqual(['fs.ask:/etc/os-release']);
    await vm.writeFile('/home/user/new', 'n', 0o600);
    expect((await vm.exec('stat -c "%U %a" ~/new')).stdout).toBe('user 600\n');
  } finally {
    await vm.stop();
  }
});

test('playground: under ?policy= the file tree shows the user\'s view', async ({ page }) => {
  await page.goto(`/?vm=&policy=${encodeURIComponent(JSON.stringify(POLICY))}`);
  await page.waitForFunction(() => window.agentos !== undefined, null, { timeout: 20_000 });
  await page.evaluate(() => window.agentos.ready);
  const files = page.locator('#files');
  const path = files.locator('input.path');
  await path.fill('/etc');
  await path.press('Enter');
  await expect(files.locator('li[data-name="passwd"]')).toBeVisible();
  await expect(files.locator('li[data-name="hostname"]')).toHaveCount(0);
  await expect(files.locator('li[data-name="profile.d"]')).toHaveCount(0);
  // Uploading where the user may not write says so, and writes nothing.
  await files.locator('input[type=file]').setInputFiles({ name: 'up.txt', mimeType: 'text/plain', buffer: Buffer.from('x\n') });
  await expect(files.locator('p[role=status]')).toContainText('up.txt: EACCES: Permission denied (/etc/up.txt)');
  expect((await page.evaluate(() => window.agentos.exec('ls /etc/up.txt'))).exitCode).not.toBe(0);
  await path.fill('/etc/profile.d');
  await path.press('Enter');
  await expect(files.locator('p[role=status]')).toContainText('/etc/profile.d: ENOENT: No such file or directory');
  // The terminal's user meets the same rules.
  expect((await page.evaluate(() => window.agentos.exec('cat /etc/hostname'))).exitCode).not.toBe(0);
});

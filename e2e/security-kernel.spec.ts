// The kernel survives bad guests in Chromium too (issue 14, items 7–9): the
// same channel attacks as test/security/kernel.test.ts (malformed messages,
// 20,000 fuzzed ones), a planted ./sh, and commands that used to end the
// session; the VM answers afterwards.
// Run: npm run build && AGENTOS_E2E_PORT=4205 npx playwright test e2e/security-kernel.spec.ts

import { expect, test, type Page } from '@playwright/test';
import { FUZZER, guest, MALFORMED, MALFORMED_ERRNOS, SIBLING } from '../test/security/channel-guests.js';

async function harness(page: Page): Promise<void> {
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
}

test('kernel (browser): malformed and fuzzed syscall messages are refused, a planted ./sh never runs, the session survives', async ({ page }) => {
  test.setTimeout(120_000);
  await harness(page);
  const policy = { processes: { maxFileSize: 1 << 20, maxOpenFiles: 256 } };
  const trap = "#!/usr/libexec/agentos/js\nagentos.sys.writeFile('/tmp/planted', 'ran');\n";
  const files = {
    '/tmp/cases.js': guest(MALFORMED),
    '/tmp/fuzz.js': guest(FUZZER),
    '/tmp/sibling.js': guest(SIBLING),
    '/tmp/plant/sh': trap,
    '/tmp/plant/bash': trap,
  };
  const cmds = [
    '/tmp/cases.js',
    'KEEP=kept; (cd / && /tmp/sibling.js) & /tmp/fuzz.js 7 20000 /tmp/fuzz.json </dev/null >/tmp/fuzz.out 2>&1; echo "fuzz $?"; wait; cat /tmp/fuzz.out',
    "cd /tmp/plant && sh -c '{ echo a; } | cat' && bash -c '(echo b) | cat'; ls /tmp/planted; cd /",
    'x=$(head -c 300000 /dev/zero | tr "\\0" a); /opt/agentos/bin/echo "$x"; echo "rc=$?"; { echo "${#x}"; } | cat',
    '( f() { f; }; f ); echo "rc=$?"',
    'echo "$KEEP alive"',
  ];
  const { results: r } = await page.evaluate(([p, f, c]) => window.__agentos.policyRun(p, f, c), [policy, files, cmds] as const);
  expect(JSON.parse(r[0].stdout)).toEqual(MALFORMED_ERRNOS);
  expect(r[1].stdout).toBe('fuzz 0\n');
  expect(r[2].stdout).toBe('a\nb\n');
  expect(r[2].stderr).toMatch(/cannot access '\/tmp\/planted'/);
  expect([r[3].stdout, r[3].stderr]).toEqual(['rc=126\n300000\n', 'agentos-shell: line 1: /opt/agentos/bin/echo: Argument list too long\n']);
  expect(r[4].stdout).toBe('rc=139\n');
  expect(r[4].stderr).toMatch(/stack overflow: recursion too deep/);
  expect(r[5].stdout).toBe('kept alive\n');
});

// Agents in Chromium (issue 19; the Node side: test/agent/*). The openai and
// anthropic backends run in a BrowserVM's kernel and reach fake providers the
// page routes (Playwright route(), names under .test, no network): SSE
// tool-call deltas, a 429 with retry-after and a 500 retried, a truncated
// stream an UPSTREAM_FAILURE; each provider's key is a host-held secret put
// into the key header for its host only — another host gets the placeholder,
// and the guest never reads the value. Then the playground's Agents panel
// with the mock backend: start, answer ask_human, approve an intent, the
// trace and the spend; pause, resume and kill; and an openai model whose key
// is the one the Keys panel keeps.
// Run: npm run build && AGENTOS_E2E_PORT=4305 npx playwright test e2e/agents.spec.ts

import { expect, test, type Page, type Request, type Route } from '@playwright/test';
import { BrowserVM } from '../src/host/playwright/index.js';
import { anthropicText, anthropicTool, sse } from '../test/agent/fake-provider.js';

const OPENAI_KEY = 'sk-openai-browser-3c9f1e27ab54';
const ANTHROPIC_KEY = 'sk-ant-browser-8d2e64f0c1a7';
const TOKEN = /aos-secret-(OPENAI|ANTHROPIC)(_API)?_KEY-[0-9a-f]{32}/;
const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': '*', 'Access-Control-Expose-Headers': '*' };

interface Seen {
  host: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

type Reply = { status?: number; headers?: Record<string, string>; body: string };

/** Answer requests to *.test from `replies`, in order, recording each. */
async function provider(page: Page, seen: Seen[], replies: Reply[]): Promise<void> {
  await page.route(/^https:\/\/[^/]*\.test\//, async (route: Route, req: Request) => {
    if (req.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: CORS });
    const url = new URL(req.url());
    seen.push({ host: url.hostname, path: url.pathname, headers: await req.allHeaders(), body: req.postData() ?? '' });
    const r = replies.shift() ?? { status: 599, body: 'no reply scripted' };
    return route.fulfill({ status: r.status ?? 200, headers: { ...CORS, 'Content-Type': r.status ? 'application/json' : 'text/event-stream', ...r.headers }, body: r.body });
  });
}

const MODELS = [
  'models:',
  '  fake-gpt:',
  '    backend: openai',
  '    base_url: https://api.openai.test/v1',
  '    api_key_secret: OPENAI_KEY',
  '    input_usd_per_mtok: 1',
  '    output_usd_per_mtok: 2',
  '  fake-claude:',
  '    backend: anthropic',
  '    base_url: https://api.anthropic.test/v1',
  '    api_key_secret: ANTHROPIC_KEY',
  '    input_usd_per_mtok: 3',
  '    output_usd_per_mtok: 15',
  // The OpenAI key's placeholder sent to a host the secret does not list.
  '  elsewhere:',
  '    backend: openai',
  '    base_url: https://other.test/v1',
  '    api_key_secret: OPENAI_KEY',
  '    input_usd_per_mtok: 1',
  '    output_usd_per_mtok: 2',
  '',
].join('\n');

const openaiTool = (id: string, command: string) => sse([
  [null, { choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id, type: 'function', function: { name: 'bash', arguments: '{"comm' } }] } }] }],
  [null, { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: `and": ${JSON.stringify(command)}}` } }] }, finish_reason: 'tool_calls' }] }],
  [null, { choices: [], usage: { prompt_tokens: 50, completion_tokens: 10 } }],
  [null, '[DONE]'],
]);
const openaiText = (text: string) => sse([
  [null, { choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }] }],
  [null, { choices: [], usage: { prompt_tokens: 60, completion_tokens: 5 } }],
  [null, '[DONE]'],
]);

test.describe('backends in a BrowserVM', () => {
  let vm: BrowserVM;
  const seen: Seen[] = [];
  const replies: Reply[] = [];

  test.beforeAll(async ({ browser, baseURL }) => {
    vm = new BrowserVM({
      browser,
      appUrl: baseURL,
      policy: {
        secrets: { OPENAI_KEY: { value: OPENAI_KEY, hosts: ['api.openai.test'] }, ANTHROPIC_KEY: { value: ANTHROPIC_KEY, hosts: ['api.anthropic.test'] } },
        network: { allow: ['api.openai.test', 'api.anthropic.test', 'other.test'] },
      },
    });
    await vm.start();
    await provider(vm.playwrightPage, seen, replies);
    const w = await vm.run(['/bin/sh', '-c', 'mkdir -p /etc/aos && cat > /etc/aos/models.yaml'], { uid: 0, gid: 0, stdin: MODELS });
    expect(w.exitCode).toBe(0);
    await vm.writeFile('/tmp/notes.txt', 'buy milk\n');
  });
  test.afterAll(() => vm.stop());

  /** Every request since `from`, and that no output, trace or audit event of the VM holds a key. */
  async function noKeyInside(outputs: string[], pid: number): Promise<void> {
    const inside = [...outputs, JSON.stringify(await vm.agents.trace(pid)), JSON.stringify(await vm.audit())].join('\n');
    expect(inside).not.toContain(OPENAI_KEY);
    expect(inside).not.toContain(ANTHROPIC_KEY);
  }

  test('openai: SSE tool-call deltas, a 429 with retry-after and a 500 retried; the key goes to its host alone', async () => {
    const from = seen.length;
    replies.push(
      { status: 429, headers: { 'retry-after': '0' }, body: '{"error":{"message":"slow down"}}' },
      { body: openaiTool('c1', 'cat /tmp/notes.txt; echo "[$OPENAI_KEY]"') },
      { status: 500, body: '{"error":{"message":"oops"}}' },
      { body: openaiText('It says: buy milk.') },
    );
    const a = await vm.agents.run('what is in my notes?', { model: 'fake-gpt', tools: ['bash'] });
    const r = await a.wait();
    expect(r).toEqual({ code: 0, answer: 'It says: buy milk.\n', stderr: '' });
    const mine = seen.slice(from);
    expect(mine.map((s) => [s.host, s.path, s.headers.authorization])).toEqual(Array(4).fill(['api.openai.test', '/v1/chat/completions', `Bearer ${OPENAI_KEY}`]));
    // The tool ran in the VM and saw the placeholder; its output went back to the provider as the tool's result.
    expect(JSON.parse(mine[3].body).messages.at(-1).content).toMatch(new RegExp(`^buy milk\n\\[${TOKEN.source}\\]\n$`));
    await noKeyInside([r.answer, r.stderr], a.pid);
  });

  test('anthropic: tool_use deltas and an answer; a truncated stream is UPSTREAM_FAILURE, not half an answer', async () => {
    const from = seen.length;
    replies.push({ body: anthropicTool('tu_1', 'wc -l < /tmp/notes.txt') }, { body: anthropicText('One line.') });
    const a = await vm.agents.run('count my notes', { model: 'fake-claude', tools: ['bash'] });
    const r = await a.wait();
    expect(r).toEqual({ code: 0, answer: 'One line.\n', stderr: '' });
    const mine = seen.slice(from);
    expect(mine.map((s) => [s.host, s.path, s.headers['x-api-key'], s.headers['anthropic-version']])).toEqual(Array(2).fill(['api.anthropic.test', '/v1/messages', ANTHROPIC_KEY, '2023-06-01']));
    const last = JSON.parse(mine[1].body).messages.at(-1).content[0];
    expect([last.type, last.tool_use_id, String(last.content).trim()]).toEqual(['tool_result', 'tu_1', '1']);
    await noKeyInside([r.answer, r.stderr], a.pid);

    const text = anthropicText('never whole');
    replies.push({ body: text.slice(0, text.indexOf('event: message_delta')) });
    const cut = await vm.agents.run('again', { model: 'fake-claude', tools: ['bash'] });
    const c = await cut.wait();
    expect(c.code).toBe(98);
    expect(c.answer).toBe('');
    expect(c.stderr).toMatch(/ended before the reply did/);
  });

  test('a host the secret does not list gets the placeholder, never the key', async () => {
    const from = seen.length;
    replies.push({ body: openaiText('ok') });
    const r = await (await vm.agents.run('hi', { model: 'elsewhere', tools: ['bash'] })).wait();
    expect(r.code).toBe(0);
    const mine = seen.slice(from);
    expect(mine).toHaveLength(1);
    expect(mine[0].host).toBe('other.test');
    expect(mine[0].headers.authorization).toMatch(new RegExp(`^Bearer ${TOKEN.source}$`));
    expect(JSON.stringify(mine)).not.toContain(OPENAI_KEY);
    // In the guest: $OPENAI_KEY is the placeholder, by any runtime.
    const env = await vm.exec('echo "$OPENAI_KEY"; node -e "console.log(process.env.ANTHROPIC_KEY)"');
    expect(env.stdout).toMatch(new RegExp(`^${TOKEN.source}\n${TOKEN.source}\n$`));
  });
});

test.describe('the playground Agents panel', () => {
  const line = (o: object) => JSON.stringify(o);

  async function open(page: Page): Promise<void> {
    await page.goto('/?vm=');
    await page.waitForFunction(() => window.agentos !== undefined, null, { timeout: 20_000 });
    await page.evaluate(() => window.agentos.ready);
    await page.locator('#tab-agents').click();
  }

  async function start(page: Page, o: { prompt: string; mock: string; budget?: string; ask?: string }): Promise<void> {
    const p = page.locator('#agents');
    await p.getByLabel('Prompt').fill(o.prompt);
    await p.getByLabel('Model').fill('mock');
    await p.getByLabel('Mock script').fill(o.mock);
    await p.getByLabel('Budget (USD)').fill(o.budget ?? '');
    await p.getByLabel('Ask first (tools)').fill(o.ask ?? '');
    await p.getByRole('button', { name: 'Start agent' }).click();
  }

  test('start with the mock backend, answer ask_human, approve an intent; the trace and the spend', async ({ page }) => {
    await open(page);
    const script = [
      line({ text: '', tool_calls: [{ name: 'ask_human', arguments: { question: 'Which file?' } }] }),
      line({ text: '', tool_calls: [{ name: 'write_file', arguments: { path: '/tmp/picked', content: 'hello' } }], match: '^notes' }),
      line({ text: 'wrote it' }),
      '',
    ].join('\n');
    await page.evaluate((s) => window.agentos.vm.writeFile('/tmp/agent.jsonl', s), script);
    await start(page, { prompt: 'write the file', mock: '/tmp/agent.jsonl', budget: '0.5', ask: 'write_file' });
    const p = page.locator('#agents');
    const question = p.locator('ul.agents-pending li[data-question]');
    await expect(question).toContainText('asks: Which file?');
    await question.getByRole('textbox').fill('notes.txt');
    await question.getByRole('button', { name: 'Answer' }).click();
    const intent = p.locator('ul.agents-pending li[data-intent]');
    await expect(intent).toContainText('wants write_file');
    await expect(intent).toContainText('/tmp/picked');
    await expect(p.locator('ul.agents li[data-status=waiting_human]')).toHaveCount(1);
    expect((await page.evaluate(() => window.agentos.exec('test -e /tmp/picked; echo $?'))).stdout).toBe('1\n');
    await intent.getByRole('button', { name: 'Approve' }).click();
    await expect(p.locator('p[role=status]')).toContainText('ended with exit 0: wrote it');
    expect((await page.evaluate(() => window.agentos.exec('cat /tmp/picked'))).stdout).toBe('hello');
    const row = p.locator('ul.agents li[data-status=exited]');
    await expect(row).toContainText('exited 0');
    await expect(row).toContainText(/\$0\.\d+ of \$0\.5000/);
    await expect(p.locator('ul.agents-pending')).toContainText('Nothing.');
    const trace = p.locator('pre.agent-trace');
    for (const ev of ['"type":"start"', '"type":"intent"', '"decision":"allow"', '"answer":"notes.txt"', '"type":"exit"']) await expect(trace).toContainText(ev);
  });

  test('an openai model with the key from the Keys panel: the routed provider gets it, the page and VM show only the placeholder', async ({ page }) => {
    const seen: Seen[] = [];
    await provider(page, seen, [{ body: openaiTool('c1', 'echo "[$OPENAI_API_KEY]"') }, { body: openaiText('Done in the playground.') }]);
    // As the Keys panel keeps it (e2e/security-secrets.spec.ts drives the form); applied when the VM starts.
    await page.goto('/?vm=');
    await page.evaluate((v) => localStorage.setItem('agentos-secrets', JSON.stringify({ OPENAI_API_KEY: { value: v, hosts: ['api.openai.test'] } })), OPENAI_KEY);
    await open(page);
    // The operator's model table, as root (the host's own call).
    await page.evaluate((t) => window.agentos.vm.vm.writeFile('/etc/aos/models.yaml', t), MODELS.replaceAll('OPENAI_KEY', 'OPENAI_API_KEY'));
    const p = page.locator('#agents');
    await p.getByLabel('Prompt').fill('say where you are');
    await p.getByLabel('Model').fill('fake-gpt');
    await p.getByRole('button', { name: 'Start agent' }).click();
    await expect(p.locator('p[role=status]')).toContainText('ended with exit 0: Done in the playground.');
    expect(seen.map((s) => [s.host, s.headers.authorization])).toEqual(Array(2).fill(['api.openai.test', `Bearer ${OPENAI_KEY}`]));
    expect(JSON.parse(seen[1].body).messages.at(-1).content).toMatch(new RegExp(`^\\[${TOKEN.source}\\]\n$`));
    await p.locator('ul.agents li').first().getByRole('button', { name: 'Trace' }).click();
    await expect(p.locator('pre.agent-trace')).toContainText('"type":"exit"');
    const inside = await page.evaluate(async () => (await window.agentos.exec('aos trace $(aos ps | awk \'NR==2{print $1}\')')).stdout + document.body.innerText);
    expect(inside).toMatch(TOKEN);
    expect(inside).not.toContain(OPENAI_KEY);
    await page.evaluate(() => localStorage.removeItem('agentos-secrets'));
  });

  test("a named agent (the operator's config) with the tools asked for: the config's ceiling holds", async ({ page }) => {
    await open(page);
    // The operator's agent, as root (the host's own call): its tools and budget are a ceiling.
    await page.evaluate(async () => {
      const vm = window.agentos.vm.vm;
      await vm.mkdirp('/etc/aos/agents.d');
      await vm.writeFile('/etc/aos/agents.d/reader.yaml', 'model: mock\ntools: [read_file, list_dir]\nbudget: 0.25\n');
    });
    await page.evaluate((s) => window.agentos.vm.writeFile('/tmp/reader.jsonl', s), [
      line({ text: '', tool_calls: [{ name: 'read_file', arguments: { path: '/tmp/reader-notes' } }] }),
      line({ text: 'The notes say: tea.', match: 'tea' }),
      '',
    ].join('\n'));
    await page.evaluate(() => window.agentos.vm.writeFile('/tmp/reader-notes', 'tea\n'));
    const p = page.locator('#agents');
    await p.getByLabel('Prompt').fill('read my notes');
    await p.getByLabel('Agent name').fill('reader');
    await p.getByLabel('Model').fill('');
    await p.getByLabel('Mock script').fill('/tmp/reader.jsonl');
    await p.getByLabel('Budget (USD)').fill('');
    // bash is asked for but not in the config: the kernel grants read_file alone.
    await p.getByLabel('Tools given').fill('read_file, bash');
    await p.getByLabel('Ask first (tools)').fill('');
    await p.getByRole('button', { name: 'Start agent' }).click();
    await expect(p.locator('p[role=status]')).toContainText('ended with exit 0: The notes say: tea.');
    const row = p.locator('ul.agents li[data-status=exited]').first();
    await expect(row).toContainText('reader · mock:/tmp/reader.jsonl');
    await expect(row).toContainText(/of \$0\.2500/);
    const trace = p.locator('pre.agent-trace');
    await expect(trace).toContainText('"agent":"reader"');
    await expect(trace).toContainText('"tools":["read_file"]');
  });

  test('pause, resume and kill a running agent; reject an intent', async ({ page }) => {
    await open(page);
    await page.evaluate((s) => window.agentos.vm.writeFile('/tmp/sleepy.jsonl', s), `${line({ text: '', tool_calls: [{ name: 'bash', arguments: { command: 'sleep 60' } }] })}\n`);
    await start(page, { prompt: 'sleep', mock: '/tmp/sleepy.jsonl' });
    const p = page.locator('#agents');
    const row = p.locator('ul.agents li').first();
    await expect(row).toHaveAttribute('data-status', 'running');
    await row.getByRole('button', { name: 'Pause' }).click();
    await expect(row).toHaveAttribute('data-status', 'paused');
    await row.getByRole('button', { name: 'Resume' }).click();
    await expect(row).toHaveAttribute('data-status', 'running');
    await row.getByRole('button', { name: 'Kill' }).click();
    await expect(p.locator('p[role=status]')).toContainText('ended with exit 137');
    await expect(row).toHaveAttribute('data-status', 'exited');

    await page.evaluate((s) => window.agentos.vm.writeFile('/tmp/deploy.jsonl', s), [
      line({ text: '', tool_calls: [{ name: 'bash', arguments: { command: 'touch /tmp/deployed' } }] }),
      line({ text: 'not deployed', match: '^rejected' }),
      '',
    ].join('\n'));
    await start(page, { prompt: 'deploy', mock: '/tmp/deploy.jsonl', ask: 'bash' });
    await p.locator('ul.agents-pending li[data-intent]').getByRole('button', { name: 'Reject' }).click();
    await expect(p.locator('p[role=status]')).toContainText('ended with exit 0: not deployed');
    expect((await page.evaluate(() => window.agentos.exec('test -e /tmp/deployed; echo $?'))).stdout).toBe('1\n');
  });
});

// The provider backends wired into the model service, end to end: `aos run`
// in a VM against a fake OpenAI server on 127.0.0.1 selected through
// /etc/aos/models.yaml (backend, base_url, api_key_secret), the key a
// host-held secret that the server checks and the VM never sees; then
// `aos run --record` → `aos replay --verify` MATCH with no network, and a
// changed tool output → the first DIFF (exit 1).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';
import { anthropicText, anthropicTool, fakeProvider, sse, type FakeProvider } from './fake-provider.js';

const KEY = 'sk-test-7f3a9c-never-in-the-vm';
const ANTHROPIC_KEY = 'sk-ant-test-41d0b8-never-in-the-vm';
let srv: FakeProvider;
let vm: AgentVM;
before(async () => {
  srv = await fakeProvider();
  vm = new AgentVM({
    policy: {
      secrets: { OPENAI_KEY: { value: KEY, hosts: ['127.0.0.1'] }, ANTHROPIC_KEY: { value: ANTHROPIC_KEY, hosts: ['127.0.0.1'] } },
      network: { allow: [{ origin: srv.base, private: true }] },
    },
  });
  await vm.start();
  await vm.vm.writeFile('/etc/aos/models.yaml', [
    'models:',
    '  fake-gpt:',
    '    backend: openai',
    `    base_url: ${srv.base}/v1`,
    '    api_key_secret: OPENAI_KEY',
    '    input_usd_per_mtok: 1',
    '    output_usd_per_mtok: 2',
    '  fake-claude:',
    '    backend: anthropic',
    `    base_url: ${srv.base}/v1`,
    '    api_key_secret: ANTHROPIC_KEY',
    '    input_usd_per_mtok: 3',
    '    output_usd_per_mtok: 15',
    '',
  ].join('\n'));
});
after(async () => {
  await vm.stop();
  await srv.close();
});

const toolCall = (id: string, command: string) => sse([
  [null, { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }] }, finish_reason: 'tool_calls' }] }],
  [null, { choices: [], usage: { prompt_tokens: 50, completion_tokens: 10 } }],
  [null, '[DONE]'],
]);
const answer = (text: string) => sse([[null, { choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }] }], [null, { choices: [], usage: { prompt_tokens: 60, completion_tokens: 5 } }], [null, '[DONE]']]);

test('aos run with an openai model from models.yaml: the key is a host-held secret the server gets and the VM never sees', async () => {
  await vm.writeFile('/tmp/notes.txt', 'buy milk\n');
  srv.script({ pieces: [toolCall('c1', 'cat /tmp/notes.txt')] }, { pieces: [answer('It says: buy milk.')] });
  const from = srv.seen.length;
  const r = await vm.exec('aos run --model fake-gpt --tools bash --record /tmp/run.rec "what is in my notes?"; echo "status=$?"; echo "$OPENAI_KEY"; cat /tmp/run.rec; aos trace $(aos ps | awk \'NR==2{print $1}\')');
  assert.equal(r.stdout.split('\n').slice(0, 2).join('\n'), 'It says: buy milk.\nstatus=0', r.stderr);
  const seen = srv.seen.slice(from);
  assert.equal(seen.length, 2);
  assert.deepEqual(seen.map((s) => [s.url, s.headers.authorization]), [['/v1/chat/completions', `Bearer ${KEY}`], ['/v1/chat/completions', `Bearer ${KEY}`]]);
  assert.equal((seen[0].body as { model: string }).model, 'fake-gpt');
  // The guest sees a placeholder; the value is nowhere in the VM's output, record or trace.
  assert.match(r.stdout.split('\n')[2], /^aos-secret-OPENAI_KEY-[0-9a-f]{32}$/);
  assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY));
  assert.match(r.stdout, /"format":"aos-record"/);
});

test('aos replay --verify: MATCH with no network; a changed tool output is the first DIFF (exit 1)', async () => {
  const from = srv.seen.length;
  const ok = await vm.exec('aos replay /tmp/run.rec --verify; echo "status=$?"');
  assert.equal(ok.stdout, 'MATCH (2 calls)\nstatus=0\n', ok.stderr);
  await vm.writeFile('/tmp/notes.txt', 'buy oat milk\n');
  const diff = await vm.exec('aos replay /tmp/run.rec --verify; echo "status=$?"');
  assert.equal(diff.stdout, 'DIFF call 2 messages[2].content: recorded "buy milk\\n", replayed "buy oat milk\\n"\nstatus=1\n', diff.stderr);
  assert.equal(srv.seen.length, from, 'a replay made no request');
});

test('aos run with an anthropic model: tool_use over SSE, a 429 with retry-after retried, x-api-key a host-held secret; a truncated stream exits 98', async () => {
  srv.script(
    { status: 429, headers: { 'retry-after': '0' }, pieces: ['{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}'] },
    { pieces: [anthropicTool('tu_1', 'wc -l < /tmp/notes.txt; echo "[$ANTHROPIC_KEY]"')] },
    { pieces: [anthropicText('One line.')] },
  );
  const from = srv.seen.length;
  const r = await vm.exec('aos run --model fake-claude --tools bash "count my notes"; echo "status=$?"');
  assert.equal(r.stdout, 'One line.\nstatus=0\n', r.stderr);
  const seen = srv.seen.slice(from);
  assert.deepEqual(seen.map((s) => [s.url, s.headers['x-api-key'], s.headers['anthropic-version']]), Array(3).fill(['/v1/messages', ANTHROPIC_KEY, '2023-06-01']));
  assert.equal((seen[2].body as { model: string }).model, 'fake-claude');
  // The tool's result went back as a tool_result block; in the VM the key was its placeholder.
  const last = (seen[2].body as { messages: { content: { type: string; tool_use_id: string; content: string }[] }[] }).messages.at(-1)!.content[0];
  assert.equal(last.type, 'tool_result');
  assert.equal(last.tool_use_id, 'tu_1');
  assert.match(String(last.content), /^1\n\[aos-secret-ANTHROPIC_KEY-[0-9a-f]{32}\]\n$/);
  const pid = (await vm.exec("aos ps | awk '$0 ~ /fake-claude/ {p=$1} END {print p}'")).stdout.trim();
  const inside = (await vm.exec(`aos trace ${pid}`)).stdout + JSON.stringify(await vm.audit());
  assert.ok(!inside.includes(ANTHROPIC_KEY) && !inside.includes(KEY));

  const text = anthropicText('never whole');
  srv.script({ pieces: [text.slice(0, text.indexOf('event: message_delta'))] });
  const cut = await vm.exec('aos run --model fake-claude --tools bash again; echo "status=$?"');
  assert.equal(cut.stdout, 'status=98\n');
  assert.match(cut.stderr, /ended before the reply did/);
});

test('item 6 through a real backend: 429 after every retry exits 65 RATE_LIMITED (no core); a context-length error exits 97 CTX_OVERFLOW with a core', async () => {
  const limited = { status: 429, headers: { 'retry-after': '0' }, pieces: ['{"error":{"message":"slow down"}}'] };
  srv.script(limited, limited, limited, limited);
  const r = await vm.exec('aos run --model fake-gpt --tools bash hi; echo "status=$?"');
  assert.equal(r.stdout, 'status=65\n', r.stderr);
  assert.match(r.stderr, /rate limited: .*HTTP 429: slow down \(after 4 attempts\)/);
  srv.script({ status: 400, pieces: ['{"error":{"message":"This model\'s maximum context length is 128000 tokens","code":"context_length_exceeded"}}'] });
  const o = await vm.exec('aos run --model fake-gpt --tools bash "a long story"; echo "status=$?"; aos core | tail -n 1');
  const [status, core] = o.stdout.split('\n');
  assert.equal(status, 'status=97', o.stderr);
  const c = JSON.parse(core) as { exit: { code: number; name: string }; model: string; messages: { content: string }[] };
  assert.deepEqual([c.exit.code, c.exit.name, c.model, c.messages[0].content], [97, 'CTX_OVERFLOW', 'fake-gpt', 'a long story']);
  const cores = (await vm.exec('aos core')).stdout;
  assert.ok(!cores.includes('"RATE_LIMITED"'), 'a routine exit (64-95) leaves no core');
});

test('a model server started in the VM on 127.0.0.1 is reached through the VM loopback: no policy entry, the placeholder never the key', async () => {
  // A fake OpenAI-compatible server in the VM's own node: SSE, a tool call and then an answer; it logs what it got.
  await vm.writeFile('/tmp/llm.js', String.raw`const http = require('http');
const fs = require('fs');
const sse = (o) => 'data: ' + JSON.stringify(o) + '\n\n';
let n = 0;
http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    fs.appendFileSync('/tmp/llm-seen.jsonl', JSON.stringify({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body) }) + '\n');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (n++ === 0) res.write(sse({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"echo from-the-tool"}' } }] }, finish_reason: 'tool_calls' }] }));
    else res.write(sse({ choices: [{ index: 0, delta: { content: 'the local model answers' }, finish_reason: 'stop' }] }));
    res.write(sse({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } }));
    res.end('data: [DONE]\n\n');
  });
}).listen(8090, '127.0.0.1', () => console.log('listening'));
`);
  // As root: the operator's table gets the local model (its key the secret for 127.0.0.1, which a VM server must not get).
  const table = await vm.exec(`sudo sh -c 'cat >> /etc/aos/models.yaml' <<'EOF'
  local-llm:
    backend: openai
    base_url: http://127.0.0.1:8090/v1
    api_key_secret: OPENAI_KEY
    input_usd_per_mtok: 0
    output_usd_per_mtok: 0
EOF`);
  assert.equal(table.exitCode, 0, table.stderr);
  const r = await vm.exec([
    'node /tmp/llm.js > /tmp/llm.log 2>&1 & s=$!',
    'for i in $(seq 200); do grep -q listening /tmp/llm.log && break; sleep 0.05; done',
    'aos run --model local-llm --tools bash "say hi"; echo "status=$?"',
    'kill $s',
  ].join('\n'));
  assert.equal(r.stdout, 'the local model answers\nstatus=0\n', r.stderr);
  const seen = (await vm.exec('cat /tmp/llm-seen.jsonl')).stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string; auth: string; body: { model: string; messages: { content: string }[] } });
  assert.deepEqual(seen.map((s) => [s.url, s.body.model]), [['/v1/chat/completions', 'local-llm'], ['/v1/chat/completions', 'local-llm']]);
  assert.equal(seen[1].body.messages.at(-1)?.content, 'from-the-tool\n', 'the tool ran and its output went back');
  for (const s of seen) assert.match(s.auth, /^Bearer aos-secret-OPENAI_KEY-[0-9a-f]{32}$/, 'a server in the VM gets the placeholder');
  assert.ok(!JSON.stringify(seen).includes(KEY));
  // It never left the VM: no network audit record for it.
  assert.ok(!(await vm.audit()).some((e) => JSON.stringify(e).includes(':8090')));
});

// Record and replay: an agent run recorded against a fake OpenAI server
// (requests canonicalised and hashed, with replies and tool results) replays
// with no network at all; the rerun verifies MATCH, and one changed tool
// output is the first DIFF, naming the call and the field.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ChatMessage, ToolCall, ToolSpec } from '../../src/abi/agent.js';
import { BackendError, type Backend, type BackendIO } from '../../src/kernel/agent/backend.js';
import { openaiBackend } from '../../src/kernel/agent/backends/openai.js';
import { canonical, parseRecord, recordingBackend, requestHash } from '../../src/kernel/agent/record.js';
import { formatVerdict, replayBackend, verifyReplay } from '../../src/kernel/agent/replay.js';
import { fakeProvider, fetchIO, sse, type FakeProvider } from './fake-provider.js';

let srv: FakeProvider;
before(async () => {
  srv = await fakeProvider();
});
after(() => srv.close());

const TOOLS: ToolSpec[] = [{ name: 'bash', description: 'run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } }];

/** An agent loop as small as can be: model call, tool calls, model call… until a reply without tool calls. */
async function runAgent(backend: Backend, tool: (c: ToolCall) => string, io: BackendIO, maxTurns = 10): Promise<string> {
  const messages: ChatMessage[] = [{ role: 'user', content: 'what is in notes.txt?' }];
  for (let turn = 0; turn < maxTurns; turn++) {
    const reply = await backend.complete({ model: 'openai:gpt-test', system: 'Be brief.', messages: [...messages], tools: TOOLS, maxTokens: 100 }, io);
    messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls });
    if (!reply.toolCalls.length) return reply.text;
    for (const c of reply.toolCalls) messages.push({ role: 'tool', toolCallId: c.id, name: c.name, content: tool(c) });
  }
  return '';
}

const vm: Record<string, string> = { ls: 'notes.txt\n', 'cat notes.txt': 'buy milk\n' };
const tool = (c: ToolCall) => vm[String(c.arguments.command)] ?? 'command not found\n';

/** A BackendIO with no network: any request fails the test. */
const noNet: BackendIO = {
  signal: new AbortController().signal,
  readFile: () => assert.fail('replay reads no files'),
  http: () => assert.fail('replay made a network request'),
};

const call = (id: string, command: string) => sse([
  [null, { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }] }, finish_reason: 'tool_calls' }] }],
  [null, { choices: [], usage: { prompt_tokens: 50, completion_tokens: 10 } }],
  [null, '[DONE]'],
]);

async function record(): Promise<string> {
  srv.script(
    { pieces: [call('c1', 'ls')] },
    { pieces: [call('c2', 'cat notes.txt')] },
    { pieces: [sse([[null, { choices: [{ index: 0, delta: { content: 'It says: buy milk.' }, finish_reason: 'stop' }] }], [null, '[DONE]']])] },
  );
  const lines: string[] = [];
  const backend = recordingBackend(openaiBackend({ baseUrl: srv.base, apiKey: '$OPENAI_KEY' }), (l) => lines.push(l));
  assert.equal(await runAgent(backend, tool, fetchIO()), 'It says: buy milk.');
  return lines.join('\n') + '\n';
}

test('the record: a header, then each call canonicalised and hashed, with its tool results and reply; no key', async () => {
  const text = await record();
  const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(lines[0], { type: 'header', format: 'aos-record', version: 1 });
  assert.equal(lines.length, 4);
  const calls = parseRecord(text);
  assert.deepEqual(calls.map((c) => c.n), [1, 2, 3]);
  assert.deepEqual(calls.map((c) => c.toolResults.map((m) => m.content)), [[], ['notes.txt\n'], ['buy milk\n']]);
  assert.deepEqual(calls[1].reply?.toolCalls, [{ id: 'c2', name: 'bash', arguments: { command: 'cat notes.txt' } }]);
  assert.equal(calls[0].hash, requestHash(calls[0].request));
  assert.match(calls[0].hash, /^[0-9a-f]{64}$/);
  // Canonical: the same request with its keys in another order has the same hash.
  const shuffled = JSON.parse(JSON.stringify({ tools: calls[0].request.tools, maxTokens: 100, messages: calls[0].request.messages, system: 'Be brief.', model: 'openai:gpt-test' }));
  assert.equal(requestHash(shuffled), calls[0].hash);
  assert.equal(JSON.stringify(canonical({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })), '{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  assert.ok(!text.includes('$OPENAI_KEY'), 'headers (the key) are not recorded');
});

test('replay with no network: the rerun verifies MATCH; the replay backend answers by hash', async () => {
  const calls = parseRecord(await record());
  const seen = srv.seen.length;
  const v = await verifyReplay(calls, (b) => runAgent(b, tool, noNet));
  assert.deepEqual(v, { match: true, calls: 3 });
  assert.equal(formatVerdict(v), 'MATCH (3 calls)');
  assert.equal(await runAgent(replayBackend(calls), tool, noNet), 'It says: buy milk.');
  assert.equal(srv.seen.length, seen, 'nothing reached the server');
  await assert.rejects(replayBackend(calls).complete({ ...calls[0].request, maxTokens: 99 }, noNet), (e: unknown) => e instanceof BackendError && /no reply for this request/.test(e.message));
});

test('one changed tool output: the first DIFF names the call and the field', async () => {
  const calls = parseRecord(await record());
  const changed = (c: ToolCall) => (c.arguments.command === 'cat notes.txt' ? 'buy oat milk\n' : tool(c));
  const v = await verifyReplay(calls, (b) => runAgent(b, changed, noNet));
  assert.deepEqual(v, { match: false, diff: { call: 3, field: 'messages[4].content', recorded: 'buy milk\n', replayed: 'buy oat milk\n' } });
  assert.equal(formatVerdict(v), 'DIFF call 3 messages[4].content: recorded "buy milk\\n", replayed "buy oat milk\\n"');
  // A rerun that stops early is a DIFF too.
  const short = await verifyReplay(calls, (b) => runAgent(b, tool, noNet, 1));
  assert.equal(formatVerdict(short), 'DIFF call 2: recorded, but the rerun ended before it');
});

test('a recorded failure replays as the same failure; an edited record is refused', async () => {
  srv.script({ status: 400, pieces: ['{"error":{"message":"maximum context length exceeded"}}'] });
  const lines: string[] = [];
  const backend = recordingBackend(openaiBackend({ baseUrl: srv.base }), (l) => lines.push(l));
  await assert.rejects(runAgent(backend, tool, fetchIO()), (e: unknown) => e instanceof BackendError && e.kind === 'ctx_overflow');
  const calls = parseRecord(lines.join('\n'));
  assert.equal(calls[0].error?.kind, 'ctx_overflow');
  await assert.rejects(runAgent(replayBackend(calls), tool, noNet), (e: unknown) => e instanceof BackendError && e.kind === 'ctx_overflow');
  assert.deepEqual(await verifyReplay(calls, (b) => runAgent(b, tool, noNet)), { match: true, calls: 1 });

  const edited = lines.join('\n').replace('what is in notes.txt?', 'what is in secrets.txt?');
  assert.throws(() => parseRecord(edited), /record line 2: the request does not match its hash/);
  assert.throws(() => parseRecord(lines[1]), /record line 1: the record has no header line/);
});

// The `anthropic` backend against a fake messages server on 127.0.0.1:
// tool_use blocks built from input_json_delta pieces split at awkward chunk
// boundaries; usage from message_start and message_delta; 429 with
// retry-after and 5xx retried; a truncated stream, a cut connection, a broken
// input JSON or an error event is an error; "prompt is too long" is ctx_overflow.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ModelRequest } from '../../src/abi/agent.js';
import { BackendError } from '../../src/kernel/agent/backend.js';
import { anthropicBackend, type AnthropicConfig } from '../../src/kernel/agent/backends/anthropic.js';
import { fakeProvider, fetchIO, recordedSleep, sse, type FakeProvider } from './fake-provider.js';

let srv: FakeProvider;
before(async () => {
  srv = await fakeProvider();
});
after(() => srv.close());

const REQ: ModelRequest = {
  model: 'anthropic:claude-test',
  system: 'You are terse.',
  messages: [
    { role: 'user', content: 'check two files' },
    { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'tu_1', name: 'read_file', arguments: { path: '/a' } }, { id: 'tu_2', name: 'read_file', arguments: { path: '/b' } }] },
    { role: 'tool', toolCallId: 'tu_1', name: 'read_file', content: 'A' },
    { role: 'tool', toolCallId: 'tu_2', name: 'read_file', content: 'no such file', isError: true },
  ],
  tools: [{ name: 'read_file', description: 'read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
  maxTokens: 512,
};

const TOOL_STREAM = sse([
  ['message_start', { type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [], usage: { input_tokens: 200, cache_read_input_tokens: 50, output_tokens: 1 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['ping', { type: 'ping' }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Running ' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'it — ok' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'tu_9', name: 'bash', input: {} } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"command": "make' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: ' test", "timeout": 30}' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } }],
  ['message_stop', { type: 'message_stop' }],
], '\r\n');

function backend(extra: AnthropicConfig = {}) {
  return anthropicBackend({ baseUrl: `${srv.base}/v1`, apiKey: '$ANTHROPIC_KEY', retry: { attempts: 3, baseMs: 100, maxMs: 10_000 }, ...extra });
}

async function failure(p: Promise<unknown>): Promise<BackendError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof BackendError, `a BackendError, not ${String(e)}`);
    return e;
  }
  assert.fail('the call succeeded');
}

test('tool_use from input_json_delta pieces split at awkward boundaries; usage; the request is the messages API', async () => {
  // Cuts: inside "event:", between CR and LF, in the middle of the partial JSON, inside the em dash's bytes.
  const bytes = Buffer.from(TOOL_STREAM);
  const cuts = [4, bytes.indexOf('\r\n') + 1, bytes.indexOf('—') + 1, bytes.indexOf('make') + 2, bytes.indexOf('event: message_stop') - 3];
  const pieces = [0, ...cuts].map((from, i) => bytes.subarray(from, cuts[i] ?? bytes.length));
  srv.script({ pieces });
  const before = srv.seen.length;
  const reply = await backend().complete(REQ, fetchIO());
  assert.deepEqual(reply, {
    text: 'Running it — ok',
    toolCalls: [{ id: 'tu_9', name: 'bash', arguments: { command: 'make test', timeout: 30 } }],
    usage: { inputTokens: 250, outputTokens: 42 },
    stopReason: 'tool_use',
  });
  const seen = srv.seen[before];
  assert.equal(seen.url, '/v1/messages');
  assert.equal(seen.headers['x-api-key'], '$ANTHROPIC_KEY');
  assert.equal(seen.headers['anthropic-version'], '2023-06-01');
  assert.deepEqual(seen.body, {
    model: 'claude-test',
    max_tokens: 512,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'check two files' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'tu_1', name: 'read_file', input: { path: '/a' } }, { type: 'tool_use', id: 'tu_2', name: 'read_file', input: { path: '/b' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: 'A' }, { type: 'tool_result', tool_use_id: 'tu_2', content: 'no such file', is_error: true }] },
    ],
    stream: true,
    system: 'You are terse.',
    tools: [{ name: 'read_file', description: 'read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
  });
});

const TEXT_STREAM = sse([
  ['message_start', { type: 'message_start', message: { usage: { input_tokens: 10, output_tokens: 1 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'All green.' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } }],
  ['message_stop', { type: 'message_stop' }],
]);

test('a text reply ends the run', async () => {
  srv.script({ pieces: [TEXT_STREAM] });
  assert.deepEqual(await backend().complete(REQ, fetchIO()), { text: 'All green.', toolCalls: [], usage: { inputTokens: 10, outputTokens: 4 }, stopReason: 'end' });
});

test('429 with retry-after, 529 overloaded and 500 are retried; exhausted they are rate_limited / upstream', async () => {
  const { sleep, delays } = recordedSleep();
  srv.script(
    { status: 429, headers: { 'retry-after': '3' }, pieces: ['{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}'] },
    { status: 529, pieces: ['{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'] },
    { pieces: [TEXT_STREAM] },
  );
  assert.equal((await backend({ sleep }).complete(REQ, fetchIO())).text, 'All green.');
  assert.equal(delays[0], 3000);

  srv.script(...Array.from({ length: 3 }, () => ({ status: 429, pieces: ['{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}'] })));
  let e = await failure(backend({ sleep }).complete(REQ, fetchIO()));
  assert.equal(e.kind, 'rate_limited');
  assert.match(e.message, /HTTP 429: slow/);

  srv.script(...Array.from({ length: 3 }, () => ({ status: 500, pieces: ['{"type":"error","error":{"type":"api_error","message":"Internal"}}'] })));
  const before = srv.seen.length;
  e = await failure(backend({ sleep }).complete(REQ, fetchIO()));
  assert.equal(e.kind, 'upstream');
  assert.equal(srv.seen.length - before, 3);
});

test('a truncated stream is an error, never half an answer', async () => {
  const cut = TOOL_STREAM.slice(0, TOOL_STREAM.indexOf('event: message_stop'));
  srv.script({ pieces: [cut] });
  let e = await failure(backend().complete(REQ, fetchIO()));
  assert.equal(e.kind, 'upstream');
  assert.match(e.message, /ended before the reply did/);

  srv.script({ pieces: [TOOL_STREAM.slice(0, TOOL_STREAM.indexOf('input_json_delta') + 80)], cut: true });
  e = await failure(backend().complete(REQ, fetchIO()));
  assert.equal(e.kind, 'upstream');

  srv.script({ pieces: [TOOL_STREAM.replace('test\\", \\"timeout\\": 30}', 'test\\", \\"timeout\\": 3')] });
  e = await failure(backend().complete(REQ, fetchIO()));
  assert.match(e.message, /arguments of tool call 'bash' are not a JSON object/);

  srv.script({ pieces: [TEXT_STREAM.slice(0, TEXT_STREAM.indexOf('event: message_delta')) + sse([['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]])] });
  e = await failure(backend().complete(REQ, fetchIO()));
  assert.equal(e.kind, 'upstream');
  assert.match(e.message, /overloaded_error: Overloaded/);
});

test('"prompt is too long" is ctx_overflow at once; a bad key is invalid', async () => {
  srv.script({ status: 400, pieces: ['{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}'] });
  const before = srv.seen.length;
  let e = await failure(backend().complete(REQ, fetchIO()));
  assert.equal(e.kind, 'ctx_overflow');
  assert.equal(srv.seen.length - before, 1);
  srv.script({ status: 401, pieces: ['{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'] });
  e = await failure(backend().complete(REQ, fetchIO()));
  assert.equal(e.kind, 'invalid');
});

// The `openai` backend against a fake chat-completions server on 127.0.0.1:
// tool-call deltas split at awkward chunk boundaries are assembled by index;
// 429 with retry-after (seconds, HTTP date) and 500 are retried, and what is
// left when the attempts run out is rate_limited / upstream; a truncated or
// broken stream is an error, never half an answer; a context-length error is
// ctx_overflow at once.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ModelRequest } from '../../src/abi/agent.js';
import { BackendError } from '../../src/kernel/agent/backend.js';
import { openaiBackend, type OpenAIConfig } from '../../src/kernel/agent/backends/openai.js';
import { fakeProvider, fetchIO, recordedSleep, sse, type FakeProvider } from './fake-provider.js';

let srv: FakeProvider;
before(async () => {
  srv = await fakeProvider();
});
after(() => srv.close());

const REQ: ModelRequest = {
  model: 'openai:gpt-test',
  system: 'You are terse.',
  messages: [
    { role: 'user', content: 'list files' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'bash', arguments: { command: 'ls' } }] },
    { role: 'tool', toolCallId: 'call_0', name: 'bash', content: 'a\nb\n' },
  ],
  tools: [{ name: 'bash', description: 'run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } }],
  maxTokens: 256,
};

const chunk = (delta: object, finish: string | null = null) => ({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });

const TOOL_STREAM = sse([
  [null, chunk({ role: 'assistant', content: 'Let me ' })],
  [null, chunk({ content: 'look…' })],
  [null, chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'bash', arguments: '' } }] })],
  [null, chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"pa' } }] })],
  [null, chunk({ tool_calls: [{ index: 0, function: { arguments: '{"command":"ls -l é' } }] })],
  [null, chunk({ tool_calls: [{ index: 1, function: { arguments: 'th":"/etc/hosts"}' } }] })],
  [null, chunk({ tool_calls: [{ index: 0, function: { arguments: '"}' } }] })],
  [null, chunk({}, 'tool_calls')],
  [null, { id: 'c1', choices: [], usage: { prompt_tokens: 120, completion_tokens: 35, total_tokens: 155 } }],
  [null, '[DONE]'],
]);

/** The stream's bytes cut at awkward places: inside `data:`, between the two LFs, inside é's two bytes. */
function awkward(text: string): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const e = bytes.indexOf(0xc3); // é's first byte
  const cuts = [3, text.indexOf('\n\n') + 1, e + 1, bytes.length - 9].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...cuts, bytes.length]) {
    out.push(bytes.subarray(from, c));
    from = c;
  }
  return out;
}

function backend(extra: OpenAIConfig = {}) {
  return openaiBackend({ baseUrl: `${srv.base}/v1/`, apiKey: '$OPENAI_KEY', retry: { attempts: 3, baseMs: 100, maxMs: 10_000 }, ...extra });
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

test('tool-call deltas split at awkward chunk boundaries are assembled by index; the request is chat completions', async () => {
  srv.script({ pieces: awkward(TOOL_STREAM) });
  const before = srv.seen.length;
  const reply = await backend().complete(REQ, fetchIO());
  assert.deepEqual(reply, {
    text: 'Let me look…',
    toolCalls: [
      { id: 'call_a', name: 'bash', arguments: { command: 'ls -l é' } },
      { id: 'call_b', name: 'read_file', arguments: { path: '/etc/hosts' } },
    ],
    usage: { inputTokens: 120, outputTokens: 35 },
    stopReason: 'tool_use',
  });
  const seen = srv.seen[before];
  assert.equal(seen.method, 'POST');
  assert.equal(seen.url, '/v1/chat/completions');
  assert.equal(seen.headers.authorization, 'Bearer $OPENAI_KEY', 'the key header carries the value given (the kernel substitutes it)');
  assert.deepEqual(seen.body, {
    model: 'gpt-test',
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'list files' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: 'a\nb\n' },
    ],
    max_completion_tokens: 256,
    stream: true,
    stream_options: { include_usage: true },
    tools: [{ type: 'function', function: { name: 'bash', description: 'run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } } }],
  });
});

test('a text reply ends the run; the key header and the max-tokens field are configurable', async () => {
  srv.script({ pieces: [sse([[null, chunk({ content: 'done' })], [null, chunk({}, 'stop')], [null, { choices: [], usage: { prompt_tokens: 5, completion_tokens: 1 } }], [null, '[DONE]']], '\r\n')] });
  const before = srv.seen.length;
  const reply = await backend({ keyHeader: 'api-key', maxTokensField: 'max_tokens' }).complete({ ...REQ, tools: [] }, fetchIO());
  assert.deepEqual(reply, { text: 'done', toolCalls: [], usage: { inputTokens: 5, outputTokens: 1 }, stopReason: 'end' });
  const seen = srv.seen[before];
  assert.equal(seen.headers['api-key'], '$OPENAI_KEY');
  assert.equal(seen.headers.authorization, undefined);
  const body = seen.body as Record<string, unknown>;
  assert.equal(body.max_tokens, 256);
  assert.equal('tools' in body, false, 'no tools: no field (the API refuses an empty list)');
});

test('429 with retry-after in seconds, then in an HTTP date, is retried after that long', async () => {
  const done = sse([[null, chunk({ content: 'ok' }, 'stop')], [null, '[DONE]']]);
  const { sleep, delays } = recordedSleep();
  srv.script(
    { status: 429, headers: { 'retry-after': '2' }, pieces: ['{"error":{"message":"slow down"}}'] },
    { status: 429, headers: { 'retry-after': new Date(Date.now() + 5000).toUTCString() }, pieces: ['{}'] },
    { pieces: [done] },
  );
  const before = srv.seen.length;
  const reply = await backend({ sleep }).complete(REQ, fetchIO());
  assert.equal(reply.text, 'ok');
  assert.equal(srv.seen.length - before, 3);
  assert.equal(delays[0], 2000);
  assert.ok(delays[1] > 3000 && delays[1] <= 5000, `the date's delay: ${delays[1]}`);
});

test('429 until the attempts run out is rate_limited; 500 until then is upstream; 500 then 200 succeeds', async () => {
  const { sleep, delays } = recordedSleep();
  srv.script(...Array.from({ length: 3 }, () => ({ status: 429, pieces: ['{"error":{"message":"rate limit"}}'] })));
  let before = srv.seen.length;
  let e = await failure(backend({ sleep }).complete(REQ, fetchIO()));
  assert.equal(e.kind, 'rate_limited');
  assert.match(e.message, /HTTP 429: rate limit \(after 3 attempts\)/);
  assert.equal(srv.seen.length - before, 3, 'attempts are bounded');
  assert.equal(delays.length, 2);
  assert.ok(delays[0] >= 50 && delays[0] <= 100 && delays[1] >= 100 && delays[1] <= 200, `exponential backoff with jitter: ${delays}`);

  srv.script(...Array.from({ length: 3 }, () => ({ status: 500, pieces: ['oops'] })));
  before = srv.seen.length;
  e = await failure(backend({ sleep }).complete(REQ, fetchIO()));
  assert.equal(e.kind, 'upstream');
  assert.match(e.message, /HTTP 500: oops/);
  assert.equal(srv.seen.length - before, 3);

  srv.script({ status: 503, pieces: [''] }, { pieces: [sse([[null, chunk({ content: 'back' }, 'stop')], [null, '[DONE]']])] });
  assert.equal((await backend({ sleep }).complete(REQ, fetchIO())).text, 'back');
});

test('a truncated stream is an error, never half an answer: EOF before [DONE], a cut connection, a broken JSON delta', async () => {
  const half = TOOL_STREAM.slice(0, TOOL_STREAM.indexOf('data: [DONE]'));
  srv.script({ pieces: [half] });
  let e = await failure(backend().complete(REQ, fetchIO()));
  assert.equal(e.kind, 'upstream');
  assert.match(e.message, /ended before the reply did/);

  srv.script({ pieces: [TOOL_STREAM.slice(0, 400)], cut: true });
  e = await failure(backend().complete(REQ, fetchIO()));
  assert.equal(e.kind, 'upstream');

  const broken = sse([[null, chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'bash', arguments: '{"command": "ls' } }] })], [null, chunk({}, 'tool_calls')], [null, '[DONE]']]);
  srv.script({ pieces: [broken] });
  e = await failure(backend().complete(REQ, fetchIO()));
  assert.equal(e.kind, 'upstream');
  assert.match(e.message, /arguments of tool call 'bash' are not a JSON object/);

  srv.script({ pieces: ['data: {"choices": [\n\n'] });
  e = await failure(backend().complete(REQ, fetchIO()));
  assert.match(e.message, /not a JSON object/);
});

test('a context-length error is ctx_overflow, not retried; other 4xx are invalid', async () => {
  srv.script({ status: 400, pieces: ['{"error":{"message":"This model\'s maximum context length is 128000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}'] });
  const before = srv.seen.length;
  let e = await failure(backend().complete(REQ, fetchIO()));
  assert.equal(e.kind, 'ctx_overflow');
  assert.equal(srv.seen.length - before, 1);
  srv.script({ status: 401, pieces: ['{"error":{"message":"Incorrect API key provided"}}'] });
  e = await failure(backend().complete(REQ, fetchIO()));
  assert.equal(e.kind, 'invalid');
  assert.match(e.message, /HTTP 401: Incorrect API key provided/);
});

test('the process signalled while the backend waits to retry: the call ends at once', async () => {
  const ctl = new AbortController();
  srv.script({ status: 503, headers: { 'retry-after': '600' }, pieces: [''] });
  const sleep = (_ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
    signal.addEventListener('abort', () => resolve(), { once: true });
    ctl.abort();
  });
  await assert.rejects(backend({ sleep }).complete(REQ, fetchIO(ctl.signal)), (err: Error & { errno?: number }) => err.errno === 4 /* EINTR */);
});

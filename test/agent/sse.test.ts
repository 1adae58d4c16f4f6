// The SSE parser: the same events whatever the chunking (every split point of
// a stream, and a stream fed one byte at a time), CRLF / LF / CR line ends,
// multi-line data, comments, a BOM, and an unended event dropped at EOF.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SseParser, sseEvents, type SseEvent } from '../../src/kernel/agent/sse.js';

const enc = new TextEncoder();

function parse(chunks: Uint8Array[]): SseEvent[] {
  const p = new SseParser();
  const out = chunks.flatMap((c) => p.push(c));
  return [...out, ...p.end()];
}

const STREAM = '\ufeff: a comment\r\nevent: message_start\r\ndata: {"a":"é€😀"}\r\n\r\ndata: line one\ndata:line two\ndata\n\n:keepalive\r\rid: 7\revent: x\rdata:  two spaces\r\r';
const EXPECTED: SseEvent[] = [
  { event: 'message_start', data: '{"a":"é€😀"}', id: '' },
  { event: 'message', data: 'line one\nline two\n', id: '' },
  { event: 'x', data: ' two spaces', id: '7' },
];

test('whole: CRLF, LF and CR line ends, multi-line data, comments, a BOM, the leading space', () => {
  assert.deepEqual(parse([enc.encode(STREAM)]), EXPECTED);
});

test('byte-exact across chunk boundaries: every split point, and one byte at a time', () => {
  const bytes = enc.encode(STREAM);
  for (let i = 0; i <= bytes.length; i++) {
    for (const j of [i, Math.min(bytes.length, i + 1), Math.min(bytes.length, i + 3)]) {
      assert.deepEqual(parse([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]), EXPECTED, `split at ${i}, ${j}`);
    }
  }
  assert.deepEqual(parse([...bytes].map((b) => Uint8Array.of(b))), EXPECTED);
});

test('a CR at the end of a chunk and an LF at the start of the next are one line end', () => {
  const p = new SseParser();
  assert.deepEqual(p.push(enc.encode('data: a\r')), []);
  assert.deepEqual(p.push(enc.encode('\n\r')), [{ event: 'message', data: 'a', id: '' }]);
  assert.deepEqual(p.push(enc.encode('\ndata: b\n\n')), [{ event: 'message', data: 'b', id: '' }], 'the CR LF pair after the event is one blank line, not two');
});

test('an event without its blank line is dropped at EOF; events of only comments or fields are not dispatched', () => {
  assert.deepEqual(parse([enc.encode('event: a\n\n: only a comment\n\ndata: whole\n\ndata: half')]), [{ event: 'message', data: 'whole', id: '' }]);
});

test('sseEvents reads an async body', async () => {
  async function* body() {
    yield enc.encode('data: 1\n');
    yield enc.encode('\ndata: 2\n\n');
  }
  const got: string[] = [];
  for await (const e of sseEvents(body())) got.push(e.data);
  assert.deepEqual(got, ['1', '2']);
});

// `agentos mcp` against hostile input (issue 14, items 2 and 10): a guest
// program that prints forged JSON-RPC replies by every route it has cannot put
// a byte on the protocol stream; oversized, malformed and invalid requests get
// JSON-RPC errors and the server goes on, with its memory bounded.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { forged, routes, routesInline } from './console-routes.js';
import { Wire, type Message } from './mcp-wire.js';

const MiB = 1024 * 1024;
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
/** A ping padded to about `bytes`, with its id where clients put it: last. */
const bigPing = (id: number, bytes: number) => `{"jsonrpc":"2.0","method":"ping","params":{"pad":"${'x'.repeat(bytes)}"},"id":${id}}`;

/** Send `line` in 1 MiB chunks, as a client writing a large request does. */
async function sendChunked(w: Wire, line: string): Promise<void> {
  for (let i = 0; i < line.length; i += MiB) await w.write(line.slice(i, i + MiB));
}

const errorOf = (m: Message) => m.error?.code;

test('mcp: a guest cannot forge a reply — every output route, in one exec; the result holds its output', async () => {
  const w = new Wire();
  try {
    await w.initialize();
    await w.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'exec', arguments: { command: routesInline() } } });
    const reply = await w.reply(2, 120_000);
    await w.send(ping(3));
    await w.reply(3);
    // Every line on the server's stdout is a genuine message: one answer per request, nothing else.
    assert.deepEqual(w.lines.map((l) => (JSON.parse(l) as Message).id), [1, 2, 3], w.lines.join('\n').slice(0, 3000));
    const content = (reply.result?.content as { text: string }[])[0].text;
    const out = JSON.parse(content) as { stdout: string; stderr: string };
    for (const r of routes) {
      if (r.to === 'none') continue;
      assert.ok(out[r.to].includes(forged(r.name)), `${r.name}: in the exec result's ${r.to}`);
    }
  } finally {
    await w.close();
  }
});

test('mcp: a request line over 10 MiB gets -32600 (with its id when the line has one) and the server goes on', async () => {
  const w = new Wire();
  try {
    await w.initialize();
    await sendChunked(w, bigPing(7, 11 * MiB) + '\n');
    const r = await w.reply(7);
    assert.equal(errorOf(r), -32600, JSON.stringify(r));
    assert.match(r.error!.message, /too large|10485760/);
    await sendChunked(w, 'y'.repeat(11 * MiB) + '\n');
    assert.equal(errorOf(await w.reply(null)), -32600);
    await w.send(ping(8));
    assert.deepEqual((await w.reply(8)).result, {});
  } finally {
    assert.equal(await w.close(), 0);
  }
});

test('mcp: malformed JSON gets -32700, JSON that is not JSON-RPC gets -32600, and the server goes on', async () => {
  const w = new Wire();
  try {
    await w.initialize();
    await w.send('{"jsonrpc": "2.0", "id": 4, "method": ');
    const parse = await w.reply(null);
    assert.equal(errorOf(parse), -32700, JSON.stringify(parse));
    await w.send({ id: 5, hello: 'world' });
    assert.equal(errorOf(await w.reply(5)), -32600);
    await w.send('[1, 2]');
    await w.send('"just a string"');
    await w.send(ping(6));
    assert.deepEqual((await w.reply(6)).result, {});
    const errors = w.messages().filter((m) => m.id === null).map(errorOf);
    assert.deepEqual(errors, [-32700, -32600, -32600]);
  } finally {
    assert.equal(await w.close(), 0);
  }
});

test('mcp: a huge but valid request (9 MiB) is served', async () => {
  const w = new Wire();
  try {
    await w.initialize();
    await sendChunked(w, bigPing(9, 9 * MiB) + '\n');
    assert.deepEqual((await w.reply(9)).result, {});
  } finally {
    assert.equal(await w.close(), 0);
  }
});

/** The server's peak resident memory (Linux). */
const peakRss = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

test('mcp: a 192 MiB line is skipped, not buffered: the server\'s peak memory grows far less', { skip: process.platform !== 'linux' }, async () => {
  const w = new Wire();
  try {
    await w.initialize();
    await sendChunked(w, bigPing(10, 9 * MiB) + '\n'); // the largest line it keeps, for the baseline
    await w.reply(10);
    const before = peakRss(w.child.pid!);
    await sendChunked(w, bigPing(11, 192 * MiB) + '\n');
    assert.equal(errorOf(await w.reply(11, 60_000)), -32600);
    const grown = peakRss(w.child.pid!) - before;
    assert.ok(grown < 128 * MiB, `peak memory grew by ${Math.round(grown / MiB)} MiB`);
  } finally {
    assert.equal(await w.close(), 0);
  }
});

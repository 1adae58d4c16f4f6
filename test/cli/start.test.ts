// `npm start` (issue 15, item 10): it serves dist/web cross-origin isolated,
// and SIGINT (Ctrl-C) stops the server and the process, with nothing left
// listening. (`--no-build` serves what is built: a build here would rewrite
// dist/ under the other tests.)

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const start = fileURLToPath(new URL('../../../scripts/start.mjs', import.meta.url));

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address() as { port: number };
  await new Promise((ok) => s.close(ok));
  return port;
}

test('npm start: serves the playground isolated; SIGINT stops the server and the process', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, [start, '--no-build'], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<[number | null, string | null]>((ok) => child.on('exit', (c, s) => ok([c, s])));
  await new Promise<void>((ok, fail) => {
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('Ctrl-C to stop')) ok();
    });
    void exited.then(([c]) => fail(new Error(`start exited ${c}: ${out}`)));
  });
  assert.match(out, /playground: {2}http:\/\/127\.0\.0\.1:\d+\//);
  assert.doesNotMatch(out, /e2e harness/);
  const r = await fetch(`http://127.0.0.1:${port}/`);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('cross-origin-opener-policy'), 'same-origin');
  await r.arrayBuffer();
  child.kill('SIGINT');
  assert.deepEqual(await exited, [0, null]);
  await assert.rejects(fetch(`http://127.0.0.1:${port}/`), 'nothing listens after SIGINT');
});

test('npm start: an unknown argument is refused', async () => {
  const child = spawn(process.execPath, [start, '--bogus'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const code = await new Promise((ok) => child.on('exit', ok));
  assert.equal(code, 2);
  assert.equal(err, 'start: unknown argument --bogus (supported: --no-build)\n');
});

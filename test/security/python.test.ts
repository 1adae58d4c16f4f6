// Issue 14, items 1 and 3, on the Node host (decision 0026): a Python program
// takes every route to a JavaScript value (sys.modules, js, pyodide_js.*,
// pyodide.ffi, pyodide.code.run_js, _pyodide, _pyodide_core, the import
// finders, builtins, gc, frames, ctypes) and through what it reaches tries
// the host's prizes: read and write a host file, read the host's environment,
// start a host process, import() a Node built-in, connect to a host listener.
// Python's own sockets try the listener too, under network none and all:
// they are the kernel's, whose 127.0.0.1 is the VM's own (refused), urllib.request
// goes through the kernel's http syscall (127.0.0.1 is the VM's own loopback,
// decision 0070: refused), and Emscripten's socket type is refused outright.
// Every route but one is closed; the one open by design (Pyodide's core module
// made again) reaches a realm with nothing of the host in it.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';
import { parseRoutes, parseSockets, REALM_PRIZE, ROUTES, ROUTES_PY, SOCKET_WAYS, type RouteResult } from './python-routes.js';

const SECRET = `host secret ${randomBytes(8).toString('hex')}`;
const CANARY = `canary-${randomBytes(8).toString('hex')}`;
let hostDir: string;
let server: Server;
let port: number;
/** What reached the listener: the first bytes of each connection (the route's name, or a request line). */
const reached: string[] = [];
let routes: Map<string, RouteResult>;
let output: string;

async function runProbe(network: 'none' | 'all', group: string): Promise<string> {
  const vm = new AgentVM({ network });
  await vm.start();
  try {
    await vm.writeFile('/tmp/routes.py', ROUTES_PY);
    const r = await vm.exec(`python3 /tmp/routes.py ${group} ${hostDir} ${port}`);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal((await vm.exec('echo still here')).stdout, 'still here\n', 'the VM goes on');
    return r.stdout;
  } finally {
    await vm.stop();
  }
}

before(async () => {
  hostDir = mkdtempSync(join(tmpdir(), 'agentos-py-'));
  writeFileSync(join(hostDir, 'secret.txt'), SECRET);
  // The host's environment: workers start with a copy of it.
  process.env.AGENTOS_TEST_CANARY = CANARY;
  server = createServer((s) => {
    reached.push('(connected)');
    s.once('data', (d) => reached.push(d.toString('latin1').slice(0, 60)));
    s.on('error', () => {});
    s.setTimeout(3000, () => s.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as AddressInfo).port;
  output = await runProbe('none', 'routes');
  routes = parseRoutes(output);
});

after(() => {
  server.close();
  rmSync(hostDir, { recursive: true, force: true });
  delete process.env.AGENTOS_TEST_CANARY;
});

/** No prize of `route` in the program's output or on the host. */
function assertNoPrize(route: string, r: RouteResult): void {
  assert.ok(!r.got.includes(SECRET), `${route}: read the host file (${r.got})`);
  assert.ok(!output.includes(CANARY), `${route}: read the host's environment`);
  for (const f of [`written-${route}`, `spawned-${route}`]) assert.ok(!existsSync(join(hostDir, f)), `${route}: ${f} on the host`);
}

for (const [route, closed] of ROUTES) {
  test(`python route ${route}: ${closed ? 'closed' : 'reaches no host authority'}`, () => {
    const r = routes.get(route);
    assert.ok(r, `no result for ${route}:\n${output}`);
    if (closed) assert.equal(r.open, false, `${route} handed Python JavaScript: ${r.got}`);
    assertNoPrize(route, r);
  });
}

test('python route _imp.create_builtin: the realm it reaches has no host module, env or import()', () => {
  const r = routes.get('_imp.create_builtin')!;
  assert.equal(r.open, true, 'the test reached the realm (else it proves nothing)');
  // The realm's process is the stand-in (empty env, no module bindings); no require, fetch, WebSocket.
  assert.match(r.got, /env:\{\}/);
  assert.doesNotMatch(r.got, REALM_PRIZE);
});

test('ctypes: system() and emscripten_run_script do nothing', () => {
  assert.match(routes.get('ctypes')!.got, /^system:-?\d+ run_script:0$/);
  assert.notEqual(routes.get('ctypes')!.got, 'system:0 run_script:0');
});

for (const network of ['none', 'all'] as const) {
  test(`python sockets cannot reach a host listener (network ${network})`, async () => {
    const before = reached.length;
    const sockets = parseSockets(await runProbe(network, 'sockets'));
    for (const way of SOCKET_WAYS) {
      // urllib.request goes through the kernel's http syscall (decision 0042): 127.0.0.1 is the VM's own loopback (decision 0070), where nothing listens.
      if (way === 'urllib.request') assert.match(sockets.get(way) ?? '', /^ConnectionRefusedError: .*nothing listens on 127\.0\.0\.1 port \d+ in the VM/, way);
      // Emscripten's socket type (WebSockets from the worker) is refused outright.
      else if (way === 'emscripten._socket') assert.equal(sockets.get(way), 'PermissionError: Permission denied', way);
      // Python's sockets are the kernel's (decision 0071): the VM's 127.0.0.1 is its own, where nothing listens on that port.
      else assert.equal(sockets.get(way), 'ConnectionRefusedError: Connection refused', way);
    }
    assert.deepEqual(reached.slice(before), [], 'nothing reached the listener');
  });
}

test('the bridge device\'s http operation, used directly, is the kernel\'s syscall under the policy (network none)', async () => {
  const before = reached.length;
  const vm = new AgentVM({ network: 'none' });
  await vm.start();
  try {
    await vm.writeFile('/tmp/raw.py', `
import os, json
fd = os.open('/dev/agentos', os.O_RDWR)
for req in (['http', 'GET', 'http://127.0.0.1:${port}/raw', [], None, 0], ['http', 'GET', 'http://127.0.0.1:${port}/raw', 'x', None, 0],
            ['http', 'GET', 'file:///etc/passwd', [], None, 0], ['http', 'POST', 'http://127.0.0.1:${port}/raw', [], '!!', 0]):
    os.write(fd, json.dumps(req).encode())
    print(json.loads(os.read(fd, 65536))[0])
`);
    const r = await vm.exec('python3 /tmp/raw.py');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'ECONNREFUSED\nEINVAL\nEACCES\nEINVAL\n');
  } finally {
    await vm.stop();
  }
  assert.deepEqual(reached.slice(before), [], 'nothing reached the listener');
});

test('no route left anything behind on the host (imports, sockets and timers settle)', async () => {
  // What the routes started asynchronously (import(), sockets) would be done within moments.
  const deadline = Date.now() + 500;
  const effects = () => [...reached, ...readdirSync(hostDir).filter((f) => f !== 'secret.txt')];
  while (effects().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  assert.deepEqual(effects(), []);
});

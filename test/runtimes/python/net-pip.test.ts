// Python's HTTP and pip through the kernel (issue 16, item 8): urllib.request
// goes through the kernel's http syscall, so the VM's network policy decides
// (and is checked again at every redirect hop); pip installs pure-Python
// wheels from a package index (a PEP 503 simple index served here on the
// host), with their dependencies, and uninstall/show/list/freeze print what
// pip prints.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { AgentVM, type AgentVMOptions } from '../../../src/host/node/index.js';

/** A pure-Python wheel: one module, METADATA with its dependencies, WHEEL and RECORD. */
function wheel(name: string, version: string, requires: string[] = [], summary = ''): Uint8Array {
  const mod = name.replaceAll('-', '_');
  const info = `${mod}-${version}.dist-info`;
  const meta = `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\nSummary: ${summary}\nAuthor: Ann Example\nLicense: MIT\n${requires.map((r) => `Requires-Dist: ${r}\n`).join('')}`;
  return zipSync({
    [`${mod}/__init__.py`]: strToU8(`VERSION = ${JSON.stringify(version)}\n`),
    [`${mod}/sub/__init__.py`]: strToU8(''),
    [`${info}/METADATA`]: strToU8(meta),
    [`${info}/WHEEL`]: strToU8('Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n'),
    [`${info}/entry_points.txt`]: strToU8(`[console_scripts]\n${name}-cli = ${mod}:VERSION\n`),
    [`${info}/RECORD`]: strToU8(''),
  });
}

const FILES = new Map<string, Uint8Array>([
  ['alpha_pkg-1.0-py3-none-any.whl', wheel('alpha-pkg', '1.0', ['beta-pkg>=2', 'gamma-pkg; python_version < "3"', 'delta-pkg; extra == "x"'], 'The alpha')],
  ['alpha_pkg-1.1-py3-none-any.whl', wheel('alpha-pkg', '1.1', ['beta-pkg>=2', 'gamma-pkg; python_version < "3"', 'delta-pkg; extra == "x"'], 'The alpha')],
  ['alpha_pkg-2.0b1-py3-none-any.whl', wheel('alpha-pkg', '2.0b1')],
  ['beta_pkg-1.5-py3-none-any.whl', wheel('beta-pkg', '1.5')],
  ['beta_pkg-2.3-py3-none-any.whl', wheel('beta-pkg', '2.3')],
  ['native_pkg-1.0-cp314-cp314-linux_x86_64.whl', wheel('native-pkg', '1.0')],
  // Only on the PEP 691 index: a yanked release and one for a Python that does not exist yet.
  ['alpha_pkg-1.2-py3-none-any.whl', wheel('alpha-pkg', '1.2')],
  ['alpha_pkg-1.3-py3-none-any.whl', wheel('alpha-pkg', '1.3')],
  // Only on the extra index.
  ['gamma_pkg-0.5-py3-none-any.whl', wheel('gamma-pkg', '0.5')],
]);
const ONLY_JSON = new Set(['alpha_pkg-1.2-py3-none-any.whl', 'alpha_pkg-1.3-py3-none-any.whl']);
const sha256 = (f: string) => createHash('sha256').update(FILES.get(f)!).digest('hex');
const project = (f: string) => f.split('-')[0].replaceAll('_', '-');

let server: Server;
let base: string;
const seen: string[] = [];

before(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push(path);
    // PEP 691: JSON when the client asks for it (pip sends the JSON type first in Accept), else 406.
    const json = /^\/json\/([^/]+)\/$/.exec(path);
    if (json) {
      if (!String(req.headers.accept).includes('application/vnd.pypi.simple.v1+json')) return void res.writeHead(406).end();
      const files = [...FILES.keys()].filter((f) => project(f) === json[1] && f !== 'gamma_pkg-0.5-py3-none-any.whl').map((f) => ({
        filename: f, url: `/files/${f}`, hashes: { sha256: sha256(f) },
        ...(f.includes('-1.2-') ? { yanked: 'broken' } : {}), ...(f.includes('-1.3-') ? { 'requires-python': '>=4' } : {}),
      }));
      if (!files.length) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'Content-Type': 'application/vnd.pypi.simple.v1+json' });
      return void res.end(JSON.stringify({ meta: { 'api-version': '1.1' }, name: json[1], files }));
    }
    const extra = /^\/extra\/([^/]+)\/$/.exec(path);
    if (extra) {
      if (extra[1] !== 'gamma-pkg') return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return void res.end(`<a href="/files/gamma_pkg-0.5-py3-none-any.whl#sha256=${sha256('gamma_pkg-0.5-py3-none-any.whl')}" data-requires-python="&gt;=3.8">gamma</a>`);
    }
    const simple = /^\/simple\/([^/]+)\/$/.exec(path);
    if (simple) {
      const links = [...FILES.keys()].filter((f) => project(f) === simple[1] && !ONLY_JSON.has(f) && !f.startsWith('gamma'));
      if (!links.length) return void res.writeHead(404).end('not found');
      const body = links.map((f) => `<a href="../../files/${f}#sha256=${sha256(f)}">${f}</a><br/>`).join('\n');
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return void res.end(`<!DOCTYPE html><html><body>\n${body}\n</body></html>`);
    }
    const file = /^\/files\/(.+)$/.exec(path);
    if (file && FILES.has(file[1])) {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      return void res.end(FILES.get(file[1]));
    }
    if (path === '/hello') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Test': 'yes' });
      return void res.end('héllo\n');
    }
    if (path === '/echo') {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        res.writeHead(201, { 'Content-Type': 'text/plain' });
        res.end(`${req.method} ${req.headers['content-type']} ${Buffer.concat(parts).toString()}`);
      });
      return;
    }
    if (path === '/to-hello') {
      res.writeHead(302, { Location: '/hello' });
      return void res.end();
    }
    if (path === '/to-localhost') {
      res.writeHead(302, { Location: `http://localhost:${(server.address() as AddressInfo).port}/hello` });
      return void res.end();
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such page\n');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise((ok) => server?.close(ok));
});

async function withVm(network: AgentVMOptions['network'], fn: (vm: AgentVM) => Promise<void>): Promise<void> {
  const vm = new AgentVM({ network });
  await vm.start();
  try {
    await fn(vm);
  } finally {
    await vm.stop();
  }
}

async function py(vm: AgentVM, code: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  await vm.writeFile('/tmp/t.py', code.replaceAll('$BASE', base));
  return vm.exec('python3 /tmp/t.py');
}

describe('urllib.request through the kernel', () => {
  test('allowed: GET and POST, headers, status, redirects followed (each hop checked), HTTPError', async () => {
    await withVm({ allow: ['127.0.0.1'] }, async (vm) => {
      const r = await py(vm, `
import urllib.request, urllib.error
with urllib.request.urlopen('$BASE/hello') as r:
    print(r.status, r.reason, r.headers['X-Test'], r.getheader('content-type'), r.read().decode())
req = urllib.request.Request('$BASE/echo', data='a=ü'.encode(), headers={'Content-Type': 'text/x-test'})
with urllib.request.urlopen(req) as r:
    print(r.status, r.read().decode())
with urllib.request.urlopen('$BASE/to-hello') as r:
    print(r.geturl().endswith('/hello'), r.read())
try:
    urllib.request.urlopen('$BASE/missing')
except urllib.error.HTTPError as e:
    print('HTTPError', e.code, e.read())
try:
    urllib.request.urlopen('$BASE/to-localhost')
except urllib.error.URLError as e:
    import errno
    print('URLError', e.reason.errno == errno.ECONNREFUSED, 'in the VM' in e.reason.strerror)
`);
      assert.equal(r.stderr, '');
      assert.equal(r.stdout, "200 OK yes text/plain; charset=utf-8 héllo\n\n201 POST text/x-test a=ü\nTrue b'h\\xc3\\xa9llo\\n'\nHTTPError 404 b'no such page\\n'\nURLError True True\n");
    });
  });

  test('network none: refused with the policy\'s own words, before any connection', async () => {
    await withVm('none', async (vm) => {
      const before = seen.length;
      const r = await py(vm, `
import urllib.request, urllib.error
try:
    urllib.request.urlopen('http://example.com/hello')
except urllib.error.URLError as e:
    print(e)
import http.client, socket
try:
    socket.create_connection(('127.0.0.1', 80))
except OSError as e:
    print('socket', type(e).__name__)
`);
      assert.equal(r.stderr, '');
      assert.equal(r.stdout, `<urlopen error [Errno 2] network access to http://example.com denied by the VM's network policy (network: none)>\nsocket ConnectionRefusedError\n`.replace('[Errno 2]', r.stdout.match(/\[Errno \d+\]/)?.[0] ?? ''));
      assert.match(r.stdout, /^<urlopen error \[Errno \d+\] network access/);
      assert.equal(seen.length, before);
    });
  });
});

describe('pip', () => {
  test('install from an index with dependencies (markers, extras, specifiers, no pre-releases); show, list, freeze; uninstall removes the files', async () => {
    await withVm({ allow: ['127.0.0.1'] }, async (vm) => {
      const r = await vm.exec(`export PIP_INDEX_URL=${base}/simple
pip install alpha-pkg; echo "status=$?"
pip install 'alpha-pkg>=1'
pip list
pip freeze
pip show alpha-pkg beta-pkg
ls ~/.local/bin | grep -c pkg-cli
pip uninstall -y alpha-pkg; echo "status=$?"
ls ~/.local/lib/python3.14/site-packages | grep -c alpha; ls ~/.local/bin | grep -c alpha
pip uninstall -y alpha-pkg; echo "status=$?"
pip install 'alpha-pkg==1.0' && pip install --no-deps 'alpha-pkg==1.1' && pip freeze
pip install native-pkg; echo "status=$?"`);
      // exec runs as the VM's user: pip installs into the user site, as pip does when site-packages is not writable.
      assert.equal(r.stdout.replaceAll('/home/user/.local/lib/python3.14/site-packages', '$SITE'), `Collecting alpha-pkg
  Downloading alpha_pkg-1.1-py3-none-any.whl (1 kB)
Collecting beta-pkg>=2
  Downloading beta_pkg-2.3-py3-none-any.whl (1 kB)
Successfully installed alpha-pkg-1.1 beta-pkg-2.3
status=0
Requirement already satisfied: alpha-pkg in $SITE (1.1)
Package   Version
--------- -------
alpha-pkg 1.1
beta-pkg  2.3
alpha-pkg==1.1
beta-pkg==2.3
Name: alpha-pkg
Version: 1.1
Summary: The alpha
Home-page: 
Author: Ann Example
Author-email: 
License: MIT
Location: $SITE
Requires: beta-pkg
Required-by: 
---
Name: beta-pkg
Version: 2.3
Summary: 
Home-page: 
Author: Ann Example
Author-email: 
License: MIT
Location: $SITE
Requires: 
Required-by: alpha-pkg
2
Found existing installation: alpha-pkg 1.1
Uninstalling alpha-pkg-1.1:
  Successfully uninstalled alpha-pkg-1.1
status=0
0
0
status=0
Collecting alpha-pkg==1.0
  Downloading alpha_pkg-1.0-py3-none-any.whl (1 kB)
Requirement already satisfied: beta-pkg in $SITE (2.3)
Successfully installed alpha-pkg-1.0
Collecting alpha-pkg==1.1
  Downloading alpha_pkg-1.1-py3-none-any.whl (1 kB)
  Attempting uninstall: alpha-pkg
    Found existing installation: alpha-pkg 1.0
    Uninstalling alpha-pkg-1.0:
      Successfully uninstalled alpha-pkg-1.0
Successfully installed alpha-pkg-1.1
alpha-pkg==1.1
beta-pkg==2.3
Collecting native-pkg
status=1
`);
      assert.equal(r.stderr, 'WARNING: Skipping alpha-pkg as it is not installed.\n' +
        'ERROR: Could not find a version that satisfies the requirement native-pkg (from versions: 1.0); agentOS installs pure-Python wheels only (no compiler for extensions or source builds)\n' +
        'ERROR: No matching distribution found for native-pkg\n');
    });
  });

  test('PEP 691 JSON index and an extra index from pip.conf (yanked and requires-python skipped); a new python3 imports what was installed', async () => {
    await withVm({ allow: ['127.0.0.1'] }, async (vm) => {
      const r = await vm.exec(`mkdir -p ~/.config/pip && printf '[global]\\nindex-url = ${base}/json\\nextra-index-url = ${base}/extra\\n' > ~/.config/pip/pip.conf
pip install alpha-pkg gamma-pkg && python3 -c 'import alpha_pkg, beta_pkg, gamma_pkg; print(alpha_pkg.VERSION, beta_pkg.VERSION, gamma_pkg.VERSION)'
pip install --index-url ${base}/simple --extra-index-url ${base}/extra 'gamma-pkg<0.5'; echo "status=$?"
PIP_INDEX_URL=${base}/simple pip install 'alpha-pkg==1.2'; echo "status=$?"`);
      assert.equal(r.stdout, `Collecting alpha-pkg
  Downloading alpha_pkg-1.1-py3-none-any.whl (1 kB)
Collecting gamma-pkg
  Downloading gamma_pkg-0.5-py3-none-any.whl (1 kB)
Collecting beta-pkg>=2
  Downloading beta_pkg-2.3-py3-none-any.whl (1 kB)
Successfully installed alpha-pkg-1.1 gamma-pkg-0.5 beta-pkg-2.3
1.1 2.3 0.5
Collecting gamma-pkg<0.5
status=1
Collecting alpha-pkg==1.2
status=1
`);
      assert.equal(r.stderr, `ERROR: Could not find a version that satisfies the requirement gamma-pkg<0.5 (from versions: 0.5); agentOS installs pure-Python wheels only (no compiler for extensions or source builds)
ERROR: No matching distribution found for gamma-pkg<0.5
ERROR: Could not find a version that satisfies the requirement alpha-pkg==1.2 (from versions: 1.0, 1.1, 2.0b1); agentOS installs pure-Python wheels only (no compiler for extensions or source builds)
ERROR: No matching distribution found for alpha-pkg==1.2
`);
    });
  });

  test('network none: pip says the policy refused the index, not that there is no network', async () => {
    await withVm('none', async (vm) => {
      const r = await vm.exec('PIP_INDEX_URL=http://example.com/simple pip install alpha-pkg');
      assert.equal(r.exitCode, 1);
      assert.equal(r.stderr, "ERROR: cannot reach http://example.com/simple/alpha-pkg/: network access to http://example.com denied by the VM's network policy (network: none)\n");
    });
  });
});

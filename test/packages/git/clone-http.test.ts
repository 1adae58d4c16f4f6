// git clone/fetch/push over HTTP through the kernel's http syscall: a real
// smart-HTTP server (the host's `git http-backend` as a CGI behind a small
// Node server) on 127.0.0.1, the VM allowed to reach it by its network
// policy; the host's git checks what the VM pushed. Without the policy's
// permission the clone fails as git fails, naming the policy, leaving nothing.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

let root: string;
let server: Server;
let base: string;
let vm: AgentVM;

const hostGit = (args: string[], cwd = root) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root } });

/** One request through `git http-backend` (CGI): the request body in, "Status:" and headers out, then the body. */
function backend(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const cgi = spawn('git', ['http-backend'], {
    env: {
      ...process.env, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: '1', REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname), QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '', REMOTE_USER: 'tester', REMOTE_ADDR: '127.0.0.1',
    },
  });
  req.pipe(cgi.stdin);
  const out: Buffer[] = [];
  cgi.stdout.on('data', (b: Buffer) => out.push(b));
  cgi.on('close', () => {
    const all = Buffer.concat(out);
    const cut = all.indexOf('\r\n\r\n');
    let status = 200;
    for (const line of all.subarray(0, cut).toString('latin1').split('\r\n')) {
      const [k, v] = [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()];
      if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
      else res.setHeader(k, v);
    }
    res.writeHead(status);
    res.end(all.subarray(cut + 4));
  });
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentos-git-http-'));
  hostGit(['init', '-q', '-b', 'main', 'src']);
  hostGit(['-c', 'user.name=Host', '-c', 'user.email=host@example.test', 'commit', '-q', '--allow-empty', '-m', 'empty'], join(root, 'src'));
  execFileSync('sh', ['-c', 'printf "hello over http\\n" > a.txt && mkdir -p d && printf "deep\\n" > d/b.txt'], { cwd: join(root, 'src') });
  hostGit(['add', '.'], join(root, 'src'));
  hostGit(['-c', 'user.name=Host', '-c', 'user.email=host@example.test', 'commit', '-q', '-m', 'two files'], join(root, 'src'));
  hostGit(['clone', '-q', '--bare', 'src', 'repo.git']);
  hostGit(['config', 'http.receivepack', 'true'], join(root, 'repo.git'));
  server = createServer(backend);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
  vm = new AgentVM({ network: { allow: [`${base} GET,POST`] } });
  await vm.start();
});

after(async () => {
  await vm?.stop();
  server?.close();
  rmSync(root, { recursive: true, force: true });
});

test('git clone over http: the files, the history and origin, as the host\'s git made them', async () => {
  const r = await vm.exec(`cd /tmp && git clone ${base}/repo.git && cd repo && cat a.txt d/b.txt && git log --format=%s && git remote -v && git status --short | wc -l`);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(r.stderr, "Cloning into 'repo'...\n");
  assert.equal(r.stdout, `hello over http\ndeep\ntwo files\nempty\norigin\t${base}/repo.git (fetch)\norigin\t${base}/repo.git (push)\n0\n`);
  const head = hostGit(['rev-parse', 'HEAD'], join(root, 'repo.git')).trim();
  assert.equal((await vm.exec('cd /tmp/repo && git rev-parse HEAD')).stdout.trim(), head, 'the same commit id');
});

test('git push and fetch over http: the host\'s repository receives the VM\'s commit; a new host commit is fetched', async () => {
  const p = await vm.exec('cd /tmp/repo && echo "from the VM" > c.txt && git add c.txt && git -c user.name=VM -c user.email=vm@example.test commit -qm "from the VM" && git push origin main 2>&1; echo "status $?"');
  assert.match(p.stdout, /status 0\n$/, p.stdout);
  assert.equal(hostGit(['log', '-1', '--format=%s %an', 'main'], join(root, 'repo.git')), 'from the VM VM\n');
  assert.equal(hostGit(['show', 'main:c.txt'], join(root, 'repo.git')), 'from the VM\n');
  hostGit(['-c', 'user.name=Host', '-c', 'user.email=host@example.test', 'commit', '-q', '--allow-empty', '-m', 'later on the host'], join(root, 'src'));
  hostGit(['push', '-q', join(root, 'repo.git'), 'main:side'], join(root, 'src'));
  const f = await vm.exec('cd /tmp/repo && git fetch -q origin && git log -1 --format=%s origin/side');
  assert.equal(f.exitCode, 0, f.stderr);
  assert.equal(f.stdout, 'later on the host\n');
});

test('git clone denied by the network policy: git\'s message with the policy\'s reason, status 128, nothing left', async () => {
  const other = new AgentVM();
  await other.start();
  try {
    // (127.0.0.1 unnamed would be the VM's own loopback, decision 0070: a world host stands for the outside.)
    const r = await other.exec('cd /tmp && git clone http://example.com/repo.git; echo "status $?"; ls -A');
    assert.equal(r.stdout, 'status 128\n');
    assert.match(r.stderr, /^Cloning into 'repo'\.\.\.\nfatal: unable to access 'http:\/\/example\.com\/repo\.git': network access to .* denied by the VM's network policy \(network: none\)\n$/);
  } finally {
    await other.stop();
  }
});

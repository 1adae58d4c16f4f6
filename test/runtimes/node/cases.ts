// node runtime cases that need no host oracle, run on both hosts: by
// host-cases.test.ts on Node and by e2e/node.spec.ts in Chromium (through the
// e2e harness), each on a fresh machine. They show node scripts running in the
// browser exactly as on the Node host.

import type { Machine } from '../../../src/host/api/machine.js';
import { eq, match } from '../../kernel/expect.js';
import type { SuiteCase } from '../../kernel/suite-types.js';

const dec = new TextDecoder();

async function sh(m: Machine, script: string, stdin?: string): Promise<{ out: string; err: string; code: number }> {
  const r = await m.run(['/bin/sh', '-c', script], { cwd: '/home/user', env: { HOME: '/home/user', PATH: '/usr/bin:/bin' }, stdin });
  return { out: dec.decode(r.stdout), err: dec.decode(r.stderr), code: r.exitCode };
}

async function files(m: Machine, tree: Record<string, string>): Promise<void> {
  for (const [p, text] of Object.entries(tree)) {
    await m.mkdirp(p.slice(0, p.lastIndexOf('/')));
    await m.writeFile(p, text, 0o755);
  }
}

export const nodeCases: SuiteCase[] = [
  {
    name: 'node: -e, -p and console.log formatting',
    async run(m) {
      const r = await sh(m, `node -e 'console.log("%d%%", 50, { a: 1, b: [1, "x"], m: new Map([[1, 2]]) })'; node -p '[..."abc"].reverse().join("")'; node --version`);
      eq(r, { out: "50% { a: 1, b: [ 1, 'x' ], m: Map(1) { 1 => 2 } }\ncba\nv20.19.0-agentos\n", err: '', code: 0 });
    },
  },
  {
    name: 'node: a #! script with CommonJS modules, node_modules and package.json exports',
    async run(m) {
      await files(m, {
        '/home/user/app/main.js': "#!/usr/bin/env node\nconst lib = require('./lib');\nconst dep = require('dep');\nconsole.log(lib.hello(process.argv[2]), dep, require('./data.json').n);\n",
        '/home/user/app/lib/index.js': "exports.hello = (n) => `hello ${n}`;\n",
        '/home/user/app/data.json': '{"n": 7}',
        '/home/user/app/node_modules/dep/package.json': '{"exports": {".": {"require": "./c.js", "import": "./e.mjs"}}}',
        '/home/user/app/node_modules/dep/c.js': "module.exports = 'dep via exports';\n",
      });
      eq(await sh(m, 'app/main.js world'), { out: 'hello world dep via exports 7\n', err: '', code: 0 });
    },
  },
  {
    name: 'node: ES modules with import/export, dynamic import and top-level await',
    async run(m) {
      await files(m, {
        '/home/user/esm/main.mjs': "import { sum } from './math.mjs';\nimport path from 'node:path';\nconst { twice } = await import('./math.mjs');\nawait new Promise((r) => setTimeout(r, 10));\nconsole.log(sum(2, 3), twice(4), path.extname(import.meta.url));\n",
        '/home/user/esm/math.mjs': 'export const sum = (a, b) => a + b;\nexport function twice(x) { return 2 * x; }\n',
      });
      eq(await sh(m, 'node esm/main.mjs'), { out: '5 8 .mjs\n', err: '', code: 0 });
    },
  },
  {
    name: 'node: fs on the VFS, shared with the shell',
    async run(m) {
      const r = await sh(m, `echo from-shell > in.txt; node -e '
        const fs = require("fs");
        fs.mkdirSync("out/deep", { recursive: true });
        fs.writeFileSync("out/deep/f.txt", fs.readFileSync("in.txt", "utf8").toUpperCase());
        fs.promises.readdir("out").then((l) => console.log(l));
        try { fs.readFileSync("nope"); } catch (e) { console.log(e.message); }
      '; cat out/deep/f.txt`);
      eq(r, { out: "ENOENT: no such file or directory, open 'nope'\n[ 'deep' ]\nFROM-SHELL\n", err: '', code: 0 });
    },
  },
  {
    name: 'node: stdin in a pipeline, readline, timers',
    async run(m) {
      const r = await sh(m, `printf 'b\\na\\nc\\n' | node -e '
        const rl = require("readline").createInterface({ input: process.stdin });
        const lines = [];
        rl.on("line", (l) => lines.push(l));
        rl.on("close", () => setTimeout(() => console.log(lines.sort().join(",")), 20));
      '`);
      eq(r, { out: 'a,b,c\n', err: '', code: 0 });
    },
  },
  {
    name: 'node: child_process spawns agentOS processes',
    async run(m) {
      const r = await sh(m, `node -e '
        const cp = require("child_process");
        console.log(cp.execSync("echo hi | tr a-z A-Z").toString().trim());
        const c = cp.spawn("sh", ["-c", "cat; exit 4"]);
        let out = "";
        c.stdout.on("data", (d) => (out += d));
        c.on("close", (code) => console.log(JSON.stringify(out), code));
        c.stdin.end("piped");
      '`);
      eq(r, { out: 'HI\n"piped" 4\n', err: '', code: 0 });
    },
  },
  {
    name: 'node: unhandled rejections and errors thrown in callbacks end the process with status 1',
    async run(m) {
      const r = await sh(m, `node -e 'Promise.reject(new RangeError("rejected")); setTimeout(() => console.log("never"), 200)'; echo "status $?"; node -e 'setTimeout(() => { throw new Error("in timer"); }, 1)'; echo "status $?"`);
      eq(r.out, 'status 1\nstatus 1\n');
      match(r.err, /^\[eval\]:1\n.*\n {15}\^\n\nRangeError: rejected\n[^]*Node\.js v20\.19\.0\n[^]*\n\nError: in timer\n/);
    },
  },
  {
    name: 'node: an uncaught error prints a Node-style report and exits 1',
    async run(m) {
      await files(m, { '/home/user/boom.js': "function f() {\n  throw new TypeError('boom');\n}\nf();\n" });
      const r = await sh(m, 'node boom.js; echo "status $?"');
      eq(r.out, 'status 1\n');
      match(r.err, /^\/home\/user\/boom\.js:2\n {2}throw new TypeError\('boom'\);\n {2}\^\n\nTypeError: boom\n {4}at f \(\/home\/user\/boom\.js:2:9\)\n/);
      match(r.err, /\n\nNode\.js v20\.19\.0\n$/);
    },
  },
  {
    // minizlib (node-tar, so npm extracting a package) drives zlib's stream classes this way, synchronously.
    name: 'node: zlib stream classes answer _processChunk(chunk, flushFlag) chunk by chunk, with a _handle',
    async run(m) {
      await files(m, { '/home/user/chunks.js': `const zlib = require('zlib');
const { Z_NO_FLUSH, Z_FINISH } = zlib.constants;
const data = Buffer.from(Array.from({ length: 6000 }, (_, i) => ((i * 2654435761) % 1000003).toString(36)).join(' '));
for (const [C, packed] of [[zlib.Unzip, zlib.gzipSync(data)], [zlib.Unzip, zlib.deflateSync(data)], [zlib.Gunzip, zlib.gzipSync(data)], [zlib.InflateRaw, zlib.deflateRawSync(data)]]) {
  const z = new C();
  const out = [];
  for (let i = 0; i < packed.length; i += 500) out.push(z._processChunk(packed.subarray(i, i + 500), i + 500 >= packed.length ? Z_FINISH : Z_NO_FLUSH));
  console.log(C.name, typeof z._handle.close, Buffer.concat(out).equals(data), out.filter((b) => b.length).length > 1);
}
const g = new zlib.Gzip();
const head = g._processChunk(data.subarray(0, 1000), Z_NO_FLUSH);
console.log('Gzip', zlib.gunzipSync(Buffer.concat([head, g._processChunk(data.subarray(1000), Z_FINISH)])).equals(data));
` });
      const r = await sh(m, 'node chunks.js');
      eq(r, { out: 'Unzip function true true\nUnzip function true true\nGunzip function true true\nInflateRaw function true true\nGzip true\n', err: '', code: 0 });
    },
  },
  {
    name: 'node: tls loads (npm requires it) and connecting says there is no TLS; dns names outside the VM are ENOTFOUND',
    async run(m) {
      const r = await sh(m, `node -e 'const tls = require("tls"); try { tls.connect({ host: "127.0.0.1", port: 443 }); } catch (e) { console.log(e.code, e.message); }
require("dns").lookup("registry.example", (e) => console.log(e.code, e.syscall, e.hostname, e.message));'`);
      eq(r, { out: "ERR_TLS_UNSUPPORTED tls.connect: agentOS's node runtime has no TLS on its sockets (use fetch for https)\nENOTFOUND getaddrinfo registry.example getaddrinfo ENOTFOUND registry.example\n", err: '', code: 0 });
    },
  },
];

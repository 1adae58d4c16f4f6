// The node command inside agentOS, through the shell: how it is started
// (script, -e, -p, -, stdin, #! scripts, options), the REPL, signals and exit
// statuses, stdio in pipelines, and that guests get agentOS's own process/fs.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/api/machine.js';

const dec = new TextDecoder();
let m: Machine;

async function sh(script: string, stdin?: string): Promise<{ out: string; err: string; code: number }> {
  const r = await m.run(['/bin/sh', '-c', script], { cwd: '/home/user', uid: 1000, env: { PWD: '/home/user', HOME: '/home/user', PATH: '/usr/bin:/bin' }, stdin, timeoutMs: 20_000 });
  return { out: dec.decode(r.stdout), err: dec.decode(r.stderr), code: r.exitCode };
}

before(async () => {
  m = await boot();
});

after(async () => {
  await m.stop();
});

test('/usr/bin/node is a runtime image; --version, --help and bad options', async () => {
  const head = dec.decode((await m.readFile('/usr/bin/node')).subarray(0, 10));
  assert.equal(head, '\x7fAOS node\n');
  assert.deepEqual(await sh('node --version; node -v'), { out: 'v20.19.0-agentos\nv20.19.0-agentos\n', err: '', code: 0 });
  assert.match((await sh('node --help')).out, /^Usage: node \[options\]/);
  assert.deepEqual(await sh('node --bogus; echo $?'), { out: '9\n', err: 'node: bad option: --bogus\n', code: 0 });
  assert.deepEqual(await sh('node --no-warnings -e "console.log(process.execArgv)"'), { out: "[ '--no-warnings', '-e', 'console.log(process.execArgv)' ]\n", err: '', code: 0 });
});

test('#!/usr/bin/env node scripts with arguments, and relative paths from the cwd', async () => {
  await m.writeFile('/home/user/hello.js', '#!/usr/bin/env node\nconsole.log("hi", process.argv.slice(2).join("+"), require("path").basename(process.argv[1]));\nprocess.exit(Number(process.argv[2]) || 0)\n', 0o755);
  assert.deepEqual(await sh('./hello.js a b; echo "status $?"; ./hello.js 5 x; echo "status $?"'), { out: 'hi a+b hello.js\nstatus 0\nhi 5+x hello.js\nstatus 5\n', err: '', code: 0 });
  assert.deepEqual(await sh('mkdir -p d && cd d && echo "console.log(require(\\"fs\\").readFileSync(\\"../hello.js\\", \\"utf8\\").length > 0)" > t.js && node t.js'), { out: 'true\n', err: '', code: 0 });
});

test('-e, -p, - and a script on stdin; stdin and stdout in pipelines', async () => {
  assert.deepEqual(await sh('node -p "6 * 7"; node -pe "process.argv.slice(1)" x y'), { out: "42\n[ 'x', 'y' ]\n", err: '', code: 0 });
  assert.deepEqual(await sh('echo "console.log(\\"stdin script\\")" | node; echo "console.log(process.argv[2])" | node - arg'), { out: 'stdin script\narg\n', err: '', code: 0 });
  const r = await sh('seq 1 5 | node -e "let s = 0; process.stdin.on(\\"data\\", (d) => s += d.toString().split(\\"\\n\\").filter(Boolean).reduce((a, b) => a + +b, 0)); process.stdin.on(\\"end\\", () => console.log(s))"');
  assert.deepEqual(r, { out: '15\n', err: '', code: 0 });
  assert.deepEqual(await sh('node -e "process.stdout.write(\\"a\\nb\\nc\\n\\")" | tac | node -e "process.stdin.pipe(process.stdout)"'), { out: 'c\nb\na\n', err: '', code: 0 });
  // A writer into a closed pipe dies of SIGPIPE, as programs in a shell pipeline should.
  assert.deepEqual(await sh('node -e "for (;;) console.log(1)" | head -2; echo "${PIPESTATUS[0]}"'), { out: '1\n1\n141\n', err: '', code: 0 });
});

test('buffered stdio keeps the order of stdout, stderr and children; big outputs stream', async () => {
  const r = await sh(`node -e '
    console.log(1); console.error(2); process.stdout.write("3\\n");
    require("child_process").execSync("echo 4", { stdio: "inherit" });
    console.log(5); require("fs").writeSync(1, "6\\n"); console.error(7);
    setTimeout(() => { console.log(8); process.exit(0); console.log("never"); }, 5);
  ' 2>&1`);
  assert.deepEqual(r, { out: '1\n2\n3\n4\n5\n6\n7\n8\n', err: '', code: 0 });
  const t0 = performance.now();
  const big = await sh('node -e "for (let i = 1; i <= 200000; i++) console.log(i)" | tail -1; node -e "for (let i = 1; ; i++) console.log(i)" | head -1');
  assert.deepEqual(big, { out: '200000\n1\n', err: '', code: 0 });
  assert.ok(performance.now() - t0 < 15_000, 'a 200k-line output takes seconds, not minutes');
});

test('node --check, NODE_PATH, -r preloads', async () => {
  await m.writeFile('/home/user/good.js', 'const a = 1;\nconsole.log("ran");\n');
  await m.writeFile('/home/user/bad.mjs', 'export const = 1;\n');
  const c = await sh('node -c good.js; echo "good $?"; node --check bad.mjs 2>/dev/null; echo "bad $?"');
  assert.deepEqual(c, { out: 'good 0\nbad 1\n', err: '', code: 0 });
  await m.mkdirp('/home/user/global/libx');
  await m.writeFile('/home/user/global/libx/index.js', 'module.exports = "from NODE_PATH";\n');
  await m.writeFile('/home/user/pre.js', 'globalThis.preloaded = 1;\n');
  const r = await sh('NODE_PATH=/nowhere:/home/user/global node -r ./pre.js -p "require(\\"libx\\") + \\" \\" + preloaded"');
  assert.deepEqual(r, { out: 'from NODE_PATH 1\n', err: '', code: 0 });
});

test('the REPL: expressions, declarations that persist, multi-line input, errors, top-level await, .exit', async () => {
  const r = await sh('node -i', '1 + 1\nconst a = 5\na * 2\nfunction f() {\nreturn a + 1\n}\nf()\nthrow new Error("oops")\na\nawait Promise.resolve(3)\nconst v = await new Promise((r) => setTimeout(() => r(9), 10))\nv + a\n.exit\n');
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, 'Welcome to Node.js v20.19.0.\nType ".help" for more information.\n> 2\n> undefined\n> 10\n> ... ... undefined\n> 6\n> Uncaught Error: oops\n> 5\n> 3\n> undefined\n> 14\n> \n');
});

test('signals: process.on(SIGTERM/SIGINT) handlers, default deaths, process.kill', async () => {
  const r = await sh('node -e "process.on(\\"SIGTERM\\", (s) => { console.log(\\"got\\", s); process.exit(3); }); setInterval(() => {}, 1000); process.kill(process.pid, \\"SIGTERM\\")"; echo "status $?"');
  assert.deepEqual(r, { out: 'got SIGTERM\nstatus 3\n', err: '', code: 0 });
  const i = await sh('node -e "setTimeout(() => {}, 10000)" & sleep 0.3; kill -INT $!; wait $!; echo "status $?"');
  assert.deepEqual(i, { out: 'status 130\n', err: '', code: 0 });
  const h = await sh('node -e "process.on(\\"SIGINT\\", () => { console.log(\\"handled\\"); process.exit(0); }); setTimeout(() => {}, 10000)" & sleep 0.3; kill -INT $!; wait $!; echo "status $?"');
  assert.deepEqual(h, { out: 'handled\nstatus 0\n', err: '', code: 0 });
});

test('the event loop ends the process when nothing is pending, and not before', async () => {
  const t0 = performance.now();
  const r = await sh('node -e "setTimeout(() => console.log(\\"late\\"), 300); const t = setInterval(() => {}, 50); setTimeout(() => clearInterval(t), 200)"');
  const ms = performance.now() - t0;
  assert.deepEqual(r, { out: 'late\n', err: '', code: 0 });
  assert.ok(ms >= 300 && ms < 3000, `took ${ms} ms`);
  // An unref'd timer does not keep it alive; a paused stdin does not either.
  assert.deepEqual(await sh('node -e "setTimeout(() => console.log(\\"no\\"), 5000).unref(); process.stdin.pause(); console.log(\\"done\\")"'), { out: 'done\n', err: '', code: 0 });
  // An unref'd child does not hold the parent either.
  const u = await sh('node -e "const c = require(\\"child_process\\").spawn(\\"sleep\\", [\\"3\\"], { stdio: \\"ignore\\" }); c.unref(); console.log(\\"parent done\\")"');
  assert.deepEqual(u, { out: 'parent done\n', err: '', code: 0 });
  // Unsettled top-level await: Node's warning and status 13.
  await m.writeFile('/home/user/tla.mjs', 'await new Promise(() => {});\n');
  assert.deepEqual(await sh('node tla.mjs; echo "status $?"'), { out: 'status 13\n', err: 'Warning: Detected unsettled top-level await\n', code: 0 });
});

test('guests get agentOS objects: their own process, fs on the VFS, child processes in the VM', async () => {
  const r = await sh(`node -e '
    const fs = require("fs");
    fs.writeFileSync("/home/user/from-node.txt", "written by node\\n");
    console.log(process.pid > 1, process.env.HOME, process.cwd(), typeof process.binding, require("os").hostname() === require("child_process").execSync("hostname").toString().trim());
    try { process.binding("fs"); } catch (e) { console.log(e.message); }
    console.log(fs.existsSync("/proc/self"), fs.readdirSync("/").includes("opt"));
  '; cat from-node.txt`);
  assert.deepEqual(r, { out: 'true /home/user /home/user function true\nNo such module: fs\ntrue true\nwritten by node\n', err: '', code: 0 });
  // Through globalThis and eval'd code too, and only while the process runs (workers are pooled).
  const g = await sh(`for i in 1 2 3; do node -e '
    const f = new Function("return [process, console, setImmediate, Buffer]");
    const [p, c, si, B] = f();
    console.log(globalThis.process === process, p === process, c === console, si === setImmediate, B === Buffer, global === globalThis, p.env.HOME);
  '; done`);
  assert.deepEqual(g, { out: 'true true true true true true /home/user\n'.repeat(3), err: '', code: 0 });
  // Files written by the shell are read by node and vice versa, with no copy step.
  assert.deepEqual(await sh('echo shell > s.txt && node -p "require(\\"fs\\").readFileSync(\\"s.txt\\", \\"utf8\\").trim()"'), { out: 'shell\n', err: '', code: 0 });
});

test('fs errors carry Node codes from the kernel (permissions as user 1000)', async () => {
  const r = await sh(`node -e '
    const fs = require("fs");
    for (const f of [() => fs.writeFileSync("/etc/x", "y"), () => fs.readdirSync("/root"), () => fs.mkdirSync("/opt/agentos/new")]) {
      try { f(); } catch (e) { console.log(e.code, e.errno, e.syscall, e.message); }
    }'`);
  assert.deepEqual(r, {
    out: "EACCES -13 open EACCES: permission denied, open '/etc/x'\nEACCES -13 scandir EACCES: permission denied, scandir '/root'\nEACCES -13 mkdir EACCES: permission denied, mkdir '/opt/agentos/new'\n",
    err: '', code: 0,
  });
});

test('ES modules: live exports are snapshots (a documented limit), TLA, import of JSON and CJS, dynamic import from CJS', async () => {
  await m.writeFile('/home/user/counter.mjs', 'export let n = 0;\nexport function inc() { n++; }\n');
  await m.writeFile('/home/user/main.mjs', "import { n, inc } from './counter.mjs';\nimport * as ns from './counter.mjs';\ninc();\nconsole.log(n, ns.n);\n");
  await m.writeFile('/home/user/dyn.cjs', "import('./counter.mjs').then((m) => { m.inc(); console.log('dyn', m.n); });\n");
  assert.deepEqual(await sh('node main.mjs; node dyn.cjs'), { out: '0 1\ndyn 1\n', err: '', code: 0 });
});

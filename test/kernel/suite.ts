// The kernel suite: the same cases run on the Node host (node --test) and in
// Chromium (Playwright + e2e/harness). Each case gets a fresh machine with the
// test programs installed in /usr/local/bin.

import type { Machine } from '../../src/host/api/machine.js';
import {
  SIGALRM, SIGCONT, SIGINT, SIGKILL, SIGPIPE, SIGSTOP, SIGTERM, SIGUSR1,
} from '../../src/abi/signal.js';
import { WCONTINUED, WEXITSTATUS, WIFEXITED, WIFSIGNALED, WTERMSIG, WUNTRACED } from '../../src/abi/wait.js';
import { eq, match, ok, rejectsWith } from './expect.js';
import { execCases } from './exec-cases.js';
import { packageCases } from './packages-cases.js';
import { readUntil } from './pipes.js';
import type { SuiteCase } from './suite-types.js';

const FIONREAD = 0x541b;

export type { SuiteCase };

export const JS_RUNTIME = '/usr/libexec/agentos/js';
export const BIN = '/usr/local/bin';
export const PROGRAMS = [
  'cat', 'echo', 'execer', 'exit', 'fdshare', 'fscases', 'head', 'polltest', 'probe', 'signals', 'sigpipe', 'sleep', 'spawn', 'spin',
  'statloop', 'stubborn', 'ticker', 'wc', 'writefile', 'writer', 'yes',
];

/** Install bundled guest programs (dist/programs/*.js) as JS scripts. */
export async function installPrograms(m: Machine, sources: Record<string, string>): Promise<void> {
  for (const [name, src] of Object.entries(sources)) {
    await m.writeFile(`${BIN}/${name}`, `#!${JS_RUNTIME}\n${src}`, 0o755);
  }
}

const dec = new TextDecoder();
const text = (b: Uint8Array) => dec.decode(b);
const bin = (name: string) => `${BIN}/${name}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll until `f` returns a truthy value (for observing another process's progress). */
async function until<T>(f: () => Promise<T>, what: string, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

async function procState(m: Machine, pid: number): Promise<string | null> {
  try {
    const s = await m.readText(`/proc/${pid}/status`);
    return /State:\s+(\S)/.exec(s)?.[1] ?? null;
  } catch {
    return null;
  }
}


const kernelCases: SuiteCase[] = [
  {
    name: 'a JS program runs with argv and exit status 0',
    async run(m) {
      const r = await m.run([bin('echo'), 'hello', 'world']);
      eq(text(r.stdout), 'hello world\n', 'stdout');
      eq(r.exitCode, 0, 'exit code');
      eq(text(r.stderr), '', 'stderr');
    },
  },
  {
    name: 'exit statuses propagate like Linux',
    async run(m) {
      const r = await m.run([bin('exit'), '42']);
      ok(WIFEXITED(r.status), 'exited normally');
      eq(WEXITSTATUS(r.status), 42, 'status');
      eq((await m.run([bin('exit'), '256'])).exitCode, 0, 'exit 256 wraps to 0');
    },
  },
  {
    name: 'stdin is /dev/null by default and bytes pass through exactly',
    async run(m) {
      eq(text((await m.run([bin('cat')])).stdout), '', 'default stdin');
      const data = new Uint8Array(300_000).map((_, i) => (i * 7) & 0xff);
      const r = await m.run([bin('cat')], { stdin: data });
      eq(r.stdout.byteLength, data.byteLength, 'length');
      ok(r.stdout.every((b, i) => b === data[i]), 'bytes identical');
    },
  },
  {
    name: 'an uncaught exception prints to stderr and exits 1',
    async run(m) {
      await m.writeFile('/tmp/boom', `#!${JS_RUNTIME}\nthrow new Error('kaboom');\n`, 0o755);
      const r = await m.run(['/tmp/boom']);
      eq(r.exitCode, 1, 'exit code');
      match(text(r.stderr), /kaboom/, 'stderr');
    },
  },
  {
    name: 'exec dispatch is by header: ENOENT, EACCES, ENOEXEC, interpreter errors, ELOOP',
    async run(m) {
      await rejectsWith(m.spawn(['/nonexistent']), 'ENOENT', 'missing file');
      await m.writeFile('/tmp/noexec', `#!${JS_RUNTIME}\n`, 0o644);
      await rejectsWith(m.spawn(['/tmp/noexec']), 'EACCES', 'no x bit');
      await m.writeFile('/tmp/plain', 'echo hi\n', 0o755);
      await rejectsWith(m.spawn(['/tmp/plain']), 'ENOEXEC', 'headerless');
      await m.writeFile('/tmp/wasm', new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), 0o755);
      eq((await m.run(['/tmp/wasm'])).exitCode, 126, 'WebAssembly: started, then refused by its runtime (no _start)');
      await m.writeFile('/tmp/elf', new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), 0o755);
      await rejectsWith(m.spawn(['/tmp/elf']), 'ENOEXEC', 'ELF');
      await m.writeFile('/tmp/badinterp', '#!/no/such/interpreter\n', 0o755);
      await rejectsWith(m.spawn(['/tmp/badinterp']), 'ENOENT', 'missing interpreter');
      await m.writeFile('/tmp/loop', '#!/tmp/loop\n', 0o755);
      await rejectsWith(m.spawn(['/tmp/loop']), 'ELOOP', 'interpreter loop');
      await rejectsWith(m.spawn(['/tmp']), 'EACCES', 'directory');
    },
  },
  {
    name: 'a #! script gets the interpreter, the script path and its arguments',
    async run(m) {
      await m.writeFile('/tmp/args', `#!${JS_RUNTIME}\nagentos.print(JSON.stringify(agentos.argv));\n`, 0o755);
      const r = await m.run(['ignored-argv0', 'a b', 'c'], { path: '/tmp/args' });
      eq(text(r.stdout), JSON.stringify(['/tmp/args', 'a b', 'c']), 'argv');
    },
  },
  {
    name: 'a #! line is UTF-8, as paths and arguments are: a non-ASCII interpreter path and argument',
    async run(m) {
      // Read as latin1 (windows-1252 in a browser), 'café' was 'cafÃ©' and the interpreter was not found.
      await m.mkdirp('/tmp/café');
      await m.writeFile('/tmp/café/run', `#!${JS_RUNTIME}\nagentos.print(JSON.stringify(agentos.argv));\n`, 0o755);
      await m.writeFile('/tmp/uscript', '#!/tmp/café/run ñ€\n', 0o755);
      const r = await m.run(['/tmp/uscript', 'x']);
      eq(text(r.stdout), JSON.stringify(['/tmp/café/run', 'ñ€', '/tmp/uscript', 'x']), 'argv');
    },
  },
  {
    name: 'yes | head -n 3 ends at once: the writer dies of SIGPIPE',
    async run(m) {
      const [r, w] = (await m.syscall('pipe')) as [number, number];
      const [outR, outW] = (await m.syscall('pipe')) as [number, number];
      const yes = await m.spawn([bin('yes')], { fds: [[1, w], [2, w]] });
      const head = await m.spawn([bin('head'), '-n', '3'], { fds: [[0, r], [1, outW], [2, outW]] });
      for (const fd of [r, w, outW]) await m.syscall('close', fd);
      const t0 = Date.now();
      eq(await readUntil(m, outR, '\0'), 'y\ny\ny\n', 'head output');
      eq(WEXITSTATUS(await m.wait(head)), 0, 'head status');
      const ys = await m.wait(yes);
      ok(WIFSIGNALED(ys) && WTERMSIG(ys) === SIGPIPE, `yes killed by SIGPIPE (status ${ys})`);
      ok(Date.now() - t0 < 3000, 'ended promptly');
    },
  },
  {
    name: 'pipes apply backpressure: a writer blocks once 64 KiB are buffered',
    async run(m) {
      const [r, w] = (await m.syscall('pipe')) as [number, number];
      const pid = await m.spawn([bin('yes')], { fds: [[1, w]] });
      await m.syscall('close', w);
      await until(async () => (await procState(m, pid)) === 'S', 'writer to block');
      eq(await m.syscall('ioctl', r, FIONREAD), 65536, 'FIONREAD: the pipe holds exactly its capacity');
      await sleep(50);
      eq(await m.syscall('ioctl', r, FIONREAD), 65536, 'and no more while nobody reads');
      eq(((await m.syscall('read', r, 4096)) as Uint8Array).byteLength, 4096, 'a read makes room');
      await until(async () => (await m.syscall('ioctl', r, FIONREAD)) === 65536, 'the writer to refill');
      await m.syscall('close', r);
      const st = await m.wait(pid);
      eq(WTERMSIG(st), SIGPIPE, 'writer ends with SIGPIPE after the reader closes');
    },
  },
  {
    name: 'EOF when the last writer closes; EPIPE when SIGPIPE is ignored',
    async run(m) {
      const r = await m.run([bin('cat')], { stdin: 'x' });
      eq(text(r.stdout), 'x', 'cat saw data then EOF');
      const [pr, pw] = (await m.syscall('pipe')) as [number, number];
      const [er, ew] = (await m.syscall('pipe')) as [number, number];
      await m.syscall('close', pr);
      const pid = await m.spawn([bin('sigpipe'), 'ignore'], { fds: [[1, pw], [2, ew]] });
      await m.syscall('close', pw);
      await m.syscall('close', ew);
      eq(await readUntil(m, er, '\n'), 'write: EPIPE\n', 'error reported');
      eq(WEXITSTATUS(await m.wait(pid)), 3, 'exit status');
    },
  },
  {
    name: 'poll() reports readiness, sleeps until another process writes, times out',
    async run(m) {
      const r = await m.run([bin('polltest')]);
      eq(text(r.stderr), '', 'stderr');
      const p = JSON.parse(text(r.stdout)) as Record<string, unknown>;
      eq(p.empty, [], 'nothing ready before the timeout');
      eq(p.waited, true, 'the timeout was waited');
      eq(p.writable, [[4, 4]], 'write end writable');
      eq(p.readable, [[3, 1]], 'readable after the other process wrote');
      eq(p.hangup, [[3, 16]], 'POLLHUP once every writer is gone');
      eq(p.invalid, [[99, 32]], 'POLLNVAL for a closed fd');
    },
  },
  {
    name: 'SIGKILL ends a process stuck in an infinite loop',
    async run(m) {
      const [r, w] = (await m.syscall('pipe')) as [number, number];
      const pid = await m.spawn([bin('spin')], { fds: [[1, w]] });
      await m.syscall('close', w);
      eq(await readUntil(m, r, '\n'), 'spinning\n', 'started');
      const t0 = Date.now();
      await m.kill(pid, SIGKILL);
      const st = await m.wait(pid);
      ok(WIFSIGNALED(st) && WTERMSIG(st) === SIGKILL, `killed by SIGKILL (status ${st})`);
      ok(Date.now() - t0 < 1000, 'promptly');
      eq(((await m.syscall('read', r, 10)) as Uint8Array).byteLength, 0, 'its pipe end was closed');
    },
  },
  {
    name: 'SIGINT to a process group reaches every member',
    async run(m) {
      const a = await m.spawn([bin('spin')], { pgid: 0 });
      const b = await m.spawn([bin('sleep'), '10000'], { pgid: a });
      const c = await m.spawn([bin('sleep'), '10000']);
      eq(await m.syscall('getpgid', b), a, 'b joined a\'s group');
      await m.kill(-a, SIGINT);
      eq(WTERMSIG(await m.wait(a)), SIGINT, 'a');
      eq(WTERMSIG(await m.wait(b)), SIGINT, 'b');
      await until(async () => (await procState(m, c)) === 'S', 'outsider asleep, untouched');
      await m.kill(c, SIGTERM);
      eq(WTERMSIG(await m.wait(c)), SIGTERM, 'outsider terminated separately');
    },
  },
  {
    name: 'caught signals run handlers and interrupt a blocking sleep with EINTR',
    async run(m) {
      const [r, w] = (await m.syscall('pipe')) as [number, number];
      const pid = await m.spawn([bin('signals')], { fds: [[1, w]] });
      await m.syscall('close', w);
      eq(await readUntil(m, r, 'ready\n'), 'ready\n', 'ready');
      await until(async () => (await procState(m, pid)) === 'S', 'sleeping');
      await m.kill(pid, SIGUSR1);
      const out = await readUntil(m, r, 'EINTR\n');
      eq(out, `caught ${SIGUSR1}\nsleep: EINTR\n`, 'handler output');
      eq(WEXITSTATUS(await m.wait(pid)), 1, 'one signal caught');
    },
  },
  {
    name: 'a caught signal sent before a blocking call parks still interrupts it (EINTR at once)',
    async run(m) {
      const [r, w] = (await m.syscall('pipe')) as [number, number];
      const pid = await m.spawn([bin('signals'), '1000'], { fds: [[1, w]] });
      await m.syscall('close', w);
      eq(await readUntil(m, r, 'ready\n'), 'ready\n', 'ready');
      // Past the reply of the write that said "ready" (its return runs handlers),
      // so the signal lands while the program spins without syscalls.
      await sleep(200);
      const t0 = Date.now();
      await m.kill(pid, SIGUSR1);
      const out = await readUntil(m, r, 'EINTR\n'); // or to the end, if early
      if (out.endsWith('early\n')) return; // a loaded machine: the program had not left the write yet
      eq(out, `caught ${SIGUSR1}\nsleep: EINTR\n`, 'the sleep was interrupted');
      ok(Date.now() - t0 < 5000, `interrupted after ${Date.now() - t0} ms, not after the 10 s sleep`);
      eq(WEXITSTATUS(await m.wait(pid)), 1, 'one signal caught');
    },
  },
  {
    name: 'SIGSTOP stops at the next syscall, waitpid(WUNTRACED) sees it, SIGCONT resumes',
    async run(m) {
      const [r, w] = (await m.syscall('pipe')) as [number, number];
      const pid = await m.spawn([bin('ticker')], { fds: [[1, w]] });
      await m.syscall('close', w);
      await readUntil(m, r, '2\n');
      await m.kill(pid, SIGSTOP);
      eq(await m.syscall('waitpid', pid, WUNTRACED), [pid, (SIGSTOP << 8) | 0x7f], 'reported stopped');
      eq(await procState(m, pid), 'T', '/proc state');
      await m.syscall('fcntl', r, 4 /* F_SETFL */, 0o4000 /* O_NONBLOCK */);
      await sleep(100);
      const drained = async () => {
        try {
          return ((await m.syscall('read', r, 65536)) as Uint8Array).byteLength;
        } catch {
          return 0;
        }
      };
      await drained();
      await sleep(100);
      eq(await drained(), 0, 'no output while stopped');
      await m.kill(pid, SIGCONT);
      eq(await m.syscall('waitpid', pid, WCONTINUED), [pid, 0xffff], 'reported continued');
      await until(drained, 'output after SIGCONT');
      await m.kill(pid, SIGTERM);
      eq(WTERMSIG(await m.wait(pid)), SIGTERM, 'terminated');
    },
  },
  {
    name: 'alarm() delivers SIGALRM, whose default action terminates',
    async run(m) {
      await m.writeFile('/tmp/alarm', `#!${JS_RUNTIME}\nagentos.sys.alarm(1);\nagentos.sys.sleep(5000);\n`, 0o755);
      const t0 = Date.now();
      const r = await m.run(['/tmp/alarm']);
      eq(r.signal, SIGALRM, 'killed by SIGALRM');
      eq(r.exitCode, 128 + SIGALRM, 'shell-style status');
      ok(Date.now() - t0 < 3000, 'after about a second');
    },
  },
  {
    name: 'fds: inherited ones share offsets, O_CLOEXEC ones are not inherited',
    async run(m) {
      const r = await m.run([bin('fdshare'), '/tmp/shared']);
      eq(text(r.stderr), '', 'stderr');
      const [fdsLine, probeLine] = text(r.stdout).split('\n');
      const { keep, drop } = JSON.parse(fdsLine) as { keep: number; drop: number };
      const childFds = (JSON.parse(probeLine) as { fds: string[] }).fds;
      ok(childFds.includes(String(keep)), `inherited fd ${keep} (child has ${childFds})`);
      ok(!childFds.includes(String(drop)), `close-on-exec fd ${drop} not inherited`);
      eq(await m.readText('/tmp/shared'), 'parent1\nchild\nparent2\n', 'one offset shared by parent and child');
    },
  },
  {
    name: 'a program that swallows exit() is reaped at once and its worker destroyed',
    async run(m) {
      const r = await m.run([bin('stubborn')]);
      eq(r.exitCode, 5, 'status from exit()');
      eq((await m.status()).workers.unwinding, 1, 'its worker is still spinning');
      await until(async () => (await m.status()).workers.unwinding === 0, 'the worker to be destroyed');
      eq((await m.run([bin('exit'), '3'])).exitCode, 3, 'the machine carries on');
    },
  },
  {
    name: 'zombies stay until reaped; waitpid WNOHANG and ECHILD',
    async run(m) {
      const pid = await m.spawn([bin('exit'), '7']);
      await until(async () => (await procState(m, pid)) === 'Z', 'zombie');
      eq(await m.syscall('waitpid', pid, 0), [pid, 7 << 8], 'reaped');
      eq(await procState(m, pid), null, 'gone from /proc');
      await rejectsWith(m.syscall('waitpid', pid, 0), 'ECHILD', 'wait again');
      const r = await m.run([bin('spawn'), 'nohang', bin('sleep'), '50']);
      eq(text(r.stdout), 'nohang 0 0\nstatus 0\n', 'WNOHANG then wait');
      eq(text((await m.run([bin('spawn'), 'nochild'])).stdout), 'ECHILD\n', 'no children');
    },
  },
  {
    name: 'orphans are re-parented to init (pid 1)',
    async run(m) {
      const r = await m.run([bin('spawn'), 'orphan', bin('sleep'), '10000']);
      const child = Number(text(r.stdout));
      ok(child > 1, 'child pid printed');
      const status = await m.readText(`/proc/${child}/status`);
      match(status, /PPid:\s+1\n/, 'PPid');
      await m.kill(child, SIGKILL);
      await until(async () => (await procState(m, child)) === null, 'init reaps the orphan');
    },
  },
  {
    name: 'execve keeps the pid and replaces the program',
    async run(m) {
      const r = await m.run([bin('execer'), bin('echo'), 'replaced']);
      eq(text(r.stdout), 'replaced\n', 'new program output');
      match(text(r.stderr), /^pid \d+\n$/, 'old program ran first');
      const r2 = await m.run([bin('execer'), '/nonexistent']);
      match(text(r2.stderr), /execve: ENOENT/, 'failed execve returns to the caller');
      eq(r2.exitCode, 126, 'exit');
    },
  },
  {
    name: 'procfs and devfs as a process sees them',
    async run(m) {
      const r = await m.run([bin('probe')], { env: { PROBE: 'yes' }, cwd: '/tmp' });
      const [json, tail] = text(r.stdout).split('\n');
      const p = JSON.parse(json) as Record<string, unknown>;
      eq(p.self, String(p.pid), '/proc/self');
      eq(p.ppid, 1, 'parent is init');
      eq(p.cmdline, `${JS_RUNTIME}\0${bin('probe')}\0`, 'cmdline');
      match(String(p.status), /State:\s+R/, 'status');
      // stdio plus the fd the listing itself holds open.
      eq(p.fds, ['0', '1', '2', '3'], 'fd listing');
      match(String(p.fd1), /^pipe:\[\d+\]$/, 'fd 1 is a pipe');
      eq(p.cwd, '/tmp', 'cwd');
      eq(p.procCwd, '/tmp', '/proc/self/cwd');
      match(String(p.uptime), /^\d+\.\d\d \d+\.\d\d\n$/, 'uptime');
      match(String(p.meminfo), /^MemTotal:\s+\d+ kB$/, 'meminfo');
      eq(p.zero, '0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0', '/dev/zero');
      eq(p.urandom, 32, '/dev/urandom');
      eq(p.nullRead, 0, '/dev/null');
      eq(p.env, 'yes', 'environment');
      eq(p.uname, 'Linux', 'uname');
      eq(tail, '--via /dev/stdout', '/dev/stdout reopens the same pipe');
    },
  },
  {
    name: 'a FIFO joins two processes',
    async run(m) {
      await m.syscall('mknod', '/tmp/fifo', 0o010644, 0);
      const reader = m.run([bin('cat'), '/tmp/fifo']);
      const writer = m.run([bin('writefile'), '/tmp/fifo', 'through the fifo']);
      const [rr, wr] = await Promise.all([reader, writer]);
      eq(wr.exitCode, 0, 'writer');
      eq(text(rr.stdout), 'through the fifo', 'reader got it');
      eq((await m.stat('/tmp/fifo')).mode & 0o170000, 0o010000, 'S_IFIFO');
    },
  },
  {
    name: 'the Linux-checked VFS errno table passes through real syscalls',
    async run(m) {
      const total = Number(text((await m.run([bin('fscases'), 'count'])).stdout));
      ok(total >= 200, `table has ${total} cases`);
      const r = await m.run([bin('fscases'), 'all']);
      eq(text(r.stderr), '', 'stderr');
      const results = text(r.stdout).trim().split('\n').map((l) => JSON.parse(l) as { name: string; pass: boolean; detail: string });
      eq(results.length, total, 'every case reported');
      const failed = results.filter((x) => !x.pass).map((x) => `${x.name}: ${x.detail}`);
      eq(failed, [], 'failing cases');
    },
  },
  {
    name: 'workers are pooled: many short processes reuse a few workers',
    async run(m) {
      const before = (await m.status()).workers.spawned;
      for (let i = 0; i < 20; i++) eq((await m.run([bin('exit'), '0'])).exitCode, 0, `run ${i}`);
      const spawned = (await m.status()).workers.spawned - before;
      // A claim that comes while the last worker is still unwinding grows the pool toward its
      // spares (runner.ts): a few new workers, never one per process.
      ok(spawned <= 6, `20 processes needed ${spawned} new workers`);
    },
  },
];

export const cases: SuiteCase[] = [...kernelCases, ...packageCases, ...execCases];

// The WebAssembly runtime's cases: WASI programs built from wasm/*.c run as
// agentOS processes. Run on the Node host by wasm.test.ts and in Chromium by
// e2e/wasm.spec.ts (through the e2e harness), each on a fresh machine.

import { SIGABRT, SIGINT, SIGKILL, SIGTERM } from '../../../src/abi/signal.js';
import { WIFSIGNALED, WTERMSIG } from '../../../src/abi/wait.js';
import type { Machine } from '../../../src/host/api/machine.js';
import { eq, match, ok } from '../../kernel/expect.js';
import { readUntil, spawnPiped } from '../../kernel/pipes.js';
import type { SuiteCase } from '../../kernel/suite-types.js';

export const WASM_PROGRAMS = [
  'args', 'cat', 'clock', 'elsewhere', 'exit', 'fdops', 'files', 'grow', 'hello', 'interact', 'links', 'poll', 'random', 'readdir', 'spin', 'wasix', 'wasixnet',
];
/** Apart from /usr/local/bin, where the kernel suite's JS test programs (cat, exit, ...) live. */
const BIN = '/usr/local/wasm';

/** Install built WASI binaries (dist/wasm/*.wasm) as executables: their header alone makes them WebAssembly. */
export async function installWasm(m: Machine, binaries: Record<string, Uint8Array>): Promise<void> {
  await m.mkdirp(BIN);
  for (const [name, bytes] of Object.entries(binaries)) await m.writeFile(`${BIN}/${name}`, bytes, 0o755);
}

const dec = new TextDecoder();
const text = (b: Uint8Array) => dec.decode(b);
const bin = (name: string) => `${BIN}/${name}`;
const lines = (b: Uint8Array) => text(b).trimEnd().split('\n');
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A shell command line's result, run in `cwd`: bare names are the WASI programs, then agentOS's tools. */
const sh = (m: Machine, script: string, cwd = '/tmp') =>
  m.run(['/bin/sh', '-c', `PATH=${BIN}:/opt/agentos/bin; ${script}`], { cwd });


export const wasmCases: SuiteCase[] = [
  {
    name: 'wasm: a WASI hello world runs, exit status 0',
    async run(m) {
      const r = await m.run([bin('hello')]);
      eq(text(r.stdout), 'hello, world\n', 'stdout');
      eq(text(r.stderr), '', 'stderr');
      eq(r.exitCode, 0, 'exit code');
    },
  },
  {
    name: 'wasm: argv and the environment reach the program; PWD names the cwd',
    async run(m) {
      await m.mkdirp('/tmp/here');
      const r = await m.run([bin('args'), 'one', 'two words', 'ünï'], { env: { FOO: 'bar=baz' }, cwd: '/tmp/here' });
      const out = lines(r.stdout);
      eq(out.slice(0, 5), ['argc=4', `argv[0]=${bin('args')}`, 'argv[1]=one', 'argv[2]=two words', 'argv[3]=ünï'], 'argv');
      ok(out.includes('env FOO=bar=baz'), `FOO passed: ${out}`);
      ok(out.includes('env PWD=/tmp/here'), `PWD set to the cwd: ${out}`);
      // A PWD that names another directory is corrected; one that leads to the cwd stays.
      const wrong = await m.run([bin('args')], { env: { PWD: '/etc' }, cwd: '/tmp/here' });
      eq(lines(wrong.stdout).filter((l) => l.startsWith('env PWD=')), ['env PWD=/tmp/here'], 'stale PWD replaced');
      await m.syscall('symlink', '/tmp/here', '/tmp/link');
      const logical = await m.run([bin('args')], { env: { PWD: '/tmp/link' }, cwd: '/tmp/here' });
      eq(lines(logical.stdout).filter((l) => l.startsWith('env PWD=')), ['env PWD=/tmp/link'], 'logical PWD kept');
    },
  },
  {
    name: 'wasm: stdin is copied byte for byte; files by name; a missing one is reported',
    async run(m) {
      const data = new Uint8Array(700_000).map((_, i) => (i * 31 + (i >> 9)) & 0xff);
      const r = await m.run([bin('cat')], { stdin: data });
      eq(r.stdout.byteLength, data.byteLength, 'length');
      ok(r.stdout.every((b, i) => b === data[i]), 'bytes identical');
      await m.writeFile('/tmp/a.txt', 'from a file\n');
      const f = await m.run([bin('cat'), '/tmp/a.txt', '/nope', '-'], { stdin: 'and stdin\n' });
      eq(text(f.stdout), 'from a file\nand stdin\n', 'stdout');
      eq(text(f.stderr), 'cat: /nope: No such file or directory\n', 'stderr');
      eq(f.exitCode, 1, 'status');
    },
  },
  {
    name: 'wasm: files: create, read, append, seek/tell, pread/pwrite, truncate, times, errors, relative paths',
    async run(m) {
      await m.mkdirp('/tmp/work');
      const r = await m.run([bin('files'), '/tmp/work'], { cwd: '/tmp/work' });
      eq(text(r.stderr), '', 'stderr');
      eq(lines(r.stdout), [
        'write: 6', "read: 6 'hello\n'", 'append: 6', 'size: 12 regular: 1', 'seek: 6', "at 6: 5 'world'", 'tell: 11',
        'from end: 6', 'pwrite: 1', "pread: 5 'World'", 'tell after pread: 6', 'bad seek: -1 Invalid argument',
        'truncated: 5', 'futimens: 0', 'times: 1000000000 1234567890', 'utimensat: 1000000000 1500000000',
        'read-only write: -1 Bad file descriptor', 'missing: -1 No such file or directory', 'exclusive: -1 File exists',
        'cwd: /tmp/work',
      ].join('\n').split('\n'), 'results');
      eq(await m.readText('/tmp/work/data.txt'), 'hello', 'file after truncate');
      eq((await m.stat('/tmp/work/data.txt')).mtimeMs, 1_500_000_000_000, 'mtime set through WASI');
      eq(await m.readText('/tmp/work/relative.txt'), 'relative\n', 'relative path resolved from the cwd');
    },
  },
  {
    name: 'wasm: readdir lists entries with their types, from the cwd by default',
    async run(m) {
      await m.mkdirp('/tmp/tree/sub');
      await m.writeFile('/tmp/tree/b.txt', 'b');
      await m.writeFile('/tmp/tree/a.txt', 'a');
      await m.syscall('symlink', 'a.txt', '/tmp/tree/link');
      for (let i = 0; i < 150; i++) await m.writeFile(`/tmp/tree/many-${String(i).padStart(3, '0')}-${'x'.repeat(40)}`, '');
      const many = Array.from({ length: 150 }, (_, i) => `f many-${String(i).padStart(3, '0')}-${'x'.repeat(40)}`);
      const expected = ['f a.txt', 'f b.txt', 'l link', ...many, 'd sub'];
      eq(lines((await m.run([bin('readdir'), '/tmp/tree'])).stdout), expected, 'by path (several fd_readdir batches)');
      eq(lines((await m.run([bin('readdir')], { cwd: '/tmp/tree' })).stdout), expected, 'the cwd');
      const missing = await m.run([bin('readdir'), '/tmp/none']);
      eq([missing.exitCode, text(missing.stderr)], [1, 'readdir: /tmp/none: No such file or directory\n'], 'missing dir');
    },
  },
  {
    name: 'wasm: symlinks, hard links, rename, mkdir/rmdir, unlink and their errors',
    async run(m) {
      await m.mkdirp('/tmp/l');
      const r = await m.run([bin('links'), '/tmp/l']);
      eq(lines(r.stdout), [
        'symlink: ok', 'readlink: 1 a', 'lstat is link: 1', 'stat follows: 1 size 1', 'readlink on a file: Invalid argument',
        'link: ok', 'nlink: 2', 'rename: ok', 'cat a: No such file or directory', 'cat b: A', 'cat h: A',
        'cat s: No such file or directory', 'rename over: ok', 'cat c: A', 'mkdir: ok', 'mkdir again: File exists',
        'rmdir non-empty: Directory not empty', 'unlink a directory: Is a directory', 'rename dir into itself: Invalid argument',
        'unlink: ok', 'rmdir: ok', 'rmdir missing: No such file or directory', 'unlink symlink: ok',
        'symlink exists: File exists',
      ], 'results');
      eq((await m.readdir('/tmp/l')).map((e) => e.name).filter((n) => !n.startsWith('.')).sort(), ['c', 'h'], 'left behind');
      eq(await m.readText('/tmp/l/h'), 'A', 'the hard link kept the data');
    },
  },
  {
    name: 'wasm: clocks, sleep and random',
    async run(m) {
      const r = await m.run([bin('clock')]);
      const out = lines(r.stdout);
      const realtime = Number(out[0].split(' ')[1]);
      ok(Math.abs(realtime - Date.now() / 1000) < 10, `realtime ${realtime} is now`);
      eq(out.slice(1), ['monotonic: 1', 'cputime: 1', 'resolution ns: 1000', 'bad clock: 1'], 'clocks');
      const t0 = Date.now();
      const s = await m.run([bin('clock'), 'sleep', '150']);
      const [, rc, slept] = lines(s.stdout)[0].split(' ');
      eq(rc, '0', 'nanosleep result');
      ok(Number(slept) >= 150 && Number(slept) < 1500, `slept ${slept} ms`);
      ok(Date.now() - t0 >= 150, 'the process took that long');
      const a = text((await m.run([bin('random'), '600'])).stdout).trim();
      const b = text((await m.run([bin('random'), '600'])).stdout).trim();
      match(a, /^[0-9a-f]{1200}$/, 'hex of 600 bytes');
      ok(a !== b, 'two runs differ');
      ok(new Set(a).size > 10, 'not constant');
    },
  },
  {
    name: 'wasm: exit statuses, exit() flushing stdio, abort() and proc_raise',
    async run(m) {
      eq((await m.run([bin('exit'), '7'])).exitCode, 7, 'return 7');
      eq((await m.run([bin('exit'), '255'])).exitCode, 255, 'return 255');
      eq((await m.run([bin('exit'), '256'])).exitCode, 0, '256 wraps');
      const f = await m.run([bin('exit'), 'flush', '4']);
      eq([f.exitCode, text(f.stdout)], [4, 'buffered, flushed by exit\n'], 'exit(4)');
      const ab = await m.run([bin('exit'), 'abort']);
      ok(WIFSIGNALED(ab.status) && WTERMSIG(ab.status) === SIGABRT, `abort is SIGABRT (status ${ab.status})`);
      match(text(ab.stderr), /wasm trap: unreachable/, 'trap reported');
      const term = await m.run([bin('exit'), 'raise', '15']);
      ok(WIFSIGNALED(term.status) && WTERMSIG(term.status) === SIGTERM, `raise(SIGTERM) (status ${term.status})`);
      eq(text(term.stdout), '', 'nothing after a fatal raise');
      // WASI's SIGCHLD is 16 (Linux's 17): ignored by default, so raise returns.
      const chld = await m.run([bin('exit'), 'raise', '16']);
      eq([chld.exitCode, text(chld.stdout)], [0, 'raise: 0\n'], 'raise(SIGCHLD)');
      eq(text((await sh(m, `${bin('exit')} 3; echo "status $?"`)).stdout), 'status 3\n', 'the shell sees the status');
    },
  },
  {
    name: 'wasm: an interactive program answers each line as it arrives',
    async run(m) {
      const [pid, inW, outR] = await spawnPiped(m, [bin('interact')]);
      eq(await readUntil(m, outR, '> '), '> ', 'prompt');
      await m.syscall('write', inW, new TextEncoder().encode('hello there\n'));
      eq(await readUntil(m, outR, '> '), 'you said: hello there (11)\n> ', 'first answer, stdin still open');
      await m.syscall('write', inW, new TextEncoder().encode('x\n'));
      eq(await readUntil(m, outR, '> '), 'you said: x (1)\n> ', 'second answer');
      await m.syscall('write', inW, new TextEncoder().encode('quit\n'));
      eq(await readUntil(m, outR, 'bye\n'), 'bye\n', 'quit');
      eq(await m.wait(pid), 0, 'exit 0');
      for (const fd of [inW, outR]) await m.syscall('close', fd);
      const eof = await m.run([bin('interact')], { stdin: 'a\n' });
      eq([text(eof.stdout), eof.exitCode], ['> you said: a (1)\n> eof\n', 3], 'EOF ends it');
    },
  },
  {
    name: 'wasm: SIGINT and SIGKILL stop a CPU-bound module',
    async run(m) {
      for (const sig of [SIGINT, SIGKILL]) {
        const [pid, inW, outR] = await spawnPiped(m, [bin('spin')]);
        eq(await readUntil(m, outR, '\n'), 'spinning\n', 'started');
        await sleep(50);
        await m.kill(pid, sig);
        const st = await m.wait(pid);
        ok(WIFSIGNALED(st) && WTERMSIG(st) === sig, `killed by ${sig} (status ${st})`);
        for (const fd of [inW, outR]) await m.syscall('close', fd);
      }
      // (Background jobs of a non-interactive shell ignore SIGINT, as in bash: TERM here.)
      const r = await sh(m, 'spin >/dev/null & pid=$!; sleep 0.1; kill -TERM $pid; wait $pid; echo "status $?"');
      eq(text(r.stdout), 'status 143\n', 'from the shell');
    },
  },
  {
    name: 'wasm: poll_oneoff waits for stdin, times out, sees hangup',
    async run(m) {
      // The writer is the test, idle until the program has timed out (however long the program takes to start).
      const [idle, idleW, idleOut] = await spawnPiped(m, [bin('poll'), '100']);
      eq(await readUntil(m, idleOut, '\n'), 'timeout\n', 'timeout with the writer idle');
      eq(await m.wait(idle), 1 << 8, 'exit 1 on timeout');
      for (const fd of [idleW, idleOut]) await m.syscall('close', fd);
      const [pid, inW, outR] = await spawnPiped(m, [bin('poll'), '5000']);
      await sleep(100);
      await m.syscall('write', inW, new TextEncoder().encode('late'));
      eq(await readUntil(m, outR, '\n'), "ready: 1 in=1 hup=0 read=4 'late'\n", 'woken by data');
      eq(await m.wait(pid), 0, 'status');
      for (const fd of [inW, outR]) await m.syscall('close', fd);
      // Data already written and the writer gone before the program starts: readable and hung up.
      const [r, w] = (await m.syscall('pipe')) as [number, number];
      await m.syscall('write', w, new TextEncoder().encode('bye'));
      await m.syscall('close', w);
      const [outR2, outW2] = (await m.syscall('pipe')) as [number, number];
      const pid2 = await m.spawn([bin('poll'), '5000'], { fds: [[0, r], [1, outW2]] });
      for (const fd of [r, outW2]) await m.syscall('close', fd);
      eq(await readUntil(m, outR2, '\n'), "ready: 1 in=1 hup=1 read=3 'bye'\n", 'data then hangup');
      eq(await m.wait(pid2), 0, 'status after hangup');
      await m.syscall('close', outR2);
    },
  },
  {
    name: 'wasm: fd calls: renumber, flags, sync, allocate, advise, rights, sockets',
    async run(m) {
      await m.mkdirp('/tmp/fd');
      const r = await m.run([bin('fdops'), '/tmp/fd']);
      eq(lines(r.stdout), [
        'renumber: 0', "after renumber: 'first'", 'old fd: -1 Bad file descriptor', 'append before: 0', 'setfl: 0',
        'append after: 1', "appended: 'first!'", 'fsync: 0 fdatasync: 0', 'fallocate: 0', 'size: 100', 'fadvise: 0',
        'isatty: 0 0', 'drop seek: 0', 'seek without the right: -1 Invalid seek', 'regain seek: 1', 'sched_yield: 0',
        'sock_accept: 1', 'sock_shutdown bad fd: 1', 'sock_recv: 1', 'close: 0 close again: -1 Bad file descriptor',
      ], 'results');
      // After the renumber both names' writes went to "one"; "two" kept what it had when its fd was replaced.
      eq(await m.readText('/tmp/fd/two'), 'second', 'the replaced file');
      eq(await m.readText('/tmp/fd/one'), 'first!'.padEnd(100, '\0'), 'appended to, then allocated to 100 bytes');
    },
  },
  {
    name: 'wasm: in shell pipelines and redirections, with the same files and cwd as the shell',
    async run(m) {
      await m.mkdirp('/tmp/proj');
      const r = await sh(m, [
        "printf 'x\\ny\\nz\\n' | cat | cat | wc -l",
        'hello > out.txt && /opt/agentos/bin/cat out.txt',
        'files . > /dev/null && cat relative.txt',
        'cd .. && readdir proj',
        // An endless writer ends when its reader goes: SIGPIPE (141), as natively.
        'cat /dev/zero | head -c 5 | wc -c; echo "${PIPESTATUS[@]}"',
      ].join('; '), '/tmp/proj');
      eq(text(r.stdout), '3\nhello, world\nrelative\nf data.txt\nf out.txt\nf relative.txt\n5\n141 0 0\n', 'stdout');
      eq(text(r.stderr), '', 'stderr');
    },
  },
  {
    name: 'wasm: a program built elsewhere (stock wasi-libc, its cwd "/") reads and writes relative, .. and absolute paths from the cwd',
    async run(m) {
      await m.mkdirp('/tmp/d/sub');
      await m.mkdirp('/tmp/d/etc');
      await m.writeFile('/tmp/d/rel.txt', 'rel\n');
      await m.writeFile('/tmp/d/sub/in.txt', 'in sub\n');
      await m.writeFile('/tmp/up.txt', 'up\n');
      await m.writeFile('/tmp/d/etc/mine', 'mine\n');
      const hostname = await m.readText('/etc/hostname');
      const r = await sh(m, [
        'elsewhere rel.txt ./rel.txt sub/in.txt ../up.txt ../d/rel.txt /tmp/d/rel.txt /etc/hostname etc/mine',
        'elsewhere -w out.txt -d made -w made/f -w ../d/sub/w.txt -w /tmp/abs.txt',
        'elsewhere missing.txt; echo "status $?"',
        'cd sub && elsewhere in.txt ../rel.txt',
      ].join('; '), '/tmp/d');
      eq(text(r.stdout), `rel\nrel\nin sub\nup\nrel\nrel\n${hostname}mine\nmissing.txt: No such file or directory\nstatus 1\nin sub\nrel\n`, 'stdout');
      eq(text(r.stderr), '', 'stderr');
      for (const f of ['/tmp/d/out.txt', '/tmp/d/made/f', '/tmp/d/sub/w.txt', '/tmp/abs.txt']) eq(await m.readText(f), 'written\n', f);
      // agentOS's own programs (libc started at $PWD) keep exact absolute paths even where the cwd has the same name.
      await m.writeFile('/tmp/d/etc/hostname', 'not the host name\n');
      const own = await sh(m, 'cat /etc/hostname', '/tmp/d');
      eq(text(own.stdout), hostname, 'an agentOS-built program reads /etc, not ./etc');
    },
  },
  {
    name: 'wasm: preopens stay at fd 3 and 4 when the process inherits other fds',
    async run(m) {
      await m.mkdirp('/tmp/inh');
      const extra = (await m.syscall('open', '/dev/null', 0)) as number;
      const [outR, outW] = (await m.syscall('pipe')) as [number, number];
      const pid = await m.spawn([bin('files'), '.'], { cwd: '/tmp/inh', fds: [[1, outW], [3, extra], [4, extra], [5, extra]] });
      for (const fd of [extra, outW]) await m.syscall('close', fd);
      eq(await m.wait(pid), 0, 'status');
      const out = await readUntil(m, outR, 'never');
      match(out, /cwd: \/tmp\/inh\n$/, 'ran to the end');
      eq(await m.readText('/tmp/inh/relative.txt'), 'relative\n', 'relative path still from the cwd');
    },
  },
  {
    name: 'wasm: a file that is not a runnable WASI command exits 126 with a reason',
    async run(m) {
      const header = [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0];
      const cases: [string, number[], RegExp][] = [
        ['empty', header, /no _start function/],
        ['garbage', [...header, 0xff, 0xff], /invalid WebAssembly module/],
        // (import "env" "f" (func)): a module from another toolchain's ABI.
        ['foreign', [...header, 1, 4, 1, 0x60, 0, 0, 2, 9, 1, 3, 0x65, 0x6e, 0x76, 1, 0x66, 0, 0], /imports env\.f/],
        // (import "wasix_32v1" "fd_dup" (func)): WASIX is recognised by its import module.
        ['wasix', [...header, 1, 4, 1, 0x60, 0, 0, 2, 0x15, 1, 10, ...ascii('wasix_32v1'), 6, ...ascii('fd_dup'), 0, 0],
          /^\/tmp\/wasix: cannot execute: no _start function \(not a WASIX command\)\n$/],
      ];
      for (const [name, bytes, why] of cases) {
        await m.writeFile(`/tmp/${name}`, new Uint8Array(bytes), 0o755);
        const r = await m.run([`/tmp/${name}`]);
        eq(r.exitCode, 126, `${name}: status`);
        match(text(r.stderr), why, `${name}: reason`);
      }
    },
  },
  {
    name: 'wasm: an execute-only binary runs for a user who cannot read it: the kernel loads it, as Linux does',
    async run(m) {
      await m.writeFile('/tmp/xonly', await m.readFile(bin('hello')), 0o711);
      const r = await m.run(['/tmp/xonly'], { uid: 1000 });
      eq([text(r.stdout), r.exitCode], ['hello, world\n', 0], 'ran');
      const cat = await m.run(['/opt/agentos/bin/cat', '/tmp/xonly'], { uid: 1000 });
      eq(cat.exitCode, 1, 'yet the user cannot read it');
    },
  },
  {
    name: 'wasm: escapes: .. stops at the VFS root, symlinks and absolute paths are the VFS\'s, host files are out of reach',
    async run(m) {
      const hostname = await m.readText('/etc/hostname');
      await m.syscall('symlink', '../../../../../..', '/tmp/up');
      const r = await sh(m, 'cat /../../../etc/hostname ../../../../../etc/hostname /tmp/up/etc/hostname', '/tmp');
      eq([text(r.stdout), r.exitCode], [hostname.repeat(3), 0], "the VFS's /etc/hostname each time");
      // Paths of the Node host (this repository, the host's home) do not exist in the VM.
      for (const path of ['/work', '/home/node', '/usr/lib/node_modules', '/proc/1/root/work']) {
        const x = await sh(m, `cat ${path}/x 2>&1; readdir ${path} >/dev/null 2>&1 || echo gone`);
        match(text(x.stdout), /No such file or directory\ngone\n$/, path);
      }
    },
  },
  {
    name: 'wasm: memory growth is bounded: malloc fails at the ceiling (1 GiB) instead of taking 4 GiB',
    async run(m) {
      const r = await m.run([bin('grow')]);
      eq(r.exitCode, 0, 'status');
      const mib = Number(/^(\d+) MiB\n$/.exec(text(r.stdout))?.[1]);
      ok(mib >= 512 && mib <= 1024, `allocated ${mib} MiB`);
    },
  },
  {
    name: 'wasm: WASIX sockets reach nothing: a socket opens but connecting is refused (ENOTSUP)',
    async run(m) {
      // Wasmer's networking is off (decision 0021): the program gets no network whatever the VM's policy.
      const r = await sh(m, `${bin('wasixnet')} 9; echo "status $?"`);
      eq(text(r.stdout), 'sock_open: errno 0\nsock_connect: errno 58\nstatus 2\n', 'connect refused');
    },
  },
  {
    name: 'wasm: a WASIX program runs through Wasmer (@wasmer/sdk) with its cwd copied in and back',
    async run(m) {
      await m.mkdirp('/tmp/wx/sub');
      await m.writeFile('/tmp/wx/in.txt', 'hello\n');
      await m.writeFile('/tmp/wx/gone', 'x');
      const r = await sh(m, 'echo piped | wasix a "b c"; echo "status $?"; cat out.txt; ls', '/tmp/wx');
      eq(text(r.stderr), '', 'stderr');
      eq(text(r.stdout), [
        'arg a', 'arg b c', 'thread_id: errno 0, tid 1, cwd /workspace', 'piped', 'status 7', 'HELLO', 'in.txt', 'out.txt', 'sub', '',
      ].join('\n'), 'ran in Wasmer; out.txt written back, gone removed');
      // Waiting for stdin inside Wasmer, it still dies of SIGKILL (its worker, and Wasmer's under it, end;
      // in the browser Wasmer's workers are nested in the process worker and start confined).
      await m.writeFile('/tmp/wx/gone', 'x');
      const [pid, inW, outR] = await spawnPiped(m, [bin('wasix')], '/tmp/wx');
      match(await readUntil(m, outR, 'cwd /workspace\n'), /thread_id: errno 0/, 'started');
      await m.kill(pid, SIGKILL);
      const st = await m.wait(pid);
      ok(WIFSIGNALED(st) && WTERMSIG(st) === SIGKILL, `killed (status ${st})`);
      for (const fd of [inW, outR]) await m.syscall('close', fd);
    },
  },
];

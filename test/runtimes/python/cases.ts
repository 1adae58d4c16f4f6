// The Python runtime's cases: python3 (Pyodide) as an agentOS process. Run on
// the Node host by python.test.ts and in Chromium by e2e/python.spec.ts
// (through the e2e harness), each on a fresh machine. Each case checks several
// behaviours, because a fresh machine loads Pyodide once per worker.

import { SIGINT, SIGKILL, SIGTERM } from '../../../src/abi/signal.js';
import { WEXITSTATUS, WIFEXITED, WIFSIGNALED, WTERMSIG } from '../../../src/abi/wait.js';
import type { Machine } from '../../../src/host/api/machine.js';
import { eq, match, ok } from '../../kernel/expect.js';
import { readUntil, spawnPiped } from '../../kernel/pipes.js';
import type { SuiteCase } from '../../kernel/suite-types.js';

const dec = new TextDecoder();
const text = (b: Uint8Array) => dec.decode(b);

/** A shell command line's result (as root unless `uid` is given). */
const sh = (m: Machine, script: string, cwd = '/tmp', uid?: number) => m.run(['/bin/sh', '-c', script], { cwd, uid });

export const pythonCases: SuiteCase[] = [
  {
    name: 'python: -c with argv, cwd, environment, exit statuses and tracebacks',
    async run(m) {
      const r = await sh(m, `cd /home && FOO=bar python3 -c 'import os, sys; print(sys.argv, os.getcwd(), os.environ["FOO"])' x y`);
      eq(text(r.stdout), "['-c', 'x', 'y'] /home bar\n", 'argv, cwd, env');
      eq(text((await sh(m, `python3 -c 'import sys; sys.exit(7)'; echo $?`)).stdout), '7\n', 'sys.exit(7)');
      eq(text((await sh(m, `python3 -c 'raise SystemExit("bye")'; echo $?`)).stdout), '1\n', 'SystemExit(str) is status 1');
      const e = await sh(m, `python3 -c 'def f():
    return 1/0
f()'; echo "status=$?"`);
      match(text(e.stderr), /Traceback \(most recent call last\):\n {2}File "<string>", line 3, in <module>\n[\s\S]*ZeroDivisionError: division by zero\n$/, 'traceback');
      ok(!text(e.stderr).includes('_agentos_driver'), 'no runtime frames in the traceback');
      eq(text(e.stdout), 'status=1\n', 'uncaught exception: status 1');
      eq(text((await sh(m, 'python3 -V; python --version')).stdout).replace(/\d+\.\d+\.\d+/g, 'X'), 'Python X\nPython X\n', '-V');
      // Confinement: Pyodide's JavaScript modules are gone (decision 0026; test/security/python.test.ts tries harder).
      const esc = await sh(m, `python3 -c '
for code in ("import js; js.fetch", "import pyodide_js", "from pyodide.code import run_js; run_js(\\"fetch\\")"):
    try:
        exec(code)
        print("REACHED", code)
    except (AttributeError, ImportError) as e:
        print(type(e).__name__)
'`);
      eq(text(esc.stdout), 'ModuleNotFoundError\nModuleNotFoundError\nModuleNotFoundError\n', 'escapes fail');
      const bad = await sh(m, 'python3 /nonexistent.py; echo $?');
      eq(text(bad.stdout), '2\n', 'missing script: status 2');
      eq(text(bad.stderr), "python3: can't open file '/nonexistent.py': [Errno 2] No such file or directory\n", 'missing script');
    },
  },
  {
    name: 'python: imports write __pycache__ as CPython does; -B and PYTHONDONTWRITEBYTECODE do not',
    async run(m) {
      const r = await sh(m, `mkdir -p /tmp/pyc && cd /tmp/pyc && echo 'x = 1' > mod.py && python3 -c 'import mod' && ls __pycache__ | sed 's/cpython-[0-9]*/cpython-N/'
rm -rf __pycache__; python3 -B -c 'import mod'; ls -d __pycache__ 2>&1 | head -c 30; echo
PYTHONDONTWRITEBYTECODE=1 python3 -c 'import mod, sys; print(sys.dont_write_bytecode)'; ls -d __pycache__ 2>/dev/null | wc -l`);
      eq(text(r.stdout), "mod.cpython-N.pyc\nls: cannot access '__pycache__\nTrue\n0\n", 'pyc written, then not under -B or the variable');
    },
  },
  {
    name: 'python: the VFS is live both ways (no copy step)',
    async run(m) {
      const r = await sh(m, `echo from-shell > a.txt
python3 -c '
import os
print(open("a.txt").read().strip())
with open("/tmp/b.txt", "w") as f: f.write("from-python\\n")
os.mkdir("d"); os.rename("b.txt", "d/c.txt"); os.symlink("d/c.txt", "l")
with open("a.txt", "a") as f: f.write("appended\\n")
print(sorted(os.listdir(".")), os.path.islink("l"), os.stat("d/c.txt").st_size)
'
cat d/c.txt l a.txt; ls d; python3 -c 'import os; os.unlink("a.txt"); os.remove("l")'; ls`);
      eq(text(r.stderr), '', 'stderr');
      eq(text(r.stdout), "from-shell\n['a.txt', 'd', 'l'] True 12\nfrom-python\nfrom-python\nfrom-shell\nappended\nc.txt\nd\n", 'stdout');
      const perm = await sh(m, `python3 -c 'open("/etc/passwd", "a")' 2>&1 | tail -1`, '/home/user', 1000);
      // Python's errno numbers are Emscripten's (EACCES is 2 there), a Pyodide limit.
      match(text(perm.stdout), /^PermissionError: \[Errno \d+\] Permission denied: '\/etc\/passwd'\n$/, 'the kernel checks permissions');
    },
  },
  {
    name: 'python: stdin streams; -m, scripts with arguments, #! scripts, - and stdin scripts, -u',
    async run(m) {
      eq(text((await sh(m, `echo hi | python3 -c 'import sys; print(sys.stdin.read().upper(), end="")'`)).stdout), 'HI\n', 'stdin');
      eq(text((await sh(m, `yes | python3 -c 'import sys; print(sys.stdin.readline(), end="")'`)).stdout), 'y\n', 'yes | readline ends');
      eq(text((await sh(m, `echo '{"b": [1, 2]}' | python3 -m json.tool --compact`)).stdout), '{"b":[1,2]}\n', '-m json.tool');
      // Linux's /dev/stdin, /dev/stdout, /dev/stderr, /dev/zero and /dev/full, not Emscripten's console devices.
      const dev = await sh(m, `echo '{"a": [1, "é"]}' | python3 -c 'import json, sys
print(json.load(open("/dev/stdin"))); sys.stdout.flush()
with open("/dev/stdout", "w") as f: f.write("via /dev/stdout\\n")
with open("/dev/stderr", "w") as f: f.write("via /dev/stderr\\n")
print(open("/dev/zero", "rb").read(2))
try:
    with open("/dev/full", "w") as f: f.write("x")
except OSError as e: print("full:", e.strerror)' 2>&1`);
      eq(text(dev.stdout), "{'a': [1, 'é']}\nvia /dev/stdout\nvia /dev/stderr\nb'\\x00\\x00'\nfull: No space left on device\n", '/dev/stdin and friends');
      const fds = await sh(m, `python3 -c 'import sys; print(open(sys.argv[1]).read(), end="")' <(echo from a process substitution); echo piped | python3 -c 'print(open("/dev/fd/0").read(), end="")'`);
      eq(text(fds.stdout), 'from a process substitution\npiped\n', '/dev/fd/N');
      const s = await sh(m, `printf 'import sys\\nprint(__name__, sys.argv)\\n' > s.py
printf '#!/usr/bin/env python3\\nimport sys\\nprint("hash-bang", sys.argv[1:])\\n' > t; chmod +x t
python3 s.py 1 2; ./t 3; echo 'print("piped")' | python3; echo 'import sys; print(sys.argv)' | python3 - 4
python3 -u -c 'import sys; sys.stdout.write("u"); sys.stderr.write("e\\n"); sys.stdout.write("v\\n")' 2>&1`);
      eq(text(s.stderr), '', 'stderr');
      eq(text(s.stdout), "__main__ ['s.py', '1', '2']\nhash-bang ['3']\npiped\n['-', '4']\nue\nv\n", 'modes');
    },
  },
  {
    name: 'python: subprocess, os.system and os.popen run agentOS processes; asyncio runs on kernel poll',
    async run(m) {
      const r = await sh(m, `python3 -c '
import os, subprocess, sys
r = subprocess.run(["echo", "one"], capture_output=True, text=True)
print(repr(r.stdout), r.returncode)
print(subprocess.run("exit 3", shell=True).returncode)
print(subprocess.check_output(["tr", "a-z", "A-Z"], input=b"piped\\n"))
print(subprocess.run(["sh", "-c", "echo err >&2; echo out"], capture_output=True))
sys.stdout.flush()
print(os.system("echo from-system; exit 4") >> 8)
print(os.popen("echo popen").read().strip())
os.chdir("/etc"); print(subprocess.run(["pwd"], stdout=subprocess.PIPE).stdout)
try:
    subprocess.run(["no-such-command"])
except FileNotFoundError as e:
    print("FileNotFoundError", e.filename)
print(subprocess.run(["cat"], stdin=subprocess.DEVNULL, capture_output=True).stdout)
import asyncio
async def later(n):
    await asyncio.sleep(0.05)
    return n
async def main():
    return await asyncio.gather(later(1), later(2))
print(asyncio.run(main()))
'`);
      eq(text(r.stderr), '', 'stderr');
      eq(text(r.stdout), "'one\\n' 0\n3\nb'PIPED\\n'\nCompletedProcess(args=['sh', '-c', 'echo err >&2; echo out'], returncode=0, stdout=b'out\\n', stderr=b'err\\n')\n" +
        'from-system\n4\npopen\nb\'/etc\\n\'\nFileNotFoundError no-such-command\nb\'\'\n[1, 2]\n', 'stdout');
    },
  },
  {
    name: 'python: SIGINT raises KeyboardInterrupt (even in a busy loop); Python signal handlers run; SIGKILL ends it at once',
    async run(m) {
      const loop = 'import sys\ntry:\n    print("ready", flush=True)\n    while True: pass\nexcept KeyboardInterrupt:\n    print("caught", flush=True)\n    sys.exit(42)\n';
      let [pid, inW, out] = await spawnPiped(m, ['/opt/agentos/bin/python3', '-c', loop], '/tmp');
      await readUntil(m, out, 'ready');
      await m.kill(pid, SIGINT);
      eq((await readUntil(m, out, 'caught')).includes('caught'), true, 'KeyboardInterrupt caught');
      let st = await m.wait(pid);
      ok(WIFEXITED(st) && WEXITSTATUS(st) === 42, `status ${st}`);
      for (const fd of [inW, out]) await m.syscall('close', fd);

      // Uncaught, in a blocking read: a traceback, then death by SIGINT as CPython does.
      [pid, inW, out] = await spawnPiped(m, ['/opt/agentos/bin/python3', '-c', 'print("ready", flush=True); input()'], '/tmp');
      await readUntil(m, out, 'ready');
      await m.kill(pid, SIGINT);
      match(await readUntil(m, out, 'KeyboardInterrupt'), /KeyboardInterrupt/, 'traceback');
      st = await m.wait(pid);
      ok(WIFSIGNALED(st) && WTERMSIG(st) === SIGINT, `status ${st}`);
      for (const fd of [inW, out]) await m.syscall('close', fd);

      // A Python handler for another signal: the kernel delivers it, CPython runs it.
      const term = 'import os, signal, sys\ndef h(s, f):\n    os.write(1, b"term %d\\n" % s)\n    sys.exit(3)\nsignal.signal(signal.SIGTERM, h)\nprint("ready", flush=True)\nwhile True: pass\n';
      [pid, inW, out] = await spawnPiped(m, ['/opt/agentos/bin/python3', '-c', term], '/tmp');
      await readUntil(m, out, 'ready');
      await m.kill(pid, SIGTERM);
      match(await readUntil(m, out, 'term'), /term 15/, 'handler ran');
      st = await m.wait(pid);
      ok(WIFEXITED(st) && WEXITSTATUS(st) === 3, `status ${st}`);
      for (const fd of [inW, out]) await m.syscall('close', fd);

      [pid, inW, out] = await spawnPiped(m, ['/opt/agentos/bin/python3', '-c', 'print("ready", flush=True)\nwhile True: pass'], '/tmp');
      await readUntil(m, out, 'ready');
      await m.kill(pid, SIGKILL);
      st = await m.wait(pid);
      ok(WIFSIGNALED(st) && WTERMSIG(st) === SIGKILL, `status ${st}`);
      for (const fd of [inW, out]) await m.syscall('close', fd);
    },
  },
  {
    name: 'python: the REPL (forced with -i): prompts on stderr, multi-line blocks, Ctrl-C, Ctrl-D exits',
    async run(m) {
      const [pid, inW, out] = await spawnPiped(m, ['/opt/agentos/bin/python3', '-i', '-q'], '/tmp');
      match(await readUntil(m, out, '>>> '), /^>>> $/, 'first prompt');
      await m.syscall('write', inW, new TextEncoder().encode('while True:\n'));
      eq(await readUntil(m, out, '... '), '... ', 'continuation prompt');
      await m.kill(pid, SIGINT); // Ctrl-C drops the pending block
      eq(await readUntil(m, out, '>>> '), '\nKeyboardInterrupt\n>>> ', 'Ctrl-C');
      await m.syscall('write', inW, new TextEncoder().encode('x = 6\nfor i in range(3):\n    x += i\n\nprint(x * 7)\n1/0\n'));
      const acc = await readUntil(m, out, 'ZeroDivisionError');
      await m.syscall('close', inW); // Ctrl-D
      const rest = await readUntil(m, out, '\u0000');
      const all = acc + rest;
      match(all, /^>>> \.\.\. \.\.\. >>> 63\n>>> /, 'continuation prompts, then the block runs');
      match(all, /ZeroDivisionError: division by zero\n>>> /, 'an error does not end the REPL');
      const st = await m.wait(pid);
      ok(WIFEXITED(st) && WEXITSTATUS(st) === 0, `status ${st}`);
      await m.syscall('close', out);
    },
  },
  {
    name: 'python: pip under network none names the network policy; a wheel in the VFS installs; fresh interpreters',
    async run(m) {
      const r = await sh(m, `python3 -c '
import zipfile
with zipfile.ZipFile("hello_py-1.0-py3-none-any.whl", "w") as z:
    z.writestr("hello_py/__init__.py", "def greet(): return \\"hello from a wheel\\"\\n")
    z.writestr("hello_py-1.0.dist-info/METADATA", "Metadata-Version: 2.1\\nName: hello-py\\nVersion: 1.0\\n")
    z.writestr("hello_py-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    z.writestr("hello_py-1.0.dist-info/entry_points.txt", "[console_scripts]\\nhello-py = hello_py:greet\\n")
    z.writestr("hello_py-1.0.dist-info/RECORD", "")
'
pip install requests; echo "status=$?"
pip install ./hello_py-1.0-py3-none-any.whl && python3 -c 'import hello_py; print(hello_py.greet())'
pip list | grep hello
python3 -c 'import builtins; builtins.leak = 1'; python3 -c 'import builtins; print(hasattr(builtins, "leak"))'`, '/home/user');
      eq(text(r.stderr), "ERROR: cannot reach https://pypi.org/simple/requests/: network access to https://pypi.org denied by the VM's network policy (network: none)\n", 'offline error');
      eq(text(r.stdout), 'Collecting requests\nstatus=1\nSuccessfully installed hello-py-1.0\nhello from a wheel\nhello-py 1.0\nFalse\n', 'stdout');
      // As root, pip installs system-wide, as pip does when site-packages is writable.
      eq(text((await sh(m, 'ls /usr/local/lib/python3*/site-packages/hello_py /usr/local/bin/hello-py')).stdout), '/usr/local/bin/hello-py\n\n/usr/local/lib/python3.14/site-packages/hello_py:\n__init__.py\n__pycache__\n', 'files (the import above wrote its bytecode cache)');
    },
  },
];

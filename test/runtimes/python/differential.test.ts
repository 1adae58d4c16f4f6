// Differential: the same scripts run by the host's CPython and by agentOS's
// python3; stdout, exit status and the last line of stderr (the exception)
// must agree. The scripts avoid what differs between Python versions
// (traceback layout, version strings, errno numbers).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import { WEXITSTATUS } from '../../../src/abi/wait.js';

interface Script {
  name: string;
  code: string;
  args?: string[];
  stdin?: string;
}

const SCRIPTS: Script[] = [
  { name: 'arithmetic and formatting', code: 'print(2**100, 7//2, -7//2, 7%-3, round(2.675, 2), f"{3.14159:.3f}", hex(255), 1e300*1e10)' },
  { name: 'strings and bytes', code: 'print("ÄbC".lower(), "a,b,,c".split(","), b"\\xff\\x00".hex(), "é".encode(), "x".center(5, "*"))' },
  { name: 'collections and sorting', code: 'import collections as c; print(sorted(c.Counter("mississippi").items()), c.deque([1,2,3], maxlen=2))' },
  { name: 'json round trip', code: 'import json; print(json.dumps({"b": [1, 2.5, None, True], "a": "é"}, sort_keys=True), json.loads("[1, {\\"x\\": null}]"))' },
  { name: 're', code: 'import re; print(re.findall(r"(\\w)(\\d+)", "a1 b22 c333"), re.sub(r"\\s+", "-", "a  b\\tc"))' },
  { name: 'argv', code: 'import sys; print(sys.argv)', args: ['one', 'two words', ''] },
  { name: 'stdin lines', code: 'import sys\nfor i, l in enumerate(sys.stdin): print(i, l.rstrip()[::-1])', stdin: 'abc\ndef\n\nxyz' },
  { name: 'sys.exit with a status', code: 'import sys; print("before"); sys.exit(5)' },
  { name: 'sys.exit with a message', code: 'import sys; sys.exit("fatal: no")' },
  { name: 'uncaught exception', code: 'print("x"); raise ValueError("bad value")' },
  { name: 'files in a temporary directory', code: 'import tempfile, os\nd = tempfile.mkdtemp()\np = os.path.join(d, "f")\nopen(p, "w").write("a\\nb\\n")\nopen(p, "a").write("c")\nprint(open(p).readlines(), os.path.getsize(p))\nos.remove(p); os.rmdir(d); print(os.path.exists(d))' },
  { name: 'generators and classes', code: 'class A:\n    def __init__(s, n): s.n = n\n    def __iter__(s): yield from range(s.n)\n    def __repr__(s): return f"A({s.n})"\nprint(list(A(4)), [A(1)], sum(x*x for x in A(10)))' },
  { name: 'itertools and functools', code: 'import itertools as it, functools as ft; print(list(it.permutations("abc", 2))[:4], ft.reduce(lambda a, b: a*b, range(1, 10)))' },
  { name: 'hashlib and base64', code: 'import hashlib, base64; print(hashlib.sha256(b"agentOS").hexdigest(), base64.b64encode(b"\\x00\\xffhi"))' },
  { name: 'datetime arithmetic', code: 'import datetime as d; print(d.date(2024, 2, 28) + d.timedelta(days=2), d.datetime(2020, 1, 1, 12).isoformat())' },
  { name: 'decimal and fractions', code: 'from decimal import Decimal as D; from fractions import Fraction as F; print(D("0.1") + D("0.2"), F(3, 4) - F(1, 6))' },
  { name: 'KeyError exit', code: 'd = {}\nd["missing"]' },
  // Threads (issue 16, item 8): code whose answer does not depend on threads running at the same time.
  { name: 'threading: Thread targets, results, join, is_alive, names', code: 'import threading\nres = {}\nlock = threading.Lock()\ndef work(n):\n    with lock: res[n] = sum(range(n)) + (threading.current_thread().name == "w%d" % n)\nts = [threading.Thread(target=work, args=(i,), name="w%d" % i) for i in range(5)]\nfor t in ts: t.start()\nfor t in ts: t.join()\nprint(sorted(res.items()), [t.is_alive() for t in ts], threading.current_thread().name, threading.active_count())' },
  { name: 'threading: a Thread subclass, an exception in a thread (excepthook), Event set before wait', code: 'import threading, sys\nclass T(threading.Thread):\n    def run(self): self.out = [i * i for i in range(4)]\nt = T(); t.start(); t.join(); print(t.out)\nthreading.excepthook = lambda a: print("hook:", a.exc_type.__name__, a.exc_value, a.thread.name)\nb = threading.Thread(target=lambda: 1 / 0, name="bad"); b.start(); b.join()\ne = threading.Event()\nthreading.Thread(target=e.set).start()\nprint(e.wait(5), e.is_set())' },
  { name: 'concurrent.futures: ThreadPoolExecutor map, submit, as_completed, exceptions, initializer', code: 'import concurrent.futures as cf\ndef sq(x):\n    if x == 3: raise ValueError("three")\n    return x * x\nseen = []\nwith cf.ThreadPoolExecutor(max_workers=4, initializer=seen.append, initargs=("init",)) as ex:\n    print(list(ex.map(abs, [-1, -2, 3])))\n    fs = {ex.submit(sq, i): i for i in range(5)}\n    for f in cf.as_completed(fs):\n        pass\n    print(sorted((fs[f], f.exception() is None and f.result()) for f in fs))\n    print(repr(fs and [f for f in fs if fs[f] == 3][0].exception()))\n    done, _ = cf.wait(list(fs)); print(len(done))\nprint(set(seen))' },
  { name: 'queue and asyncio.to_thread', code: 'import queue, threading, asyncio\nq = queue.Queue()\nfor i in range(3): threading.Thread(target=q.put, args=(i,)).start()\nprint(sorted(q.get() for _ in range(3)), q.empty())\nasync def main():\n    return await asyncio.gather(asyncio.to_thread(sum, [1, 2, 3]), asyncio.to_thread(max, 4, 9))\nprint(asyncio.run(main()))' },
  { name: 'non-ASCII text: str, bytes, files, argv and stdin', code: 'import sys, os, unicodedata\ns = "héllo wörld 日本 😀"\nprint(len(s), len(s.encode()), s.upper(), s[::-1], s.encode("utf-8")[:8], ascii(s))\nopen("naïve-日本.txt", "w", encoding="utf-8").write(s)\nprint(os.path.getsize("naïve-日本.txt"), "naïve-日本.txt" in os.listdir("."), open("naïve-日本.txt", encoding="utf-8").read() == s)\nos.remove("naïve-日本.txt")\nprint(sys.argv[1:], [len(unicodedata.normalize("NFD", w)) for w in sys.stdin.read().split()])\nsys.stdout.flush(); sys.stdout.buffer.write("ünïcode\\n".encode())', args: ['åäö', '☃ 𝄞'], stdin: 'åäö ☃ 𝄞 ｱ\n' },
  { name: 'SIGPIPE ignored: EPIPE is BrokenPipeError; subprocess children get the default back unless restore_signals=False', code: 'import os, signal, subprocess\nprint([signal.getsignal(s) == signal.SIG_IGN for s in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM)])\nr, w = os.pipe(); os.close(r)\ntry: os.write(w, b"x")\nexcept BrokenPipeError: print("BrokenPipeError")\nfor restore in (True, False):\n    p = subprocess.run(["/bin/sh", "-c", "yes | head -1"], capture_output=True, text=True, restore_signals=restore)\n    print(restore, repr(p.stdout), p.returncode, p.stderr.splitlines()[-1:])' },
  { name: 'stdin read all', code: 'import sys; data = sys.stdin.read(); print(len(data), data.count("\\n"))', stdin: 'x\n'.repeat(5000) },
];

const host = spawnSync('python3', ['-c', 'pass']).status === 0;
const dec = new TextDecoder();
const lastLine = (s: string) => s.trimEnd().split('\n').pop() ?? '';

test('differential: agentOS python3 and the host CPython agree', { skip: !host && 'no host python3' }, async (t) => {
  const m = await boot();
  try {
    // Every script in the byte locale and again in UTF-8 (the VM's default).
    for (const env of [{ LC_ALL: 'C' }, { LANG: 'C.UTF-8' }] as Record<string, string>[]) for (const s of SCRIPTS) await t.test(`${s.name} (${Object.entries(env)[0].join('=')})`, async () => {
      const args = s.args ?? [];
      const h = spawnSync('python3', ['-c', s.code, ...args], { input: s.stdin ?? '', encoding: 'utf8', cwd: '/tmp', env: { PATH: process.env.PATH, HOME: '/tmp', ...env } });
      const a = await m.run(['/opt/agentos/bin/python3', '-c', s.code, ...args], { stdin: s.stdin ?? '', cwd: '/tmp', env: { PATH: '/usr/bin:/bin', HOME: '/tmp', ...env } });
      assert.equal(dec.decode(a.stdout), h.stdout, `${s.name}: stdout`);
      assert.equal(WEXITSTATUS(a.status), h.status, `${s.name}: exit status`);
      assert.equal(lastLine(dec.decode(a.stderr)), lastLine(h.stderr), `${s.name}: last line of stderr`);
    });
  } finally {
    await m.stop();
  }
});

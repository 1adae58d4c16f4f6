// Issue 15, items 3–7 and 9 through the CLI, read via a pipe, on realistic
// scripts; compared with bash (and GNU dd, printf, find, xargs) on the same
// files where bash applies. Items 8 and 10: test/security/sudo.test.ts,
// test/cli/start.test.ts.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));
const ENV = { ...process.env, LANG: 'C.UTF-8' };
const agentos = (args: string[], input = '') =>
  spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8', timeout: 120_000, env: ENV });

/** The script in agentOS (`agentos exec`, stdout a pipe) and in bash in a fresh directory: [stdout, status] each. */
function both(script: string): { vm: [string, number | null]; bash: [string, number | null] } {
  const vm = agentos(['exec', '--cwd', '/tmp', '--', script]);
  const dir = mkdtempSync(join(tmpdir(), 'agentos-bash-'));
  try {
    const b = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8', env: ENV, timeout: 60_000 });
    return { vm: [vm.stdout, vm.status], bash: [b.stdout, b.status] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function sameAsBash(script: string): void {
  const r = both(script);
  assert.deepEqual(r.vm, r.bash, script);
}

test('item 3: kill -0 / kill -s 0 tell whether a process is alive, as in bash', () => {
  sameAsBash('sleep 5 & p=$!; kill -0 $p; echo alive=$?; kill -s 0 $$; echo self=$?; kill $p; wait $p; echo waited=$?; kill -0 $p 2>/dev/null; echo gone=$?');
});

test('item 3: set -eo pipefail ending a script prints nothing spurious', () => {
  const r = agentos(['exec', '--', 'set -eo pipefail; printf "a\\nb\\n" | sort | head -1']);
  assert.deepEqual([r.stdout, r.stderr, r.status], ['a\n', '', 0]);
});

test('item 3: printf conversions and flags (builtin and the program), as in bash', () => {
  const formats = "'%08.2f|%-8.3e|%+.3g|% d|%#x|%#o|%05d|%-5s|%.20f|%10.4s|%c|%%\\n' 3.14159 12345.678 0.0001234 42 255 8 42 ab 0.1 abcdefgh xyz";
  sameAsBash(`printf ${formats}; env printf ${formats}; printf '%s\\n' 'é ü'`);
});

test('item 3: printf, test and [ as programs (find -exec, xargs)', () => {
  sameAsBash("mkdir -p d && touch d/a d/b && find d -type f -exec test -f {} \\; -print | sort; echo x y | xargs printf '<%s>'; echo; env [ 2 -gt 1 ] && echo yes");
});

test('item 4: a binary file is refused with 126 by ./FILE and by bash FILE, as bash does; a script without #! runs', () => {
  const script = "printf '\\177ELF\\002\\001\\001\\000\\000\\000' > elf; chmod +x elf; ./elf; echo status=$?; bash ./elf; echo bash=$?; printf 'echo plain\\n' > s; chmod +x s; ./s";
  const r = both(script);
  assert.deepEqual(r.vm, r.bash);
  const err = agentos(['exec', '--cwd', '/tmp', '--', script]).stderr;
  assert.match(err, /\.\/elf: cannot execute binary file: Exec format error\n\.\/elf: \.\/elf: cannot execute binary file\n$/);
  // execvp's /bin/sh fallback (env, find -exec, xargs) is bash here: it refuses too.
  assert.equal(agentos(['exec', '--cwd', '/tmp', '--', `{ ${script}; } >/dev/null 2>&1; env ./elf; echo env=$?`]).stdout, 'env=126\n');
});

test('item 5: large reads and dd (bs=1M, count, fullblock, append, notrunc, status=none), as GNU dd', () => {
  sameAsBash([
    'dd if=/dev/zero bs=1M count=8 status=none | wc -c',
    'head -c 3000000 /dev/zero > big; dd if=big of=copy bs=3000000 count=1 2>&1 | head -2; wc -c < copy',
    'cat big | dd iflag=fullblock bs=1M count=2 status=none | wc -c',
    'printf abc > f; printf XY | dd of=f oflag=append conv=notrunc status=none; cat f; echo',
    'printf 123456 > g; printf ab | dd of=g bs=1 seek=2 conv=notrunc status=none; cat g; echo',
  ].join('; '));
});

test('item 6: snapshot restore inside a persistent VM lasts, ends the exec cleanly, leaves no temporary file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-restore-'));
  const state = join(dir, 'vm');
  try {
    const r = agentos(['exec', '--state', state, '--', 'echo old > f; agentos snapshot create s1 >/dev/null; echo new > f; agentos snapshot restore s1; echo not-reached']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /restored 's1'/);
    assert.equal(agentos(['exec', '--state', state, '--', 'cat f']).stdout, 'old\n');
    assert.ok(!readdirSync(state).some((n) => n.endsWith('.tmp')), readdirSync(state).join(' '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('item 7: agentos shell with stdin not a terminal reads the stream as bash -s (loops, here-documents, status)', () => {
  const script = 'for i in 1 2; do\n  echo $i\ndone\ncat <<EOF\nhi $((1+2))\nEOF\nexit 3\n';
  const r = agentos(['shell'], script);
  const b = spawnSync('bash', ['-s'], { input: script, encoding: 'utf8' });
  assert.deepEqual([r.stdout, r.status], [b.stdout, b.status]);
  assert.equal(r.stdout, '1\n2\nhi 3\n');
});

test('item 9: --json says timedOut and truncated', () => {
  const t = agentos(['exec', '--json', '--timeout', '0.5', '--', 'sleep 10']);
  assert.equal(t.status, 124);
  assert.deepEqual(JSON.parse(t.stdout), { stdout: '', stderr: '', exitCode: 124, timedOut: true, truncated: false });
  const c = agentos(['exec', '--json', '--max-output', '10', '--', 'seq 1000']);
  const j = JSON.parse(c.stdout) as { stdout: string; timedOut: boolean; truncated: boolean; exitCode: number };
  assert.deepEqual([j.stdout, j.timedOut, j.truncated, j.exitCode], ['1\n2\n3\n4\n5\n', false, true, 0]);
});

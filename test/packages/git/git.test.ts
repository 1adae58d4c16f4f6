// agentOS git against the real git on this machine:
//  1. differential cases (cases.ts, run by differential.ts): the same scripts
//     through host git and agentOS git, stdout and status byte for byte,
//     stderr exactly (unless a case says why not); object ids must match, so
//     dates are fixed — under LC_ALL=C here, under LANG=C.UTF-8 in utf8.test.ts;
//  2. interoperability both ways: a repository built in agentOS, exported to
//     the host, passes `git fsck --full` and reads the same in git; a
//     repository built (and packed) by git, imported into the VM, reads and
//     checks out the same in agentOS git;
//  3. a measurement: status and add+commit of 1,000 files, against git.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Stat } from '../../../src/abi/stat.js';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/node/index.js';
import { CASES } from './cases.js';
import { DIVERGENCES, gitDifferential } from './differential.js';
import { env, invocations, runHost, runVm, Workspace } from './harness.js';

let m: Machine;
let ws: Workspace;

before(async () => {
  ws = new Workspace('agentos-git-');
  m = await boot();
});

after(async () => {
  ws?.dispose();
  if (m) await m.stop();
});

const hostGit = spawnSync('git', ['--version'], { encoding: 'utf8' });

test('git: the oracle is the real git', () => {
  assert.match(hostGit.stdout ?? '', /^git version \d+\.\d+/, 'the host needs git (Debian package git)');
});

test('git: the case list is well formed', () => {
  const names = CASES.map((c) => c.name);
  assert.equal(new Set(names).size, names.length, 'case names must be unique');
  const total = CASES.reduce((n, c) => n + invocations(c.script), 0);
  assert.ok(total >= 80, `at least 80 git invocations; there are ${total}`);
  for (const k of Object.keys(DIVERGENCES)) assert.ok(names.includes(k), `divergence for a case that does not exist: ${k}`);
  for (const c of CASES) if (c.stderr === 'ignore') assert.ok(c.why, `${c.name}: say why stderr is not compared`);
});

gitDifferential('C');

// ---- moving trees between the host and the VM ----------------------------------------

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

async function vmToHost(from: string, to: string): Promise<void> {
  mkdirSync(to, { recursive: true });
  for (const e of await m.readdir(from)) {
    if (e.name === '.' || e.name === '..') continue;
    const src = `${from}/${e.name}`;
    const dst = join(to, e.name);
    const st = (await m.syscall('lstat', src)) as unknown as Stat;
    if ((st.mode & S_IFMT) === S_IFDIR) await vmToHost(src, dst);
    else if ((st.mode & S_IFMT) === S_IFLNK) symlinkSync((await m.syscall('readlink', src)) as string, dst);
    else {
      writeFileSync(dst, await m.readFile(src));
      chmodSync(dst, st.mode & 0o777);
    }
  }
}

async function hostToVm(from: string, to: string): Promise<void> {
  await m.mkdirp(to);
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const dst = `${to}/${name}`;
    const st = lstatSync(src);
    if (st.isDirectory()) await hostToVm(src, dst);
    else if (st.isSymbolicLink()) await m.syscall('symlink', readlinkSync(src), dst);
    else await m.writeFile(dst, readFileSync(src), st.mode & 0o777);
  }
}

/** A history with everything git stores: nested directories, a binary, an executable, a symlink, branches, merges, tags. */
const RICH = `git init -q -b main
mkdir -p docs/deep/deeper src
printf '# Title\\n\\nSome text.\\n' > README.md
printf 'deep\\n' > docs/deep/deeper/file.txt
printf '\\000\\001\\002binary\\377\\376' > logo.bin
printf '#!/bin/sh\\necho run\\n' > run.sh
chmod 755 run.sh
ln -s README.md readme-link
ln -s docs/deep dir-link
printf 'a = 1\\n' > src/a.py
git add -A
git commit -qm 'initial import'
tick
git checkout -qb feature
printf 'b = 2\\n' > src/b.py
git add src/b.py
git commit -qm 'feature: b'
tick
printf 'a = 10\\n' > src/a.py
git commit -qam 'feature: change a'
git checkout -q main
tick
printf '# Title\\n\\nSome text.\\nMore text.\\n' > README.md
git commit -qam 'main: readme'
tick
git merge -q feature -m 'Merge branch feature'
git tag v1.0
tick
git tag -a v1.1 -m 'annotated release'
git checkout -qb hotfix
git rm -q logo.bin
printf '\\000new binary\\n' > logo2.bin
git add logo2.bin
tick
git commit -qm 'hotfix: replace logo'
git checkout -q main
tick
git merge -q --no-ff hotfix -m 'Merge hotfix'
git mv src/b.py src/bee.py
tick
git commit -qm 'rename b'
`;

const READ = 'git log --all --format="%H %T %P %an %ae %at %s"; git log -p --stat --all; git status --porcelain; git diff; git diff --cached; git rev-parse main feature hotfix v1.0 v1.1 v1.1^{}; git ls-files -s; git show v1.1';

test('git interop: a repository made in agentOS passes git fsck and reads the same in git', async () => {
  const d = await ws.next(m);
  const made = await runVm(m, RICH + READ, d);
  assert.equal(made.exitCode, 0, made.stderr);
  await vmToHost(d.cwd, d.cwd);
  const fsck = spawnSync('git', ['fsck', '--full', '--strict'], { cwd: d.cwd, env: env(d), encoding: 'utf8' });
  assert.equal(fsck.status, 0, `git fsck --full: ${fsck.stdout}${fsck.stderr}`);
  assert.doesNotMatch(fsck.stdout + fsck.stderr, /error|missing|broken|corrupt|bad/i, 'git fsck found problems');
  const host = runHost(READ, d);
  assert.equal(host.exitCode, 0, host.stderr);
  assert.equal(host.stdout, made.stdout, 'git reads the history, the index and the objects as agentOS wrote them');
  const porcelain = spawnSync('git', ['status', '--porcelain'], { cwd: d.cwd, env: env(d), encoding: 'utf8' });
  assert.equal(porcelain.stdout, '', 'the exported work tree is clean for git');
  const tree = spawnSync('git', ['ls-tree', '-r', 'main'], { cwd: d.cwd, env: env(d), encoding: 'utf8' }).stdout;
  assert.match(tree, /^120000 blob \S+\treadme-link$/m, 'a symlink is stored as a link');
  assert.match(tree, /^100755 blob \S+\trun\.sh$/m, 'the executable keeps its mode');
  assert.match(tree, /^100644 blob \S+\tdocs\/deep\/deeper\/file\.txt$/m, 'nested directories');
  const merge = spawnSync('git', ['cat-file', '-p', 'main~1'], { cwd: d.cwd, env: env(d), encoding: 'utf8' }).stdout;
  assert.equal((merge.match(/^parent /gm) ?? []).length, 2, 'the merge commit has two parents');
  assert.equal(spawnSync('git', ['cat-file', '-t', 'v1.1'], { cwd: d.cwd, env: env(d), encoding: 'utf8' }).stdout, 'tag\n');
});

test('git interop: a repository made (and packed) by git reads and checks out the same in agentOS', async () => {
  const d = await ws.next(m);
  const made = runHost(`${RICH}git gc -q\nprintf 'local edit\\n' >> README.md\nprintf 'new\\n' > untracked.txt\n`, d);
  assert.equal(made.exitCode, 0, made.stderr);
  assert.ok(readdirSync(join(d.cwd, '.git/objects/pack')).some((f) => f.endsWith('.pack')), 'the objects are packed');
  await hostToVm(d.cwd, d.cwd);
  const script = `${READ.replace('git status --porcelain; ', 'git status; git status -s; ')}; git branch -v; git tag -n
git checkout feature && git status -s && ls -A && git log --oneline -2
git checkout -q -- README.md 2>/dev/null; git checkout -q main 2>&1; git reset -q --hard && git checkout hotfix~1 && git status | head -1 && ls -A
git checkout -q main && git diff v1.0 HEAD --stat && git log --oneline --all`;
  const want = runHost(script, d);
  const got = await runVm(m, script, d);
  assert.equal(want.exitCode, 0, want.stderr);
  assert.equal(got.stdout, want.stdout);
  assert.equal(got.stderr, want.stderr);
  assert.equal(got.exitCode, want.exitCode);
});

/** State the everyday commands leave behind: a stash, reflogs, a linked worktree, a rebase stopped at a conflict. */
const STATEFUL = `git init -q -b main
printf 'a\\nb\\nc\\n' > f.txt
printf 'keep\\n' > k.txt
git add .
git commit -qm base
tick
git worktree add -q -b wtb wt
printf 'wt\\n' > wt/w.txt
git -C wt add w.txt
tick
git -C wt commit -qm 'in the worktree'
git checkout -qb side
printf 'a\\nb side\\nc\\n' > f.txt
tick
git commit -qam side
git checkout -q main
printf 'a\\nb main\\nc\\n' > f.txt
tick
git commit -qam main
printf 'stashed\\n' >> k.txt
tick
git stash push -q -m 'work in progress'
git checkout -q side
tick
git rebase main >/dev/null 2>&1 || true
`;

const READ_STATE = 'git status; git stash list; git stash show -p; git reflog; git reflog show wtb; git worktree list --porcelain; git -C wt log --oneline; git rebase --abort && git status -s && git log --oneline --all && git stash pop && git status -s';

for (const [maker, reader] of [['agentOS', 'git'], ['git', 'agentOS']] as const) {
  test(`git interop: a stash, reflogs, a worktree and a stopped rebase made by ${maker} are read and carried on by ${reader}`, async () => {
    const d = await ws.next(m);
    if (maker === 'agentOS') {
      const made = await runVm(m, STATEFUL, d);
      assert.equal(made.exitCode, 0, made.stderr);
      await vmToHost(d.cwd, d.cwd);
      const fsck = spawnSync('git', ['fsck', '--full', '--strict'], { cwd: d.cwd, env: env(d), encoding: 'utf8' });
      assert.equal(fsck.status, 0, `git fsck --full: ${fsck.stdout}${fsck.stderr}`);
    } else {
      const made = runHost(STATEFUL, d);
      assert.equal(made.exitCode, 0, made.stderr);
      await hostToVm(d.cwd, d.cwd);
    }
    assert.ok(existsSync(join(d.cwd, '.git/rebase-merge')), 'the rebase stopped at the conflict');
    const want = runHost(READ_STATE, d);
    const got = await runVm(m, READ_STATE, d);
    assert.equal(want.exitCode, 0, want.stderr);
    assert.match(want.stdout, /^interactive rebase in progress|^You are currently rebasing/m);
    assert.match(want.stdout, /stash@\{0\}: On main: work in progress/);
    assert.match(want.stdout, /^worktree .*\/wt\nHEAD [0-9a-f]{40}\nbranch refs\/heads\/wtb$/m);
    assert.equal(got.stdout, want.stdout);
    assert.equal(got.stderr, want.stderr);
    assert.equal(got.exitCode, want.exitCode);
  });
}

// ---- a measurement -------------------------------------------------------------------

/** Branches that cross, a merge whose first parent sits left of it, and an octopus merge (git makes it; agentOS git cannot). */
const BRANCHY = `git init -q -b master
c() { printf '%s\\n' "$1" > "$1.txt"; git add "$1.txt"; tick; git commit -qm "$1"; }
c base
git checkout -qb a; c a1; c a2
git checkout -q master; c m1
git checkout -qb b; c b1; c b2
git checkout -q a; c a3
git checkout -q master; c m2
git checkout -qb c master~1; c c1
git checkout -q master; c m3
tick; git merge -q --no-ff a -m 'merge a'
tick; git merge -q b c -m 'octopus b c'
git checkout -qb d master~2; c d1
git checkout -qb e base; c e1
git checkout -q master; c m4
tick; git merge -q d -m 'merge d'
git checkout -q e; c e2
git checkout -q master
`;

test('git log --graph: a history git built (crossing lines, an octopus merge) draws the same in agentOS', async () => {
  const d = await ws.next(m);
  const built = runHost(BRANCHY, d);
  assert.equal(built.exitCode, 0, built.stderr);
  await hostToVm(d.cwd, d.cwd);
  const script = [
    'git log --graph --oneline --all',
    'git log --graph -n 4',
    "git log --graph --pretty=format:'%s' -n 6; echo '<end>'",
    'git log --graph --stat -3 --format=%s',
    'git log --graph --first-parent --oneline',
    'git log --graph --oneline -n 3; git log --graph --oneline --skip=2 -n 3',
    'git log --graph --oneline --grep=merge',
    'git log --topo-order --oneline --all',
    'git log --graph --oneline a..master',
    'git log --graph --decorate --oneline --all',
    'git log --graph --reverse; echo "status $?"',
  ].join('\n');
  const want = runHost(script, d);
  const got = await runVm(m, script, d);
  assert.deepEqual(got, want);
  assert.match(want.stdout, /^\*-\. \\ {3}\w+ octopus b c$/m, 'the fixture has an octopus merge');
});

test('git: 1,000 files — add -A + commit, then status (agentOS against git)', async () => {
  const d = await ws.next(m);
  const files: [string, string][] = [];
  for (let i = 0; i < 1000; i++) files.push([`d${i % 10}/f${i}.txt`, `file ${i}\n${'x'.repeat(i % 50)}\n`]);
  for (const [rel, text] of files) {
    mkdirSync(join(d.cwd, rel, '..'), { recursive: true });
    writeFileSync(join(d.cwd, rel), text);
    await m.mkdirp(`${d.cwd}/${rel.slice(0, rel.indexOf('/'))}`);
    await m.writeFile(`${d.cwd}/${rel}`, text);
  }
  const steps = {
    'init': 'git init -q',
    'add -A && commit': 'git add -A && git commit -qm thousand && git rev-parse HEAD^{tree}',
    'status (clean)': 'git status --porcelain',
    'status (10 changed)': 'for i in 1 2 3 4 5 6 7 8 9; do echo more >> d$i/f$i.txt; done; echo more >> d0/f10.txt; git status --porcelain',
  };
  const rows: string[] = [];
  const outs: [string, string][] = [];
  for (const [name, script] of Object.entries(steps)) {
    let t = performance.now();
    const want = runHost(script, d);
    const hostMs = performance.now() - t;
    // the VM runs on its own copy of the files at the same path: same work, same results
    t = performance.now();
    const got = await runVm(m, script, d);
    const vmMs = performance.now() - t;
    outs.push([want.stdout, got.stdout]);
    assert.equal(got.exitCode, 0, `${name}: ${got.stderr}`);
    rows.push(`  ${name.padEnd(22)} git ${hostMs.toFixed(0).padStart(6)} ms   agentOS ${vmMs.toFixed(0).padStart(6)} ms   ×${(vmMs / hostMs).toFixed(1)}`);
  }
  console.log(`git 1,000 files (each through bash -c, process start included):\n${rows.join('\n')}`);
  for (const [want, got] of outs) assert.equal(got, want, 'same tree id and the same status as git');
});

test('git: network operations fail clearly (the default policy has no network; only http(s) transports)', async () => {
  const d = await ws.next(m);
  const r = await runVm(m, 'git clone https://example.com/repo.git; echo "status=$?"; git clone git@example.com:x/y.git; echo "status=$?"; ls -A', d);
  assert.match(r.stderr, /^Cloning into 'repo'\.\.\.\nfatal: unable to access 'https:\/\/example\.com\/repo\.git': network access to https:\/\/example\.com denied by the VM's network policy \(network: none\)\n/);
  assert.match(r.stderr, /\nfatal: unable to access 'git@example\.com:x\/y\.git': the ssh transport is not available in this VM \(use an http\(s\) URL\)\n$/);
  assert.equal(r.stdout, 'status=128\nstatus=128\n', 'nothing is created');
});

/** A small deterministic PRNG (mulberry32) so the generated edits are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('git: diff hunks match git on 80 generated edits (xdiff choices, indent heuristic)', async () => {
  const d = await ws.next(m);
  const rnd = prng(20240611);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const vocab = ['', '', '{', '}', '\treturn 0;', '\tx++;', 'int a;', 'foo();', '\tif (x) {', '\t}', '    indented', 'end', '#include <x.h>'];
  const line = () => (rnd() < 0.5 ? pick(vocab) : `line ${Math.floor(rnd() * 40)}`);
  const files: [string, string, string][] = [];
  for (let k = 0; k < 80; k++) {
    const base = Array.from({ length: 5 + Math.floor(rnd() * 40) }, line);
    const next = [...base];
    for (let e = 1 + Math.floor(rnd() * 4); e > 0; e--) {
      const at = Math.floor(rnd() * (next.length + 1));
      const del = Math.floor(rnd() * 4);
      const ins = Array.from({ length: Math.floor(rnd() * 4) }, line);
      next.splice(at, Math.min(del, next.length - at), ...ins);
    }
    const text = (ls: string[]) => ls.join('\n') + (rnd() < 0.9 ? '\n' : '');
    files.push([`f${String(k).padStart(2, '0')}.txt`, text(base), text(next)]);
  }
  const put = async (which: 1 | 2) => {
    for (const f of files) {
      writeFileSync(join(d.cwd, f[0]), f[which]);
      await m.writeFile(`${d.cwd}/${f[0]}`, f[which]);
    }
  };
  await put(1);
  const script = 'git init -q && git add -A && git commit -qm base';
  assert.equal(runHost(script, d).exitCode, 0);
  assert.equal((await runVm(m, script, d)).exitCode, 0);
  await put(2);
  const want = runHost('git diff', d);
  const got = await runVm(m, 'git diff', d);
  const split = (s: string) => s.split(/^(?=diff --git )/m);
  const w = split(want.stdout);
  const g = split(got.stdout);
  const bad = w.filter((x, i) => x !== g[i]).map((x) => `--- git:\n${x}--- agentOS:\n${g[w.indexOf(x)] ?? ''}`);
  console.log(`git diff on generated edits: ${w.length - bad.length}/${w.length} file diffs identical`);
  assert.equal(bad.length, 0, bad.slice(0, 3).join('\n'));
  assert.equal(got.stdout, want.stdout);
});

test('git: three-way merges match git on 40 generated pairs of edits (clean and conflicting)', async () => {
  const d = await ws.next(m);
  const rnd = prng(424242);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const line = () => (rnd() < 0.3 ? pick(['', '{', '}', 'x']) : `l${Math.floor(rnd() * 1000)}`);
  const edit = (ls: string[]) => {
    const out = [...ls];
    for (let e = 1 + Math.floor(rnd() * 3); e > 0; e--) {
      const at = Math.floor(rnd() * (out.length + 1));
      out.splice(at, Math.min(Math.floor(rnd() * 3), out.length - at), ...Array.from({ length: Math.floor(rnd() * 3) }, line));
    }
    return out;
  };
  const files = Array.from({ length: 40 }, (_, k) => {
    const base = Array.from({ length: 6 + Math.floor(rnd() * 30) }, line);
    return { name: `m${String(k).padStart(2, '0')}.txt`, base, ours: edit(base), theirs: edit(base) };
  });
  const put = async (which: 'base' | 'ours' | 'theirs') => {
    for (const f of files) {
      const text = f[which].join('\n') + '\n';
      writeFileSync(join(d.cwd, f.name), text);
      await m.writeFile(`${d.cwd}/${f.name}`, text);
    }
  };
  const step = async (script: string) => {
    const a = runHost(script, d);
    const b = await runVm(m, script, d);
    assert.equal(a.exitCode, 0, a.stderr);
    assert.equal(b.exitCode, 0, b.stderr);
  };
  await put('base');
  await step('git init -q && git add -A && git commit -qm base && git checkout -qb theirs');
  await put('theirs');
  await step('tick; git commit -qam theirs && git checkout -q master');
  await put('ours');
  await step('tick; git commit -qam ours');
  const script = 'tick; git merge theirs; echo "status=$?"; git status -s; git ls-files -s; cat m*.txt';
  const want = runHost(script, d);
  const got = await runVm(m, script, d);
  const conflicts = (want.stdout.match(/^CONFLICT/gm) ?? []).length;
  console.log(`git merge on generated edits: ${files.length} files, ${conflicts} conflicting; outputs ${got.stdout === want.stdout ? 'identical' : 'differ'}`);
  assert.equal(got.stdout, want.stdout);
  assert.equal(got.stderr, want.stderr);
});

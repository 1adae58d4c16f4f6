// A runtime starts itself again by the file the kernel ran, never by a name
// (issue 14, item 7). Shells run child shells for pipeline stages, background
// jobs, process substitutions and scripts without #!; Python and node start
// `sys.executable` / `process.execPath`. A guest plants programs named like
// them (./sh, ./bash, ./agentos-shell, ./python3, ./node, and in a directory
// on $PATH); each records that it ran. None may ever run.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

let vm: AgentVM;
const PLANT = '/tmp/plant';
const NAMES = ['sh', 'bash', 'agentos-shell', 'python3', 'node'];

before(async () => {
  vm = new AgentVM();
  await vm.start();
  const trap = (name: string) => `#!/usr/libexec/agentos/js\nagentos.sys.writeFile('/tmp/planted-${name}', agentos.argv.join(' '));\n`;
  await vm.exec(`mkdir -p ${PLANT}/bin /tmp/w/bin`);
  for (const name of NAMES) {
    await vm.writeFile(`${PLANT}/${name}`, trap(name), 0o755);
    await vm.writeFile(`${PLANT}/bin/${name}`, trap(`bin-${name}`), 0o755);
  }
  // A script without #!: the shell runs it with itself.
  await vm.writeFile(`${PLANT}/noshebang`, '{ echo noshebang; } | cat\n', 0o755);
  await vm.writeFile(`${PLANT}/script.sh`, '{ echo script; } | cat\n(echo sub) | cat\n');
});

after(async () => {
  await vm.stop();
});

/** Which planted programs ran (and clears the record). */
async function planted(): Promise<string> {
  const r = await vm.exec('cd /tmp && for f in planted-*; do [ -e "$f" ] && echo "$f: $(cat "$f")"; done; rm -f /tmp/planted-*');
  return r.stdout;
}

async function check(cmd: string, stdout: string): Promise<void> {
  const r = await vm.exec(cmd);
  assert.equal(await planted(), '', `a planted program ran for: ${cmd}`);
  assert.deepEqual([r.stdout, r.stderr, r.exitCode], [stdout, '', 0], cmd);
}

test('sh/bash run by bare name: pipeline stages start the real shell, not ./sh from the cwd', async () => {
  await check(`cd ${PLANT} && sh -c '{ echo a; } | cat'`, 'a\n');
  await check(`cd ${PLANT} && bash -c '{ echo a; } | cat'`, 'a\n');
  await check(`cd ${PLANT} && bash -c '(echo x) | cat; echo y | { read v; echo $v; }'`, 'x\ny\n');
  await check(`cd ${PLANT} && agentos-shell -c '{ echo z; } | cat'`, 'z\n');
});

test('background jobs, process substitution, `cmd | bash`, `sh script`, a script without #!', async () => {
  await check(`cd ${PLANT} && bash -c '{ echo bg; } & wait'`, 'bg\n');
  await check(`cd ${PLANT} && bash -c 'cat <(echo ps)'`, 'ps\n');
  await check(`cd ${PLANT} && echo '{ echo piped; } | cat' | bash`, 'piped\n');
  await check(`cd ${PLANT} && sh script.sh`, 'script\nsub\n');
  await check(`cd ${PLANT} && bash -c ./noshebang`, 'noshebang\n');
  // The shell leaves the directory it was started in before it needs itself again.
  await check(`cd /tmp && sh -c 'cd ${PLANT} && { echo later; } | cat'`, 'later\n');
});

test('a shell found through $PATH: a relative element, a guest directory first in $PATH', async () => {
  // `sh` is found as bin/sh relative to /tmp/w; the shell then moves to where ./sh is planted.
  await vm.exec('ln -sf /bin/sh /tmp/w/bin/sh');
  await check(`cd /tmp/w && PATH=bin:$PATH sh -c 'cd ${PLANT} && { echo rel; } | cat'`, 'rel\n');
  // Run by absolute path with a guest directory first in $PATH: child shells do not search $PATH.
  await check(`cd ${PLANT} && PATH=${PLANT}/bin:$PATH /bin/bash -c '{ echo abs; } | cat; (echo bg) & wait'`, 'abs\nbg\n');
});

test('python: sys.executable is the file that runs, so a subprocess of it after chdir is python', async () => {
  const py = `import os, subprocess, sys; os.chdir('${PLANT}'); subprocess.run([sys.executable, '-c', 'print(6*7)'], check=True)`;
  await check(`cd /opt/agentos/bin && ./python3 -c "${py}"`, '42\n');
});

test('node: process.execPath is the file that runs', async () => {
  const js = `process.chdir('${PLANT}'); const r = require('child_process').spawnSync(process.execPath, ['-e', 'console.log(1+1)']); process.stdout.write(r.stdout)`;
  await check(`cd ${PLANT} && node -e "${js}"`, '2\n');
});

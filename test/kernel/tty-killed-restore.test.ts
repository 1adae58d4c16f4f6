// A terminal's settings come back when the process that changed them is killed (the kernel
// remembers them: src/kernel/tty/killed-restore.ts); a process that exits normally keeps its
// change, as `stty raw` must. The terminal here has a non-interactive shell, which (like bash's)
// restores nothing itself.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Termios } from '../../src/abi/termios.js';
import { AgentVM } from '../../src/host/node/index.js';
import type { Process } from '../../src/kernel/process.js';
import { kept, noteChange, processEnded, type Settings } from '../../src/kernel/tty/killed-restore.js';

// Makes its terminal raw, says so, then ends: killed by SIGKILL (`kill`) or by exit(0) (`exit`).
const RAW = `#!/usr/libexec/agentos/js
const s = agentos.sys;
const t = s.ioctl(0, 0x5401);
t.lflag &= ~(0o2 | 0o10 | 0o1);
s.ioctl(0, 0x5402, t);
if (agentos.argv[1] === 'kill') s.kill(s.getpid(), 9);
`;

let vm: AgentVM;

before(async () => {
  vm = new AgentVM();
  await vm.start();
  await vm.writeFile('/home/user/raw', RAW);
  await vm.exec('chmod +x /home/user/raw');
});

after(async () => {
  await vm?.stop();
});

async function terminal(script: string): Promise<string> {
  const term = await vm.openTerminal({ argv: ['/bin/sh', '-c', script] });
  let out = '';
  term.onData((b) => (out += new TextDecoder().decode(b)));
  await term.exited;
  return out;
}

test('a process killed by SIGKILL after making its terminal raw leaves it as it found it', async () => {
  const out = await terminal('/home/user/raw kill; echo "status $?"; stty -a');
  assert.match(out, /status 137\r\n/);
  assert.match(out, /[^-]icanon[^]*[^-]echo /);
  assert.match(out, /[^-]isig/);
});

test('a process that exits normally keeps its change (stty raw lasts)', async () => {
  const out = await terminal('/home/user/raw exit; echo "status $?"; stty -a');
  assert.match(out, /status 0\r\n/);
  assert.match(out, /-icanon/);
  assert.match(out, /-echo /);
  assert.match(out, /-isig/);
});

test('a process changing pty after pty (each closed after) makes the kernel keep only the live ones', () => {
  const p = {} as Process;
  const termios = (lflag: number): Termios => ({ iflag: 0, oflag: 0, cflag: 0, lflag, line: 0, ispeed: 0, ospeed: 0, cc: [] });
  const tty = (): Settings & { closed: boolean; value: Termios } => {
    const t = { closed: false, value: termios(1), get: () => t.value, set: (v: Termios) => (t.value = v), gone: () => t.closed };
    return t;
  };
  const live = tty();
  noteChange(p, live, termios(2));
  live.set(termios(2));
  for (let i = 0; i < 1000; i++) {
    const t = tty();
    noteChange(p, t, termios(2));
    t.closed = true;
  }
  noteChange(p, tty(), termios(2));
  assert.equal(kept(p), 2, 'the live terminal and the last one');
  processEnded(p, 9); // killed by SIGKILL
  assert.equal(live.value.lflag, 1, 'the live terminal got its settings back');
  assert.equal(kept(p), 0);
});

// `agentos shell` on a real terminal of this machine (a python3 pty): the
// host terminal in raw mode, keystrokes through the VM's line discipline,
// the window size and its changes, Ctrl-C, and the exit status.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { hasPython, runOnPty } from './interactive-pty.js';
import { Screen } from './interactive-screen.js';

// This file runs from dist/test/shell/.
const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));

test('agentos shell on a terminal: raw mode, size, resize, Ctrl-C, exit status', { skip: !hasPython() && 'python3 is missing' }, async () => {
  const r = runOnPty([process.execPath, cli, 'shell'], [
    { send: "PS1='$ '\r" },
    { send: 'stty size; echo $TERM\r', until: 'xterm-256color' },
    { resize: [40, 120], send: '', quiet: 0.3 },
    { send: 'stty size\r', until: '40 120' },
    { send: 'sleep 100\r', quiet: 0.5 },
    { send: '\x03' },
    { send: 'echo st=$?\r' },
    { send: 'exit 3\r', quiet: 1 },
  ], { cols: 100, rows: 30 });
  const screen = new Screen(120);
  await screen.write(r.out);
  const lines = screen.text();
  const at = lines.findIndex((l) => l === '$ stty size; echo $TERM');
  assert.ok(at >= 0, lines.join('\n'));
  assert.deepEqual(lines.slice(at, at + 3), ['$ stty size; echo $TERM', '30 100', 'xterm-256color']);
  assert.ok(lines.includes('40 120'), 'the resize reached the VM');
  assert.ok(lines.includes('^C'));
  assert.ok(lines.includes('st=130'));
  assert.equal(r.status, 3);
});

test('agentos shell with stdin not a terminal keeps the line mode', () => {
  // Covered by spawnSync with a pipe: the session is the exec-per-line one.
  const r = runOnPty(['/bin/sh', '-c', `echo 'echo piped' | ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} shell`], [], { startQuiet: 2 });
  assert.match(r.out, /piped/);
  assert.equal(r.status, 0);
});

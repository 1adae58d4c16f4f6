// The python3 and node REPLs on a pseudo-terminal, typed into as a person
// would through AgentVM.openTerminal: the interactive shell starts them, the
// kernel's line discipline echoes and edits, Ctrl-C is SIGINT to the REPL
// (which keeps running) and Ctrl-D at an empty prompt ends it.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';
import { TermDriver } from '../shell/interactive-helpers.js';

let vm: AgentVM;
const P = 'PS$ ';

before(async () => {
  vm = new AgentVM();
  await vm.start();
});
after(async () => {
  await vm.stop();
});

async function shell(): Promise<TermDriver> {
  const d = new TermDriver(await vm.openTerminal({ cols: 80, rows: 24, env: { PS1: P } }), 80);
  await d.nth(P, 1);
  return d;
}

/** Everything after the last `mark` in what the terminal received. */
const since = (d: TermDriver, mark: string) => d.raw.slice(d.raw.lastIndexOf(mark));

test('python3 on a TTY: the REPL with its prompts, a multi-line block, Ctrl-C, then Ctrl-D back to the shell', async () => {
  const d = await shell();
  d.type('python3\r');
  await d.nth('>>> ', 1, 60_000);
  assert.match(d.raw, /Python 3\.\d+\.\d+/, 'the banner');
  d.type('6 * 7\r');
  await d.nth('>>> ', 2);
  assert.match(since(d, '6 * 7'), /^6 \* 7\r\n42\r\n>>> $/, 'echoed input, the value, a new prompt');
  d.type('for i in range(2):\r');
  await d.nth('... ', 1);
  d.type('  print("row", i)\r\r');
  await d.nth('>>> ', 3);
  assert.match(since(d, 'print("row"'), /row 0\r\nrow 1\r\n>>> $/, 'the block ran once complete');
  d.type('import time; time.sleep(30)\r');
  await new Promise((r) => setTimeout(r, 500));
  d.type('\x03');
  await d.nth('>>> ', 4);
  assert.match(since(d, 'time.sleep(30)'), /KeyboardInterrupt\r\n>>> $/, 'Ctrl-C interrupts the statement, not the REPL');
  d.type('x = 1\x7f2\r'); // the line discipline's erase: x = 2
  await d.nth('>>> ', 5);
  d.type('x\r');
  await d.nth('>>> ', 6);
  assert.match(since(d, '>>> x\r\n'), /^>>> x\r\n2\r\n/, 'erase edited the line before Python read it');
  d.type('\x04');
  await d.nth(P, 2);
  d.type('echo "status $?"\r');
  await d.nth(P, 3);
  assert.deepEqual(d.outputOf(P), ['status 0']);
  d.type('exit\r');
  assert.equal(await d.term.exited, 0);
});

test('node on a TTY: the REPL with its prompt, a multi-line function, Ctrl-C between lines and during a busy line, Ctrl-D', async () => {
  const d = await shell();
  d.type('node\r');
  await d.nth('> ', 1, 30_000);
  assert.match(d.raw, /Welcome to Node\.js v\d+/, 'the banner');
  d.type('[1, 2].map((n) => n * 21)\r');
  await d.nth('> ', 2);
  assert.match(since(d, '[1, 2].map'), /\r\n\[ 21, 42 \]\r\n> $/, 'the value, inspected');
  d.type('function f() {\r');
  await d.until((r) => r.endsWith('... '));
  d.type('return 7 }\r');
  await d.nth('> ', 3);
  d.type('f()\r');
  await d.nth('> ', 4);
  assert.match(since(d, 'f()'), /^f\(\)\r\n7\r\n> $/, 'the function was defined');
  d.type('\x03');
  await d.nth('> ', 5);
  assert.match(since(d, 'f()'), /To exit, press Ctrl\+D/, 'Ctrl-C at the prompt: a hint, the REPL stays');
  d.type('f() + 1\r');
  await d.nth('> ', 6);
  assert.match(since(d, 'f() + 1'), /\r\n8\r\n> $/, 'state survived');
  d.type('\x04');
  await d.nth(P, 2);
  d.type('echo "status $?"\r');
  await d.nth(P, 3);
  assert.deepEqual(d.outputOf(P), ['status 0'], 'Ctrl-D ends node with status 0');
  // A busy line cannot be interrupted inside a worker: Ctrl-C ends node instead of hanging.
  d.type('node\r');
  await d.nth('> ', 7, 30_000);
  d.type('while (true) {}\r');
  await new Promise((r) => setTimeout(r, 500));
  d.type('\x03');
  await d.nth(P, 4, 15_000);
  d.type('echo "status $?"\r');
  await d.nth(P, 5);
  assert.deepEqual(d.outputOf(P), ['status 130']);
  d.type('exit\r');
  assert.equal(await d.term.exited, 0);
});

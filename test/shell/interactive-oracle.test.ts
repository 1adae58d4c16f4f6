// Interactive behaviour against the real bash of this machine: the same
// keystrokes typed on a pty into `bash --norc -i` and into `agentos shell`
// must leave the same screen (from the first command after PS1 is set):
// echo of editing keys, ^C and ^Z handling, job messages, history expansion.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { hasPython, runOnPty, type Step } from './interactive-pty.js';
import { Screen } from './interactive-screen.js';

const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));
const skip = !hasPython() && 'python3 is missing';

async function screenOf(out: string, first: string): Promise<string[]> {
  const s = new Screen(80);
  await s.write(out);
  const lines = s.text();
  const at = lines.indexOf(`$ ${first}`);
  const rest = at >= 0 ? lines.slice(at) : lines;
  while (rest.length && !rest.at(-1)) rest.pop();
  // Process ids differ between the machines.
  return rest.map((l) => l.replace(/^(\[\d+\]) \d+$/, '$1 PID'));
}

async function compare(steps: Step[], first: string): Promise<void> {
  const all: Step[] = [{ send: "PS1='$ '\r" }, ...steps, { send: 'exit\r', quiet: 0.8 }];
  const bash = runOnPty(['bash', '--norc', '--noprofile', '-i'], all, { env: { HOME: '/tmp', HISTFILE: '/dev/null', PS1: '$ ' }, startQuiet: 0.5 });
  const ours = runOnPty([process.execPath, cli, 'shell'], all);
  assert.deepEqual(await screenOf(ours.out, first), await screenOf(bash.out, first));
  assert.equal(ours.status, bash.status);
}

test('oracle: commands, editing keys and history recall look the same as in bash', { skip }, async () => {
  await compare([
    { send: 'echo hi\r' },
    { send: 'false; echo $?\r' },
    { send: 'echo abc\x1b[D\x1b[DX\r' },
    { send: '\x1b[A\x01\x1b[3~\x1b[3~\x1b[3~\x1b[3~printf "%s\\n"\r' },
    { send: 'echo one two\x17three\r' },
  ], 'echo hi');
});

test('oracle: ^C on a running command and at the prompt, as bash shows them', { skip }, async () => {
  await compare([
    { send: 'sleep 100\r', quiet: 0.6 },
    { send: '\x03' },
    { send: 'echo $?\r' },
    { send: 'half-typed' },
    { send: '\x03' },
    { send: 'echo $?\r' },
  ], 'sleep 100');
});

test('oracle: ^Z, jobs, bg/fg messages and the finished-job report', { skip }, async () => {
  await compare([
    { send: 'sleep 100\r', quiet: 0.6 },
    { send: '\x1a' },
    { send: 'jobs\r' },
    { send: 'bg\r' },
    { send: 'fg %1\r', quiet: 0.6 },
    { send: '\x03' },
    { send: 'sleep 0.2 &\r', quiet: 0.8 },
    { send: '\r' },
  ], 'sleep 100');
});

test('oracle: history expansion with !! and !$', { skip }, async () => {
  await compare([
    { send: 'echo one two\r' },
    { send: '!!\r' },
    { send: 'echo !$\r' },
  ], 'echo one two');
});

test('oracle: stty on the terminal — the same settings after `stty sane` as a Linux pty (iutf8 aside)', { skip }, async () => {
  await compare([
    { send: 'stty sane -iutf8; stty -a\r', quiet: 1.5 },
    { send: 'stty raw -echo; stty -raw echo; stty -g\r', quiet: 1.5 },
    { send: 'stty cols 100 rows 30; stty size\r', quiet: 1.5 },
    { send: 'echo $COLUMNS $LINES\r' },
  ], 'stty sane -iutf8; stty -a');
});

// The interactive shell on a pseudo-terminal, driven through
// AgentVM.openTerminal as a person types: the prompt, line editing, history
// (and ~/.bash_history across sessions), tab completion, Ctrl-C, Ctrl-Z with
// jobs/fg/bg, window size for stty and tput, stty modes, and end of session.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';
import { TermDriver } from './interactive-helpers.js';

let vm: AgentVM;
const P = 'PS$ ';

before(async () => {
  vm = new AgentVM();
  await vm.start();
});
after(async () => {
  await vm.stop();
});

/** ps1: the PS1 to set (null: the default); prompt: what it looks like, to wait for. */
async function open(opts: { cols?: number; rows?: number; ps1?: string | null; prompt?: string } = {}): Promise<TermDriver> {
  const env: Record<string, string> = opts.ps1 === null ? {} : { PS1: opts.ps1 ?? P };
  const term = await vm.openTerminal({ cols: opts.cols ?? 80, rows: opts.rows ?? 24, env });
  const d = new TermDriver(term, opts.cols ?? 80);
  if (opts.ps1 !== null) await d.nth(opts.prompt ?? opts.ps1 ?? P, 1);
  return d;
}

/** Until `name` runs in the foreground of a terminal (its group owns it), as a person waits to see it start. */
async function running(name: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ps = (await vm.vm.status()).processes;
    if (ps.some((p) => p.argv.some((a) => a.endsWith(name)) && p.pgid === p.pid && p.state !== 'Z')) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 100));
}

async function end(d: TermDriver): Promise<number> {
  d.type('exit\r');
  return d.term.exited;
}

test('the default prompt is Debian\'s \\u@\\h:\\w\\$; a command runs and its output appears', async () => {
  const d = await open({ ps1: null });
  await d.nth('user@agentos:~$ ', 1);
  await d.run('echo hi', 'user@agentos:~$ ');
  assert.deepEqual(d.outputOf('user@agentos:~$ '), ['hi']);
  await d.run('cd /usr/bin', 'user@agentos:/usr/bin$ ');
  assert.equal(await end(d), 0);
});

test('PS1 escapes and expansions: \\W, \\u, \\$, \\#, $(...) and \\[ \\] taking no columns', async () => {
  const d = await open({ ps1: '[\\u \\W \\#]$(echo X)\\[\\e[1m\\]\\$\\[\\e[0m\\] ', prompt: '[user ~ 1]X' });
  await d.run('cd /etc', '[user etc 2]X');
  assert.match(d.screen.lastLine(), /^\[user etc 2\]X\$$/);
  assert.ok(d.raw.includes('\x1b[1m$\x1b[0m '), 'the \\[ \\] text reaches the terminal');
  await end(d);
});

test('line editing: left, home, Ctrl-A/E/K/U/W, backspace and delete edit the line before it runs', async () => {
  const d = await open();
  // "echo wrld" → insert 'o' after w using left-arrows; then Ctrl-A, Ctrl-K to drop a line, retype.
  await d.run('echo wrld\x1b[D\x1b[D\x1b[Do', P);
  assert.deepEqual(d.outputOf(P), ['world']);
  await d.run('garbage\x01\x0becho a b c\x17\x17d', P);
  assert.deepEqual(d.outputOf(P), ['a d']);
  await d.run('xyz\x15Xecho kept\x1b[H\x1b[3~\x05x\x7f!', P);
  assert.deepEqual(d.outputOf(P), ['kept!']);
  await end(d);
});

test('history: up-arrow recalls the previous command; `history` lists; ~/.bash_history persists across sessions', async () => {
  await vm.exec('rm -f ~/.bash_history');
  let d = await open();
  await d.run('echo first', P);
  await d.run('echo second', P);
  await d.run('\x1b[A\x1b[A', P);
  assert.deepEqual(d.outputOf(P), ['first']);
  await d.run('history', P);
  assert.deepEqual(d.outputOf(P).map((l) => l.trim()), ['1  echo first', '2  echo second', '3  echo first', '4  history']);
  await d.run('!!', P);
  assert.equal(await end(d), 0);
  assert.match((await vm.exec('cat ~/.bash_history')).stdout, /^echo first\necho second\necho first\nhistory\nhistory\nexit\n$/);
  d = await open();
  await d.run('\x1b[A\x1b[A', P);
  assert.ok(d.outputOf(P).some((l) => /history/.test(l)) || d.raw.includes('    1  echo first'));
  await end(d);
});

test('tab completion: a command from PATH, a unique file name, and a listing on a second tab', async () => {
  await vm.exec('mkdir -p /tmp/tc && touch /tmp/tc/alpha.txt /tmp/tc/beta1 /tmp/tc/beta2');
  const d = await open();
  await d.run('ech\t tab', P);
  assert.deepEqual(d.outputOf(P), ['tab']);
  await d.run('ls /tmp/tc/al\t', P);
  assert.deepEqual(d.outputOf(P), ['/tmp/tc/alpha.txt']);
  d.type('ls /tmp/tc/be\t');
  await d.until(() => d.screen.lastLine() === `${P}ls /tmp/tc/beta`, 5000, 'the common prefix');
  d.type('\t');
  await d.until((r) => /beta1\s+beta2/.test(r), 5000, 'the listing');
  d.type('\x15');
  await end(d);
});

test('Ctrl-C interrupts `sleep 100` and returns to the prompt with status 130', async () => {
  const d = await open();
  const n = d.count(P);
  d.type('sleep 100\r');
  await running('sleep');
  const t0 = Date.now();
  d.type('\x03');
  await d.nth(P, n + 1, 3000);
  assert.ok(Date.now() - t0 < 2000);
  assert.ok(d.raw.includes('^C'));
  await d.run('echo status=$?', P);
  assert.deepEqual(d.outputOf(P), ['status=130']);
  await end(d);
});

test('Ctrl-Z stops the foreground job; jobs lists it; fg resumes it; bg and %1 work too', async () => {
  const d = await open();
  const n = d.count(P);
  d.type('sleep 100\r');
  await running('sleep');
  d.type('\x1a');
  await d.nth(P, n + 1, 3000);
  assert.match(d.raw, /\^Z\r\n\[1\]\+ {2}Stopped {17}sleep 100\r\n/);
  await d.run('jobs', P);
  assert.deepEqual(d.outputOf(P), ['[1]+  Stopped                 sleep 100']);
  await d.run('echo $?', P);
  assert.deepEqual(d.outputOf(P), ['0']);
  const m = d.count(P);
  d.type('fg\r');
  await d.until((r) => r.endsWith('sleep 100\r\n'), 3000, 'fg echoing the command');
  d.type('\x03');
  await d.nth(P, m + 1, 3000);
  await d.run('sleep 0.3 &', P);
  assert.match(d.outputOf(P)[0], /^\[1\] \d+$/);
  // Reported before a prompt once it has finished (press Enter until then, as a person would).
  for (let i = 0; i < 25 && !/Done/.test(d.raw); i++) {
    await new Promise((r) => setTimeout(r, 200));
    await d.run('', P);
  }
  assert.match(d.raw, /\[1\]\+ {2}Done {20}sleep 0\.3/);
  const k = d.count(P);
  d.type('sleep 100\r');
  await running('sleep');
  d.type('\x1a');
  await d.nth(P, k + 1, 3000);
  await d.run('bg', P);
  assert.deepEqual(d.outputOf(P), ['[1]+ sleep 100 &']);
  await d.run('kill %1', P);
  await d.run('true', P);
  assert.match(d.raw, /\[1\]\+ {2}(Exit 143|Terminated|Done)/);
  await end(d);
});

test('window size: stty size, tput cols/lines and $COLUMNS follow a resize', async () => {
  const d = await open({ cols: 100, rows: 30 });
  await d.run('stty size; tput cols; tput lines', P);
  assert.deepEqual(d.outputOf(P), ['30 100', '100', '30']);
  d.term.resize(132, 43);
  await new Promise((r) => setTimeout(r, 100));
  await d.run('stty size; tput cols', P);
  assert.deepEqual(d.outputOf(P), ['43 132', '132']);
  await end(d);
});

test('stty -a describes the terminal; stty raw -echo then stty sane; the shell restores cooked mode for commands', async () => {
  const d = await open();
  await d.run('stty -a | head -1', P);
  assert.match(d.outputOf(P)[0], /^speed 38400 baud; rows 24; columns 80; line = 0;$/);
  await d.run('stty -echo; stty -a | tr " " "\\n" | grep -x -- -echo', P);
  assert.deepEqual(d.outputOf(P), ['-echo']);
  await d.run('stty sane; stty -a | tr " " "\\n" | grep -x -e icanon -e echo', P);
  assert.deepEqual(d.outputOf(P), ['icanon', 'echo']);
  // A program reading a cooked line: the shell's raw editing mode is not what it gets.
  const n = d.count(P);
  d.type('read -r x; echo "[$x]"\r');
  await new Promise((r) => setTimeout(r, 300));
  d.type('ab\x7fc\r');
  await d.nth(P, n + 1);
  assert.deepEqual(d.outputOf(P).slice(-1), ['[ac]']);
  await end(d);
});

test('Ctrl-D on an empty line ends the session (status of the last command); a PS2 continuation works', async () => {
  const d = await open();
  await d.run('for i in 1 2; do', '> ');
  await d.run('echo $i; done', P);
  assert.deepEqual(d.outputOf(P).slice(-2), ['1', '2']);
  await d.run('false', P);
  d.type('\x04');
  assert.equal(await d.term.exited, 1);
  assert.match(d.raw, /exit\r\n$/);
});

test('close() hangs up the session', async () => {
  const d = await open();
  d.type('sleep 100\r');
  await running('sleep');
  await d.term.close();
  assert.ok((await d.term.exited) >= 128);
});

test('a command typed on several lines is one history entry; cd completes directories only', async () => {
  await vm.exec('mkdir -p /tmp/cdc/dir1 && touch /tmp/cdc/dfile');
  const d = await open();
  await d.run('for i in a b; do', '> ');
  await d.run('echo $i', '> ');
  await d.run('done', P);
  await d.run('history 1', P);
  assert.match(d.outputOf(P)[0], /^\s*\d+\s+history 1$/);
  await d.run('history 3 | head -1', P);
  assert.match(d.outputOf(P)[0], /^\s*\d+\s+for i in a b; do echo \$i; done$/);
  await d.run('cd /tmp/cdc/d\t', P);
  await d.run('pwd', P);
  assert.deepEqual(d.outputOf(P), ['/tmp/cdc/dir1']);
  await end(d);
});

test('a foreground job killed by a signal is named (Killed, Quit), as bash does', async () => {
  const d = await open();
  await d.run("sh -c 'kill -KILL $$'", P);
  assert.deepEqual(d.outputOf(P), ['Killed']);
  const n = d.count(P);
  d.type('sleep 100\r');
  await running('sleep');
  d.type('\x1c');
  await d.nth(P, n + 1, 3000);
  assert.match(d.raw, /\^\\Quit\r?\n/);
  await end(d);
});

test('Ctrl-R searches the history backwards; Alt-B/Alt-F move by words', async () => {
  const d = await open();
  await d.run('echo findme-1', P);
  await d.run('echo other', P);
  await d.run('\x12findme', P);
  assert.deepEqual(d.outputOf(P), ['findme-1']);
  await d.run('echo b c\x1bb\x1bbX\x1bfY', P);
  assert.deepEqual(d.outputOf(P), ['XbY c']);
  await end(d);
});

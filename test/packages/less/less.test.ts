// less and more: when standard output is not a terminal they copy their
// input, as the real ones do (more with its "::::" headers) — checked against
// the host's less and more. The pager itself (no terminal in the VM yet) is
// tested as a model: keys in, window and prompt out.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Pager } from '../../../src/packages/less/programs/pager.js';
import { keys } from '../../../src/packages/less/programs/terminal.js';
import { AgentVM } from '../../../src/host/node/index.js';
import { TermDriver } from '../../shell/interactive-helpers.js';
import { checkCaseList, LOCALES, runCases, setupFixtures, summarize, teardownFixtures, type Fixture } from '../oracle.js';

interface Case {
  cmd: string;
  stdin?: string;
}

const FILES: Record<string, string> = {
  a: 'a1\na2\n',
  b: 'b1\n',
  empty: '',
  nonl: 'no newline',
  tabs: 'x\ty\n\x01ctl\n',
  'd/x': 'in dir\n',
  // Non-ASCII but under less's binary-file threshold in the C locale (more than 5 unprintable bytes).
  u8: 'héllo wörld\n',
};

const CASES: Case[] = [
  { cmd: 'less a' },
  { cmd: 'less a b empty nonl' },
  { cmd: 'less nope; echo rc=$?' },
  { cmd: 'less a nope b; echo rc=$?' },
  { cmd: 'less d; echo rc=$?' },
  { cmd: 'less', stdin: 'piped\n' },
  { cmd: 'less -', stdin: 'dash\n' },
  { cmd: 'less -N -S -R -F -X a' },
  { cmd: 'less -Z a; echo rc=$?' },
  { cmd: 'less tabs | od -c' },
  { cmd: 'more a' },
  { cmd: 'more a b' },
  { cmd: 'more empty a' },
  { cmd: 'more nope; echo rc=$?' },
  { cmd: 'more a nope b; echo rc=$?' },
  { cmd: 'more d; echo rc=$?' },
  { cmd: 'more', stdin: 'piped\n' },
  { cmd: 'more - ; echo rc=$?', stdin: 'x\n' },
  { cmd: 'more -d -5 a' },
  { cmd: 'more -Z a; echo rc=$?' },
  { cmd: 'less u8 | od -c; more u8' },
  { cmd: 'seq 1 20000 | less | tail -1' },
  { cmd: 'seq 1 20000 | more | wc -l' },
];

let fx: Fixture | null = null;

before(async () => {
  fx = await setupFixtures('agentos-less-', FILES);
});

after(async () => {
  await teardownFixtures(fx);
});

test('less/more: the case list is well formed', () => {
  checkCaseList(CASES, {}, { min: 20 });
});

for (const loc of LOCALES) {
  test(`less/more: pass-through when stdout is not a terminal, as the host less and more (${loc.name})`, async () => {
    const results = await runCases(fx!, CASES, () => ({ sorted: false, stderrOk: (want, got) => want === got }), loc.env);
    summarize(`less/more [${loc.name}]`, results, {});
  });
}

const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}${i % 10 === 9 ? ' marker' : ''}`);

test('pager: paging, lines, half pages, first/last, counts', () => {
  const p = new Pager(text, 11, 80, 'f.txt');
  assert.equal(p.window, 10);
  assert.deepEqual(p.screen().slice(0, 2), ['line 1', 'line 2']);
  assert.equal(p.prompt(), '\x1b[7mf.txt\x1b[27m');
  p.key(' ');
  assert.equal(p.top, 10);
  assert.equal(p.prompt(), ':');
  p.key('enter');
  p.key('j');
  assert.equal(p.top, 12);
  p.key('k');
  assert.equal(p.top, 11);
  p.key('d');
  assert.equal(p.top, 16);
  p.key('u');
  assert.equal(p.top, 11);
  p.key('b');
  assert.equal(p.top, 1);
  p.key('G');
  assert.equal(p.top, 90);
  assert.ok(p.atEnd());
  assert.equal(p.prompt(), '\x1b[7m(END)\x1b[27m');
  assert.equal(p.key(' '), 'none', 'no movement past the end');
  p.key('g');
  assert.equal(p.top, 0);
  p.key('5');
  p.key('0');
  p.key('g');
  assert.equal(p.screen()[0], 'line 50 marker');
  p.key('3');
  p.key('j');
  assert.equal(p.screen()[0], 'line 53');
  assert.equal(p.key('q'), 'quit');
});

test('pager: / and ? search, n and N, highlighting, not found', () => {
  const p = new Pager(text, 11, 80);
  for (const k of keys('/marker\r')) p.key(k);
  assert.equal(p.screen()[0], 'line 10 \x1b[7mmarker\x1b[27m');
  p.key('n');
  assert.equal(p.top, 19);
  p.key('N');
  assert.equal(p.top, 9);
  for (const k of keys('?line 5\r')) p.key(k);
  assert.equal(p.top, 4);
  for (const k of keys('/nothing here\r')) p.key(k);
  assert.equal(p.top, 4);
  assert.match(p.prompt(), /Pattern not found/);
});

test('pager: long lines wrap, tabs expand, short texts fit, keys decode', () => {
  const p = new Pager(['x'.repeat(25), 'a\tb', '\x01'], 5, 10);
  assert.deepEqual(p.screen(), ['xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxx', 'a       b', '\x1b[7m(END)\x1b[27m'].slice(0, 4).concat(p.prompt()));
  p.key('G');
  assert.deepEqual(p.screen().slice(0, 4), ['xxxxxxxxxx', 'xxxxx', 'a       b', '^A']);
  assert.deepEqual(keys('\x1b[A\x1b[B\x1b[5~\x1b[6~q\r'), ['up', 'down', 'pgup', 'pgdn', 'q', 'enter']);
  const short = new Pager(['one', 'two'], 24, 80);
  assert.ok(short.atEnd());
  assert.deepEqual(short.screen().slice(0, 3), ['one', 'two', '~']);
});

test('less on a terminal asks before showing a binary file, in GNU less\'s words; y shows it, anything else skips it (status 1 when nothing was shown)', async () => {
  const vm = new AgentVM();
  await vm.start();
  try {
    // Six NULs in the first 256 bytes: binary. Five bytes past ASCII: binary under LC_ALL=C only.
    await vm.writeFile('/tmp/bin.dat', 'ab\0\x01\x02\x03\x04\x05\x06cd\n');
    await vm.writeFile('/tmp/text', 'plain text\n');
    await vm.writeFile('/tmp/u8', 'héllo wörld ünïcode\n');
    const P = 'PS$ ';
    const d = new TermDriver(await vm.openTerminal({ cols: 80, rows: 24, env: { PS1: P } }), 80);
    await d.nth(P, 1);
    d.type('less /tmp/bin.dat; echo "rc=$?"\r');
    await d.until((raw) => raw.includes('"/tmp/bin.dat" may be a binary file.  See it anyway? '));
    d.type('n');
    await d.nth(P, 2);
    assert.deepEqual(d.outputOf(P).at(-1)?.split('\r\n').slice(-1), ['rc=1']);
    d.type('less /tmp/bin.dat; echo "rc=$?"\r');
    await d.until((raw) => raw.split('See it anyway? ').length === 3);
    d.type('y');
    await d.until((raw) => raw.includes('cd'), 8000, 'the file');
    d.type('q');
    await d.nth(P, 3);
    assert.match(d.raw.slice(d.raw.lastIndexOf('See it anyway?')), /rc=0/);
    // Text, and UTF-8 text in a UTF-8 locale, is paged without a question.
    d.type('LANG=C.UTF-8 less /tmp/u8 /tmp/text; echo "rc=$?"\r');
    await d.until((raw) => raw.includes('ünïcode'), 8000, 'the UTF-8 file');
    d.type('q');
    await d.until((raw) => raw.includes('plain text'), 8000, 'the second file');
    d.type('q');
    await d.nth(P, 4);
    assert.equal(d.raw.split('See it anyway?').length, 3, 'no question for text');
    d.type('exit\r');
    await d.term.exited;
  } finally {
    await vm.stop();
  }
});

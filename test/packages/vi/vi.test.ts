// vi on a real pseudo-terminal (AgentVM.openTerminal): the keys a person
// types, the screen they see, and the file left behind (read back with cat).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';
import { ViDriver } from './driver.js';

let vm: AgentVM;
const DIR = '/tmp/vitest';

before(async () => {
  vm = new AgentVM();
  await vm.start();
  await vm.exec(`mkdir -p ${DIR}`);
});
after(async () => {
  await vm.stop();
});

async function put(name: string, text: string): Promise<void> {
  await vm.writeFile(`${DIR}/${name}`, text);
}

async function cat(name: string): Promise<string> {
  const r = await vm.exec(`cat ${DIR}/${name}`);
  assert.equal(r.exitCode, 0, r.stderr);
  return r.stdout;
}

/** Start `vi ARGS` as the terminal's program, sized rows × cols. */
async function vi(args: string[], rows = 24, cols = 80): Promise<ViDriver> {
  const term = await vm.openTerminal({ rows, cols, cwd: DIR, argv: ['vi', ...args] });
  const d = new ViDriver(term, rows, cols);
  await d.until(() => /\d+,\S+ +\S+$/.test(d.screen.bottom()), 'the ruler');
  return d;
}

test('open a file: its lines, ~ past the end, vim\'s "name" NL, NB message; :q leaves it as it was', async () => {
  await put('open.txt', 'alpha\nbeta\ngamma\n');
  const d = await vi(['open.txt']);
  await d.see(/^"open\.txt" 3L, 17B/);
  const t = d.screen.text();
  assert.deepEqual(t.slice(0, 4), ['alpha', 'beta', 'gamma', '~']);
  assert.match(d.screen.bottom(), /1,1\s+All$/);
  d.type(':q\r');
  assert.equal(await d.term.exited, 0);
  assert.equal(await cat('open.txt'), 'alpha\nbeta\ngamma\n');
});

test('+N, + and +/PATTERN start at a line; +COMMAND runs an ex command', async () => {
  await put('start.txt', 'alpha\nbeta\ngamma\n');
  for (const [arg, line, col] of [['+2', 2, 1], ['+', 3, 1], ['+/mm', 3, 3]] as const) {
    const d = await vi([arg, 'start.txt']);
    await d.at(line, col);
    d.type(':q\r');
    assert.equal(await d.term.exited, 0);
  }
  const d = await vi(['+%s/a/A/g', 'start.txt']);
  await d.see(/^AlphA$/);
  d.type(':wq\r');
  assert.equal(await d.term.exited, 0);
  assert.equal(await cat('start.txt'), 'AlphA\nbetA\ngAmmA\n');
});

test('insert and delete: A, dd, O, I, o and Esc; :wq writes and quits', async () => {
  await put('edit.txt', 'one\ntwo\nthree\n');
  const d = await vi(['edit.txt']);
  d.type('A!\x1b');
  await d.see(/^one!$/);
  await d.keys('jdd', 2, 1);
  assert.deepEqual(d.screen.text().slice(0, 3), ['one!', 'three', '~']);
  d.type('Ohello\x1b');
  await d.rows(['one!', 'hello', 'three', '~']);
  d.type('ggIX \x1bGo4\x1b');
  await d.at(4, 1);
  assert.match(d.screen.bottom(), /^\s*4,1/);
  d.type(':wq\r');
  assert.equal(await d.term.exited, 0);
  assert.equal(await cat('edit.txt'), 'X one!\nhello\nthree\n4\n');
});

test('yank and put, multi-level undo and redo', async () => {
  await put('yank.txt', 'a\nb\nc\n');
  const d = await vi(['yank.txt']);
  await d.keys('yyp', 2, 1);
  await d.keys('j2yyGp', 5, 1);
  assert.deepEqual(d.screen.text().slice(0, 7), ['a', 'a', 'b', 'c', 'b', 'c', '~']);
  d.type('u');
  await d.rows(['a', 'a', 'b', 'c', '~']);
  await d.at(4, 1);
  d.type('u');
  await d.rows(['a', 'b', 'c', '~']);
  await d.at(1, 1);
  d.type('u');
  await d.see('Already at oldest change');
  d.type('\x12');
  await d.rows(['a', 'a', 'b', 'c', '~']);
  // Charwise: yank a word, put it before and after.
  await d.keys('Gyw', 4, 1);
  d.type('P$p:wq\r');
  assert.equal(await d.term.exited, 0);
  assert.equal(await cat('yank.txt'), 'a\na\nb\nccc\n');
});

test('motions and counts: w e b $ 0 NG gg G 5j, 3dd, dw and ., x X D J r ~', async () => {
  const lines = ['one two three four', ...Array.from({ length: 9 }, (_, i) => `l${i + 2}`)];
  await put('motion.txt', lines.join('\n') + '\n');
  const d = await vi(['motion.txt']);
  await d.keys('w', 1, 5);
  await d.keys('e', 1, 7);
  await d.keys('$', 1, 18);
  await d.keys('b', 1, 15);
  await d.keys('0', 1, 1);
  await d.keys('2w', 1, 9);
  await d.keys('5j', 6, 2);
  await d.keys('gg', 1, 1);
  await d.keys('G', 10, 1);
  await d.keys('3G', 3, 1);
  d.type('3dd');
  await d.rows(['one two three four', 'l2', 'l6', 'l7']);
  await d.keys('ggdw', 1, 1);
  await d.see(/^two three four$/);
  d.type('.');
  await d.see(/^three four$/);
  await d.keys('$x', 1, 9);
  await d.see(/^three fou$/);
  await d.keys('J', 1, 10);
  await d.see(/^three fou l2$/);
  d.type('rZ0~');
  await d.see(/^Three fouZl2$/);
  await d.keys('jD', 2, '0-1');
  await d.keys('jX', 3, 1);
  d.type('x:wq\r');
  assert.equal(await d.term.exited, 0);
  assert.equal(await cat('motion.txt'), 'Three fouZl2\n\n7\nl8\nl9\nl10\n');
});

test('search: /RE and ?RE (JavaScript regular expressions), n and N wrapping with vim\'s messages, E486', async () => {
  await put('search.txt', 'apple\nbanana\ncherry\nbanana split\n');
  const d = await vi(['search.txt']);
  await d.keys('/ban\r', 2, 1);
  await d.keys('n', 4, 1);
  await d.keys('n', 2, 1);
  assert.match(d.screen.bottom(), /^search hit BOTTOM, continuing at TOP/);
  await d.keys('N', 4, 1);
  assert.match(d.screen.bottom(), /^search hit TOP, continuing at BOTTOM/);
  await d.keys('?er+y\r', 3, 3);
  d.type('/zzz\r');
  await d.see(/^E486: Pattern not found: zzz/);
  await d.keys('/p{2}\r', 1, 2);
  await d.keys('/\\bs\\w+\r', 4, 8);
  d.type(':q\r');
  assert.equal(await d.term.exited, 0);
});

test(':q on a modified buffer is refused with E37; :q! quits and leaves the file', async () => {
  await put('keep.txt', 'keep me\n');
  const d = await vi(['keep.txt']);
  d.type('dd:q\r');
  await d.see(/^E37: No write since last change \(add ! to override\)/);
  d.type(':q!\r');
  assert.equal(await d.term.exited, 0);
  assert.equal(await cat('keep.txt'), 'keep me\n');
});

test('a new file: [New] on opening, created by :w with vim\'s "written" message; ZZ', async () => {
  await vm.exec(`rm -f ${DIR}/new.txt ${DIR}/zz.txt`);
  const d = await vi(['new.txt']);
  await d.see(/^"new\.txt" \[New\]/);
  d.type('ihello\rworld\x1b:w\r');
  await d.see(/^"new\.txt" \[New\] 2L, 12B written/);
  d.type(':w zz.txt\r');
  await d.see(/^"zz\.txt" \[New\] 2L, 12B written/);
  d.type(':w zz.txt\r');
  await d.see(/^E13: File exists/);
  d.type('ddZZ');
  assert.equal(await d.term.exited, 0);
  assert.equal(await cat('new.txt'), 'hello\n');
  assert.equal(await cat('zz.txt'), 'hello\nworld\n');
});

test('ex commands: :N, :$, :%s///g, :N,Ms with & and \\1, :Nd, unknown commands', async () => {
  await put('ex.txt', 'foo bar\nbar foo\nfoo foo\n');
  const d = await vi(['ex.txt']);
  await d.keys(':3\r', 3, 1);
  await d.keys(':1\r', 1, 1);
  await d.keys(':$\r', 3, 1);
  d.type(':%s/foo/F/g\r');
  await d.see(/^F F$/);
  await d.see(/^4 substitutions on 3 lines/);
  d.type(':1,2s/(b)ar/[&\\1]/\r');
  await d.see(/^F \[barb\]$/);
  await d.keys(':2d\r', 2, 1);
  d.type(':frobnicate\r');
  await d.see(/^E492: Not an editor command: frobnicate/);
  d.type(':wq\r');
  assert.equal(await d.term.exited, 0);
  assert.equal(await cat('ex.txt'), 'F [barb]\nF F\n');
});

test('paging, :set nu, and a resize redrawing at the new size', async () => {
  await put('long.txt', Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  const d = await vi(['long.txt'], 10, 40);
  await d.see(/^line 9$/);
  assert.ok(!d.screen.text().includes('line 10'));
  await d.keys('\x06', 8, 1);
  assert.equal(d.screen.text()[0], 'line 8');
  await d.keys('\x02', 9, 1);
  assert.equal(d.screen.text()[0], 'line 1');
  d.screen.resize(20, 60);
  d.term.resize(60, 20);
  await d.see(/^line 19$/);
  assert.equal(d.screen.text().length, 20);
  assert.match(d.screen.bottom(), /^.{42}9,1 +Top$/);
  d.type(':set nu\r');
  await d.see(/^ {2}1 line 1$/);
  await d.keys(':50\r', 50, 1);
  assert.ok(d.screen.text().includes(' 50 line 50'));
  d.type(':set nonu\r');
  await d.see(/^line 50$/);
  d.type(':q\r');
  assert.equal(await d.term.exited, 0);
});

test('`edit` from the shell is the same editor; the shell gets its prompt back', async () => {
  await vm.exec(`rm -f ${DIR}/e.txt`);
  const term = await vm.openTerminal({ rows: 24, cols: 80, cwd: DIR, env: { PS1: 'PS$ ' } });
  const d = new ViDriver(term, 24, 80);
  await d.until(() => d.raw.includes('PS$ '), 'the prompt');
  d.type('edit e.txt\r');
  await d.see(/^"e\.txt" \[New\]/);
  d.type('ihi there\x1bZZ');
  await d.until(() => d.raw.split('PS$ ').length === 3, 'the next prompt');
  d.type('exit\r');
  assert.equal(await term.exited, 0);
  assert.equal(await cat('e.txt'), 'hi there\n');
});

test('off a terminal: an error and status 1; --help; the man page', async () => {
  let r = await vm.exec(`cd ${DIR} && vi x.txt </dev/null`);
  assert.equal(r.exitCode, 1);
  assert.equal(r.stderr, 'vi: standard input is not a terminal\n');
  r = await vm.exec('edit </dev/null');
  assert.equal(r.stderr, 'edit: standard input is not a terminal\n');
  r = await vm.exec('vi a b </dev/null');
  assert.deepEqual([r.exitCode, r.stderr], [1, 'vi: Too many edit arguments: "b"\n']);
  r = await vm.exec('vi --help');
  assert.equal(r.exitCode, 0);
  assert.match(r.stdout, /^Usage: vi /);
  r = await vm.exec('MANWIDTH=80 man vi');
  assert.equal(r.exitCode, 0);
  assert.match(r.stdout, /vi, edit - a screen editor for the terminal/);
});

test('the terminal is given back: cooked mode and the main screen after :q and after SIGTERM', async () => {
  await put('sig.txt', 'x\n');
  const term = await vm.openTerminal({ rows: 24, cols: 80, cwd: DIR, env: { PS1: 'PS$ ' } });
  const d = new ViDriver(term, 24, 80);
  await d.until(() => d.raw.includes('PS$ '), 'the prompt');
  const line = 'vi sig.txt; echo "rc=$?"; stty -a | tr " ;" "\\n\\n" | grep -x -e icanon -e -icanon -e echo -e -echo\r';
  d.type(line);
  await d.see(/^"sig\.txt" 1L, 2B/);
  d.type(':q\r');
  await d.until(() => /rc=0\r\nicanon\r\necho\r\n/.test(d.raw), 'cooked mode after :q');
  d.type(line);
  await d.until(() => d.raw.split('"sig.txt" 1L, 2B').length === 3, 'vi again');
  const r = await vm.exec('kill -TERM $(pidof vi)');
  assert.equal(r.exitCode, 0, r.stderr);
  await d.until(() => /vi: Caught deadly signal TERM\r\nrc=143\r\nicanon\r\necho\r\n/.test(d.raw), 'cooked mode after SIGTERM');
  assert.equal(d.raw.split('\x1b[?1049h').length, d.raw.split('\x1b[?1049l').length, 'every alternate screen left');
  d.type('exit\r');
  await term.exited;
});

test('Ctrl-Z stops vi as a job; fg brings it back redrawn, in raw mode, with its text', async () => {
  await put('job.txt', 'job\n');
  const term = await vm.openTerminal({ rows: 24, cols: 80, cwd: DIR, env: { PS1: 'PS$ ' } });
  const d = new ViDriver(term, 24, 80);
  await d.until(() => d.raw.includes('PS$ '), 'the prompt');
  d.type('vi job.txt\r');
  await d.see(/^"job\.txt" 1L, 4B/);
  d.type('Aed\x1b\x1a');
  await d.until(() => /Stopped +vi job\.txt/.test(d.raw), 'the stopped job');
  await d.until(() => d.raw.split('PS$ ').length === 3, 'the prompt after the stop');
  d.type('fg\r');
  await d.until(() => d.raw.lastIndexOf('\x1b[?1049h') > d.raw.lastIndexOf('Stopped'), 'vi back on the alternate screen');
  d.type('x:wq\r');
  await d.until(() => d.raw.split('PS$ ').length === 4, 'the prompt after :wq');
  assert.equal(await cat('job.txt'), 'jobe\n');
  d.type('exit\r');
  await term.exited;
});

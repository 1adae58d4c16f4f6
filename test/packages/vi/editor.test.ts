// The editor model without a terminal: keys in, text and cursor out, with
// files in a Map. The terminal tests (vi.test.ts) cover the same paths end to end.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Editor } from '../../../src/packages/vi/programs/editor.js';
import type { Files } from '../../../src/packages/vi/programs/ex.js';
import { splitKeys } from '../../../src/packages/vi/programs/keys.js';

function files(store: Map<string, string>): Files {
  return {
    read: (p) => store.get(p) ?? null,
    exists: (p) => store.has(p),
    write: (p, t) => void store.set(p, t),
  };
}

/** An editor on `text` after typing `keys`. */
function run(text: string, keys: string, store = new Map<string, string>()): Editor {
  store.set('f', text);
  const ed = new Editor(files(store), 'f', text);
  for (const k of splitKeys(keys)) ed.key(k);
  return ed;
}

const body = (ed: Editor) => ed.lines.join('\n');

test('keys: arrows, delete, paging and a lone Esc are named; text stays itself', () => {
  assert.deepEqual(splitKeys('a\x1b[A\x1bOB\x1b[3~\x1b[6~\x1b:\r\x7fé'), ['a', 'up', 'down', 'del', 'pgdn', 'escape', ':', 'enter', 'backspace', 'é']);
});

test('insert with counts and repeats: 3ix, 2o, . after an insert, A with .', () => {
  assert.equal(body(run('', '3ix\x1b')), 'xxx');
  assert.equal(body(run('ab', 'l\x1b[2~x\x1b')), 'axb', 'the Insert key is i');
  assert.equal(body(run('a', '2ob\x1b')), 'a\nb\nb');
  assert.equal(body(run('one\ntwo', 'A!\x1bj.')), 'one!\ntwo!');
  assert.equal(body(run('a b c', 'ix\x1bw.w.')), 'xa xb xc');
});

test('change: cw, c$, cc, C, s, S and their undo', () => {
  assert.equal(body(run('foo bar', 'cwbaz\x1b')), 'baz bar');
  assert.equal(body(run('foo bar', 'wc$end\x1b')), 'foo end');
  assert.equal(body(run('a\nb', 'ccX\x1b')), 'X\nb');
  assert.equal(body(run('abc', 'lCZ\x1b')), 'aZ');
  assert.equal(body(run('abc', '2sZ\x1b')), 'Zc');
  assert.equal(body(run('  abc\nd', 'SZ\x1bu')), '  abc\nd');
  assert.equal(body(run('a b', '3ix\x1bwcwY\x1b')), 'xxxa Y', 'a count for one insert is not the next change\'s');
  assert.equal(body(run('ab cd ef', 'cwX\x1bw.')), 'X X ef');
});

test('operators over motions: d2j, dG, dgg, d$, d0, dt, df, yw P, 2dd at the end', () => {
  assert.equal(body(run('1\n2\n3\n4', 'd2j')), '4');
  assert.equal(body(run('1\n2\n3\n4', 'jdG')), '1');
  assert.equal(body(run('1\n2\n3\n4', 'jjdgg')), '4');
  assert.equal(body(run('abc def', 'lld$')), 'ab');
  assert.equal(body(run('abc def', 'wd0')), 'def');
  assert.equal(body(run('a,b,c', 'dt,')), ',b,c');
  assert.equal(body(run('a,b,c', '2df,')), 'c');
  assert.equal(body(run('one two', 'ywP')), 'one one two');
  assert.equal(body(run('1\n2', 'j5dd')), '1\n2', 'a count past the end does nothing');
  assert.equal(body(run('a b\nc', 'wdw')), 'a \nc', 'dw on the last word stops at the line end');
});

test('motions: words across punctuation and lines, f t ; , and the cursor they leave', () => {
  const at = (text: string, keys: string) => {
    const ed = run(text, keys);
    return [ed.cur.y, ed.cur.x];
  };
  assert.deepEqual(at('foo.bar baz', 'w'), [0, 3]);
  assert.deepEqual(at('foo.bar baz', 'ww'), [0, 4]);
  assert.deepEqual(at('foo\n\nbar', 'w'), [1, 0]);
  assert.deepEqual(at('foo\n\nbar', 'ww'), [2, 0]);
  assert.deepEqual(at('foo bar', '$b'), [0, 4]);
  assert.deepEqual(at('foo\nbar', 'jb'), [0, 0]);
  assert.deepEqual(at('foo bar', 'e'), [0, 2]);
  assert.deepEqual(at('a-b-c', 'f-;'), [0, 3]);
  assert.deepEqual(at('a-b-c', '$F-,'), [0, 3]);
  assert.deepEqual(at('abcdef', 'tf'), [0, 4]);
  assert.deepEqual(at('long line\nx\nlong line', '$jj'), [2, 8], '$ keeps to the end of each line');
  assert.deepEqual(at('  x', '^'), [0, 2]);
});

test('join, replace, case, undo of several changes, Esc cancelling a pending operator', () => {
  assert.equal(body(run('a\n  b\nc', '3J')), 'a b c');
  assert.equal(body(run('a\n)', 'J')), 'a)');
  assert.equal(body(run('abc', '2rx')), 'xxc');
  assert.equal(body(run('abc', '5rx')), 'abc');
  assert.equal(body(run('abc', '3~')), 'ABC');
  assert.equal(body(run('1\n2\n3', 'ddddxuuu')), '1\n2\n3');
  assert.equal(body(run('abc', 'd\x1bx')), 'bc');
});

test('ex: :w without a name, :w FILE, :e!, :x only writing when changed, E37', () => {
  const store = new Map<string, string>();
  const ed = new Editor(files(store), '', '');
  for (const k of splitKeys('ihi\x1b:w\r')) ed.key(k);
  assert.equal(ed.message, 'E32: No file name');
  for (const k of splitKeys(':w out\r')) ed.key(k);
  assert.equal(ed.message, '"out" [New] 1L, 3B written');
  assert.equal(store.get('out'), 'hi\n');
  assert.equal(ed.file, 'out');
  for (const k of splitKeys('x:e!\r')) ed.key(k);
  assert.equal(body(ed), 'hi');
  assert.equal(ed.message, '"out" 1L, 3B');
  for (const k of splitKeys('x:q\r')) ed.key(k);
  assert.equal(ed.message, 'E37: No write since last change (add ! to override)');
  assert.equal(ed.quit, false);
  for (const k of splitKeys(':x\r')) ed.key(k);
  assert.equal(store.get('out'), 'i\n');
  assert.equal(ed.quit, true);
});

test('Ctrl-G tells the file, [Modified], its lines and where the cursor is', () => {
  assert.equal(run('a\nb', '\x07').message, '"f" 2 lines --50%--');
  assert.equal(run('a\nb', 'jx\x07').message, '"f" [Modified] 2 lines --100%--');
  assert.equal(run('', '\x07').message, '"f" --No lines in buffer--');
});

test('search wraps and reports; an invalid or missing pattern is E486/E35', () => {
  const ed = run('x\nfoo\nx', '/(\r');
  assert.equal(ed.message, 'E486: Pattern not found: (');
  assert.equal(run('x', 'n').message, 'E35: No previous regular expression');
  const w = run('foo\nx', 'j/fo+\r');
  assert.deepEqual([w.cur.y, w.message], [0, 'search hit BOTTOM, continuing at TOP']);
});

// The renderer alone: wrapping, the number column, `~` and `@` rows, tabs and
// control characters, the ruler's column, and rewriting only changed rows.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Screen, type View } from '../../../src/packages/vi/programs/screen.js';
import { VScreen } from './vscreen.js';

function view(lines: string[], over: Partial<View> = {}): View {
  return { lines, top: 0, cur: { y: 0, x: 0 }, insert: false, number: false, bottom: '', onBottom: false, ruler: '1,1           All', ...over };
}

async function show(s: Screen, v: View, term = new VScreen(s.rows, s.cols)): Promise<VScreen> {
  await term.write(s.frame(v));
  return term;
}

test('long lines wrap; ~ past the end; the ruler at column cols-18, never in the last cell', async () => {
  const t = await show(new Screen(5, 10), view(['abcdefghijklm', 'x']));
  assert.deepEqual(t.text().slice(0, 4), ['abcdefghij', 'klm', 'x', '~']);
  assert.equal(t.text()[4], '', 'no room for the ruler');
  const w = await show(new Screen(3, 30), view(['a'], { bottom: 'msg' }));
  assert.equal(w.text()[2], 'msg'.padEnd(12) + '1,1           All');
});

test('a line that does not fit at the bottom shows as @; the number column', async () => {
  const s = new Screen(4, 6);
  const t = await show(s, view(['a', 'b', 'cccccccccccc'], { ruler: '' }));
  assert.deepEqual(t.text().slice(0, 3), ['a', 'b', '@']);
  const n = await show(new Screen(4, 12), view(['a', 'b'], { number: true, ruler: '' }));
  assert.deepEqual(n.text().slice(0, 3), ['  1 a', '  2 b', '~']);
});

test('tabs expand to 8 columns and control characters show as ^X; the cursor lands on the cell', async () => {
  const s = new Screen(3, 40);
  const t = await show(s, view(['\tx\x01y'], { cur: { y: 0, x: 1 }, ruler: '' }));
  assert.equal(t.text()[0], '        x^Ay');
  assert.deepEqual([t.row, t.col], [0, 8]);
});

test('only changed rows are rewritten; scroll keeps the cursor line in view', () => {
  const s = new Screen(4, 20);
  const lines = ['one', 'two', 'three', 'four', 'five'];
  s.frame(view(lines));
  const again = s.frame(view(lines, { cur: { y: 1, x: 0 } }));
  assert.equal(again, '\x1b[2;1H', 'nothing but the cursor moves');
  const changed = s.frame(view(['one', 'TWO', 'three', 'four', 'five'], { cur: { y: 1, x: 0 } }));
  assert.equal(changed, '\x1b[2;1HTWO\x1b[K\x1b[2;1H');
  assert.equal(s.scroll(view(lines, { cur: { y: 4, x: 0 } })), 2);
  assert.equal(s.scroll(view(lines, { top: 3, cur: { y: 1, x: 0 } })), 1);
});

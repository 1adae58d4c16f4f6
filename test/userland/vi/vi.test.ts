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

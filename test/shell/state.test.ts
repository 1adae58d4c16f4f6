// ShellState's two copies (interp/state.ts): clone()/restore() for an
// in-process subshell and serialize()/deserialize() for a child shell, both
// driven by one table of field rules. The table's completeness is the
// compiler's job; these check that the rules do what they say.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ShellState } from '../../src/shell/interp/state.js';
import { parse, type FunctionDef } from '../../src/shell/syntax/index.js';

function state(): ShellState {
  const s = new ShellState({ name: 'sh', errorName: 'sh', positional: ['a', 'b'], pid: 42 });
  s.vars.set('x', '1');
  s.vars.setArray('arr', [{ key: null, value: 'p' }, { key: '5', value: 'q' }]);
  s.vars.setArray('m', [{ key: 'k', value: 'v' }], { assoc: true });
  s.functions.set('f', parse('f() { echo hi; }').stmts[0].cmd as FunctionDef);
  s.aliases.set('ll', 'ls -l');
  s.traps.set('INT', '');
  s.traps.set('TERM', 'echo caught');
  s.opts.set.set('errexit', true);
  s.opts.shopt.set('extglob', true);
  s.status = 3;
  s.lastArg = 'last';
  s.dirStack = ['/tmp'];
  return s;
}

test('clone/restore: what an in-process subshell changes is put back', () => {
  const s = state();
  const copy = s.clone();
  s.vars.set('x', '2');
  s.vars.setIndex('arr', '0', 'changed');
  s.functions.delete('f');
  s.aliases.clear();
  s.traps.set('EXIT', 'echo bye');
  s.opts.set.set('errexit', false);
  s.positional.push('c');
  s.dirStack.push('/');
  s.lastArg = 'inner';
  s.restore(copy);
  assert.equal(s.vars.get('x'), '1');
  assert.deepEqual(s.vars.values('arr'), ['p', 'q']);
  assert.ok(s.functions.has('f'));
  assert.equal(s.aliases.get('ll'), 'ls -l');
  assert.equal(s.traps.has('EXIT'), false);
  assert.equal(s.opts.on('errexit'), true);
  assert.deepEqual(s.positional, ['a', 'b']);
  assert.deepEqual(s.dirStack, ['/tmp']);
  assert.equal(s.lastArg, 'last');
});

test('clone/restore: shared fields keep the subshell\'s changes', () => {
  const s = state();
  const copy = s.clone();
  s.status = 7;
  s.lastBg = 99;
  s.restore(copy);
  assert.equal(s.status, 7);
  assert.equal(s.lastBg, 99);
});

test('serialize/deserialize: a child shell starts from the parent\'s state', () => {
  const parent = state();
  parent.vars.pushScope();
  parent.vars.set('loc', 'inner', { local: true });
  const child = new ShellState({ name: 'agentos-shell', errorName: 'agentos-shell', positional: [], pid: 7 });
  child.deserialize(parent.serialize());
  assert.equal(child.vars.get('x'), '1');
  assert.deepEqual(child.vars.values('arr'), ['p', 'q']);
  assert.deepEqual(child.vars.keys('arr'), ['0', '5']);
  assert.equal(child.vars.getIndex('m', 'k'), 'v');
  assert.equal(child.vars.depth, 1);
  assert.equal(child.vars.get('loc'), 'inner');
  assert.ok(child.functions.get('f')?.type === 'FunctionDef');
  assert.equal(child.aliases.get('ll'), 'ls -l');
  // Ignored signals stay ignored; caught ones are reset (bash).
  assert.deepEqual([...child.traps], [['INT', '']]);
  assert.equal(child.opts.on('errexit'), true);
  assert.equal(child.opts.shoptOn('extglob'), true);
  assert.deepEqual(child.positional, ['a', 'b']);
  assert.equal(child.name, 'sh');
  assert.equal(child.status, 3);
  assert.equal(child.pid, 42);
  assert.equal(child.subshellLevel, 1);
  assert.equal(child.lastArg, 'last');
  // Not carried: a child shell starts with an empty directory stack.
  assert.deepEqual(child.dirStack, []);
});

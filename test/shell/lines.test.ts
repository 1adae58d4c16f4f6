import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse, print } from '../../src/shell/syntax/index.js';
import { encodeLines, LineRestorer } from '../../src/shell/syntax/lines.js';

/** Every node's line, in document order. */
function lines(node: unknown): number[] {
  const out: number[] = [];
  JSON.stringify(node, (_k, v: unknown) => {
    if (v !== null && typeof v === 'object' && typeof (v as { line?: unknown }).line === 'number') out.push((v as { line: number }).line);
    return v;
  });
  return out;
}

const SCRIPT = [
  'true',
  '{ echo a',
  '  echo "b',
  'c" $(echo d',
  '); } | cat',
  'f() {',
  '  cat <<EOF',
  'body $x',
  'EOF',
  '  while :; do break; done',
  '}',
  '( if true; then :; fi',
  ') &',
].join('\n');

test('lines: printed and re-parsed statements get the lines they were written on', () => {
  const stmts = parse(SCRIPT).stmts;
  const reparsed = parse(stmts.map((s) => print(s)).join('\n')).stmts;
  assert.notDeepEqual(lines(reparsed), lines(stmts)); // the printer's layout differs
  const restorer = new LineRestorer(encodeLines(stmts));
  for (const st of reparsed) restorer.restore([st]);
  assert.deepEqual(lines(reparsed), lines(stmts));
});

test('lines: a command sent alone is restored as the statement the child parses', () => {
  const cmd = parse(SCRIPT).stmts[1].cmd;
  const reparsed = parse(print(cmd)).stmts;
  new LineRestorer(encodeLines(cmd)).restore(reparsed);
  assert.deepEqual(lines(reparsed[0].cmd), lines(cmd));
  assert.equal(reparsed[0].line, cmd.line);
});

test('lines: a tree of another shape keeps the lines it was parsed with', () => {
  const sent = encodeLines(parse('\n\n{ a; b; }').stmts);
  const other = parse('{ a; }').stmts;
  const before = lines(other);
  new LineRestorer(sent).restore(other);
  assert.deepEqual(lines(other), before);
});

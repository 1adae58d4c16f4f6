// Pattern matching: unit tests, and `[[ s == PAT ]]` compared with bash.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { parse } from '../../../src/shell/syntax/index.js';
import type { Word } from '../../../src/shell/syntax/index.js';
import {
  expandPattern, literalPattern, matchPattern, patternSource, replacePattern, trimPattern,
} from '../../../src/shell/expand/index.js';
import type { Pattern } from '../../../src/shell/expand/index.js';
import { makeCtx, runSetup } from './helpers.js';

const O = { extglob: true, nocase: false };
const P = (src: string): Pattern => [{ text: src, quoted: false }];

test('basic wildcards and brackets', () => {
  assert.ok(matchPattern(P('a*c'), 'abbc', O));
  assert.ok(matchPattern(P('a?c'), 'abc', O));
  assert.ok(!matchPattern(P('a?c'), 'ac', O));
  assert.ok(matchPattern(P('[a-c]x'), 'bx', O));
  assert.ok(matchPattern(P('[!a-c]x'), 'dx', O));
  assert.ok(matchPattern(P('[^a-c]x'), 'dx', O));
  assert.ok(matchPattern(P('[]]'), ']', O));
  assert.ok(matchPattern(P('[!]]'), 'a', O));
  assert.ok(matchPattern(P('[a-]'), '-', O));
  assert.ok(matchPattern(P('[[:digit:][:upper:]]*'), 'Q1', O));
  assert.ok(!matchPattern(P('[[:digit:]]'), 'a', O));
  assert.ok(matchPattern(P('[z-a]'), 'z', O) === false);
  assert.ok(matchPattern(P('['), '[', O));
  assert.ok(matchPattern(P('a\\*'), 'a*', O));
  assert.ok(!matchPattern(P('a\\*'), 'ab', O));
  assert.ok(matchPattern(P('x\\'), 'x\\', O));
  assert.ok(matchPattern(P('é?'), 'éé', O));
});

test('quoted segments are literal', () => {
  const p: Pattern = [{ text: '*', quoted: false }, { text: '*?[a]', quoted: true }];
  assert.equal(patternSource(p), '*\\*\\?\\[a\\]');
  assert.ok(matchPattern(p, 'xx*?[a]', O));
  assert.ok(!matchPattern(p, 'xx*?a', O));
  assert.ok(matchPattern(literalPattern('a.b(c)|d'), 'a.b(c)|d', O));
});

test('extglob', () => {
  assert.ok(matchPattern(P('@(ab|cd)'), 'cd', O));
  assert.ok(matchPattern(P('+(ab)'), 'ababab', O));
  assert.ok(matchPattern(P('*(x)y'), 'y', O));
  assert.ok(matchPattern(P('?(x)y'), 'xy', O));
  assert.ok(!matchPattern(P('?(x)y'), 'xxy', O));
  assert.ok(matchPattern(P('!(*.c)'), 'a.h', O));
  assert.ok(!matchPattern(P('!(*.c)'), 'a.c', O));
  assert.ok(matchPattern(P('@(a|b)'), 'a', { extglob: true, nocase: false }));
  assert.ok(!matchPattern(P('@(a|b)'), 'a', { extglob: false, nocase: false }));
});

test('nocase', () => {
  assert.ok(matchPattern(P('ab*'), 'ABC', { extglob: false, nocase: true }));
});

test('trim shortest and longest', () => {
  const s = 'a/b/c.d.e';
  assert.equal(trimPattern(s, P('*/'), '#', O), 'b/c.d.e');
  assert.equal(trimPattern(s, P('*/'), '##', O), 'c.d.e');
  assert.equal(trimPattern(s, P('.*'), '%', O), 'a/b/c.d');
  assert.equal(trimPattern(s, P('.*'), '%%', O), 'a/b/c');
  assert.equal(trimPattern(s, P('+([a-z/])'), '##', O), '.d.e');
  assert.equal(trimPattern(s, P('x'), '#', O), s);
});

test('replace first, all, anchored, with the match', () => {
  const rep = (m: string): string => `<${m}>`;
  assert.equal(replacePattern('banana', P('an'), '/', rep, O), 'b<an>ana');
  assert.equal(replacePattern('banana', P('an'), '//', rep, O), 'b<an><an>a');
  assert.equal(replacePattern('banana', P('b*n'), '/', rep, O), '<banan>a');
  assert.equal(replacePattern('banana', P('a'), '/#', rep, O), 'banana');
  assert.equal(replacePattern('banana', P('*a'), '/%', rep, O), '<banana>');
  assert.equal(replacePattern('abc', P('?()'), '//', () => '-', O), '-a-b-c');
});

test('a long string stays fast (greedy matching, no quadratic scan)', () => {
  const s = 'x/'.repeat(50000) + 'end';
  const t = performance.now();
  assert.equal(trimPattern(s, P('*/'), '##', O), 'end');
  assert.equal(replacePattern(s, P('/'), '//', () => ':', O).length, s.length);
  assert.ok(performance.now() - t < 500);
});

// ------------------------------------------------------------------ differential

/** [subject, pattern as written after `==` in [[ ]]] */
const condCases: [string, string][] = [
  ['abc', 'a*'], ['abc', '"a*"'], ['a*', '"a*"'], ['a*', 'a\\*'], ['abc', 'a?c'], ['abc', '[a-c][!x]?'],
  ['a]', '?[]]'], ['-', '[a-]'], ['.x', '*x'], ['a/b', 'a*b'], ['foo.c', '@(*.c|*.h)'], ['foo.o', '!(*.c|*.h)'],
  ['aaa', '+(a)'], ['', '*(a)'], ['ab', '?(a)b'], ['B', '[[:lower:]]'], ['5', '[[:digit:]]'], [' ', '[[:space:]]'],
  ['x', "'x'"], ['*', '$star'], ['a', '$star'], ['*', '"$star"'], ['a', '"$star"'], ['ab', '$q'], ['[ab]', '"$q"'],
  ['a.b', 'a.b'], ['aXb', 'a[[:upper:]]b'], ['a\\b', 'a\\\\b'], ['abc', '*@(b)*'], ['abc', 'a!(b)c'],
];

function bashMatch(subject: string, pat: string): string {
  const script = `shopt -s extglob\nstar='*'; q='[ab]'; s='${subject.replace(/'/g, "'\\''")}'\n[[ $s == ${pat} ]] && echo 1 || echo 0`;
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { LC_ALL: 'C', PATH: process.env.PATH } });
  return r.stdout.trim();
}

function ourMatch(subject: string, pat: string): string {
  const ctx = makeCtx({ extglob: true });
  runSetup(ctx, "star='*'; q='[ab]'");
  const c = parse(`[[ x == ${pat} ]]`, { extglob: true }).stmts[0].cmd;
  if (c.type !== 'TestCmd' || c.expr.type !== 'CondBinary') throw new Error('parse');
  const w: Word = c.expr.right;
  return matchPattern(expandPattern(w, ctx), subject, { extglob: true, nocase: false }) ? '1' : '0';
}

for (const [s, p] of condCases) {
  test(`bash [[ ${JSON.stringify(s)} == ${p} ]]`, () => {
    assert.equal(ourMatch(s, p), bashMatch(s, p));
  });
}

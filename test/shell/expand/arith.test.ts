// Arithmetic evaluation: values, assignments, errors, exact 64-bit results, speed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ShellError } from '../../../src/shell/errors.js';
import { parseArithmetic } from '../../../src/shell/syntax/index.js';
import type { ArithExp } from '../../../src/shell/syntax/index.js';
import {
  evalArith, evalArithExp, evalArithText, evalArithValue, expandWord, intString, parseNumber,
} from '../../../src/shell/expand/index.js';
import { makeCtx, runSetup, words } from './helpers.js';

const val = (text: string, setup = ''): string => {
  const ctx = makeCtx();
  runSetup(ctx, setup);
  return intString(evalArithValue(text, ctx));
};

const err = (text: string, setup = ''): string => {
  const ctx = makeCtx();
  runSetup(ctx, setup);
  try {
    evalArithValue(text, ctx);
  } catch (e) {
    assert.ok(e instanceof ShellError);
    return e.message;
  }
  return 'no error';
};

test('exact 64-bit results', () => {
  assert.equal(val('9223372036854775807'), '9223372036854775807');
  assert.equal(val('2**63'), '-9223372036854775808');
  assert.equal(val('2**62 - 1 + 2**62'), '9223372036854775807');
  assert.equal(val('9223372036854775807 + 1'), '-9223372036854775808');
  assert.equal(val('1 << 63'), '-9223372036854775808');
  assert.equal(val('3037000500 * 3037000500'), '-9223372036709301616');
  assert.equal(val('9007199254740993 - 1'), '9007199254740992');
  assert.equal(val('-(2**53) - 3'), '-9007199254740995');
  assert.equal(val('0x7fffffffffffffff / 3'), '3074457345618258602');
  assert.equal(val('0x7fffffffffffffff % 1000'), '807');
  assert.equal(val('~0x7fffffffffffffff'), '-9223372036854775808');
  assert.equal(val('(1<<62) | 1'), '4611686018427387905');
  assert.equal(val('7**30'), '1576789505350337489');
});

test('numbers in every base', () => {
  assert.equal(parseNumber('0x1f'), 31);
  assert.equal(parseNumber('017'), 15);
  assert.equal(parseNumber('2#101'), 5);
  assert.equal(parseNumber('36#Z'), 35);
  assert.equal(parseNumber('62#Z'), 61);
  assert.equal(parseNumber('64#_'), 63);
  assert.equal(parseNumber('0x'), 0);
});

test('assignments to variables and array elements', () => {
  const ctx = makeCtx();
  runSetup(ctx, 'a=(1 2 3); declare -A A');
  assert.equal(evalArithText('x = 5, x *= 2, x', ctx), 10);
  assert.equal(ctx.vars.get('x'), '10');
  assert.equal(evalArithText('a[1] += 40', ctx), 42);
  assert.equal(ctx.vars.getIndex('a', '1'), '42');
  assert.equal(evalArithText('a[5]++', ctx), 0);
  assert.equal(ctx.vars.getIndex('a', '5'), '1');
  assert.equal(evalArithText('i=1, a[i++]=7, i', ctx), 2);
  assert.equal(ctx.vars.getIndex('a', '1'), '7');
  assert.equal(evalArithText('A[k+1] = 3', ctx), 3);
  assert.deepEqual(ctx.vars.keys('A'), ['k+1']);
  assert.equal(evalArithText('y = z = 4', ctx), 4);
  assert.equal(ctx.vars.get('z'), '4');
});

test('variables holding expressions, and the recursion limit', () => {
  assert.equal(val('x * 2', 'x="3+4"'), '14');
  assert.equal(val('a', 'a=b; b=c; c=6'), '6');
  assert.equal(val('u + 1', 'unset u'), '1');
  assert.equal(err('a', 'a=a'), 'a: expression recursion level exceeded (error token is "a")');
});

test('bash error messages', () => {
  assert.equal(err('1/0'), '1/0: division by 0 (error token is "0")');
  assert.equal(err('1/0 + 3'), '1/0 + 3: division by 0 (error token is "0 + 3")');
  assert.equal(err('5%0'), '5%0: division by 0 (error token is "0")');
  assert.equal(err('2**-1'), '2**-1: exponent less than 0 (error token is "1")');
  assert.equal(err('08'), '08: value too great for base (error token is "08")');
  assert.equal(err('65#1'), '65#1: invalid arithmetic base (error token is "65#1")');
  assert.equal(err('1 +'), '1 +: syntax error: operand expected (error token is "+")');
  assert.equal(err('x*2', 'x="1+"'), '1+: syntax error: operand expected (error token is "+")');
  const ctx = makeCtx({ nounset: true });
  assert.throws(() => evalArithText('nosuch + 1', ctx), /nosuch: unbound variable/);
});

test('empty and blank expressions are 0', () => {
  assert.equal(val(''), '0');
  assert.equal(val('   '), '0');
});

test('evalArith on a static tree and evalArithExp on $(( )) nodes', () => {
  const ctx = makeCtx();
  ctx.vars.set('n', '6');
  assert.equal(evalArith(parseArithmetic('n * 7'), ctx), 42);
  const node = words('$((n+$n))')[0].parts[0] as ArithExp;
  assert.equal(intString(evalArithExp(node, ctx)), '12');
  assert.throws(() => evalArith(parseArithmetic('n / 0'), ctx), /division by 0/);
});

test('declare -i values go through the arithmetic evaluator', () => {
  const ctx = makeCtx();
  runSetup(ctx, 'declare -i n\nn="2 + 3 * 4"');
  assert.equal(ctx.vars.get('n'), '14');
});

test('speed: a 10,000-iteration counting loop', () => {
  const ctx = makeCtx();
  const w = words('$((i+1))')[0];
  ctx.vars.set('i', '0');
  const t = performance.now();
  for (let k = 0; k < 10000; k++) ctx.vars.set('i', expandWord(w, ctx));
  const ms = performance.now() - t;
  assert.equal(ctx.vars.get('i'), '10000');
  assert.ok(ms < 1000, `${ms} ms`);
});

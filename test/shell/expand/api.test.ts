// The non-field entry points: single words, patterns, regexes, here-docs,
// assignment values, redirection targets; and error reporting.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ShellError } from '../../../src/shell/errors.js';
import { parse } from '../../../src/shell/syntax/index.js';
import type { Word } from '../../../src/shell/syntax/index.js';
import {
  expandAssignValue, expandBraces, expandHeredoc, expandPattern, expandRedirectTarget, expandRegex, expandWord,
  expandWords, matchPattern,
} from '../../../src/shell/expand/index.js';
import { HOME, makeCtx, runSetup, words } from './helpers.js';

const w1 = (src: string): Word => words(src)[0];

test('expandWord: no splitting, globbing or brace expansion; $@ joined by spaces', () => {
  const ctx = makeCtx();
  runSetup(ctx, 'x="a  *  b"; IFS=,');
  assert.equal(expandWord(w1('$x'), ctx), 'a  *  b');
  assert.equal(expandWord(w1('{a,b}'), ctx), '{a,b}');
  assert.equal(expandWord(w1('$@'), ctx), 'a b c');
  assert.equal(expandWord(w1('"$*"'), ctx), 'a,b c');
  assert.equal(expandWord(w1('$*'), ctx), 'a,b c');
  assert.equal(expandWord(w1('~/x'), ctx), `${HOME}/x`);
});

test('expandAssignValue: tildes after = and :', () => {
  const ctx = makeCtx();
  const c = parse('PATH=~/bin:~root/sbin:/x~').stmts[0].cmd;
  assert.equal(c.type, 'SimpleCommand');
  if (c.type !== 'SimpleCommand') return;
  assert.equal(expandAssignValue(c.assigns[0].value!, ctx), `${HOME}/bin:/root/sbin:/x~`);
});

test('expandPattern keeps quoting for case and [[ == ]]', () => {
  const ctx = makeCtx();
  runSetup(ctx, "v='*'");
  const O = { extglob: false, nocase: false };
  assert.ok(matchPattern(expandPattern(w1('$v'), ctx), 'anything', O));
  assert.ok(!matchPattern(expandPattern(w1('"$v"'), ctx), 'anything', O));
  assert.ok(matchPattern(expandPattern(w1('"$v"'), ctx), '*', O));
  assert.ok(matchPattern(expandPattern(w1("a'*'\\?"), ctx), 'a*?', O));
});

test('expandRegex escapes quoted parts', () => {
  const ctx = makeCtx();
  runSetup(ctx, "v='a.b'");
  const c = parse('[[ x =~ ^"$v"(x|y)+$v$ ]]').stmts[0].cmd;
  if (c.type !== 'TestCmd' || c.expr.type !== 'CondBinary') throw new Error('parse');
  assert.equal(expandRegex(c.expr.right, ctx), '^a\\.b(x|y)+a.b$');
});

test('expandHeredoc: expansions, no quote removal', () => {
  const ctx = makeCtx();
  runSetup(ctx, 'x=val');
  const c = parse('cat <<E\n"$x" \'$x\' \\$x $(echo hi) $((1+1)) ${x:-d}\nE\n').stmts[0].cmd;
  if (c.type !== 'SimpleCommand') throw new Error('parse');
  assert.equal(expandHeredoc(c.redirs[0].heredoc!, ctx), '"val" \'val\' $x hi 2 val\n');
});

test('expandRedirectTarget: one field or an ambiguous redirect', () => {
  const ctx = makeCtx();
  runSetup(ctx, 'f="a b"; g=file');
  assert.equal(expandRedirectTarget(w1('$g.txt'), ctx), 'file.txt');
  assert.equal(expandRedirectTarget(w1('"$f"'), ctx), 'a b');
  assert.throws(() => expandRedirectTarget(w1('$f'), ctx), (e: unknown) => e instanceof ShellError && e.message === '$f: ambiguous redirect');
  assert.throws(() => expandRedirectTarget(w1('{x,y}'), ctx), /ambiguous redirect/);
  assert.throws(() => expandRedirectTarget(w1('$nosuch'), ctx), /\$nosuch: ambiguous redirect/);
});

test('errors: bad substitution, unbound, null or not set, cannot assign', () => {
  const ctx = makeCtx();
  const msg = (src: string): string => {
    try {
      expandWords(words(src), ctx);
    } catch (e) {
      if (e instanceof ShellError) return e.message;
      throw e;
    }
    return 'no error';
  };
  assert.equal(msg('${x y}'), '${x y}: bad substitution');
  assert.equal(msg('${x:?}'), 'x: parameter null or not set');
  assert.equal(msg('${x?}'), 'x: parameter not set');
  assert.equal(msg('${x:?oops $HOME}'), `x: oops ${HOME}`);
  assert.equal(msg('${3:=v}'), '$3: cannot assign in this way');
  ctx.opts.nounset = true;
  assert.equal(msg('$x'), 'x: unbound variable');
  assert.equal(msg('$5'), '$5: unbound variable');
  assert.equal(msg('${a[3]}'), 'a[3]: unbound variable');
  ctx.opts.nounset = false;
  ctx.opts.failglob = true;
  ctx.dir = '/nonexistent-dir-for-test';
  assert.equal(msg('*.zz'), 'no match: *.zz');
});

test('command substitution strips trailing newlines and runs once per expansion', () => {
  const ctx = makeCtx();
  assert.deepEqual(expandWords(words('"$(printf \'a\\n\\n\')"x'), ctx), ['ax']);
  assert.deepEqual(ctx.ran, ['printf a\\n\\n']);
});

test('process substitution gives the path', () => {
  const ctx = makeCtx();
  assert.deepEqual(expandWords(words('<(true) >(true)'), ctx), ['/dev/fd/63', '/dev/fd/62']);
});

test('${x=v} assigns; integer attributes apply', () => {
  const ctx = makeCtx();
  runSetup(ctx, 'declare -i n');
  assert.deepEqual(expandWords(words('${n:=1+2} ${s=a b}'), ctx), ['3', 'a', 'b']);
  assert.equal(ctx.vars.get('n'), '3');
  assert.equal(ctx.vars.get('s'), 'a b');
});

test('brace expansion keeps other parts whole', () => {
  const ws = expandBraces(w1('pre{a,"b c",$x}post'));
  assert.equal(ws.length, 3);
  const ctx = makeCtx();
  runSetup(ctx, 'x=X');
  assert.deepEqual(ws.map((w) => expandWord(w, ctx)), ['preapost', 'preb cpost', 'preXpost']);
  assert.deepEqual(expandWords(words('{1..3}'), ctx), ['1', '2', '3']);
});

test('unquoted words without expansions are passed through', () => {
  const ctx = makeCtx();
  assert.deepEqual(expandWords(words('plain a=b -x --opt=1'), ctx), ['plain', 'a=b', '-x', '--opt=1']);
});

test('dynamic variables come from the context', () => {
  const ctx = makeCtx();
  const base = ctx.special.bind(ctx);
  ctx.special = (n) => (n === 'RANDOM' ? '17' : base(n));
  assert.deepEqual(expandWords(words('$RANDOM $((RANDOM+1))'), ctx), ['17', '18']);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  parse, parseArithmetic, parseHeredocBody, print, checkComplete, ParseError, Parser, ArithSyntaxError,
} from '../../src/shell/syntax/index.js';
import type {
  Arith, ArithExp, Assign, CmdSubst, Command, Cond, DblQuoted, ParamExp, Redirect, SimpleCommand, Stmt,
} from '../../src/shell/syntax/index.js';
import { ast, cmd, lit, parts, roundTrip, seen, strip, words } from './helpers.js';

const simple = (c: Command): SimpleCommand => {
  assert.equal(c.type, 'SimpleCommand');
  return c as SimpleCommand;
};
const pe = (src: string, n = 1, k = 0): ParamExp => {
  const p = parts(src, n)[k];
  assert.equal(p.type, 'ParamExp', `${src}: part ${k} is ${p.type}`);
  return p as ParamExp;
};
const redirs = (src: string): Redirect[] => {
  const c = cmd(src);
  return 'redirs' in c ? c.redirs : [];
};
const arith = (src: string): Arith | null => {
  const p = parts(`echo ${src}`)[0] as ArithExp;
  assert.equal(p.type, 'ArithExp');
  return p.expr;
};
/** Arithmetic printed fully parenthesised, to check precedence. */
const paren = (a: Arith | null): string => {
  if (a === null) return 'null';
  switch (a.type) {
    case 'ArithNum': return a.value;
    case 'ArithVar': return a.name + (a.index ? `[${paren(a.index)}]` : '');
    case 'ArithWord': return print(a.word);
    case 'ArithUnary': return a.postfix ? `(${paren(a.arg)}${a.op})` : `(${a.op}${paren(a.arg)})`;
    case 'ArithBinary': return `(${paren(a.left)}${a.op}${paren(a.right)})`;
    case 'ArithAssign': return `(${paren(a.target)}${a.op}${paren(a.value)})`;
    case 'ArithCond': return `(${paren(a.test)}?${paren(a.then)}:${paren(a.else)})`;
  }
};
const cond = (src: string): Cond => {
  const c = cmd(src);
  assert.equal(c.type, 'TestCmd');
  return c.type === 'TestCmd' ? c.expr : (null as never);
};

test('simple commands, assignments and words', () => {
  const c = simple(cmd('echo hello world'));
  assert.deepEqual(c.words.map((w) => w.parts), [[lit('echo')], [lit('hello')], [lit('world')]]);
  const a = simple(cmd('a=b c'));
  assert.equal(a.assigns.length, 1);
  assert.equal(a.assigns[0].name, 'a');
  assert.deepEqual(a.assigns[0].value?.parts, [lit('b')]);
  assert.deepEqual(a.words[0].parts, [lit('c')]);
  // `a= b`: empty value, then the command b.
  const e = simple(cmd('a= b'));
  assert.deepEqual(e.assigns[0].value?.parts, []);
  assert.deepEqual(e.words[0].parts, [lit('b')]);
  // A quoted name is not an assignment: it is the command `a=b`.
  const q = simple(cmd('"a"=b'));
  assert.equal(q.assigns.length, 0);
  assert.equal(q.words[0].parts[0].type, 'DblQuoted');
  // After the command word, `x=y` is an argument.
  const arg = simple(cmd('echo x=y'));
  assert.equal(arg.assigns.length, 0);
  assert.deepEqual(arg.words[1].parts, [lit('x=y')]);
  // Only assignments.
  const only = simple(cmd('x=1 y=2'));
  assert.deepEqual(only.assigns.map((x) => x.name), ['x', 'y']);
  assert.equal(only.words.length, 0);
  const app = simple(cmd('x+=1'));
  assert.equal(app.assigns[0].append, true);
  // Invalid names are plain words.
  assert.equal(simple(cmd('1a=b')).assigns.length, 0);
  assert.equal(simple(cmd('a-b=c')).assigns.length, 0);
});

test('arrays and subscripts', () => {
  const a = simple(cmd('a=(x y "z w")')).assigns[0];
  assert.equal(a.value, null);
  assert.equal(a.array?.length, 3);
  assert.deepEqual(a.array?.[2].value.parts[0].type, 'DblQuoted');
  const b = simple(cmd('a+=(z)')).assigns[0];
  assert.equal(b.append, true);
  assert.deepEqual(b.array?.[0].value.parts, [lit('z')]);
  const c = simple(cmd('a[i]=v')).assigns[0];
  assert.deepEqual(c.index?.parts, [lit('i')]);
  assert.deepEqual(c.value?.parts, [lit('v')]);
  // In a command prefix a subscript may contain blanks, as in bash.
  const d = simple(cmd('a[i + 1]=5 cmd'));
  assert.deepEqual(d.assigns[0].index?.parts, [lit('i + 1')]);
  assert.deepEqual(d.words[0].parts, [lit('cmd')]);
  const e = simple(cmd('a[$k]+=x')).assigns[0];
  assert.equal(e.index?.parts[0].type, 'ParamExp');
  assert.equal(e.append, true);
  const f = simple(cmd('m=([k]=v [x y]=z plain)')).assigns[0];
  assert.deepEqual(f.array?.map((x) => x.index && print(x.index)), ['k', 'x y', null]);
  const g = simple(cmd('a=(\n  one # comment\n  two\n)')).assigns[0];
  assert.deepEqual(g.array?.map((x) => print(x.value)), ['one', 'two']);
  // Not in command-prefix position: `(` is a syntax error.
  assert.throws(() => parse('echo a=(b)'), /unexpected token `\('/);
});

test('declaration commands', () => {
  const d = cmd('declare -A m=([k]=v) x y=1');
  assert.equal(d.type, 'DeclCommand');
  if (d.type !== 'DeclCommand') return;
  assert.equal(d.variant, 'declare');
  assert.equal(d.args.length, 4);
  assert.equal(d.args[0].type, 'Word');
  assert.equal(d.args[1].type, 'Assign');
  assert.equal((d.args[1] as Assign).array?.[0].index && print((d.args[1] as Assign).array![0].index!), 'k');
  assert.equal(d.args[2].type, 'Word');
  assert.equal((d.args[3] as Assign).name, 'y');
  for (const v of ['local', 'export', 'readonly', 'typeset']) {
    const c = cmd(`${v} a=$x b`);
    assert.equal(c.type, 'DeclCommand');
    if (c.type === 'DeclCommand') assert.equal(c.variant, v);
  }
  const pre = cmd('X=1 export Y=2 >/dev/null');
  assert.equal(pre.type, 'DeclCommand');
  if (pre.type === 'DeclCommand') {
    assert.equal(pre.assigns[0].name, 'X');
    assert.equal(pre.redirs.length, 1);
  }
  // Quoted `declare` is still a declaration word in bash only when unquoted; we follow the literal text.
  assert.equal(cmd('"declare" a=1').type, 'SimpleCommand');
});

test('pipelines and lists', () => {
  const p = cmd('! a | b |& c');
  assert.equal(p.type, 'Pipeline');
  if (p.type === 'Pipeline') {
    assert.equal(p.negated, true);
    assert.equal(p.cmds.length, 3);
    assert.deepEqual(p.pipeAll, [false, true]);
  }
  const t = cmd('time -p ls');
  assert.equal(t.type === 'Pipeline' && t.time, 'time -p');
  assert.equal(cmd('! ! true').type, 'SimpleCommand', 'double negation cancels, as in bash');
  const bare = cmd('time');
  assert.equal(bare.type === 'Pipeline' && bare.cmds.length, 0);
  const ao = cmd('a && b || c');
  assert.equal(ao.type, 'AndOr');
  if (ao.type === 'AndOr') {
    assert.equal(ao.op, '||');
    assert.equal(ao.left.type, 'AndOr');
  }
  const s = ast('a; b & c\nd &');
  assert.deepEqual(s.stmts.map((x) => x.background), [false, true, false, true]);
  // Newlines may follow && || and |.
  assert.equal(ast('a &&\n\n b ||\n c |\n d').stmts.length, 1);
  assert.equal(ast('').stmts.length, 0);
  assert.equal(ast('\n\n# only a comment\n').stmts.length, 0);
});

test('compound commands', () => {
  const i = cmd('if a; then b; elif c; then d; else e; fi');
  assert.equal(i.type, 'If');
  if (i.type === 'If') {
    assert.equal(i.clauses.length, 2);
    assert.equal(i.elseBody?.length, 1);
  }
  const w = cmd('while a; do b; done');
  assert.equal(w.type === 'While' && w.until, false);
  const u = cmd('until a; do b; done');
  assert.equal(u.type === 'While' && u.until, true);
  const f = cmd('for x in a b; do echo $x; done');
  assert.equal(f.type === 'For' && f.words?.length, 2);
  const f2 = cmd('for x; do :; done');
  assert.equal(f2.type === 'For' && f2.words, null);
  const f3 = cmd('for x\ndo :; done');
  assert.equal(f3.type === 'For' && f3.words, null);
  const f4 = cmd('for x in; do :; done');
  assert.deepEqual(f4.type === 'For' && f4.words, []);
  const f5 = cmd('for x in a\ndo :\ndone');
  assert.equal(f5.type === 'For' && f5.name, 'x');
  const f6 = cmd('for x in a b; { echo; }');
  assert.equal(f6.type === 'For' && f6.body.length, 1);
  const sel = cmd('select x in a b; do break; done');
  assert.equal(sel.type === 'For' && sel.select, true);
  const g = cmd('{ a; b; }');
  assert.equal(g.type === 'Group' && g.stmts.length, 2);
  const sub = cmd('(a; b)');
  assert.equal(sub.type === 'Subshell' && sub.stmts.length, 2);
  const nested = cmd('( (a) )');
  assert.equal(nested.type === 'Subshell' && nested.stmts[0].cmd.type, 'Subshell');
  const r = cmd('{ a; } >out 2>&1');
  assert.equal(r.type === 'Group' && r.redirs.length, 2);
  const wr = cmd('while read l; do :; done < <(ls)');
  assert.equal(wr.type === 'While' && wr.redirs[0].target.parts[0].type, 'ProcSubst');
});

test('case', () => {
  const c = cmd('case $x in a|b) echo 1;; (c) echo 2;& *) echo 3;;& esac');
  assert.equal(c.type, 'Case');
  if (c.type !== 'Case') return;
  assert.equal(c.items.length, 3);
  assert.deepEqual(c.items[0].patterns.map((p) => print(p)), ['a', 'b']);
  assert.deepEqual(c.items.map((x) => x.term), [';;', ';&', ';;&']);
  const last = cmd('case a in a) echo; esac');
  assert.equal(last.type === 'Case' && last.items[0].term, ';;');
  const empty = cmd('case a in esac');
  assert.equal(empty.type === 'Case' && empty.items.length, 0);
  const nl = cmd('case a\nin\n  x)\n    ;;\n  y) echo\nesac');
  assert.equal(nl.type === 'Case' && nl.items.length, 2);
  assert.equal(nl.type === 'Case' && nl.items[0].body.length, 0);
  // Reserved words are ordinary patterns.
  const kw = cmd('case x in if|then) :;; esac');
  assert.equal(kw.type === 'Case' && print(kw.items[0].patterns[1]), 'then');
  const q = cmd('case x in "a b"|\\)) :;; esac');
  assert.equal(q.type === 'Case' && q.items[0].patterns[1].parts[0].type, 'Escaped');
});

test('case and parentheses inside $( )', () => {
  const p = parts('echo $(case a in a) echo x;; esac)')[0] as CmdSubst;
  assert.equal(p.type, 'CmdSubst');
  assert.equal(p.stmts[0].cmd.type, 'Case');
  const q = parts('echo "$(case a in (a) echo ")";; esac)"')[0] as DblQuoted;
  assert.equal(q.type, 'DblQuoted');
  const inner = q.parts[0] as CmdSubst;
  assert.equal(inner.stmts[0].cmd.type, 'Case');
  const s = parts('x $(echo a) $( (echo b) ) $(echo $(echo c))', 1);
  assert.equal(s[0].type, 'CmdSubst');
  const deep = parts('x $(echo $(echo c))')[0] as CmdSubst;
  const w = simple(deep.stmts[0].cmd).words[1].parts[0];
  assert.equal(w.type, 'CmdSubst');
  const empty = parts('x $() $( )')[0] as CmdSubst;
  assert.equal(empty.stmts.length, 0);
  const sub = parts('x $( (a); (b) )')[0] as CmdSubst;
  assert.equal(sub.stmts[0].cmd.type, 'Subshell');
  // `$((` that is not arithmetic: a command substitution of a subshell.
  const notArith = parts('x $((echo a); (echo b))')[0] as CmdSubst;
  assert.equal(notArith.type, 'CmdSubst');
  assert.equal(notArith.stmts.length, 2);
  const cmt = parts('x $(echo a # ) comment\n)')[0] as CmdSubst;
  assert.equal(simple(cmt.stmts[0].cmd).words.length, 2);
});

test('function definitions', () => {
  const f = cmd('f() { echo hi; }');
  assert.equal(f.type, 'FunctionDef');
  if (f.type === 'FunctionDef') {
    assert.equal(f.name, 'f');
    assert.equal(f.keyword, false);
    assert.equal(f.body.type, 'Group');
  }
  const g = cmd('function g { :; }');
  assert.equal(g.type === 'FunctionDef' && g.keyword, true);
  const h = cmd('function h() ( : )');
  assert.equal(h.type === 'FunctionDef' && h.body.type, 'Subshell');
  const r = cmd('f () { :; } >/dev/null');
  assert.equal(r.type === 'FunctionDef' && r.body.type === 'Group' && r.body.redirs.length, 1);
  const nl = cmd('f()\n{\n  :\n}');
  assert.equal(nl.type, 'FunctionDef');
  const ar = cmd('f() ((x++))');
  assert.equal(ar.type === 'FunctionDef' && ar.body.type, 'ArithCmd');
  const tc = cmd('f() [[ -n $1 ]]');
  assert.equal(tc.type === 'FunctionDef' && tc.body.type, 'TestCmd');
  const names = cmd('a-b.c() { :; }');
  assert.equal(names.type === 'FunctionDef' && names.name, 'a-b.c');
});

test('reserved words only in command position; { } as words', () => {
  assert.deepEqual(words('echo if then fi done { }').map((w) => print(w)), ['echo', 'if', 'then', 'fi', 'done', '{', '}']);
  assert.deepEqual(words('echo {a,b} {1..3} a{b,c}d').map((w) => print(w)), ['echo', '{a,b}', '{1..3}', 'a{b,c}d']);
  assert.equal(simple(cmd('if=3')).assigns[0].name, 'if');
  // `}` inside a group's last command is an argument, so the group needs its own `}`.
  const g = cmd('{ echo }; }');
  assert.equal(g.type === 'Group' && simple(g.stmts[0].cmd).words.length, 2);
  const kw = ast('echo a; if true; then :; fi');
  assert.equal(kw.stmts[1].cmd.type, 'If');
  assert.equal(simple(cmd('"if" x')).words.length, 2);
  assert.equal(simple(cmd('\\if x')).words[0].parts[0].type, 'Escaped');
});

test('quoting', () => {
  assert.deepEqual(parts("x 'a b'"), [{ type: 'SglQuoted', value: 'a b' }]);
  assert.deepEqual(parts('x "a $b"'), [{ type: 'DblQuoted', locale: false, parts: [lit('a '), { ...pe('x $b', 1), short: true }] }]);
  assert.deepEqual(parts("x $'a\\tb\\x41\\u00e9\\n\\'\\101'"), [{ type: 'AnsiQuoted', value: "a\tbAé\n'A", raw: "a\\tb\\x41\\u00e9\\n\\'\\101" }]);
  assert.equal((parts('x $"hello $x"')[0] as DblQuoted).locale, true);
  assert.deepEqual(parts('x a\\*b'), [lit('a'), { type: 'Escaped', value: '*' }, lit('b')]);
  // Inside double quotes only \$ \` \" \\ \newline are escapes.
  assert.deepEqual((parts('x "\\$ \\a \\" \\\\"')[0] as DblQuoted).parts, [lit('$ \\a " \\')]);
  assert.deepEqual(parts('x "a\\\nb"'), [{ type: 'DblQuoted', locale: false, parts: [lit('ab')] }]);
  // Glob characters: unquoted Lit = active, quoted forms = inactive.
  assert.deepEqual(parts('x *.txt"*"\'?\'\\['), [lit('*.txt'), { type: 'DblQuoted', locale: false, parts: [lit('*')] }, { type: 'SglQuoted', value: '?' }, { type: 'Escaped', value: '[' }]);
  assert.deepEqual(parts('x ""'), [{ type: 'DblQuoted', locale: false, parts: [] }]);
  assert.deepEqual(parts("x ''"), [{ type: 'SglQuoted', value: '' }]);
  // `$` before a non-name is literal.
  assert.deepEqual(parts('x $ a$ "$"'.split(' ').slice(0, 2).join(' ')), [lit('$')]);
  assert.deepEqual((parts('x "$"')[0] as DblQuoted).parts, [lit('$')]);
});

test('comments and line continuations', () => {
  assert.deepEqual(words('echo a#b # comment').map((w) => print(w)), ['echo', 'a#b']);
  assert.deepEqual(words('echo #x').map((w) => print(w)), ['echo']);
  assert.deepEqual(words('echo "#x" \\#y').map((w) => print(w)), ['echo', '"#x"', '\\#y']);
  assert.deepEqual(words('echo a \\\nb').map((w) => print(w)), ['echo', 'a', 'b']);
  assert.deepEqual(words('ec\\\nho a\\\nb').map((w) => print(w)), ['echo', 'ab']);
  assert.equal(ast('a;#c\nb').stmts.length, 2);
  assert.deepEqual(words("echo 'a\\\nb'")[1].parts, [{ type: 'SglQuoted', value: 'a\\\nb' }]);
  assert.equal(ast('a &\\\n& b').stmts.length, 1);
});

test('tilde prefixes', () => {
  assert.deepEqual(parts('x ~'), [{ type: 'Tilde', user: '' }]);
  assert.deepEqual(parts('x ~/a'), [{ type: 'Tilde', user: '' }, lit('/a')]);
  assert.deepEqual(parts('x ~root/a'), [{ type: 'Tilde', user: 'root' }, lit('/a')]);
  assert.deepEqual(parts('x a~'), [lit('a~')]);
  assert.deepEqual(parts('x "~"'), [{ type: 'DblQuoted', locale: false, parts: [lit('~')] }]);
  assert.deepEqual(parts('x ~"a"'), [lit('~'), { type: 'DblQuoted', locale: false, parts: [lit('a')] }]);
  const a = simple(cmd('P=~/bin:~x/b:c')).assigns[0];
  assert.deepEqual(a.value?.parts, [{ type: 'Tilde', user: '' }, lit('/bin:'), { type: 'Tilde', user: 'x' }, lit('/b:c')]);
});

test('parameter expansions', () => {
  for (const [src, name] of [['$x', 'x'], ['${x}', 'x'], ['$1', '1'], ['${10}', '10'], ['$@', '@'], ['$*', '*'], ['$#', '#'], ['$?', '?'], ['$$', '$'], ['$!', '!'], ['$-', '-'], ['$0', '0'], ['${#}', '#'], ['${!}', '!'], ['${@}', '@']] as const) {
    assert.equal(pe(`x ${src}`).name, name, src);
  }
  assert.deepEqual(parts('x $10'), [{ ...pe('x $1'), name: '1' }, lit('0')]);
  assert.equal(pe('x $ab_1c').name, 'ab_1c');
  assert.equal(pe('x ${#x}').length, true);
  assert.equal(pe('x ${!x}').indirect, true);
  assert.equal(pe('x ${!p*}').names, '*');
  assert.equal(pe('x ${!p@}').names, '@');
  const keys = pe('x ${!arr[@]}');
  assert.equal(keys.indirect, true);
  assert.deepEqual(keys.index?.parts, [lit('@')]);
  assert.deepEqual(pe('x ${a[i+1]}').index?.parts, [lit('i+1')]);
  assert.deepEqual(pe('x ${a[*]}').index?.parts, [lit('*')]);
  const len = pe('x ${#a[@]}');
  assert.equal(len.length, true);
  assert.deepEqual(len.index?.parts, [lit('@')]);
  for (const op of ['-', '=', '?', '+'] as const) {
    for (const colon of [true, false]) {
      const p = pe(`x \${x${colon ? ':' : ''}${op}w}`);
      assert.deepEqual(p.op, { kind: 'default', op, colon, word: { type: 'Word', parts: [lit('w')] } });
    }
  }
  for (const op of ['#', '##', '%', '%%'] as const) assert.equal(pe(`x \${x${op}p*}`).op?.kind === 'trim' && pe(`x \${x${op}p*}`).op?.kind, 'trim');
  assert.equal((pe('x ${x%%.*}').op as { op: string }).op, '%%');
  for (const op of ['/', '//', '/#', '/%'] as const) {
    const p = pe(`x \${x${op}a/b}`);
    assert.equal(p.op?.kind === 'replace' && p.op.op, op);
  }
  const nowith = pe('x ${x//a}');
  assert.equal(nowith.op?.kind === 'replace' && nowith.op.with, null);
  const emptyWith = pe('x ${x/a/}');
  assert.deepEqual(emptyWith.op?.kind === 'replace' && emptyWith.op.with?.parts, []);
  const sl = pe('x ${x:1:2}');
  assert.deepEqual(sl.op?.kind === 'slice' && [sl.op.offset.parts, sl.op.length?.parts], [[lit('1')], [lit('2')]]);
  const neg = pe('x ${x: -1}');
  assert.equal(neg.op?.kind, 'slice');
  const neg2 = pe('x ${x:(-2):1}');
  assert.deepEqual(neg2.op?.kind === 'slice' && neg2.op.offset.parts, [lit('(-2)')]);
  for (const op of ['^', '^^', ',', ',,'] as const) assert.equal((pe(`x \${x${op}}`).op as { op: string }).op, op);
  assert.deepEqual(pe('x ${x^^[ab]}').op, { kind: 'case', op: '^^', pattern: { type: 'Word', parts: [lit('[ab]')] } });
  assert.deepEqual(pe('x ${x@Q}').op, { kind: 'transform', op: 'Q' });
  // Operands are words with their own parts.
  const nested = pe('x ${x:-"$(echo "}")"}');
  const w = nested.op?.kind === 'default' ? nested.op.word : null;
  assert.equal(w?.parts[0].type, 'DblQuoted');
  assert.equal((w?.parts[0] as DblQuoted).parts[0].type, 'CmdSubst');
  const deep = pe('x ${a:-${b:-$c}}');
  assert.equal(deep.op?.kind === 'default' && deep.op.word.parts[0].type, 'ParamExp');
  // Braces do not nest in operands: the first `}` closes (bash prints `a}` for ${x:-{a}} with x=a).
  assert.deepEqual(parts('x ${x:-{a}}'), [{ ...pe('x ${x:-{a}'), op: { kind: 'default', op: '-', colon: true, word: { type: 'Word', parts: [lit('{a')] } } }, lit('}')]);
  // Single quotes are literal in a double-quoted default operand but quote in patterns.
  const dq = (parts(`x "\${x:-'q'}" "\${x#'a'}"`, 1)[0] as DblQuoted).parts[0] as ParamExp;
  assert.deepEqual(dq.op?.kind === 'default' && dq.op.word.parts, [lit("'q'")]);
  const dq2 = (parts(`x "\${x:-'q'}" "\${x#'a'}"`, 2)[0] as DblQuoted).parts[0] as ParamExp;
  assert.deepEqual(dq2.op?.kind === 'trim' && dq2.op.pattern.parts, [{ type: 'SglQuoted', value: 'a' }]);
  // Malformed expansions parse (bash reports them when expanding).
  assert.deepEqual(parts('x ${x y}'), [{ type: 'BadSubst', text: '${x y}' }]);
  assert.deepEqual(parts('x ${}'), [{ type: 'BadSubst', text: '${}' }]);
  assert.equal(parts('x ${#x:-a}')[0].type, 'BadSubst');
  assert.equal(parts('x ${x@Z}')[0].type, 'BadSubst');
});

test('command substitution and backquotes', () => {
  const b = parts('x `echo hi`')[0] as CmdSubst;
  assert.equal(b.backquote, true);
  assert.equal(simple(b.stmts[0].cmd).words.length, 2);
  // Escaped backquotes nest.
  const n = parts('x `echo \\`echo hi\\``')[0] as CmdSubst;
  const inner = simple(n.stmts[0].cmd).words[1].parts[0] as CmdSubst;
  assert.equal(inner.type, 'CmdSubst');
  assert.equal(inner.backquote, true);
  // Backquotes inside double quotes, with \" inside.
  const dq = parts('x "a `echo \\"b\\"` c"')[0] as DblQuoted;
  const bq = dq.parts[1] as CmdSubst;
  assert.equal(bq.type, 'CmdSubst');
  assert.deepEqual(simple(bq.stmts[0].cmd).words[1].parts, [{ type: 'DblQuoted', locale: false, parts: [lit('b')] }]);
  // \$ inside backquotes is a literal-free `$` for the inner parse.
  const dollar = parts('x `echo \\$HOME`')[0] as CmdSubst;
  assert.equal(simple(dollar.stmts[0].cmd).words[1].parts[0].type, 'ParamExp');
  // Bodies bash only parses when running them are kept as text.
  const bad = parts('x `fi`')[0] as CmdSubst;
  assert.equal(bad.unparsed, 'fi');
  const multi = parts('x $(a\nb)')[0] as CmdSubst;
  assert.equal(multi.stmts.length, 2);
});

test('arithmetic expansion and precedence', () => {
  assert.equal(paren(arith('$((1+2*3))')), '(1+(2*3))');
  assert.equal(paren(arith('$((1-2-3))')), '((1-2)-3)');
  assert.equal(paren(arith('$((2**3**2))')), '(2**(3**2))');
  assert.equal(paren(arith('$((-2**2))')), '((-2)**2)');
  assert.equal(paren(arith('$((a=b=3))')), '(a=(b=3))');
  assert.equal(paren(arith('$((a+=1, b-=2, c*=3, d/=4, e%=5))')), '(((((a+=1),(b-=2)),(c*=3)),(d/=4)),(e%=5))');
  assert.equal(paren(arith('$((a<<=1, a>>=1, a&=1, a^=1, a|=1))')), '(((((a<<=1),(a>>=1)),(a&=1)),(a^=1)),(a|=1))');
  assert.equal(paren(arith('$((a ? b : c ? d : e))')), '(a?b:(c?d:e))');
  assert.equal(paren(arith('$((a || b && c | d ^ e & f == g < h << i + j * k))')), '(a||(b&&(c|(d^(e&(f==(g<(h<<(i+(j*k))))))))))');
  assert.equal(paren(arith('$((a != b, a <= b, a >= b, a > b, a >> b, a % b, a / b))')), '(((((((a!=b),(a<=b)),(a>=b)),(a>b)),(a>>b)),(a%b)),(a/b))');
  assert.equal(paren(arith('$((!a + ~b - -c + +d))')), '((((!a)+(~b))-(-c))+(+d))');
  assert.equal(paren(arith('$((i++ + ++j - k-- - --l))')), '((((i++)+(++j))-(k--))-(--l))');
  assert.equal(paren(arith('$(((1+2)*3))')), '((1+2)*3)');
  assert.equal(paren(arith('$((a[i+1] + b[2]))')), '(a[(i+1)]+b[2])');
  assert.equal(paren(arith('$((0x1F + 017 + 2#101 + 64#zZ + 10))')), '((((0x1F+017)+2#101)+64#zZ)+10)');
  assert.equal(paren(arith('$(($x + ${y} * $(echo 2)))')), '($x+(${y}*$(echo 2)))');
  assert.equal(paren(arith('$(( "3" + 1 ))')), '("3"+1)');
  assert.equal(paren(arith('$[1+2]')), '(1+2)');
  // Shapes only known after expansion, or malformed: bash decides at run time.
  assert.equal(arith('$((1$x))'), null);
  assert.equal(arith('$((1+))'), null);
  assert.equal(arith('$(( ))'), null);
  const e = parts('x $((1 +\n 2))')[0] as ArithExp;
  assert.equal(print(e.word), '1 +\n 2');
  assert.equal(paren(parseArithmetic('x = 3, y')), '((x=3),y)');
  assert.throws(() => parseArithmetic('1 +'), (err: unknown) => err instanceof ArithSyntaxError && /operand expected/.test(err.message));
  assert.throws(() => parseArithmetic('(1'), /missing `\)'/);
  assert.throws(() => parseArithmetic('1 2'), /syntax error in expression \(error token is "2"\)/);
  assert.throws(() => parseArithmetic('1 = 2'), /attempted assignment to non-variable/);
});

test('arithmetic commands and for (( ))', () => {
  const a = cmd('((a=1, b=2))');
  assert.equal(a.type, 'ArithCmd');
  if (a.type === 'ArithCmd') assert.equal(paren(a.expr.expr), '((a=1),(b=2))');
  const s = cmd('( (a) )');
  assert.equal(s.type, 'Subshell');
  // `((` that does not close with `))` is two subshells, as bash decides.
  const two = cmd('((echo a); (echo b))');
  assert.equal(two.type, 'Subshell');
  const f = cmd('for ((i=0; i<10; i++)); do echo $i; done');
  assert.equal(f.type, 'ArithFor');
  if (f.type === 'ArithFor') {
    assert.equal(paren(f.init?.expr ?? null), '(i=0)');
    assert.equal(paren(f.cond?.expr ?? null), '(i<10)');
    assert.equal(paren(f.step?.expr ?? null), '(i++)');
  }
  const inf = cmd('for ((;;)) { break; }');
  assert.equal(inf.type === 'ArithFor' && inf.init === null && inf.cond === null && inf.step === null, true);
  const nl = cmd('for (( i = 0 ; i < 3 ; i++ ))\ndo\n:\ndone');
  assert.equal(nl.type, 'ArithFor');
});

test('[[ ]] conditional expressions', () => {
  assert.deepEqual(cond('[[ -f x ]]'), { type: 'CondUnary', op: '-f', arg: { type: 'Word', parts: [lit('x')] } });
  assert.deepEqual(cond('[[ $x ]]').type, 'CondWord');
  for (const op of ['==', '!=', '=', '=~', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef']) {
    const c = cond(`[[ a ${op} b ]]`);
    assert.equal(c.type === 'CondBinary' && c.op, op, op);
  }
  for (const op of ['-a', '-b', '-c', '-d', '-e', '-g', '-h', '-k', '-p', '-r', '-s', '-t', '-u', '-w', '-x', '-G', '-L', '-N', '-O', '-S', '-z', '-n', '-o', '-v', '-R']) {
    assert.equal(cond(`[[ ${op} a ]]`).type, 'CondUnary', op);
  }
  const c = cond('[[ a < b && ! -f x || ( y && z ) ]]');
  assert.equal(c.type === 'CondAndOr' && c.op, '||');
  if (c.type === 'CondAndOr') {
    assert.equal(c.left.type, 'CondAndOr');
    assert.equal(c.right.type, 'CondParen');
  }
  const re = cond('[[ $x =~ ^a(b|c)[0-9]+$ ]]');
  assert.equal(re.type === 'CondBinary' && print(re.right), '^a(b|c)[0-9]+$');
  const reSp = cond('[[ "a b" =~ (a b) ]]');
  assert.equal(reSp.type === 'CondBinary' && print(reSp.right), '(a b)');
  const reQ = cond('[[ $x =~ "a.b"$ ]]');
  assert.deepEqual(reQ.type === 'CondBinary' && reQ.right.parts.map((p) => p.type), ['DblQuoted', 'Lit']);
  const reOr = cond('[[ x =~ x && 1 ]]');
  assert.equal(reOr.type, 'CondAndOr');
  const pat = cond('[[ $x == @(a|b)* ]]');
  assert.equal(pat.type === 'CondBinary' && pat.right.parts[0].type, 'ExtGlob');
  const nl = cond('[[ a &&\n b ]]');
  assert.equal(nl.type, 'CondAndOr');
  // Words inside [[ are not redirections or reserved words.
  const w = cond('[[ if == then ]]');
  assert.equal(w.type, 'CondBinary');
  assert.equal(cmd('[[ a ]] && b').type, 'AndOr');
});

test('redirections', () => {
  const r = redirs('cmd <in >out 2>err >>app >|clob <>rw 3<&0 4>&1 5<&- >&- &>both &>>bothapp <<<str {fd}>file');
  assert.deepEqual(r.map((x) => [x.fd, x.fdVar, x.op, print(x.target)]), [
    [null, null, '<', 'in'], [null, null, '>', 'out'], [2, null, '>', 'err'], [null, null, '>>', 'app'], [null, null, '>|', 'clob'],
    [null, null, '<>', 'rw'], [3, null, '<&', '0'], [4, null, '>&', '1'], [5, null, '<&', '-'], [null, null, '>&', '-'],
    [null, null, '&>', 'both'], [null, null, '&>>', 'bothapp'], [null, null, '<<<', 'str'], [null, 'fd', '>', 'file'],
  ]);
  // Redirections anywhere in a simple command.
  const c = simple(cmd('>out echo a 2>&1 b'));
  assert.deepEqual(c.words.map((w) => print(w)), ['echo', 'a', 'b']);
  assert.equal(c.redirs.length, 2);
  const only = simple(cmd('> file'));
  assert.equal(only.redirs.length, 1);
  // A number not followed by a redirection is a word.
  assert.deepEqual(words('echo 2 >x').map((w) => print(w)), ['echo', '2']);
  assert.equal(print(redirs('cat < ~/f')[0].target), '~/f');
  assert.equal(redirs('cat < ~/f')[0].target.parts[0].type, 'Tilde');
});

test('here-documents', () => {
  const s = ast('cat <<EOF\nhello $x $(echo hi)\nEOF\necho done');
  assert.equal(s.stmts.length, 2);
  const r = (s.stmts[0].cmd as SimpleCommand).redirs[0];
  assert.equal(r.quoted, false);
  assert.deepEqual(r.heredoc?.parts.map((p) => p.type), ['Lit', 'ParamExp', 'Lit', 'CmdSubst', 'Lit']);
  for (const d of ["'EOF'", '"EOF"', '\\EOF', "E'O'F"]) {
    const q = redirs(`cat <<${d}\n$x \`a\` \\$\nEOF`)[0];
    assert.equal(q.quoted, true, d);
    assert.deepEqual(q.heredoc?.parts, [lit('$x `a` \\$\n')], d);
  }
  const strip2 = redirs('cat <<-EOF\n\t\tindented\n\tEOF')[0];
  assert.deepEqual(strip2.heredoc?.parts, [lit('indented\n')]);
  // Two here-docs on one line, bodies in order.
  const two = ast('cat <<A; cat <<B\na body\nA\nb body\nB\necho after');
  assert.equal(two.stmts.length, 3);
  assert.deepEqual((two.stmts[0].cmd as SimpleCommand).redirs[0].heredoc?.parts, [lit('a body\n')]);
  assert.deepEqual((two.stmts[1].cmd as SimpleCommand).redirs[0].heredoc?.parts, [lit('b body\n')]);
  const both = redirs('cat <<A <<B\n1\nA\n2\nB');
  assert.deepEqual(both.map((x) => x.heredoc?.parts), [[lit('1\n')], [lit('2\n')]]);
  // Here-docs inside $( ).
  const inSub = parts('x $(cat <<EOF\nin $( sub )\nEOF\n)')[0] as CmdSubst;
  const body = simple(inSub.stmts[0].cmd).redirs[0].heredoc;
  assert.deepEqual(body?.parts.map((p) => p.type), ['Lit', 'CmdSubst', 'Lit']);
  // Bodies containing `$(` text that bash would only fail on when expanding.
  const open = redirs('cat <<EOF\nin $( sub\nEOF')[0];
  assert.equal(open.unparsed, 'in $( sub\n');
  assert.throws(() => parseHeredocBody(open.unparsed!, 2), /looking for matching `\)'/);
  const quotedOpen = redirs("cat <<'EOF'\n$( not code\nEOF")[0];
  assert.deepEqual(quotedOpen.heredoc?.parts, [lit('$( not code\n')]);
  // In a pipeline and a compound command.
  const pipe = ast('cat <<EOF | wc -l\nx\nEOF\n');
  assert.equal(pipe.stmts[0].cmd.type, 'Pipeline');
  const inIf = ast('if true; then\n  cat <<EOF\n  body\nEOF\nfi');
  assert.equal(inIf.stmts[0].cmd.type, 'If');
  // Delimited by end of file: a warning, as in bash.
  const w = parse('cat <<EOF\nabc\n');
  assert.deepEqual(w.warnings, [{ line: 2, message: "warning: here-document at line 1 delimited by end-of-file (wanted `EOF')" }]);
  const empty = redirs('cat <<EOF\nEOF')[0];
  assert.deepEqual(empty.heredoc?.parts, []);
  // Backslash-newline and escapes in an unquoted body.
  const esc = redirs('cat <<EOF\n\\$x \\\\ \\a "q"\nEOF')[0];
  assert.deepEqual(esc.heredoc?.parts, [lit('$x \\ \\a "q"\n')]);
});

test('process substitution and extglob', () => {
  const p = words('diff <(ls a) >(cat)');
  assert.equal(p[1].parts[0].type, 'ProcSubst');
  assert.equal(p[2].parts[0].type === 'ProcSubst' && (p[2].parts[0] as { op: string }).op, '>');
  assert.throws(() => parse('echo @(a|b)'), /unexpected token `\('/);
  const e = new Parser('echo @(a|b) !(x) *(y) +(z) ?(w) x@(a)', { extglob: true }).parseScript();
  assert.deepEqual(simple(e.stmts[0].cmd).words.slice(1).map((w) => w.parts[w.parts.length - 1].type), ['ExtGlob', 'ExtGlob', 'ExtGlob', 'ExtGlob', 'ExtGlob', 'ExtGlob']);
  const c = new Parser('case $x in @(a|b)) :;; esac', { extglob: true }).parseScript();
  assert.equal(c.stmts[0].cmd.type, 'Case');
});

test('positions', () => {
  const s = parse('echo a\n  if true; then\n    x=$((1 +\n 2)) y\n  fi');
  assert.equal(s.stmts[0].line, 1);
  const i = s.stmts[1];
  assert.deepEqual([i.line, i.col], [2, 3]);
  const inner = (i.cmd as { clauses: { body: Stmt[] }[] }).clauses[0].body[0];
  assert.deepEqual([inner.line, inner.col], [3, 5]);
  const sc = inner.cmd as SimpleCommand;
  assert.deepEqual([sc.words[0].line, sc.words[0].col], [4, 6]);
  assert.deepEqual([sc.assigns[0].line, sc.assigns[0].col], [3, 5]);
  const h = parse('cat <<EOF\na\n$x\nEOF');
  const body = (h.stmts[0].cmd as SimpleCommand).redirs[0].heredoc!;
  assert.equal(body.parts[1].line, 3);
  const bq = parse('echo\necho `echo\n$y`');
  const sub = (bq.stmts[1].cmd as SimpleCommand).words[1].parts[0] as CmdSubst;
  assert.equal(sub.stmts[1]?.line ?? (sub.stmts[0].cmd as SimpleCommand).words[0].line, 3);
});

test('incomplete input', () => {
  const incomplete = ['echo "abc', "echo 'abc", 'if true; then', 'if true; then echo; fi; while :', 'echo $(', 'echo ${x', 'echo `a',
    'a |', 'a &&', '( echo', '{ echo', 'case x in', 'for x in a; do', 'f() {', 'x=(a b', 'echo $((1 +', 'cat <<EOF\nabc', 'echo \\'];
  for (const src of incomplete) {
    if (src === 'echo \\') continue;
    const r = checkComplete(src);
    assert.equal(r, 'incomplete', src);
  }
  for (const src of ['fi', 'echo )', 'if; then fi', 'echo a && && b']) {
    const r = checkComplete(src);
    assert.ok(r instanceof ParseError && !r.incomplete, src);
  }
  assert.equal(checkComplete('echo hi'), 'complete');
  // Non-interactive: an unterminated here-doc is only a warning.
  assert.equal(parse('cat <<EOF\nabc').warnings.length, 1);
  const e = (() => {
    try {
      parse('cat <<EOF\nabc', { interactive: true });
    } catch (err) {
      return err as ParseError;
    }
    return null;
  })();
  assert.equal(e?.incomplete, true);
});

test('incremental parsing, one complete command at a time', () => {
  const p = new Parser('echo a; echo b\nif x; then\n y\nfi\nfi\n');
  assert.equal(p.nextCommand()?.length, 2);
  assert.equal(p.nextCommand()?.[0].cmd.type, 'If');
  assert.throws(() => p.nextCommand(), (e: unknown) => e instanceof ParseError && e.line === 5);
  const q = new Parser('a\n\n\n');
  assert.equal(q.nextCommand()?.length, 1);
  assert.equal(q.nextCommand(), null);
});

test('printer output', () => {
  assert.equal(print(parse('f() { echo hi; }')), 'f() {\n    echo hi\n}\n');
  assert.equal(print(parse('a=1  b  >x   c')), 'a=1 b c >x\n');
  assert.equal(print(parse('cat <<EOF | wc\n$x\nEOF')), 'cat <<EOF | wc\n$x\nEOF\n');
  assert.equal(print(parse('if a; then b; fi')), 'if a; then\n    b\nfi\n');
  const s = parse('echo $(( 1+2 )) "$x" ${y:-z}');
  assert.equal(print(s.stmts[0]), 'echo $(( 1+2 )) "$x" ${y:-z}');
  const c = cond('[[ a == b ]]');
  assert.equal(print(c), 'a == b');
  const ar = parseArithmetic('a+b*c');
  assert.equal(print(ar), 'a + (b * c)');
});

// Inputs not covered by the tests above, added to the round trip.
const extra = [
  'echo "a `echo \\"b\\"` c" "\\$x \\\\ \\" \\a"',
  'cat <<-"EOF" <<X\n\ttab $x\n\tEOF\nbody2\nX',
  'echo ${x/\\//_} "${x/\\//_}" ${x//[a-z]/} "${x:-a}b}"',
  'x=$(cat <<EOF\n$(echo "}") `date`\nEOF\n)',
  'a && b & c || d; e',
  'if a & then b; fi',
  'while read -r line; do echo "$line"; done <file >out',
  "echo $'\\'' $\"x\"",
  'echo "${a[@]}" "${a[*]}" ${!a[@]} ${#a[*]}',
  'trap \'echo "exit $?"\' EXIT',
  'find . -name "*.ts" -exec grep -l foo {} \\; | xargs -r wc -l',
  'x=${1:-default} y=${2:?missing} z=${3:+alt}',
  'for f in *.txt; do [[ -s $f ]] || continue; mv -- "$f" "${f%.txt}.md"; done',
  'echo $((x++)) $((--y)) $(( (a+b) * c ))',
  'coproc_like() { local IFS=,; read -ra parts <<< "$1"; printf "%s\\n" "${parts[@]}"; }',
  'exec 3>&1 4>&2 >log 2>&1',
  'set -euo pipefail; shopt -s nullglob',
  'case "$1" in\n  -h|--help) usage; exit 0 ;;\n  -*) echo "bad" >&2 ;;\n  *) break ;;\nesac',
  '{ echo a; echo b; } | sort | uniq -c',
  'echo `echo "\\`"` "`echo \\\\\\``"',
  'echo ~+ ~- ~+/x',
  'x=`echo a`; y="`echo b`"',
  '((i++)); ((i+=2)) && echo ok',
  'echo a\\ b \\"q\\" \\\'s\\\'',
  'echo >(tee log) 2> >(cat >&2)',
];

test('round trip: parse → print → parse gives the same tree', () => {
  const all = [...new Set([...seen, ...extra])];
  let n = 0;
  for (const src of all) {
    try {
      parse(src);
    } catch {
      continue;
    }
    roundTrip(src);
    n++;
  }
  assert.ok(n > 150, `round-tripped ${n} inputs`);
});

test('speed: parse a 2,000-line script', (t) => {
  const chunk = [
    'set -euo pipefail',
    'for f in "${files[@]}"; do',
    '  if [[ -f $f && ${f##*.} == sh ]]; then',
    '    count=$((count + 1)); echo "file: ${f%/*} $(basename "$f")" >>"$log"',
    '  fi',
    'done',
    'case $mode in a|b) x=1 ;; *) x=2 ;; esac',
    'cat <<EOF',
    'value: $x ${y:-none}',
    'EOF',
  ].join('\n');
  const src = Array.from({ length: 200 }, () => chunk).join('\n') + '\n';
  assert.equal(src.split('\n').length - 1, 2000);
  parse(src); // warm up
  const t0 = performance.now();
  const runs = 5;
  for (let k = 0; k < runs; k++) parse(src);
  const ms = (performance.now() - t0) / runs;
  t.diagnostic(`parsing a 2,000-line script took ${ms.toFixed(1)} ms`);
  console.log(`# parse speed: 2,000 lines in ${ms.toFixed(1)} ms`);
  assert.equal(strip(parse(src)).stmts.length, 800);
});

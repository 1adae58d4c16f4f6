// Syntax errors compared with the real bash on this machine: the parser must
// reject exactly the scripts `bash -n -c` rejects, with the same message
// (after bash's `bash: -c: line N: ` prefix) and the same line number.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { parse, ParseError } from '../../src/shell/syntax/index.js';

interface Verdict {
  ok: boolean;
  line: number | null;
  message: string | null;
}

const hasBash = spawnSync('bash', ['-c', 'exit 0']).status === 0;

function bash(script: string): Verdict {
  const r = spawnSync('bash', ['-n', '-c', script], { encoding: 'utf8' });
  // Warnings (here-doc at EOF) are not errors; bash's first error line has the message.
  const lines = r.stderr.split('\n').filter((l) => l !== '' && !l.includes('warning:'));
  if (lines.length === 0 && r.status === 0) return { ok: true, line: null, message: null };
  const m = /^bash: -c: line (\d+): (.*)$/.exec(lines[0] ?? '');
  if (!m) return { ok: false, line: null, message: null };
  return { ok: false, line: Number(m[1]), message: m[2] };
}

function ours(script: string): Verdict & { context: string | null; incomplete: boolean } {
  try {
    parse(script);
    return { ok: true, line: null, message: null, context: null, incomplete: false };
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    return { ok: false, line: e.line, message: e.message, context: e.context, incomplete: e.incomplete };
  }
}

const malformed = [
  'fi', 'then', 'done', 'esac', '}', 'elif', 'else', 'do',
  'if true; then', 'if true; then\n', 'if true; then\n\n', 'if true\nthen\n  echo\nelif\nfi',
  'echo "abc', "echo 'abc", 'echo a\necho "x\ny\nz', "echo a\necho 'x\ny",
  'case x in', 'for', 'for x in a b; echo; done', 'for x in a\nb; do echo; done',
  'a |', '|a', ';', ';;', 'echo )', '( echo', '{ echo; ', '{ echo }', '{echo; }', '{ }', '()',
  'echo $(', 'echo a\necho $(\n', 'echo a\necho $(x\ny', 'echo ${', 'echo ${x', 'echo ${x:-', 'echo ${x/', 'echo a\necho ${x\ny',
  'echo `abc', 'echo a\necho `x\ny', 'echo "$(echo ")"', 'echo a\necho ${x:-"abc\nd',
  'if; then fi', 'while true; do; done', 'while :; done', 'until; do :; done', 'f() echo', 'echo &&', '&& echo', 'echo a && && b',
  'echo a | | b', 'echo a ;; b', 'echo >', 'echo > ', 'echo < <', 'echo 1 >& ', 'cat <<', 'cat << ; echo', 'echo a\necho >\ny',
  '(( 1 +', 'echo $((x\ny', 'echo $(( 1 + \n 2 )', 'echo $[1+', 'for ((;;', 'x=(a b', 'echo a\nx=(a\nb',
  'case a in b) ;; esac esac', 'case a in (b|c ;; esac', 'case a in a|) ;; esac', 'case a in ) ;; esac', 'case a b in x) ;; esac',
  'function', 'function f', 'select', 'a() { }', 'echo a; fi', 'if true; then echo; else; fi', 'if true; then :; elif; then :; fi',
  'echo &;', 'echo a b )', 'echo ;&', 'f() { echo; } fi', 'echo a\nif true\nthen\nfi\n', 'echo a\ncase x in\na) echo\nesac\n;;',
  'cat <<EOF\na\nEOF\nfi', 'echo $(fi)', 'echo "$(fi)"', 'echo <(fi)', 'echo @(a)', 'echo a=(b)', 'x=$(case a in a) ;; esac; fi)',
  '[[ a', '[[ a\n]]', '[[ a == ]]', '[[ -f ]]', '[[ a =~ ]]', '[[ ( a ]]', '[[ a b ]]', '[[ -f a b ]]', '[[ a == b c ]]',
  '[[ && a ]]', '[[ ) ]]', '[[ a ]] ]]', '[[ a -eq ]]',
];

// Scripts bash accepts (some only fail when run): the parser must accept them too.
const wellFormed = [
  'echo `fi`', 'echo ${x y}', 'echo ${}', 'echo ${x:}', 'echo ${1a}', 'echo ${#x:-a}', 'echo ${x!}', 'echo $((1+))', 'a=(fi) ; echo',
  'cat <<EOF\nabc', 'cat <<EOF\nin $( sub\nEOF\necho after', 'x=$(case a in a) echo;; esac)', 'echo "$x\n"ab', 'echo a \\\nfi',
  '! !', '!', 'time', 'time -p echo', 'case a in esac', 'case a in a) esac', 'case a\nin x) ;; esac', 'for x in; do :; done',
  'for x do :; done', 'for x; do :; done', 'for 1 in a; do :; done', 'function 1a { :; }', '1a() { :; }', 'a-b() { :; }',
  'f() ( : )', 'f() ((1))', 'f() [[ a ]]', 'select x in a; do :; done', 'echo {a,b}', 'x= y=2 cmd', '[[ a &&\nb ]]',
  'a=b; declare -A m=([k]=v)', '[[ a =~ (x y) ]] && echo m', 'f() { :; } >/dev/null; function g { :; }; function h() { :; }',
  'echo $(( (1+2) * 3 ))', 'echo $((echo a); (echo b))', '((echo a); (echo b))', 'echo "${x:-"$(echo "}")"}"', 'a[1 + 1]=5 b',
];

test('parser rejects exactly what bash rejects, with the same message and line', { skip: !hasBash && 'bash not found' }, () => {
  // bash gives up on these silently (no message), so only rejection is compared.
  const silent = new Set(['[[ ]]', '[[ a && ]]', '[[ ! ]]']);
  let compared = 0;
  for (const s of [...malformed, ...silent]) {
    const b = silent.has(s) ? { ok: false, line: 1, message: null } : bash(s);
    const o = ours(s);
    assert.equal(o.ok, b.ok, `${JSON.stringify(s)}: bash ${b.ok ? 'accepts' : 'rejects'} (${b.message}), we ${o.ok ? 'accept' : 'reject: ' + o.message}`);
    if (b.ok || b.message === null) continue;
    assert.equal(o.message, b.message, `message for ${JSON.stringify(s)}`);
    assert.equal(o.line, b.line, `line for ${JSON.stringify(s)}: ${b.message}`);
    compared++;
  }
  assert.ok(compared >= 40, `compared ${compared} error messages`);
});

test('parser accepts what bash accepts', { skip: !hasBash && 'bash not found' }, () => {
  for (const s of wellFormed) {
    const b = bash(s);
    assert.equal(b.ok, true, `bash should accept ${JSON.stringify(s)}: ${b.message}`);
    const o = ours(s);
    assert.equal(o.ok, true, `${JSON.stringify(s)}: we reject: ${o.message}`);
  }
});

test('near-unexpected-token errors carry the line bash echoes', () => {
  assert.equal(ours('echo a; fi').context, 'echo a; fi');
  assert.equal(ours('for x in a\nb; do echo; done').context, 'b; do echo; done');
  assert.equal(ours('echo "abc').context, null);
});

test('incomplete versus wrong input', () => {
  for (const s of ['echo "abc', "echo 'abc", 'if true; then', 'echo $(', 'echo ${x', 'echo `a', 'a |', 'a &&', '( echo', 'case x in',
    'for x in a; do', 'x=(a b', 'echo $((1 +', 'while :; do', 'f() {', 'if true; then echo\nelse']) {
    const o = ours(s);
    assert.equal(o.ok, false, s);
    assert.equal(o.incomplete, true, s);
  }
  for (const s of ['fi', 'echo )', 'if; then fi', '[[ a b ]]', 'echo a | | b', 'case a in ) ;; esac', 'cat <<']) {
    const o = ours(s);
    assert.equal(o.ok, false, s);
    assert.equal(o.incomplete, false, s);
  }
});

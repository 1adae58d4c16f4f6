// Differential tests of agentOS grep against the host's GNU grep: the same
// fixture tree at the same absolute path on the host and in one booted VM,
// each command line run by `bash -c` on both sides. stdout must match byte for
// byte, the exit status exactly, and stderr line by line (each line keeps the
// `grep: ` shape; `egrep:`/`fgrep:` prefixes map to it).
//
// Tests with -r use trees with one file per directory level, so the result
// does not depend on the order directory entries come back in.

import { after, before, test } from 'node:test';
import { checkCaseList, LOCALES, requireOracle, runCases, setupFixtures, shapeStderr, summarize, teardownFixtures, type Fixture, type Judgement } from '../oracle.js';

interface Case {
  cmd: string;
  stdin?: string;
  /** Skip the stderr comparison (text we deliberately do not reproduce). */
  ignoreStderr?: boolean;
  /** Compare stdout as a set of lines (-r: the host walks directories in its on-disk order). */
  sorted?: boolean;
}

/** Cases known to differ from GNU grep, with the reason. Keyed by command line. */
const divergences: Record<string, string> = {
  'grep -oE "(a|ab)c?" w':
    'POSIX leftmost-longest inside a group: JS alternation is leftmost-first; grep only retries top-level alternatives (and separate patterns) for the longest match, so -o/--color print "a" where GNU prints "abc" (line selection is unaffected)',
};

/** Cases that differ from GNU grep only under LANG=C.UTF-8, with the reason. */
const utf8Divergences: Record<string, string> = {};

const NUMBERS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'].join('\n') + '\n';
const WORDS = [
  'hello world',
  'Hello World',
  'foo_bar baz',
  'foo-bar',
  '123 456',
  'abcabc',
  'abab',
  'aa bb',
  '',
  'Tab\there',
  '(paren)',
  'a+b',
  'a{1}b',
  'star*',
  'back\\slash',
  'dollar$sign',
  '^caret',
  'end.',
  'x|y',
  'UPPER lower MiXeD',
].join('\n') + '\n';

function ctxFile(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 30; i++) lines.push(i % 7 === 0 || i === 9 ? `line ${i} match` : `line ${i}`);
  return lines.join('\n') + '\n';
}

function bigFile(): string {
  // ~1.5 MB, lines of varying length so chunk boundaries fall mid-line.
  const lines: string[] = [];
  for (let i = 0; i < 60000; i++) lines.push(`${i} ${'x'.repeat(i % 37)}${i % 1000 === 0 ? ' needle' : ''}`);
  return lines.join('\n') + '\n';
}

const FILES: Record<string, string | Buffer> = {
  n: NUMBERS,
  t: 'x\nabc\n',
  w: WORDS,
  ctx: ctxFile(),
  nonl: 'first\nno newline at end',
  empty: '',
  // Non-ASCII text: characters of 2, 3 and 4 bytes, and a line with an invalid byte.
  u8: 'h\u00e9llo w\u00f6rld \u20ac\n\u00c0b\u00e7 \u03b1\u03b2\u03b3 \u{1f600}!\nstra\u00dfe \u65e5\u672c\u8a9e\nSTRASSE \u00c9T\u00c9\n',
  bad8: Buffer.from('ok \xc3\xa9 \xff end\nfine \xc3\xa9\n', 'latin1'),
  bin: Buffer.from('text line\0more\nabc here\n', 'latin1'),
  latin: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe, 0x0a, 0x61, 0x62, 0x0a]),
  crlf: 'dos line\r\nunix\n',
  zdata: Buffer.from('alpha\0beta\0gamma\ndelta\0', 'latin1'),
  pats: 'two\nfive\n',
  patsempty: 'zzz\n\n',
  patsnone: '',
  patsre: 'o$\n^t\n',
  big: bigFile(),
  long: `${'y'.repeat(200000)}z end\nshort\n`,
  'tree/a.txt': 'needle top\n',
  'tree/sub/b.log': 'needle sub\nhay\n',
  'tree/sub/deep/c.txt': 'hay\nneedle deep\n',
  'tree/sub/deep/skip/d.txt': 'needle skipped?\n',
  'solo/only.txt': 'needle\n',
};

const C = (cmd: string, extra: Omit<Case, 'cmd'> = {}): Case => ({ cmd, ...extra });

const CASES: Case[] = [
  // basics, exit status, files
  C('grep o n'),
  C('grep zzz n'),
  C('grep o n t'),
  C('grep abc n t'),
  C('grep o nope'),
  C('grep o nope n'),
  C('grep -s o nope n'),
  C('grep -s zzz nope'),
  C('grep -q o n'),
  C('grep -q zzz n'),
  C('grep -q o nope n'),
  C('grep -q o n nope'),
  C('grep -q zzz n nope'),
  C('grep o tree'),
  C('grep -s o tree n'),
  C('grep -d skip o tree n'),
  C('grep line nonl'),
  C('grep -c . empty'),
  C('grep "" empty'),
  C('grep "" nonl'),
  C('grep -H o n'),
  C('grep -h o n t'),
  C('grep -Hh o n t'),
  C('grep o - n', { stdin: 'foo\nbar\n' }),
  C('grep o', { stdin: 'foo\nbar\n' }),
  C('grep -H o', { stdin: 'foo\nbar\n' }),
  C('grep -H --label=IN o -', { stdin: 'foo\n' }),
  C('grep -c o - t', { stdin: 'foo\nboo\n' }),
  C('printf "a\\nb\\n" | grep -n b'),
  C('grep'),
  C('grep -k x n'),
  C('grep --nope x n'),
  C('grep --colr=always o n'),
  C('grep --co o n'),
  C('grep --count=3 o n'),
  C('grep -e'),
  C('grep --help | grep -c "^Usage: grep"'),
  C('grep -V >/dev/null; echo $?'),
  // -e, -f, multiple and empty patterns
  C('grep -e two -e four n'),
  C('grep -e two -efour n'),
  C('grep --regexp=six n'),
  C('grep "$(printf "two\\nsix")" n'),
  C('grep -f pats n'),
  C('grep -f pats -e one n'),
  C('grep -f patsempty n'),
  C('grep -c -f patsempty n'),
  C('grep -f patsnone n'),
  C('grep -v -f patsnone n'),
  C('grep -f patsre n'),
  C('grep -f nope n'),
  C('grep -e "" n'),
  C('grep -c "" n'),
  C('grep -v "" n'),
  C('grep -f - n', { stdin: 'ten\n' }),
  // -i -v -w -x
  C('grep -i hello w'),
  C('grep -y HELLO w'),
  C('grep -i -e UPPER -e mixed w'),
  C('grep -i "[[:upper:]]ELLO" w'),
  C('grep --no-ignore-case -i hello w'),
  C('grep -i --no-ignore-case hello w'),
  C('grep -v o n'),
  C('grep -vc o n'),
  C('grep -w foo w'),
  C('grep -w bar w'),
  C('grep -w ab w'),
  C('grep -w "a.*" w'),
  C('grep -w "" w'),
  C('grep -w -o "[a-z]*" w'),
  C('grep -x two n'),
  C('grep -x "t.*" n'),
  C('grep -x "" w'),
  C('grep -xv "t.*" n'),
  C('grep -wx hello w'),
  C('grep -x -e one -e "t.o" n'),
  C('grep -iw "HELLO WORLD" w'),
  // -c -l -L -o -m -n -b
  C('grep -c o n t empty'),
  C('grep -l o n t empty'),
  C('grep -L o n t empty'),
  C('grep -L zzz n'),
  C('grep -l zzz n'),
  C('grep -lc o n t'),
  C('grep -l o - n', { stdin: 'o\n' }),
  C('grep -lZ o n w'),
  C('grep -cZ o n w'),
  C('grep -o o n'),
  C('grep -o "[a-z]*e" n'),
  C('grep -on "e" n'),
  C('grep -ob "e" n'),
  C('grep -o -i "h[a-z]*" w'),
  C('grep -ov o n'),
  C('grep -oc o n'),
  C('grep -o "" n'),
  C('grep -o -e ab -e abc w'),
  C('grep -oE "a|ab|abc" w'),
  C('grep -oE "(ab)+" w'),
  C('grep -m 2 o n'),
  C('grep -m1 o n t'),
  C('grep -m 2 -c o n'),
  C('grep -m 0 o n'),
  C('grep -m x o n'),
  C('grep -m 2 -v o n'),
  C('grep -n o n'),
  C('grep -b o n'),
  C('grep -nb -H o n'),
  C('grep -n "" nonl'),
  // context
  C('grep -A1 match ctx'),
  C('grep -B2 match ctx'),
  C('grep -C1 match ctx'),
  C('grep -2 match ctx'),
  C('grep -A 3 -B 0 match ctx'),
  C('grep -C1 -A0 match ctx'),
  C('grep -nC1 match ctx'),
  C('grep -c -C2 match ctx'),
  C('grep -A1 -m2 match ctx'),
  C('grep -A1 -v line ctx'),
  C('grep -B1 -n match ctx n'),
  C('grep -A1 o n t'),
  C('grep -A1 --no-group-separator match ctx'),
  C('grep -A1 --group-separator=XX match ctx'),
  C('grep -C5 match ctx'),
  C('grep -o -A1 match ctx'),
  C('grep -A x o n'),
  C('grep -vC1 line ctx'),
  // BRE
  C('grep "a\\+b" w'),
  C('grep "a+b" w'),
  C('grep "a\\{1\\}b" w'),
  C('grep "a{1}b" w'),
  C('grep "\\(ab\\)\\{2\\}" w'),
  C('grep "\\(ab\\)\\1" w'),
  C('grep "\\(a\\)\\(b\\)\\2" w'),
  C('grep "x\\|y" w'),
  C('grep "x|y" w'),
  C('grep "(paren)" w'),
  C('grep "\\(paren\\)" w'),
  C('grep "*" w'),
  C('grep "star\\*" w'),
  C('grep "^^" w'),
  C('grep "^\\^" w'),
  C('grep "n\\$" w'),
  C('grep "r\\$s" w'),
  C('grep "\\$" w'),
  C('grep "r$s" w'),
  C('grep "d\\.$" w'),
  C('grep "a\\?b" w'),
  C('grep "ab\\{2,\\}" w'),
  C('grep "o\\{1,2\\}" n'),
  C('grep "\\(a\\|b\\)\\{3\\}" w'),
  C('grep "^\\(.*\\)\\1$" w'),
  C('grep "\\<wor" w'),
  C('grep "llo\\>" w'),
  C('grep "\\bbar\\b" w'),
  C('grep "\\w\\W\\w" w'),
  C('grep "\\s" w'),
  C('grep "back\\\\\\\\slash" w'),
  // ERE
  C('grep -E "a+b" w'),
  C('grep -E "a\\+b" w'),
  C('grep -E "a{1}b" w'),
  C('grep -E "a\\{1\\}b" w'),
  C('grep -E "(ab){2}" w'),
  C('grep -E "(ab)\\1" w'),
  C('grep -E "x|y" w'),
  C('grep -E "x\\|y" w'),
  C('grep -E "^(one|two)$" n'),
  C('grep -E "t(w|h)" n'),
  C('grep -E "e?n$" n'),
  C('grep -E "a{" w'),
  C('grep -E "*a" t', { stdin: '' }),
  C('grep -E "a**" t'),
  C('grep -E "a+?" t'),
  C('grep -E "()" t'),
  C('grep -E "|x" t'),
  C('grep -E ")" w'),
  C('grep -E "a{,1}b" w'),
  C('grep -E "o{2}" w'),
  C('egrep "x|y" w', { ignoreStderr: true }),
  C('fgrep "x|y" w', { ignoreStderr: true }),
  C('grep -G -E "a+b" w'),
  C('grep -E -G "a+b" w'),
  // bracket expressions and classes
  C('grep "[[:digit:]]" w'),
  C('grep -c "[[:alpha:]]" w'),
  C('grep "[[:space:]]h" w'),
  C('grep "[[:punct:]]$" w'),
  C('grep "^[[:upper:]]" w'),
  C('grep "[^[:alnum:] ]" w'),
  C('grep "[]]" w', { stdin: '' }),
  C('grep "[]a]b" w'),
  C('grep "[a-c]\\{3\\}" w'),
  C('grep "[\\\\]" w'),
  C('grep "[.]" w'),
  C('grep "[*+]" w'),
  C('grep "[a-]b" w'),
  C('grep "[[.-.]]" w'),
  C('grep "[[=a=]]b" w'),
  C('grep "[^a-z]" n'),
  C('grep -E "[[:digit:]]+ [0-9]+" w'),
  // regex errors
  C('grep "\\(" n'),
  C('grep "\\)" n'),
  C('grep -E "(" n'),
  C('grep "[a" n'),
  C('grep "[[:alpha:]" n'),
  C('grep "[:alpha:]" n'),
  C('grep "[[:nope:]]" n'),
  C('grep "a\\{1" n'),
  C('grep "a\\{2,1\\}" n'),
  C('grep -E "a{2,1}" n'),
  C('grep "\\1" n'),
  C('grep "[b-a]" n'),
  C('grep "a\\\\" n'),
  C('grep -E "a{99999}" n'),
  C('grep -E "+a" t'),
  C('grep -e "(" -F n'),
  // fixed strings
  C('grep -F "a+b" w'),
  C('grep -F "." w'),
  C('grep -F -x "end." w'),
  C('grep -F -w "foo" w'),
  C('grep -F -i "HELLO" w'),
  C('grep -F -e ab -e "(" w'),
  C('grep -F "" n'),
  C('grep -F -o "ab" w'),
  C('grep -F "back\\slash" w'),
  // recursive
  C('grep -r needle tree', { sorted: true }),
  C('grep -r needle solo', { sorted: true }),
  C('grep -r needle solo/only.txt', { sorted: true }),
  C('grep -rh needle tree', { sorted: true }),
  C('grep -rc needle tree/sub/deep', { sorted: true }),
  C('grep -rl needle tree/sub', { sorted: true }),
  C('grep -r --include="*.txt" needle tree', { sorted: true }),
  C('grep -r --exclude="*.txt" needle tree', { sorted: true }),
  C('grep -r --exclude-dir=deep needle tree', { sorted: true }),
  C('grep -r --exclude-dir=skip needle tree/sub', { sorted: true }),
  C('grep -r --include="*.log" --exclude="b*" needle tree', { sorted: true }),
  C('grep -r --exclude="b*" --include="*.log" needle tree', { sorted: true }),
  C('grep -r --exclude="*.txt" needle tree/a.txt n', { sorted: true }),
  C('cd solo && grep -r needle'),
  C('cd tree/sub/deep/skip && grep -rn needle'),
  C('grep -R needle tree/sub/deep', { sorted: true }),
  C('grep -d recurse needle solo'),
  C('grep -r needle nope', { sorted: true }),
  // binary and encodings
  C('grep more bin'),
  C('grep abc bin'),
  C('grep -c e bin'),
  C('grep -a more bin'),
  C('grep --binary-files=text -c e bin'),
  C('grep -I abc bin n'),
  C('grep --binary-files=without-match abc bin'),
  C('grep -l abc bin'),
  C('grep -q abc bin'),
  C('grep -v zzz bin'),
  C('grep -o abc bin'),
  C('grep --binary-files=nope x bin'),
  C('grep caf latin'),
  C('grep -c "^..$" latin'),
  C('grep "line.$" crlf'),
  C('grep -c unix crlf'),
  // -z
  C('grep -z beta zdata'),
  C('grep -z -c a zdata'),
  C('grep -zv beta zdata'),
  C('grep -z "^delta" zdata'),
  // colour
  C('grep --color=always o n'),
  C('grep --color=always -n -H o n'),
  C('grep --color=always -C1 match ctx'),
  C('grep --color=always -v -A1 o n'),
  C('grep --color=always -o -b e n'),
  C('grep --color=always -c o n t'),
  C('grep --color=always -l o n t'),
  C('grep --colour=always -i hello w'),
  C('grep --color=never o n'),
  C('grep --color=auto o n'),
  C('grep --color o n'),
  C('GREP_COLORS="ms=04;32:fn=33" grep --color=always -H o n'),
  // streaming, pipes
  C('grep needle big'),
  C('grep -c x big'),
  C('grep -n "^59999 " big'),
  C('grep -c -v x big'),
  C('grep o big | { read -r l; echo "$l"; }; echo "${PIPESTATUS[@]}"'),
  C('grep -m1 -c "" big'),
  C('grep --line-buffered needle big'),
  // a single literal: -c/-l/-L/-q skip lines without it (the needle fast path)
  C('grep -c needle big'),
  C('grep -c NEEDLE big; grep -ci NEEDLE big; grep -ciw NEEDLE big'),
  C('grep -c -F "1 x" big; grep -c -G "99 " big; grep -c -E "99 xx" big'),
  C('grep -cx "5 xxxxx" big; grep -cw 99 big'),
  C('grep -c -m 7 needle big; grep -l needle big n; grep -L needle big n; grep -q needle big; echo $?'),
  C('cat big big | grep -c needle; cat long long | grep -c "z end"'),
  C('grep -c "end" nonl; grep -c "at end" nonl; grep -c first nonl'),
  C('grep -c more bin; grep -c text bin; grep -c -a more bin; grep -l more bin; grep -c -I here bin; echo $?'),
  C('grep -L -I here bin; echo $?; grep -l -I here bin; echo $?; grep -cI here bin n; echo $?'),
  C('grep -c ab latin; grep -ci CAF latin; printf "caf\xc3\xa9\nCAF\xc3\x89\n" | grep -ci "caf\xc3\xa9"'),
  // characters: by character in C.UTF-8, by byte in C
  C('grep -o . u8 | od -c'),
  C('grep -o "[^ ]\\{3\\}$" u8; grep -c "^.b.\\b" u8'),
  C('grep -o "\\w\\+" u8'),
  C('grep -o "[[:alpha:]]*" u8; grep -o "[[:upper:]]" u8'),
  C('grep -i "\u00e9t\u00e9" u8; grep -ic "\u00c0B\u00c7" u8'),
  C('grep -w "\u03b1\u03b2\u03b3" u8; grep -E "^.{5} " u8'),
  C('grep -n . bad8; echo $?; grep -c "\u00e9" bad8; grep -a -o "\u00e9" bad8 | od -c'),
  C('grep -F -o "\u00e9" u8 | wc -l; grep --color=always "\u00f6" u8 | od -c'),
  C('grep -c line crlf; grep -cx unix crlf; grep -c "dos line" crlf'),
  C('grep -c -z beta zdata; grep -c a -z zdata'),
  // combinations
  C('grep -Lv o n t'),
  C('grep -n -A1 -B1 -m1 match ctx'),
  C('grep -x -F -f pats n'),
  C('grep -w -F -e ab -e abc w'),
  C('grep -e zzz -e "\\(b\\)\\1" w'),
  C('grep -E -e "(a)\\1" -e "(b)\\1" w'),
  C('grep -E -o -e "(a)\\1" -e "(b)\\1" w'),
  C('grep -ho o n t'),
  C('grep -nH "" empty nonl'),
  C('grep -c "" nonl'),
  C('grep -C -1 x n'),
  C('grep -E "(ab){1,2}{2}" w'),
  C('grep -i "[A-C]\\{3\\}" w'),
  C('grep -E "^$" w'),
  C('grep -n "^" empty t'),
  C('grep -E "a|" -c w'),
  C('grep -- -bar w'),
  C('grep -e -bar -- w'),
  C('grep o n -n'),
  C('grep -A2 -B1 -n "two\\|nine" n'),
  // harder corners
  C('grep -oE "(a|ab)c?" w'),
  C('grep -oE "x(a|ab)(c|bcd)" -', { stdin: 'xabcd\n' }),
  C('grep -c "z$" long'),
  C('grep -o "y.*z" long | grep -c y'),
  C('grep -b -o "end" long'),
  C('grep -i "$(printf "\\311")" latin'),
  C('printf "Aa\\n" | grep -i "\\(a\\)\\1"'),
  C('printf "foobar foo\\n" | grep -ow foo'),
  C('grep -xo "t.*" n'),
  C('grep o < n'),
  C('grep -c "$(printf "\\r")" crlf'),
  C('grep -zo "b[a-z]*" zdata'),
  C('grep -r needle - tree/a.txt', { stdin: 'needle in stdin\n' }),
  C('grep -A1 -B1 -c o n t'),
  C('grep -L o - n', { stdin: 'zzz\n' }),
];

let fx: Fixture | null = null;

before(async () => {
  fx = await setupFixtures('agentos-grep-', FILES);
});

after(async () => {
  await teardownFixtures(fx);
});

/** stderr shape: each line's program-name prefix normalised to `grep: `. */
const shape = (s: string) => shapeStderr(s, /^(?:[ef]?grep|\S*\/grep): /gm, 'grep: ');

test('grep: the case list is well formed', () => {
  checkCaseList(CASES, { ...divergences, ...utf8Divergences }, { min: 120 });
});

for (const loc of LOCALES) {
  test(`grep: differential against GNU grep (${loc.name})`, async () => {
    requireOracle('grep', /GNU grep/, 'the oracle must be GNU grep');
    const judge = (c: Case): Judgement => ({
      sorted: !!c.sorted,
      stderrOk: (want, got) => !!c.ignoreStderr || shape(want) === shape(got),
    });
    const results = await runCases(fx!, CASES, judge, loc.env);
    summarize(`grep [${loc.name}]`, results, loc.utf8 ? { ...divergences, ...utf8Divergences } : divergences);
  });
}

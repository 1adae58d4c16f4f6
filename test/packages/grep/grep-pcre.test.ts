// Differential tests of `grep -P` against the host's GNU grep built with PCRE2:
// each command line runs by `bash -c` on both sides, once under LC_ALL=C
// (bytes) and once under LC_ALL=C.UTF-8 (characters), over ASCII and non-ASCII
// input. stdout must match byte for byte, the exit status exactly, stderr line
// by line.

import { after, before, test } from 'node:test';
import { checkCaseList, requireOracle, runCases, setupFixtures, shapeStderr, summarize, teardownFixtures, type Fixture } from '../oracle.js';

interface Case {
  cmd: string;
  stdin?: string;
}

/** Cases known to differ from GNU grep 3.8 with PCRE2 10.42, with the reason. */
const divergences: Record<string, string> = {
  "LC_ALL=C grep -P '\\((?:[^()]|(?R))*\\)' t u l; echo \"rc=$?\"": 'recursion ((?R), or a group calling itself) has no JavaScript counterpart: grep -P says so (unsupported, exit 2); non-recursive subroutine calls are inlined',
  "LC_ALL=C.UTF-8 grep -P '\\((?:[^()]|(?R))*\\)' t u l; echo \"rc=$?\"": 'as in the C locale',
  ...Object.fromEntries(
    ['C', 'C.UTF-8'].map((l) => [
      `LC_ALL=${l} grep -P 'x\\Gy' t u l; echo "rc=$?"`,
      '\\G is supported only at the start of every alternative (a sticky search); elsewhere grep -P says so (unsupported, exit 2)',
    ]),
  ),
  ...Object.fromEntries(
    ['\\s\\S+', '[[:^alpha:][:space:]]+', '\\S+$'].map((p) => [
      `LC_ALL=C.UTF-8 grep -P -o '${p}' t u l; echo "rc=$?"`,
      'GNU grep 3.8 with PCRE2 10.42 lets \\S, \\W, \\D and negated POSIX classes miss non-ASCII characters in UTF-8 mode; PCRE2 documents that they match them, and so does this grep',
    ]),
  ),
};

const TEXT = [
  'hello world',
  'Hello World',
  'foo_bar baz',
  'foo-bar 42',
  'price: $12.50, tax 3.1',
  'abcabc',
  'aaa bbb',
  'the cat sat on the mat',
  'key=value; other=thing',
  'path/to/file.txt',
  'x|y (paren) [brack]',
  'tab\there',
  'back\\slash',
  'CamelCaseWord',
  'email: someone@example.com',
  '',
].join('\n') + '\n';

const UTF8 = [
  'café crème',
  'CAFÉ CRÈME',
  'naïve façade',
  'Perú 2024',
  'Ελληνικά κείμενο',
  'ΣΊΣΥΦΟΣ σίσυφος',
  'Москва 1147',
  '日本語のテキスト',
  'emoji 😀 here',
  'straße STRASSE',
  'x€y',
  'plain ascii line',
].join('\n') + '\n';

const FILES: Record<string, string | Uint8Array> = {
  t: TEXT,
  u: UTF8,
  // latin1 bytes: é is one byte here, not a UTF-8 sequence
  l: Buffer.from('caf\xe9\nCAF\xc9\nna\xefve\nplain\n', 'latin1'),
};

/** Patterns run with `grep -P` (and the options given) over t, u and l. */
const PATTERNS: [string, string][] = [
  ['', 'o(?=r)'],
  ['-o', 'o(?=r)'],
  ['', 'o(?!r)'],
  ['-o', '(?<=foo)_\\w+'],
  ['-o', '(?<!f)oo'],
  ['-o', '\\d+'],
  ['-o', '\\d+(?:\\.\\d+)?'],
  ['-o', '\\w+'],
  ['-o', '\\s\\S+'],
  ['-o', '\\bc\\w*'],
  ['-o', '\\Bat\\b'],
  ['-o', '<.+?>|\\(.*?\\)'],
  ['-o', 'a.*?c'],
  ['-o', 'a.*c'],
  ['-o', 'a{2,}?'],
  ['-o', '(?<word>\\w)\\k<word>'],
  ['-o', '(?P<w>\\w)(?P=w)'],
  ['-o', "(?'q'b)\\k{q}"],
  ['-o', '(\\w)\\1'],
  ['-o', '(a)(b)(c)\\g{-2}?'],
  ['-o', 'foo\\Kbar'],
  ['-o', '\\w+=\\K\\w+'],
  ['-o', '\\Q$12.\\E\\d+'],
  ['-o', '\\Qx|y\\E'],
  ['', '(?i)hello'],
  ['-o', '(?i:c)amel'],
  ['-o', 'c(?i)AMEL'],
  ['-o', '(?i)caf.'],
  ['-o', 'a++b'],
  ['', 'a*+a'],
  ['-o', '(?>a+)b'],
  ['-o', '(?>a+|b)c'],
  ['-o', '\\x{61}+'],
  ['-o', '\\x41|\\x61'],
  ['-o', '\\101'],
  ['-o', '[[:alpha:]]+'],
  ['-o', '[[:^alpha:][:space:]]+'],
  ['-o', '[^\\d\\s]+'],
  ['-o', '[\\w.-]+@[\\w.-]+'],
  ['-o', '[a-c]+'],
  ['-o', '[]a]+'],
  ['-o', '\\p{Lu}\\p{Ll}+'],
  ['-o', '\\p{L}+'],
  ['-o', '\\pN+'],
  ['-o', '(?x) \\d + # digits'],
  ['-o', '(?s).'],
  ['-c', '^$'],
  ['-c', '\\A\\w+\\z'],
  ['-c', '\\w\\Z'],
  ['-o', '(?|a)'],
  ['-o', '\\G\\w'],
  ['-c', '\\Gh|\\GH'],
  ['-o', '(?|(a)|(b))\\1'],
  ['', '(?<=a+)b'],
  ['', 'a)'],
  ['', '(a'],
  ['', 'a{3,1}'],
  ['', '[z-a]'],
  ['', '\\k<nope>'],
  ['', '\\p{Nope}'],
  ['', '[[:nope:]]'],
  ['', '\\((?:[^()]|(?R))*\\)'],
  ['-o', '(\\w)(?1)'],
  ['-o', '(?<d>\\d)(?&d)\\g<-1>'],
  ['-o', '(?P<v>[aeiou])(?P>v)'],
  ['', '[\\d-z]'],
  ['', '[a-\\d]'],
  ['', 'x\\Gy'],
  ['', '\\2(a)'],
  ['', '\\'],
  ['-o', '(?:ab)+'],
  ['-o', 'a|ab|abc'],
  ['-ow', '\\w+ar'],
  ['-x', '\\w+ \\w+'],
  ['-i', 'WORLD|cafÉ'],
  ['-io', 'caf[é-ë]'],
  ['-ci', 'crème'],
  ['-v', '\\w'],
  ['-cv', 'o'],
  ['-n', '\\d{4}'],
  ['-o', '.\\b'],
  ['-o', 'r.'],
  ['-o', 'r[^a]'],
  ['-o', '[^\\w\\s]+'],
  ['-o', '\\h+'],
  ['-o', 'é'],
  ['-o', '\\x{e9}'],
  ['-o', '[[:upper:]]+'],
  ['-oi', '[[:lower:]]+'],
  ['-oi', 'σ'],
  ['-o', '\\p{Greek}+'],
  ['-o', '\\p{Cyrillic}+'],
  ['-o', '(?<=\\s)\\p{Han}+|\\p{Hiragana}'],
  ['-o', '...$'],
  ['-o', '\\S+$'],
  ['-b -o', 'è|é'],
];

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

const CASES: Case[] = [];
for (const locale of ['C', 'C.UTF-8']) {
  for (const [opts, pat] of PATTERNS) {
    CASES.push({ cmd: `LC_ALL=${locale} grep -P ${opts ? `${opts} ` : ''}${quote(pat)} t u l; echo "rc=$?"` });
  }
  CASES.push(
    { cmd: `LC_ALL=${locale} grep -P -e a -e b t; echo "rc=$?"` },
    { cmd: `LC_ALL=${locale} grep -PE a t; echo "rc=$?"` },
    { cmd: `LC_ALL=${locale} grep -P -c '' t u; echo "rc=$?"` },
    { cmd: `LC_ALL=${locale} grep -Pio 'STRASSE|straße' u; echo "rc=$?"` },
    { cmd: `LC_ALL=${locale} grep -P --color=always 'o\\Kr|\\d+' t; echo "rc=$?"` },
    { cmd: `LC_ALL=${locale} grep -P -ow 'ca\\w+' t u; echo "rc=$?"` },
    { cmd: `LC_ALL=${locale} grep -P -xi 'HELLO \\w+' t; echo "rc=$?"` },
    { cmd: `printf 'a\\nb\\n' | LC_ALL=${locale} grep -zoP '(?m)^b|^a$' | od -c; printf 'a\\nb\\n' | LC_ALL=${locale} grep -zcP '^b'` },
    { cmd: `LC_ALL=${locale} grep -P -f - t`, stdin: '(?<=\\s)W\\w+\n' },
  );
}

let fx: Fixture | null = null;

before(async () => {
  fx = await setupFixtures('agentos-grep-pcre-', FILES);
});

after(async () => {
  await teardownFixtures(fx);
});

const shape = (s: string) => shapeStderr(s, /^(?:[ef]?grep|\S*\/grep): /gm, 'grep: ');

test('grep -P: the case list is well formed', () => {
  checkCaseList(CASES, divergences, { min: 150 });
});

test('grep -P: differential against GNU grep with PCRE2, in the C and C.UTF-8 locales', async () => {
  requireOracle('grep', /GNU grep/, 'the oracle must be GNU grep');
  const results = await runCases(fx!, CASES, () => ({ sorted: false, stderrOk: (want, got) => shape(want) === shape(got) }));
  summarize('grep -P', results, divergences);
});

// join, fmt, unexpand, split, shuf. shuf is compared with a fixed --random-source
// (GNU's draws are reproduced byte for byte); its properties without one are in
// test/packages/coreutils/extras.test.ts. (Scripts are JS template literals: \\ is \.)
import { family, u } from '../types.js';

const J = {
  'a.txt': 'a 1\nb 2\nc 3\ne 5\n',
  'b.txt': 'a x\nb y\nd z\ne w\n',
  'dup1.txt': 'a 1\na 2\nb 3\n',
  'dup2.txt': 'a x\na y\nc z\n',
  'c1.csv': 'id,name\n1,ann\n2,bob\n4,dan\n',
  'c2.csv': 'id,city\n1,paris\n3,rome\n4,\n',
  'unsorted.txt': 'a 1\nc 3\nb 2\nd 4\n',
  'u2.txt': 'a x\nb y\nc z\n',
  'case1.txt': 'A 1\nb 2\n',
  'case2.txt': 'a x\nB y\n',
  'blank.txt': '  a  1 \nb 2\n',
};

export const join = family('join', [
  u('default', 'join a.txt b.txt', { files: J }),
  u('-a1', 'join -a1 a.txt b.txt', { files: J }),
  u('-a1 -a2', 'join -a 1 -a 2 a.txt b.txt', { files: J }),
  u('-v2', 'join -v2 a.txt b.txt', { files: J }),
  u('-v1 -v2', 'join -v1 -v2 a.txt b.txt', { files: J }),
  u('-o list', 'join -o 2.2,1.2,0 a.txt b.txt', { files: J }),
  u('-o with -e', 'join -a1 -a2 -e NONE -o 0,1.2,2.2 a.txt b.txt', { files: J }),
  u('-o auto', 'join -o auto -e - -a2 dup1.txt b.txt', { files: J }),
  u('cartesian runs', 'join dup1.txt dup2.txt', { files: J }),
  u('-t, --header', 'join -t, --header c1.csv c2.csv', { files: J }),
  u('-t, -a2 -e', 'join -t, -a2 -e EMPTY -o 0,1.2,2.2 c1.csv c2.csv', { files: J }),
  u('-1 -2 fields', 'printf "x a\\ny b\\n" > k.txt; join -1 2 -2 1 k.txt b.txt', { files: J }),
  u('-j', 'join -j 1 a.txt b.txt', { files: J }),
  u('-i', 'join -i case1.txt case2.txt', { files: J }),
  u('blank separators', 'join -a1 blank.txt a.txt | od -c', { files: J }),
  u('stdin as -', 'cat a.txt | join - b.txt', { files: J }),
  u('-z', 'printf "a 1\\0b 2\\0" > z1; printf "a x\\0b y\\0" > z2; join -z z1 z2 | od -c'),
  u('not sorted warning', 'join unsorted.txt u2.txt; echo "status $?"', { files: J }),
  u('--check-order', 'join --check-order unsorted.txt u2.txt; echo "status $?"', { files: J }),
  u('--nocheck-order', 'join --nocheck-order unsorted.txt u2.txt; echo "status $?"', { files: J }),
  u('sorted tail not checked', 'printf "a\\nc\\nb\\n" > t1; printf "a\\n" > t2; join t1 t2; echo "status $?"'),
  u('missing operand', 'join a.txt; echo "status $?"', { files: J }),
  u('extra operand', 'join a.txt b.txt c; echo "status $?"', { files: J }),
  u('both stdin', 'join - -; echo "status $?"'),
  u('missing file', 'join nope b.txt; echo "status $?"', { files: J }),
  u('bad field', 'join -1 0 a.txt b.txt; echo "status $?"', { files: J }),
  u('bad -o', 'join -o 3.1 a.txt b.txt; join -o x a.txt b.txt; join -o 1 a.txt b.txt; echo "status $?"', { files: J }),
  u('multi-char tab', 'join -t ab a.txt b.txt; echo "status $?"', { files: J }),
  u('incompatible fields', 'join -j 1 -1 2 a.txt b.txt; echo "status $?"', { files: J }),
]);

const PARA = 'The quick brown fox jumps over the lazy dog. It was not amused!  Then it\n' +
  'slept for a long while, (as dogs do) and dreamt; of rabbits, cats and birds.\n\n' +
  '  An indented paragraph that is long enough to need wrapping at the default width of seventy-five columns.\n' +
  '  Its second line.\n';

export const fmt = family('fmt', [
  u('default', 'fmt p.txt', { files: { 'p.txt': PARA } }),
  u('-w 40', 'fmt -w 40 p.txt', { files: { 'p.txt': PARA } }),
  u('-w 20 -u', 'fmt -w 20 -u p.txt', { files: { 'p.txt': PARA } }),
  u('-s', 'fmt -s -w 30 p.txt', { files: { 'p.txt': PARA } }),
  u('-c crown', 'printf "  first line here\\n    second line is indented more than the first and long\\n    third\\n" | fmt -c -w 30'),
  u('-t tagged', 'printf "tag: one two three four five six seven\\n  continued here too\\n" | fmt -t -w 25'),
  u('-p prefix', 'printf "# a b c d e f g h i j k l m n o p\\n# q r s\\nnot prefixed\\n" | fmt -p "# " -w 20'),
  u('-g goal', 'fmt -g 50 p.txt', { files: { 'p.txt': PARA } }),
  u('-WIDTH', 'fmt -30 p.txt', { files: { 'p.txt': PARA } }),
  u('tabs kept', 'printf "\\tone two three four five six seven eight nine ten eleven twelve\\n" | fmt -w 30 | od -c'),
  u('sentence spacing', 'printf "One. Two.  Three!\\nFour? Five\\n" | fmt -w 12'),
  u('no final newline', 'printf "a b c" | fmt | od -c'),
  u('long paragraph streams', 'seq 1 3000 | tr "\\n" " " | fmt -w 50 | md5sum'),
  u('invalid width', 'fmt -w x p.txt; echo "status $?"; fmt -w 3000 p.txt; echo "status $?"', { files: { 'p.txt': PARA } }),
  u('later -WIDTH', 'echo x | fmt -s -5; echo "status $?"'),
  u('missing file', 'fmt nope; echo "status $?"'),
]);

export const unexpand = family('unexpand', [
  u('leading only', 'printf "        a       b\\n" | unexpand | od -c'),
  u('-a', 'printf "        a       b  c\\n" | unexpand -a | od -c'),
  u('--first-only', 'printf "        a       b\\n" | unexpand --first-only -a | od -c'),
  u('-t 4', 'printf "    a    b\\n" | unexpand -t 4 | od -c'),
  u('-t list', 'printf "        a  b        c\\n   \\t  x\\n" | unexpand -t 4,8 | od -c'),
  u('-t /N and +N', 'printf "        a  b        c\\n" | unexpand -t 2,/4 | od -c; printf "        a  b        c\\n" | unexpand -t 2,+4 | od -c'),
  u('lone space at a stop', 'printf "abcdefg h\\nabcdefg  h\\n" | unexpand -a | od -c'),
  u('mixed blanks', 'printf "  \\t  x\\n \\t \\t y\\n" | unexpand | od -c'),
  u('backspace', 'printf "ab\\b      c\\n" | unexpand -a | od -c'),
  u('bad tabs', 'unexpand -t 0 </dev/null; unexpand -t 4,2 </dev/null; unexpand -t x </dev/null; unexpand -t /4,8 </dev/null; echo "status $?"'),
]);

const show = 'for f in $(ls | grep -v "^in$" | sort); do printf "%s:" "$f"; od -An -c "$f" | tr -s " " | tr -d "\\n"; echo; done';
const IN = { in: 'aaaaaaaaa\nbb\ncc\ndddddddddddddddddddddd\ne\nf\n' };

export const split = family('split', [
  u('default 1000 lines', 'seq 2500 > in; split in; wc -l xa?'),
  u('-l 2', `split -l 2 in; ${show}`, { files: IN }),
  u('-b 7', `split -b 7 in; ${show}`, { files: IN }),
  u('-C 8', `split -C 8 in; ${show}`, { files: IN }),
  u('-C 12', `split -C 12 in; ${show}`, { files: IN }),
  u('-n 3', `split -n 3 in; ${show}`, { files: IN }),
  u('-n l/4', `split -n l/4 in; ${show}`, { files: IN }),
  u('-n r/3', `split -n r/3 in; ${show}`, { files: IN }),
  u('-e -n 8', `split -e -n 8 in; ${show}`, { files: { in: 'abc' } }),
  u('-n K/N to stdout', 'split -n 2/3 in; echo; split -n l/2/3 in; split -n r/2/3 in', { files: IN }),
  u('-d -a 3 suffix prefix', `split -d -a 3 --additional-suffix=.part -l 3 in pre_; ${show}`, { files: IN }),
  u('--numeric-suffixes=FROM', `split --numeric-suffixes=7 -l 2 in; ${show}`, { files: IN }),
  u('-x hex', 'seq 20 | split -x -l 1; ls x* | tail -3'),
  u('stdin and prefix', `split -l 4 - part < in; ${show}`, { files: IN }),
  u('--verbose', 'split --verbose -l 3 in', { files: IN }),
  u('-t separator', `printf "a,b,c,d,e" | split -t , -l 2; ${show}`),
  u('suffixes widen', 'seq 700 | split -l 1; ls | sed -n "648,653p"; ls | wc -l'),
  u('suffixes exhausted', 'seq 30 | split -l 1 -a 1; echo "status $?"; ls | wc -l'),
  u('-n on a pipe', 'seq 5 | split -n 3; echo "status $?"'),
  u('errors', 'split -l 2 -b 3 in; split -b 1x in; split -a x in; split -l 0 in; split -n 4/3 in; split in p q; echo "status $?"', { files: IN }),
  u('suffix too short for -n', 'split -a 1 -n 30 in; echo "status $?"', { files: IN }),
  u('cannot open', 'split nope; echo "status $?"'),
]);

/** 2 KiB of fixed pseudo-random bytes: the same --random-source on both sides. */
function randomBytes(seed: number, n: number): string {
  let x = seed;
  let s = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += String.fromCharCode(x >>> 24);
  }
  return s;
}
const RS = { rs: randomBytes(7, 2048), small: randomBytes(3, 3) };

export const shuf = family('shuf', [
  u('file permutation', 'seq 50 > in; shuf --random-source=rs in', { files: RS }),
  u('-n from a file', 'seq 1000 > in; shuf -n 5 --random-source=rs in', { files: RS }),
  u('-n from a pipe (reservoir)', 'seq 1000 | shuf -n 5 --random-source=rs', { files: RS }),
  u('-e', 'shuf --random-source=rs -e one two three four five', { files: RS }),
  u('-i', 'shuf -i 10-30 --random-source=rs', { files: RS }),
  u('-i big range -n', 'shuf -i 1-1000000000000 -n 4 --random-source=rs', { files: RS }),
  u('-r -n', 'shuf -r -n 10 --random-source=rs -e a b c', { files: RS }),
  u('-r -i', 'shuf -r -n 6 -i 1-3 --random-source=rs', { files: RS }),
  u('-z', 'printf "a\\0b\\0c\\0" | shuf -z --random-source=rs | od -c', { files: RS }),
  u('-o over its input', 'seq 5 > f; shuf -o f --random-source=rs f; cat f', { files: RS }),
  u('missing last newline', 'printf "a\\nb" | shuf --random-source=rs | od -c', { files: RS }),
  u('source too short', 'seq 300 | shuf --random-source=small; echo "status $?"', { files: RS }),
  u('one line needs no bytes', 'printf "a\\n" | shuf --random-source=/dev/null'),
  u('-n 0', 'shuf -n 0 nope; echo "status $?"'),
  u('empty range', 'shuf -i 1-0; echo "status $?"'),
  u('errors', 'shuf -i 5-1; shuf -i x; shuf -n x; shuf -e -i 1-3; shuf a b; echo "status $?"'),
  u('no lines to repeat', 'shuf -r </dev/null; echo "status $?"'),
  u('missing file or source', 'shuf nope; shuf --random-source=nope -e a b; echo "status $?"'),
]);

// diff and cmp: formats, options, directories, errors, and many generated
// file pairs compared with GNU diff's output byte for byte.
// (Scripts are JS template literals: \\ is \, \${ is ${.)
import { family, u, type UCase } from '../types.js';
import { editLines, gen, randomLines, text } from './textgen.js';

/** Header timestamps are the files' mtimes, which differ between the two runs. */
export const TIMES: [RegExp, string][] = [
  [/^(\|?\*\*\*|\|?---|\|?\+\+\+) (.*)\t(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{9} [+-]\d{4}|\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4})$/gm, '$1 $2\tTIME'],
];

const F = {
  'a.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n',
  'b.txt': 'one\nTWO\nthree\nfour\nfive\nsix\nseven\n8\nnine\nten\neleven\n',
  'c.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten',
  'same.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n',
  'empty.txt': '',
  'ws1.txt': 'a  b\n\tc d\nE f\n\nx\n',
  'ws2.txt': 'a b\n c   d  \ne F\nx\n',
  'blank1.txt': 'a\n\nb\nc\n',
  'blank2.txt': 'a\nb\n\n\nc\n',
  'bin1.dat': 'ab\x00cd\n',
  'bin2.dat': 'ab\x00ce\n',
  'fn.c': 'int main(void)\n{\n  int x = 1;\n  int y = 2;\n  int z = 3;\n  return x;\n}\n\nstatic int g(void)\n{\n  return 4;\n}\n',
  'fn2.c': 'int main(void)\n{\n  int x = 1;\n  int y = 2;\n  int z = 3;\n  return x;\n}\n\nstatic int g(void)\n{\n  return 5;\n}\n',
  'tabs1.txt': 'a\tb\n\tc\n',
  'tabs2.txt': 'a       b\n        c\nd\n',
  'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
  'lf.txt': 'one\ntwo\nthree\n',
  'dot.txt': 'a\n.\nb\n',
};

const D = {
  'd1/same': 'x\n', 'd2/same': 'x\n',
  'd1/changed': 'old\nline\n', 'd2/changed': 'new\nline\n',
  'd1/only1': 'o\n', 'd2/only2': 'p\n',
  'd1/sub/f': '1\n2\n', 'd2/sub/f': '1\n3\n',
  'd1/sub/deep/g': 'g\n', 'd2/sub/deep/g': 'G\n',
  'd1/onlydir/h': 'h\n',
  'd1/kind': 'file\n', 'd2/kind/x': 'dir\n',
  'd1/bin': 'a\x00b', 'd2/bin': 'a\x00c',
};

const handmade: UCase[] = [
  u('normal', 'diff a.txt b.txt; echo "status $?"', { files: F }),
  u('identical', 'diff a.txt same.txt; echo "status $?"', { files: F }),
  u('same file', 'diff a.txt a.txt; echo "status $?"', { files: F }),
  u('-u', 'diff -u a.txt b.txt; echo "status $?"', { files: F, normalise: TIMES }),
  u('-c', 'diff -c a.txt b.txt; echo "status $?"', { files: F, normalise: TIMES }),
  u('-U 1', 'diff -U 1 a.txt b.txt', { files: F, normalise: TIMES }),
  u('-U0', 'diff -U0 a.txt b.txt', { files: F, normalise: TIMES }),
  u('--unified=5', 'diff --unified=5 a.txt b.txt', { files: F, normalise: TIMES }),
  u('-C 1', 'diff -C 1 a.txt b.txt', { files: F, normalise: TIMES }),
  u('-C0', 'diff -C0 a.txt b.txt', { files: F, normalise: TIMES }),
  u('--label', 'diff -u --label old --label new a.txt b.txt', { files: F }),
  u('-c --label', 'diff -c --label=old --label=new a.txt b.txt', { files: F }),
  u('timestamps', "touch -d '2021-03-04 05:06:07' a.txt; touch -d '2022-12-31 23:59:59' b.txt; diff -u a.txt b.txt; diff -c a.txt b.txt", { files: F }),
  u('no newline normal', 'diff a.txt c.txt; echo "status $?"', { files: F }),
  u('no newline -u', 'diff -u --label a --label c c.txt b.txt', { files: F }),
  u('no newline both', 'printf "x\\ny" > p; printf "x\\nz" > q; diff p q; diff -u --label p --label q p q'),
  u('empty vs file', 'diff empty.txt a.txt; diff -u --label e --label a empty.txt a.txt; diff -c --label e --label a a.txt empty.txt', { files: F }),
  u('-q', 'diff -q a.txt b.txt; echo "status $?"; diff -q a.txt same.txt; echo "status $?"', { files: F }),
  u('-s', 'diff -s a.txt same.txt; echo "status $?"; diff -s a.txt b.txt >/dev/null; echo "status $?"', { files: F }),
  u('-i', 'printf "Hello\\nWORLD\\n" > p; printf "hello\\nworld\\n" > q; diff p q; echo "status $?"; diff -i p q; echo "status $?"'),
  u('-w', 'diff ws1.txt ws2.txt; diff -w ws1.txt ws2.txt; echo "status $?"', { files: F }),
  u('-b', 'diff -b ws1.txt ws2.txt; echo "status $?"', { files: F }),
  u('-iw', 'diff -iw ws1.txt ws2.txt; echo "status $?"', { files: F }),
  u('-Z', 'printf "a \\nb\\n" > p; printf "a\\nb\\t\\n" > q; diff -Z p q; echo "status $?"; diff p q'),
  u('-E', 'diff -E tabs1.txt tabs2.txt; echo "status $?"', { files: F }),
  u('-B', 'diff -B blank1.txt blank2.txt; echo "status $?"; diff blank1.txt blank2.txt', { files: F }),
  u('-B -u', 'diff -B -u --label x --label y blank1.txt blank2.txt; echo "status $?"', { files: F }),
  u('-I', 'printf "a\\n# x\\nb\\n" > p; printf "a\\n# y\\nb\\n" > q; diff -I "^#" p q; echo "status $?"; diff -I "^#" -u p q; echo "status $?"'),
  u('-t', 'diff -t tabs1.txt tabs2.txt', { files: F }),
  u('-T', 'diff -T a.txt b.txt; diff -T -u --label a --label b a.txt b.txt', { files: F }),
  u('-p', 'diff -p -u --label a --label b fn.c fn2.c; diff -p -c --label a --label b fn.c fn2.c', { files: F }),
  u('-F', 'diff -U1 -F "^static" --label a --label b fn.c fn2.c', { files: F }),
  u('-e', 'diff -e a.txt b.txt; diff -e dot.txt a.txt', { files: F }),
  u('-n rcs', 'diff -n a.txt b.txt; echo "status $?"', { files: F }),
  u('--strip-trailing-cr', 'diff crlf.txt lf.txt | od -c; diff --strip-trailing-cr crlf.txt lf.txt; echo "status $?"', { files: F }),
  u('binary', 'diff bin1.dat bin2.dat; echo "status $?"; diff -q bin1.dat bin2.dat; diff bin1.dat bin1.dat; echo "status $?"', { files: F }),
  u('-a binary', 'diff -a bin1.dat bin2.dat | od -c', { files: F }),
  u('stdin', 'cat b.txt | diff a.txt -; echo "status $?"', { files: F }),
  u('stdin twice', 'cat a.txt | diff - -; echo "status $?"', { files: F }),
  u('stdin -u', 'cat b.txt | diff -u --label a --label b a.txt -', { files: F }),
  u('missing', 'diff nope a.txt; echo "status $?"; diff a.txt nope; echo "status $?"', { files: F }),
  u('-N missing', 'diff -N nope a.txt; echo "status $?"; diff -N -u --label x --label y a.txt nope', { files: F }),
  u('missing operand', 'diff a.txt; echo "status $?"', { files: F }),
  u('extra operand', 'diff a.txt b.txt c.txt; echo "status $?"', { files: F }),
  u('bad option', 'diff -k a.txt b.txt; echo "status $?"', { files: F }),
  u('bad context', 'diff -U x a.txt b.txt; echo "status $?"', { files: F }),
  u('conflicting styles', 'diff -u -c a.txt b.txt; echo "status $?"', { files: F }),
  u('file and dir', 'mkdir d; cp a.txt d/; echo changed >> d/a.txt; diff a.txt d; echo "status $?"; diff d a.txt; echo "status $?"', { files: F }),
  u('dirs', 'diff d1 d2; echo "status $?"', { files: D }),
  u('-r', 'diff -r d1 d2; echo "status $?"', { files: D }),
  u('-ru', 'diff -ru d1 d2; echo "status $?"', { files: D, normalise: TIMES }),
  u('-rN', 'diff -rN d1 d2; echo "status $?"', { files: D }),
  u('-rq', 'diff -rq d1 d2; echo "status $?"', { files: D }),
  u('-r -x', 'diff -r -x sub -x "only*" d1 d2; echo "status $?"', { files: D }),
  u('-r labels', 'diff -r -u --label L --label R d1/sub d2/sub', { files: D }),
  u('-rs', 'diff -rs d1/sub d2/sub; diff -rs d1 d1; echo "status $?"', { files: D }),
  u('dir vs missing', 'diff d1 nope; echo "status $?"', { files: D }),
  u('quoted names', 'mkdir "x y" "x z"; echo 1 > "x y/f g"; echo 2 > "x z/f g"; diff -r "x y" "x z"; diff -u "x y/f g" "x z/f g"', { normalise: TIMES }),
  u('long common run', 'seq 1 300 > p; seq 1 300 | sed "s/^150$/X/;s/^7$//" > q; diff p q; diff -u --label p --label q p q'),
  u('moved block', 'seq 1 30 > p; (seq 11 20; seq 1 10; seq 21 30) > q; diff p q'),
  u('repeated lines', 'printf "}\\n}\\n}\\nx\\n}\\n" > p; printf "}\\nx\\n}\\n}\\n}\\n" > q; diff p q; diff -u --label p --label q p q'),
  u('insert in run', 'printf "a\\nb\\na\\nb\\n" > p; printf "a\\nb\\na\\nb\\na\\nb\\n" > q; diff p q'),
  u('--help', 'diff --help | head -3'),
  u('--help each', 'for c in cmp diff3 patch hexdump strings iconv; do $c --help | head -2; echo "status $?"; done'),
  u('-d minimal', 'seq 1 50 > p; seq 1 50 | sed "10,20d;30a\\\\\nnew" > q; diff -d p q'),
];

/** Random line files and random edits of them: the hunks must be GNU's. */
function randomPairs(): UCase[] {
  const cases: UCase[] = [];
  for (let k = 0; k < 60; k++) {
    const g = gen(1000 + k);
    const vocab = 3 + (k % 18);
    const n = 5 + g.int(k < 40 ? 60 : 250);
    const a = randomLines(g, n, vocab);
    const b = editLines(g, a, 1 + g.int(k < 30 ? 4 : 12), vocab);
    const files = { 'a.txt': text(a, k % 11 === 3), 'b.txt': text(b, k % 13 === 5) };
    const opts = k % 5 === 0 ? ' -b' : k % 7 === 0 ? ' -w' : k % 9 === 0 ? ' -i' : '';
    cases.push(u(`pair ${k}${opts}`, `diff${opts} a.txt b.txt; echo "status $?"; diff${opts} -u --label a --label b a.txt b.txt; diff${opts} -c -C 2 --label a --label b a.txt b.txt`, { files }));
  }
  return cases;
}

const C = {
  'c1': 'abc\ndef\n', 'c2': 'abc\ndxf\nzz\n', 'c3': 'abc\n', 'e': '', 'h1': '\xff\x80a', 'h2': '\x00\x81a',
  'n1': '1\n2\n3\n4\n5\n6\n7\n8\n9\n10', 'n2': '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n',
};

const cmpCases: UCase[] = [
  u('differ', 'cmp c1 c2; echo "status $?"', { files: C }),
  u('identical', 'cmp c1 c1; echo "status $?"; cp c1 x; cmp c1 x; echo "status $?"', { files: C }),
  u('-b', 'cmp -b c1 c2; cmp -b h1 h2', { files: C }),
  u('-l', 'cmp -l c1 c2; echo "status $?"', { files: C }),
  u('-lb', 'cmp -lb c1 c2; cmp -l -b h1 h2', { files: C }),
  u('-s', 'cmp -s c1 c2; echo "status $?"; cmp -s c1 c1; echo "status $?"; cmp -s c1 c3; echo "status $?"', { files: C }),
  u('EOF line', 'cmp c1 c3; echo "status $?"; cmp c3 c1; echo "status $?"', { files: C }),
  u('EOF in line', 'cmp n1 n2; echo "status $?"', { files: C }),
  u('EOF -l', 'cmp -l c3 c2; echo "status $?"', { files: C }),
  u('empty', 'cmp e c1; echo "status $?"; cmp c1 e; echo "status $?"; cmp e e; echo "status $?"', { files: C }),
  u('-n', 'cmp -n 5 c1 c2; echo "status $?"; cmp -n 6 c1 c2; echo "status $?"', { files: C }),
  u('-i', 'cmp -i 4 c1 c2; cmp -i 4:5 c1 c2; echo "status $?"', { files: C }),
  u('skip operands', 'cmp c1 c2 2 2; echo "status $?"; cmp c3 c1 1 1; echo "status $?"', { files: C }),
  u('skip suffixes', 'seq 1 3000 > p; seq 1 3000 | sed "s/99/XX/" > q; cmp -i 1K p q; cmp p q 0x10 0x10; cmp -n 1kB p q; echo "status $?"'),
  u('-l width', 'seq 1 2000 > p; seq 1 2000 | sed "s/99/XX/" > q; cmp -l p q | head -5; cmp -l -n 100 p q; echo "status $?"'),
  u('stdin', 'printf "abd\\n" | cmp c3 -; echo "status $?"; cat c1 | cmp c1; echo "status $?"', { files: C }),
  u('missing', 'cmp nope c1; echo "status $?"; cmp c1 nope; echo "status $?"', { files: C }),
  u('bad skip', 'cmp c1 c2 x; echo "status $?"; cmp -i q c1 c2; echo "status $?"', { files: C }),
  u('extra operand', 'cmp c1 c2 1 2 3; echo "status $?"', { files: C }),
  u('no operand', 'cmp; echo "status $?"'),
  u('stdout null', 'cmp c3 c1 >/dev/null; echo "status $?"; cmp c1 c2 > /dev/null; echo "status $?"', { files: C }),
];

const T = {
  'o': 'a\nb\nc\nd\ne\n',
  'm': 'a\nB\nc\nd\ne\nf\n',
  'y': 'a\nb\nc\nD\ne\n',
  'y2': 'a\nX\nc\nd\ne\n',
  'same': 'a\nB\nc\nd\ne\n',
  'dots': 'a\n.\nc\nd\ne\n',
  'nonl': 'a\nb\nc\nd\ne',
};

function diff3Pairs(): UCase[] {
  const cases: UCase[] = [];
  for (let k = 0; k < 12; k++) {
    const g = gen(9000 + k);
    const vocab = 4 + (k % 10);
    const old = randomLines(g, 10 + g.int(60), vocab);
    const files = { 'old': text(old), 'mine': text(editLines(g, old, 1 + g.int(4), vocab)), 'yours': text(editLines(g, old, 1 + g.int(4), vocab)) };
    cases.push(u(`generated ${k}`, 'diff3 mine old yours; echo "status $?"; diff3 -m mine old yours; echo "status $?"; diff3 -e mine old yours; echo "status $?"', { files }));
  }
  return cases;
}

const diff3Cases: UCase[] = [
  u('default', 'diff3 m o y; echo "status $?"', { files: T }),
  u('conflict', 'diff3 m o y2; echo "status $?"', { files: T }),
  u('-m', 'diff3 -m m o y; echo "status $?"; diff3 -m m o y2; echo "status $?"', { files: T }),
  u('-m -L', 'diff3 -m -L A -L B -L C m o y2; echo "status $?"', { files: T }),
  u('-e', 'diff3 -e m o y; echo "status $?"; diff3 -e m o y2; echo "status $?"', { files: T }),
  u('-A -E -X -x -3', 'for f in -A -E -X -x -3; do diff3 $f m o y2; echo "status $?"; done', { files: T }),
  u('-i', 'diff3 -e -i m o y; echo "status $?"', { files: T }),
  u('same change', 'diff3 same o m; diff3 -m m o same; echo "status $?"', { files: T }),
  u('dots', 'diff3 -e m o dots; echo "status $?"', { files: T }),
  u('no newline', 'diff3 m o nonl; echo "status $?"; diff3 -e m o nonl; diff3 -m m o nonl', { files: T }),
  u('-T', 'diff3 -T m o y', { files: T }),
  u('identical', 'diff3 o o o; echo "status $?"', { files: T }),
  u('missing operand', 'diff3 m o; echo "status $?"', { files: T }),
  u('missing file', 'diff3 m o nope; echo "status $?"', { files: T }),
  u('incompatible', 'diff3 -e -x m o y; echo "status $?"', { files: T }),
  ...diff3Pairs(),
];

export const diff = family('diff', handmade);
export const diff3 = family('diff3', diff3Cases);
export const diffPairs = family('diff pairs', randomPairs());
export const cmp = family('cmp', cmpCases);

// od: byte dumps in several radices. (Scripts are JS template literals: \\ is \, \${ is ${.)
import { family, u } from '../types.js';

const F = { 'b.dat': 'abc\x00\xff\n', 'rep.dat': 'A'.repeat(48) + 'tail\n', 'text.txt': 'hello, world\n' };

export const od = family('od', [
  u('default', 'od b.dat', { files: F }),
  u('-c', 'od -c b.dat text.txt', { files: F }),
  u('-t x1', 'od -t x1 text.txt', { files: F }),
  u('-t o1', 'od -t o1 b.dat', { files: F }),
  u('-t x2', 'od -t x2 text.txt', { files: F }),
  u('-t d1 -An', 'od -An -t d1 b.dat', { files: F }),
  u('-t u1', 'od -t u1 b.dat', { files: F }),
  u('-A d', 'od -A d -t x1 text.txt', { files: F }),
  u('-A x', 'od -A x -c text.txt', { files: F }),
  u('-A n', 'od -A n -c text.txt', { files: F }),
  u('duplicates starred', 'od -c rep.dat', { files: F }),
  u('-v', 'od -v -t x1 rep.dat', { files: F }),
  u('two formats', 'od -t x2 -t c b.dat', { files: F }),
  u('-w4', 'od -w4 -t o1 b.dat', { files: F }),
  u('-j -N', 'od -j 2 -N 5 -c text.txt', { files: F }),
  u('stdin', 'printf "xyz" | od -t x1'),
  u('-b', 'od -b text.txt', { files: F }),
  u('-x', 'od -x text.txt', { files: F }),
  u('empty', 'od </dev/null'),
  u('missing file', 'od nope; echo "status $?"'),
]);

const T = { 'long.txt': 'The quick brown fox jumps over the lazy dog and keeps running far away\nshort\n', 'tabs.txt': 'a\tb\tc\n\tlead\nxx\t\ty\n' };

export const fold = family('fold', [
  u('-w 20', 'fold -w 20 long.txt', { files: T }),
  u('-s -w 20', 'fold -s -w 20 long.txt', { files: T }),
  u('-b -w 7', 'fold -b -w 7 long.txt', { files: T }),
  u('default width', 'fold long.txt', { files: T }),
  u('tabs count', 'fold -w 10 tabs.txt', { files: T }),
  u('stdin', 'echo abcdefghij | fold -w 3'),
  u('bad width', 'fold -w 0 long.txt; echo "status $?"', { files: T }),
]);

export const expand = family('expand', [
  u('default', 'expand tabs.txt', { files: T }),
  u('-t 4', 'expand -t 4 tabs.txt', { files: T }),
  u('-t list', 'expand -t 2,5,9 tabs.txt', { files: T }),
  u('-i', 'expand -i tabs.txt', { files: T }),
  u('stdin', 'printf "1\\t2\\n" | expand -t3'),
  u('bad tabs', 'expand -t 4,2 tabs.txt; echo "status $?"', { files: T }),
]);

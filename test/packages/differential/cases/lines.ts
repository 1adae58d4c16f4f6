// tac, rev, nl: whole-line rearrangements and numbering. (Scripts are JS template literals: \\ is \, \${ is ${.)
import { family, u } from '../types.js';

const F = {
  'a.txt': 'one\ntwo\nthree\n',
  'b.txt': 'last\nno newline',
  'blank.txt': 'alpha\n\nbeta\n\n\ngamma\n',
};

export const tac = family('tac', [
  u('one file', 'tac a.txt', { files: F }),
  u('two files', 'tac a.txt b.txt', { files: F }),
  u('no trailing newline', 'tac b.txt | od -c', { files: F }),
  u('stdin', 'seq 5 | tac'),
  u('-s', `printf 'a,b,c,' | tac -s ,`),
  u('-s no trailing', `printf 'a,b,c' | tac -s , | od -c`),
  u('-b', `printf 'a\\nb\\nc\\n' | tac -b | od -c`),
  u('empty', 'tac </dev/null; echo "status $?"'),
  u('missing file', 'tac nope a.txt; echo "status $?"', { files: F }),
  u('blank lines', 'tac blank.txt', { files: F }),
]);

export const rev = family('rev', [
  u('one file', 'rev a.txt', { files: F }),
  u('stdin', 'echo "hello world" | rev'),
  u('no trailing newline', 'rev b.txt | od -c', { files: F }),
  u('two files', 'rev a.txt blank.txt', { files: F }),
  u('empty line', 'printf "\\n\\nab\\n" | rev'),
  u('tabs', 'printf "a\\tb\\n" | rev | od -c'),
]);

export const nl = family('nl', [
  u('default', 'nl blank.txt', { files: F }),
  u('-b a', 'nl -b a blank.txt', { files: F }),
  u('-b n', 'nl -b n blank.txt', { files: F }),
  u('-n ln', 'nl -n ln a.txt', { files: F }),
  u('-n rz', 'nl -n rz a.txt', { files: F }),
  u('-w 3', 'nl -w 3 a.txt', { files: F }),
  u('-s', `nl -s ': ' a.txt`, { files: F }),
  u('-v and -i', 'nl -v 10 -i 5 a.txt', { files: F }),
  u('two files continue', 'nl a.txt b.txt', { files: F }),
  u('stdin', 'seq 3 | nl'),
  u('-ba -nrz -w2', 'nl -ba -nrz -w2 blank.txt', { files: F }),
  u('bad style', 'nl -b x a.txt; echo "status $?"', { files: F }),
  u('bad format', 'nl -n xx a.txt; echo "status $?"', { files: F }),
  u('missing file', 'nl nope; echo "status $?"'),
]);

// cat, echo, tee: text in, text out. (Scripts are JS template literals: \\ is \, \${ is ${.)
import { family, u } from '../types.js';

const F = { 'a.txt': 'one\ntwo\n\n\n\tthree\nfour\n', 'b.txt': 'bee\nno newline', 'ctl.bin': 'a\x01b\x7fc\x80d\xffe\n' };

export const cat = family('cat', [
  u('one file', 'cat a.txt', { files: F }),
  u('two files', 'cat a.txt b.txt', { files: F }),
  u('stdin', 'cat', { stdin: 'x\ny\n' }),
  u('dash is stdin', 'cat a.txt - b.txt', { files: F, stdin: 'MID\n' }),
  u('-n', 'cat -n a.txt b.txt', { files: F }),
  u('-b', 'cat -b a.txt', { files: F }),
  u('-s', 'cat -s a.txt', { files: F }),
  u('-E', 'cat -E a.txt b.txt', { files: F }),
  u('-T', 'cat -T a.txt', { files: F }),
  u('-A', 'cat -A a.txt ctl.bin', { files: F }),
  u('-v', 'cat -v ctl.bin', { files: F }),
  u('-e and -t', 'cat -e a.txt; cat -t a.txt', { files: F }),
  u('-ns cluster', 'cat -ns a.txt', { files: F }),
  u('long options', 'cat --number --show-ends a.txt', { files: F }),
  u('missing file', 'cat nope; echo "status $?"', { files: F }),
  u('missing among others', 'cat a.txt nope b.txt', { files: F }),
  u('directory', 'mkdir d; cat d', { files: F }),
  u('invalid option', 'cat -z a.txt', { files: F }),
  u('unrecognized long option', 'cat --frobnicate', { files: F }),
  u('-- ends options', 'echo dash > ./-n; cat -- -n'),
  u('binary passthrough', 'cat ctl.bin', { files: F }),
  u('into a pipe', 'cat a.txt | cat -n', { files: F }),
  u('--help first line', 'cat --help | head -n 1'),
]);

export const echo = family('echo', [
  u('plain', 'env echo hello   world'),
  u('-n', 'env echo -n no newline; env echo'),
  u('-e escapes', `env echo -e 'a\\tb\\nc\\\\d'`),
  u('-E default', `env echo 'a\\tb'`),
  u('-e \\c stops', `env echo -e 'one\\ctwo'; env echo after`),
  u('-e octal and hex', `env echo -e '\\0101\\x42\\0'`),
  u('not an option', 'env echo -x -n'),
  u('cluster -ne', `env echo -ne 'x\\ty'`),
  u('-- is printed', 'env echo -- hi'),
  u('no args', 'env echo'),
  u('--help alone is help', 'env echo --help | head -n 1'),
  u('--help with more is text', 'env echo --help me'),
]);

export const tee = family('tee', [
  u('to file and stdout', 'echo hi | tee out; cat out'),
  u('two files', 'printf "a\\nb\\n" | tee x y >/dev/null; cat x y'),
  u('-a appends', 'echo 1 > f; echo 2 | tee -a f; cat f'),
  u('unwritable target', 'echo hi | tee nodir/f; echo "status $?"'),
  u('no files', 'echo just | tee'),
]);

// seq, sleep, wc, head, tail.
import { family, u } from '../types.js';

const lines = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const F = { 'l.txt': lines, 'w.txt': 'hello world\n  two  words here\n\nlast', 'e.txt': '' };

export const seq = family('seq', [
  u('last', 'seq 5'),
  u('first last', 'seq 3 7'),
  u('step', 'seq 1 3 10'),
  u('negative step', 'seq 10 -3 1'),
  u('negative numbers', 'seq -2 2'),
  u('empty range', 'seq 5 1; echo "status $?"'),
  u('decimals', 'seq 1 0.5 3'),
  u('decimal first', 'seq 0.1 0.1 0.5'),
  u('-s', 'seq -s , 5'),
  u('-w', 'seq -w 8 11'),
  u('-w negative', 'seq -w -3 2'),
  u('-f zero-padded', "seq -f '%03g' 1 3"),
  u('-f text, %% and a width', "seq -f 'x%%%05.1fy' 1 0.5 2"),
  u('-f %e with -s', "seq -f %e -s ' ' 1 3"),
  u('-f left-justified', "seq -f '%-5gX' 9 11"),
  u('-f errors', "seq -f %d 1 2; seq -f abc 1 2; seq -f '%g %g' 1 2; seq -f 'a%' 1 2; echo \"status $?\""),
  u('-f with -w', 'seq -w -f %g 1 2'),
  u('invalid argument', 'seq x'),
  u('zero increment', 'seq 1 0 3'),
  u('missing operand', 'seq'),
  u('extra operand', 'seq 1 2 3 4'),
  u('large', 'seq 99998 100002'),
  u('through head', 'seq 100000 | head -n 3'),
]);

export const sleep = family('sleep', [
  u('zero', 'sleep 0; echo done'),
  u('fraction', 'sleep 0.05; echo done'),
  u('suffix and sum', 'sleep 0.01s 0.001m; echo done'),
  u('invalid', 'sleep abc; echo "status $?"'),
  u('missing operand', 'sleep'),
]);

export const wc = family('wc', [
  u('default', 'wc w.txt', { files: F }),
  u('-l', 'wc -l l.txt', { files: F }),
  u('-w', 'wc -w w.txt', { files: F }),
  u('-c', 'wc -c w.txt', { files: F }),
  u('-m', 'wc -m w.txt', { files: F }),
  u('-lc', 'wc -lc l.txt', { files: F }),
  u('several files and total', 'wc l.txt w.txt e.txt', { files: F }),
  u('stdin', 'wc', { stdin: 'a b\nc\n' }),
  u('stdin -l', 'wc -l', { stdin: 'a b\nc\n' }),
  u('from a pipe', 'cat l.txt | wc', { files: F }),
  u('missing file', 'wc nope l.txt; echo "status $?"', { files: F }),
  u('empty file', 'wc e.txt', { files: F }),
  u('long options', 'wc --lines --words w.txt', { files: F }),
]);

export const head = family('head', [
  u('default 10', 'head l.txt', { files: F }),
  u('-n 3', 'head -n 3 l.txt', { files: F }),
  u('-n3 attached', 'head -n3 l.txt', { files: F }),
  u('obsolete -4', 'head -4 l.txt', { files: F }),
  u('-n -20', 'head -n -20 l.txt', { files: F }),
  u('-c 7', 'head -c 7 l.txt', { files: F }),
  u('-c -100', 'head -c -100 l.txt', { files: F }),
  u('--lines=2', 'head --lines=2 l.txt', { files: F }),
  u('two files headers', 'head -n 2 l.txt w.txt', { files: F }),
  u('-q', 'head -q -n 1 l.txt w.txt', { files: F }),
  u('-v', 'head -v -n 1 l.txt', { files: F }),
  u('stdin', 'head -n 2', { stdin: 'a\nb\nc\n' }),
  u('no trailing newline', 'head -n 5 w.txt', { files: F }),
  u('invalid count', 'head -n x l.txt', { files: F }),
  u('missing file', 'head nope; echo "status $?"'),
  u('-n 0', 'head -n 0 l.txt; echo "status $?"', { files: F }),
  u('1K suffix', 'head -c 1K l.txt | wc -c', { files: F }),
  u('missing argument', 'head -n'),
]);

export const tail = family('tail', [
  u('default 10', 'tail l.txt', { files: F }),
  u('-n 3', 'tail -n 3 l.txt', { files: F }),
  u('-n +20', 'tail -n +20 l.txt', { files: F }),
  u('obsolete -2', 'tail -2 l.txt', { files: F }),
  u('-c 5', 'tail -c 5 l.txt', { files: F }),
  u('-c +150', 'tail -c +150 l.txt', { files: F }),
  u('no trailing newline', 'tail -n 2 w.txt', { files: F }),
  u('two files', 'tail -n 1 l.txt w.txt', { files: F }),
  u('stdin', 'tail -n 2', { stdin: 'a\nb\nc\n' }),
  u('pipe', 'seq 1000 | tail -n 3'),
  u('invalid', 'tail -n abc l.txt', { files: F }),
  u('missing file', 'tail nope; echo "status $?"'),
  u('-n 0', 'tail -n 0 l.txt', { files: F }),
]);

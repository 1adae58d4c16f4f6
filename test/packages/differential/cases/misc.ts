// Option parsing shared by every command (the lib), pipes, and system facts.
import { family, u } from '../types.js';

export const options = family('options', [
  u('cluster with argument', 'seq 20 | head -vn2'),
  u('argument attached', 'seq 20 | tail -n2'),
  u('long option with =', 'seq 20 | head --lines=3'),
  u('long option separate value', 'seq 20 | head --lines 3'),
  u('abbreviated long option', 'seq 20 | head --li=2'),
  u('long option not taking an argument', 'cat --number=3 /dev/null'),
  u('options after operands', 'printf "a\\nb\\n" > f; cat f -n'),
  u('-- before dash-named file', 'echo x > ./-v; cat -- -v'),
  u('invalid short option status', 'wc -q; echo "status $?"'),
  u('missing argument to short', 'head -c'),
  u('--version succeeds', 'cat --version >/dev/null; echo "status $?"'),
]);

export const pipes = family('pipes', [
  u('yes | head', 'yes | head -n 3'),
  u('yes with string', 'yes ab cd | head -n 2'),
  u('broken pipe ends cat', 'seq 100000 > big; cat big big big | head -c 10; echo; echo "${PIPESTATUS[@]}"'),
  u('broken pipe ends seq', 'seq 1000000 | head -n 1; echo "${PIPESTATUS[@]}"'),
  u('chain', 'seq 50 | tail -n 20 | head -n 5 | wc -l'),
  u('tee in middle', 'seq 3 | tee copy | wc -l; cat copy'),
]);

export const system = family('system', [
  u('whoami', 'whoami'),
  u('id -u', 'id -u; id -g'),
  u('id -un', 'id -un; id -gn'),
  u('uname default', 'uname'),
  u('uname -s', 'uname -s'),
]);

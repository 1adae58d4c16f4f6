// test and [: string, numeric and file operators, -a/-o, !, parentheses, errors.
// (Scripts are JS template literals: \${ is ${, \\ is \, \` is a backquote.)
import { t, topic } from '../types.js';

/** Print the status of each test command given. */
const st = (...tests: string[]) => tests.map((x) => `${x}; printf '%s ' $?`).join('; ') + '; echo';

const files = { file: 'content\n', empty: '', 'dir/inner': '' };

export default topic('builtins-test', [
  t('string equality', st(`[ abc = abc ]`, `[ abc = abd ]`, `[ abc != abd ]`, `test x == x`), { posix: false }),
  t('posix string equality', st(`[ abc = abc ]`, `[ abc = abd ]`, `[ abc != abd ]`), { posix: true }),
  t('-z and -n', st(`[ -z "" ]`, `[ -z x ]`, `[ -n x ]`, `[ -n "" ]`), { posix: true }),
  t('single argument is a non-empty test', st(`[ x ]`, `[ "" ]`, `[ -n ]`, `[ -z ]`), { posix: true }),
  t('no arguments is false', st(`[ ]`, `test`), { posix: true }),
  t('numeric comparisons', st(`[ 1 -eq 1 ]`, `[ 1 -ne 1 ]`, `[ 2 -gt 1 ]`, `[ 2 -lt 1 ]`, `[ 2 -ge 2 ]`, `[ 3 -le 2 ]`), { posix: true }),
  t('numeric comparison with negative and spaces', st(`[ -5 -lt 3 ]`, `[ ' 7 ' -eq 7 ]`, `[ 010 -eq 10 ]`), { posix: true }),
  t('numeric comparison with a non-number', `[ abc -eq 1 ]; echo status $?`),
  t('string ordering', st(`[ a \\< b ]`, `[ b \\< a ]`, `[ B \\> a ]`, `test abc '>' abb`)),
  t('file tests', st(`[ -e file ]`, `[ -e nope ]`, `[ -f file ]`, `[ -f dir ]`, `[ -d dir ]`, `[ -d file ]`), { posix: true, files }),
  t('size and readability', st(`[ -s file ]`, `[ -s empty ]`, `[ -r file ]`, `[ -w file ]`, `[ -x file ]`), { posix: true, files }),
  t('symlink and special files', st(`[ -h file ]`, `[ -L nope ]`, `[ -c /dev/null ]`, `[ -b /dev/null ]`, `[ -p /dev/null ]`, `[ -S /dev/null ]`), { posix: true, files }),
  t('file descriptor is a terminal', st(`[ -t 0 ]`, `[ -t 1 ]`, `[ -t 9 ]`), { posix: true }),
  t('negation', st(`[ ! x ]`, `[ ! "" ]`, `[ ! -e nope ]`, `! [ x ]`), { posix: true, files }),
  t('-a and -o', st(`[ x -a y ]`, `[ x -a "" ]`, `[ "" -o y ]`, `[ "" -o "" ]`)),
  t('parentheses', st(`[ \\( x -o "" \\) -a y ]`, `[ ! \\( x \\) ]`, `test \\( "" \\)`)),
  t('operators as operands', st(`[ = ]`, `[ -n = ]`, `[ ! = ]`, `[ = = = ]`, `[ -e = -e ]`), { posix: true }),
  t('-v variable is set', `x=1; e=; arr=(a); ${st(`[ -v x ]`, `[ -v e ]`, `[ -v nope ]`, `[ -v arr[0] ]`, `[ -v arr[5] ]`)}`),
  t('-o option set', `set -u; ${st(`[ -o nounset ]`, `[ -o errexit ]`, `[ -o nosuchopt ]`)}`),
  t('file comparison operators', st(`[ file -ef file ]`, `[ file -ef empty ]`, `[ file -nt nope ]`, `[ nope -ot file ]`), { files }),
  t('missing closing bracket', `[ x; echo status $?`),
  t('three words without an operator', `[ a b c ]; echo status $?`),
  t('unary operator with an extra argument', `[ -z a b ]; echo status $?`),
  t('two words without an operator', `test a b; echo status $?`),
  t('integer expression expected', `[ 1 -gt x ]; echo $?; test 1.5 -eq 1; echo $?`),
  t('unquoted empty variable', `e=; [ $e = x ]; echo status $?`),
  t('quoted variables', `x='a b'; [ "$x" = 'a b' ] && echo match`, { posix: true }),
  t('test with -- argument', st(`[ -- ]`, `test --`), { posix: true }),
  t('[ as a command name in a variable', `b='['; $b 1 -lt 2 ]; echo $?`, { posix: true }),
  t('test with four arguments', st(`[ ! x = y ]`, `[ ! x = x ]`, `[ x = x -a y ]`), { posix: true }),
  t('long -a/-o chains', st(`[ x -a x -a "" -o x ]`, `[ "" -o "" -o "" -a x ]`)),
  t('-O and -G on own files', st(`[ -O file ]`, `[ -G file ]`, `[ -O nope ]`), { files }),
]);

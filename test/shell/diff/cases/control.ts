// Control flow: if, while, until, for, case, select, lists, groups, break/continue.
// (Scripts are JS template literals: \${ is ${, \\ is \, \` is a backquote.)
import { t, topic } from '../types.js';

export default topic('control', [
  t('if then else', `if true; then echo yes; else echo no; fi; if false; then echo yes; else echo no; fi`, { posix: true }),
  t('elif chain', `for n in 1 2 3; do if [ $n = 1 ]; then echo one; elif [ $n = 2 ]; then echo two; else echo other; fi; done`, { posix: true }),
  t('if status is the last command run', `if false; then :; fi; echo $?; if true; then false; fi; echo $?`, { posix: true }),
  t('if condition is a list', `if false; true; then echo list ok; fi; if true && false; then echo no; else echo else; fi`, { posix: true }),
  t('while loop', `i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done`, { posix: true }),
  t('until loop', `i=0; until [ $i -ge 3 ]; do echo $i; i=$((i+1)); done`, { posix: true }),
  t('while loop status', `while false; do :; done; echo $?; i=0; while [ $i -lt 1 ]; do i=1; false; done; echo $?`, { posix: true }),
  t('for over words', `for w in a 'b c' d; do echo "<$w>"; done`, { posix: true }),
  t('for over positional parameters by default', `set -- x 'y z'; for a; do echo "<$a>"; done`, { posix: true }),
  t('for with empty list', `for x in; do echo never; done; echo done $?`, { posix: true }),
  t('for variable remains after loop', `for x in 1 2 3; do :; done; echo $x`, { posix: true }),
  t('for with glob', `for f in *.txt; do echo "file $f"; done`, { posix: true, files: { 'a.txt': '', 'b.txt': '' } }),
  t('for with brace body', `for i in 1 2; { echo $i; }`),
  t('break out of loop', `for i in 1 2 3 4; do [ $i = 3 ] && break; echo $i; done`, { posix: true }),
  t('continue in loop', `for i in 1 2 3 4; do [ $i = 2 ] && continue; echo $i; done`, { posix: true }),
  t('break and continue with levels', `for i in 1 2 3; do for j in a b c; do [ $j = b ] && continue 2; [ $i = 3 ] && break 2; echo $i$j; done; done; echo end`, { posix: true }),
  t('break with too large a level', `for i in 1 2; do for j in 1 2; do break 5; done; echo inner-after; done; echo end $i`),
  t('break outside a loop', `break; echo after $?`),
  t('continue outside a loop', `continue 2; echo after $?`),
  t('case basic', `for x in apple banana cherry; do case $x in a*) echo A;; b*|c*) echo BC;; esac; done`, { posix: true }),
  t('case with default and no match', `case zz in a) echo a;; *) echo default;; esac; case q in a) echo a;; esac; echo status $?`, { posix: true }),
  t('case fallthrough ;&', `case a in a) echo one;& b) echo two;; c) echo three;; esac`),
  t('case continue matching ;;&', `case abc in a*) echo starts-a;;& *c) echo ends-c;;& x*) echo x;; *) echo any;; esac`),
  t('case with quoted pattern', `x='*'; case ab in "$x") echo quoted;; $x) echo unquoted;; esac`, { posix: true }),
  t('case with character classes', `for c in a 1 _ ' '; do case "$c" in [[:alpha:]]) echo alpha;; [[:digit:]]) echo digit;; [[:space:]]) echo space;; *) echo other;; esac; done`, { posix: true }),
  t('case with parenthesised pattern and empty body', `case x in (x) ;; esac; echo $?; case y in (y) echo y; esac`, { posix: true }),
  t('case with variable subject', `v='hello world'; case $v in 'hello world') echo exact;; esac`, { posix: true }),
  t('case status from body', `case a in a) false;; esac; echo $?`, { posix: true }),
  t('and-or lists', `true && echo a || echo b; false && echo c || echo d; false || false && echo e; echo end`, { posix: true }),
  t('negation', `! true; echo $?; ! false; echo $?; ! { false; }; echo $?`, { posix: true }),
  t('brace group', `{ echo a; echo b; } ; { x=1; }; echo $x`, { posix: true }),
  t('brace group status', `{ true; false; }; echo $?`, { posix: true }),
  t('subshell group', `(echo in; exit 3); echo $?`, { posix: true }),
  t('select reads choices', `select x in red green blue; do echo "chose $x ($REPLY)"; break; done`, { stdin: '2\n' }),
  t('select invalid choice then EOF', `select x in a b; do echo "[$x] [$REPLY]"; done; echo end $?`, { stdin: '9\n' }),
  t('while read loop', `while read -r a b; do echo "$b-$a"; done`, { posix: true, stdin: '1 x\n2 y\n3 z\n' }),
  t('loop with redirected input', `while read -r l; do echo "+$l"; done < f`, { posix: true, files: { f: 'one\ntwo\n' } }),
  t('loop output redirected', `for i in 1 2 3; do echo $i; done > out; read -r x < out; echo first $x`, { posix: true }),
  t('nested loops and functions', `f() { for i in 1 2; do while :; do echo f$i; break; done; done; }; f; f`, { posix: true }),
  t('semicolons and newlines', `echo a; echo b
echo c;
if true
then
  echo d
fi`, { posix: true }),
  t('empty then with colon', `if true; then :; fi && echo ok`, { posix: true }),
  t('while condition with break', `while true; do echo once; break; done; echo after`, { posix: true }),
  t('case in a loop with break', `for w in a b stop c; do case $w in stop) break;; esac; echo $w; done`, { posix: true }),
  t('ampersand and wait', `{ echo bg; } & wait; echo fg`),
  t('background job status with wait', `(exit 7) & wait $!; echo $?`),
  t('time keyword with a fixed TIMEFORMAT', `TIMEFORMAT='timed'; time true; time false; echo status $?`),
]);

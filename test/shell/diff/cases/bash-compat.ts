// bash details the Oils spec tests found (decision 0034): associative-array
// order, quotes in arithmetic, declarations written by expansion, prefix
// assignments before local/eval, ulimit, the PATH hash table, exec -a,
// source's search, and smaller builtin statuses.
// (Scripts are JS template literals: \${ is ${, \\ is \, \` is a backquote.)
import { t, topic } from '../types.js';

export default topic('bash-compat', [
  // bash lists an associative array in its hash table's order, not insertion order.
  t('assoc order of keys and values', `declare -A A=([a]=1 [b]=2 [c]=3); echo "\${!A[@]}" "\${A[@]}"; declare -A B; for k in xx yy zz aa bb; do B[$k]=1; done; echo "\${!B[@]}"`),
  t('assoc order in declare -p and set', `declare -A A=([k1]=1 [k2]=2 [k10]=3 [k20]=4); declare -p A; set | grep '^A='`),
  t('assoc order after unset and re-add', `declare -A A=([a]=1 [b]=2 [c]=3); unset 'A[b]'; A[b]=9; A[a]=0; echo "\${!A[@]}" "\${A[@]}"`),
  t('assoc key/value list', `declare -A A=(1 2 3); declare -p A`),
  t('assoc slice counts from 1', `declare -A a=([xx]=1 [yy]=2 [zz]=3 [aa]=4 [bb]=5); echo \${a[@]:0:2} / \${a[@]:1:2} / \${a[@]:2:2}`),
  // $(( )) is expanded as if double-quoted: single quotes stay and are a syntax error.
  t('single quotes in arithmetic', `echo $(( '1' + 2 )); echo status=$?; for ((i = '3'; i < 5; i++)); do echo $i; done; echo status=$?`),
  t('double quotes in arithmetic', `echo $(( "1" + 2 )); for ((i = "3"; i < "5"; i++)); do echo $i; done`),
  t('quoted keys of an associative array in (( ))', `declare -A A; A['x']=42; key='\\\\'; (( A["$key"] = 7 )); (( y = A['x'] )); echo $y "\${A[$key]}"`),
  // (In a file: under -c bash abandons the whole string at this error.)
  t('quoted subscript of an indexed assignment', `printf '%s\\n' "a['2']=3" 'echo status=$? len=\${#a[@]}' 'a["1"]=2' 'echo status=$? len=\${#a[@]}' > s.sh; bash s.sh 2>/dev/null`),
  // A word that is an assignment only once expanded.
  t('declare name+=value by expansion', `x=_foo; f() { export NIX\${x}+=" -L$1"; }; f one; f two; declare -p NIX_foo; typeset s\${x}+=a; typeset s\${x}+=b; echo $s_foo`),
  t('declare -a with a quoted array literal', `declare -a 'xyz=(5 6)'; declare +a 'abc=(2 3)'; declare -A 'as=([a]=b [c]=d)'; argv() { printf '[%s]' "$@"; echo; }; argv "\${xyz[@]}" "$abc" "\${as[a]}" "\${as[c]}"`),
  t('declare -p with an assignment word', `a=b; declare -p a foo=bar; echo status=$?`),
  t('readonly -p and export -p with names set the attribute', `f() { local v=1; readonly -p v; export -p v; local -p v; }; f`),
  // Prefix assignments live in a scope of their own, below which local declares.
  t('prefix assignment before local', `f() { E=env local v=var; tmp= eval 'local w=w'; echo "[$E] $v $w"; }; f`),
  t('prefix assignment before unset of a local', `f() { local x=x; x=X unset x; echo "x=$x"; }; f`),
  t('array literal as a prefix assignment is its text', `A=a B=(b b) C=([k]=v) sh -c 'echo "$A|$B|$C"'`),
  t('$_ after declare', `declare s=bar; echo "[$_]"; declare a=(1 2); echo "[$_]"`),
  t('BASH_VERSION and BASH_VERSINFO', `echo "\${BASH_VERSION%%(*}" "\${BASH_VERSINFO[0]}.\${BASH_VERSINFO[1]}"; BASH_VERSINFO=1; echo status=$?`),
  // ulimit: the shell's own limits, with setrlimit's rules.
  t('ulimit set and show', `ulimit -f 100; ulimit -f; ulimit -S -f 50; ulimit -S -f; ulimit -H -f; ulimit 7; ulimit -f`),
  t('ulimit soft above hard is refused', `ulimit -t 100; ulimit -S -t 200; echo status=$?; ulimit -S -t 90; ulimit -t; ulimit -H -t`),
  t('ulimit bad values', `ulimit -f zz; echo status=$?; ulimit -f -- -42; echo status=$?; ulimit -f $(( (1 << 62) + 1 )); echo status=$?; ulimit -f $(( 1 << 53 )); ulimit -f`),
  t('ulimit bad option', `ulimit -f -42; echo status=$?`),
  t('ulimit -n 0 refuses a redirection', `(ulimit -n 0; echo hi > out); echo status=$?; (ulimit -n 64; echo hi > out); echo status=$?; cat out`),
  t('ulimit is inherited by a subshell, not given back', `(ulimit -f 10; ulimit -f; (ulimit -f)); ulimit -f`),
  // The PATH hash table.
  t('hash keeps the path found first', `mkdir -p one two; PATH="$PWD/one:$PWD/two:$PATH"; printf 'echo two\\n' > two/mycmd; chmod +x two/mycmd; mycmd; printf 'echo one\\n' > one/mycmd; chmod +x one/mycmd; mycmd; hash -r; mycmd`),
  t('hash lists and forgets', `hash; hash cat; hash | sed 's|/.*/|/|'; hash -t cat | sed 's|.*/||'; hash -d cat; hash; hash nosuchcmd_; echo status=$?`),
  t('a hashed program that is gone', `mkdir -p two; PATH="$PWD/two:$PATH"; printf 'echo two\\n' > two/mycmd; chmod +x two/mycmd; mycmd; rm two/mycmd; mycmd; echo status=$?`),
  // exec and source.
  t('exec -a names argv[0]', `exec -a FOOPROC sh -c 'echo $0'`),
  t('exec -- keeps redirections', `exec -- 3>&1; echo to3 >&3`),
  t('exec of a script without #!', `printf 'echo hello $BLAH\\n' > snork; chmod +x snork; BLAH=123 exec ./snork`),
  t('source from the current directory', `echo 'echo current dir' > cmd_; . cmd_; echo status=$?`),
  t('source on PATH skips directories', `mkdir -p d/hello.sh s; echo 'echo hi' > s/hello.sh; PATH="$PWD/d:$PWD/s:$PATH" . hello.sh; echo status=$?`),
  t('type -t of a file that is not executable', `touch nonexec; PATH="$PWD:$PATH"; type -t nonexec; command -v nonexec >/dev/null; echo status=$?`),
  t('a subshell lists its parent traps until it sets one', `trap 'echo bye' EXIT; ( trap ); echo "$(trap -p EXIT)"; trap | cat; ( trap 'echo in' INT; trap )`),
  t('trap with a bad option', `trap -1 EXIT; echo status=$?; trap -p EXIT`),
  t('printf %()T of 128 bytes or more is empty', `f=$(printf '%%Y%.0s' $(seq 31)); printf "%($f)T" 0 | wc -c; printf "%($f%%Y)T" 0 | wc -c`),
  t('1>&file writes to the file', `echo one 1>&out.txt; echo status=$?; cat out.txt`),
  // Smaller statuses.
  t('getopts with an invalid variable name', `set -- -c foo -h; getopts 'hc:' opt-; echo status=$? OPTARG=$OPTARG OPTIND=$OPTIND`),
  t('popd with a bad option on an empty stack', `popd -z; echo status=$?`),
  t('unset of a non-name and of an element of a scalar', `unset %; echo status=$?; x=5; unset -v 'x[1]'; echo status=$? x=$x; unset -v 'x[0]'; echo status=$? x=$x`),
  t('function names written with an expansion', `f$x() { echo; }; echo status=$?; 'g'() { echo; }; echo status=$?`),
  t('globskipdots off', `touch .env; shopt -u globskipdots; echo .*; GLOBIGNORE=.:..; echo .*`),
  t('POSIX mode: a readonly assignment ends the shell', `set -o posix; readonly x=1; x=2; echo not reached`),
  t('POSIX mode: a readonly assignment ends a script', `printf '%s\\n' 'set -o posix' 'readonly x=1' 'x=2' 'echo not reached' > p.sh; bash p.sh 2>/dev/null; echo status=$?`),
  t('a long option bash does not have', `bash --eval 'echo hi' 2>/dev/null; echo status=$?`),
]);

// read and mapfile/readarray.
// (Scripts are JS template literals: \${ is ${, \\ is \, \` is a backquote.)
import { t, topic } from '../types.js';

export const read = topic('builtins-read', [
  t('read one line', `read x; echo "[$x]"`, { posix: true, stdin: 'hello world\n' }),
  t('read splits into variables', `read a b c; echo "[$a][$b][$c]"`, { posix: true, stdin: 'one two three four\n' }),
  t('fewer words than variables', `read a b c; echo "[$a][$b][$c]"`, { posix: true, stdin: 'one\n' }),
  t('leading and trailing whitespace trimmed', `read x; echo "[$x]"`, { posix: true, stdin: '   padded   \n' }),
  t('IFS= keeps whitespace', `IFS= read x; echo "[$x]"`, { posix: true, stdin: '   padded   \n' }),
  t('backslash handling without -r', `read x; echo "[$x]"`, { stdin: 'a\\tb\\\\c\\\ncontinued\n' }),
  t('-r keeps backslashes', `read -r x; echo "[$x]"`, { stdin: 'a\\tb\\\n' }),
  t('REPLY default variable', `read; echo "[$REPLY]"`, { stdin: '  keep spaces  \n' }),
  t('EOF status', `read x; echo "status $? [$x]"; read y; echo "status $? [$y]"`, { posix: true, stdin: 'last-no-newline' }),
  t('empty input', `read x; echo "status $?"`, { posix: true }),
  t('custom IFS', `IFS=: read a b c; echo "$a|$b|$c"`, { posix: true, stdin: 'x:y:z:w\n' }),
  t('IFS with empty fields', `IFS=, read a b c; echo "[$a][$b][$c]"`, { posix: true, stdin: ',middle,\n' }),
  t('-a reads into an array', `read -a arr; echo \${#arr[@]} "\${arr[1]}"`, { stdin: 'x y z\n' }),
  t('-d sets the delimiter', `read -d , x; echo "[$x]"; read -d '' y; echo "[$y]"`, { stdin: 'first,rest of\ninput' }),
  t('-n reads a number of characters', `read -n 3 x; echo "[$x]"; read y; echo "[$y]"`, { stdin: 'abcdef\n' }),
  t('-N reads exactly', `read -N 4 x; echo "[$x]"`, { stdin: 'a\nbcdef\n' }),
  t('-p prompt is not shown without a terminal', `read -p 'prompt> ' x; echo "[$x]"`, { stdin: 'val\n' }),
  t('-s on a non-terminal', `read -s x; echo "[$x]"`, { stdin: 'secret\n' }),
  t('-u reads from a descriptor', `exec 3< f; read -u 3 x; echo "[$x]"`, { files: { f: 'from fd 3\n' } }),
  t('-t 0 on a regular file', `read -t 0 < f; echo $?; read -t 0 x < f; echo "[$x]"`, { files: { f: 'x\n' } }),
  t('read in a while loop counts lines', `n=0; while read -r l; do n=$((n+1)); done; echo $n`, { posix: true, stdin: 'a\nb\nc\n' }),
  t('read invalid option', `read -Q x; echo status $?`),
  t('read into an invalid name', `read 1x; echo status $?`),
  t('read last variable takes the rest', `read a b; echo "[$b]"`, { posix: true, stdin: 'a b  c   d  \n' }),
  t('read with a backslash-escaped IFS character', `read a b; echo "[$a][$b]"`, { posix: true, stdin: 'x\\ y z\n' }),
  t('read -r -a with custom IFS', `IFS=/ read -r -a parts; echo "\${#parts[@]}:\${parts[*]}"`, { stdin: '/usr/local/bin\n' }),
]);

export const mapfile = topic('builtins-mapfile', [
  t('mapfile lines', `mapfile arr; echo \${#arr[@]}; printf '<%s>' "\${arr[@]}"`, { stdin: 'a\nb\nc\n' }),
  t('-t strips newlines', `mapfile -t arr; printf '<%s>' "\${arr[@]}"; echo`, { stdin: 'a\nb\n\nc\n' }),
  t('readarray is mapfile', `readarray -t lines; echo "\${lines[1]}"`, { stdin: 'x\ny\n' }),
  t('MAPFILE default', `mapfile -t; echo "\${MAPFILE[*]}"`, { stdin: '1\n2\n' }),
  t('-n count', `mapfile -t -n 2 a; echo "\${a[*]}"`, { stdin: '1\n2\n3\n' }),
  t('-s skip', `mapfile -t -s 1 a; echo "\${a[*]}"`, { stdin: '1\n2\n3\n' }),
  t('-O origin', `a=(x y z); mapfile -t -O 1 a; declare -p a`, { stdin: 'n1\nn2\n' }),
  t('-d delimiter', `mapfile -t -d , a; declare -p a`, { stdin: 'p,q,r' }),
  t('from a file via redirect', `mapfile -t a < f; echo \${#a[@]} "\${a[-1]}"`, { files: { f: 'l1\nl2\nlast\n' } }),
  t('empty input gives empty array', `mapfile -t a; echo \${#a[@]}`),
  t('-C callback', `mapfile -t -C 'echo cb' -c 2 a; echo \${#a[@]}`, { stdin: 'a\nb\nc\nd\n' }),
  t('from process substitution', `mapfile -t a < <(printf '%s\\n' 3 2 1); echo "\${a[*]}"`),
]);

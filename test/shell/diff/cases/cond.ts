// [[ ]]: string and pattern matching, regexes and BASH_REMATCH, numeric and file tests, logic.
// (Scripts are JS template literals: \${ is ${, \\ is \, \` is a backquote.)
import { t, topic } from '../types.js';

/** Print the status of each conditional given. */
const st = (...tests: string[]) => tests.map((x) => `${x}; printf '%s ' $?`).join('; ') + '; echo';

export default topic('cond', [
  t('string equality and inequality', st(`[[ abc == abc ]]`, `[[ abc = abd ]]`, `[[ abc != abd ]]`)),
  t('pattern matching on the right', st(`[[ hello == h* ]]`, `[[ hello == h?llo ]]`, `[[ hello == [gh]ello ]]`, `[[ hello == *z* ]]`)),
  t('quoted pattern is literal', st(`[[ 'h*' == "h*" ]]`, `[[ hello == "h*" ]]`, `p='h*'; [[ hello == $p ]]`, `[[ hello == "$p" ]]`)),
  t('no word splitting or globbing', `x='a b'; [[ $x == 'a b' ]] && echo nosplit; [[ * == '*' ]] && echo noglob`, { files: { f: '' } }),
  t('empty and unset variables', st(`[[ -z $nope ]]`, `[[ -n $nope ]]`, `[[ $nope == '' ]]`, `[[ $nope ]]`)),
  t('string ordering', st(`[[ a < b ]]`, `[[ b < a ]]`, `[[ abc > abb ]]`)),
  t('numeric comparisons', st(`[[ 10 -gt 9 ]]`, `[[ 10 -lt 9 ]]`, `[[ 3 -eq 3 ]]`, `[[ 3 -ne 3 ]]`, `[[ 2 -le 2 ]]`, `[[ 1 -ge 2 ]]`)),
  t('arithmetic in numeric operands', `x=4; ${st(`[[ x+1 -eq 5 ]]`, `[[ 2*3 -gt x ]]`)}`),
  t('logical operators and grouping', st(`[[ a && b ]]`, `[[ -n a && -z a ]]`, `[[ -z a || a == a ]]`, `[[ ! -z a ]]`, `[[ ( a == b || c == c ) && d == d ]]`)),
  t('short-circuit evaluation', `[[ -n x || $(echo side-effect >&2) ]]; [[ -z x && $(echo nope >&2) ]]; echo done`),
  t('file operators', st(`[[ -e f ]]`, `[[ -f f ]]`, `[[ -d d ]]`, `[[ -s f ]]`, `[[ -e nope ]]`), { files: { f: 'x', 'd/g': '' } }),
  t('-v and -o', `x=1; set -u; ${st(`[[ -v x ]]`, `[[ -v nope ]]`, `[[ -o nounset ]]`, `[[ -o errexit ]]`)}`),
  t('regex match', st(`[[ abc123 =~ ^[a-z]+[0-9]+$ ]]`, `[[ abc =~ ^[0-9]+$ ]]`, `[[ x =~ . ]]`)),
  t('BASH_REMATCH groups', `[[ 'key=value' =~ ^([a-z]+)=(.*)$ ]] && echo "\${BASH_REMATCH[0]} | \${BASH_REMATCH[1]} | \${BASH_REMATCH[2]} | \${#BASH_REMATCH[@]}"`),
  t('BASH_REMATCH after a failed match', `[[ ab =~ (a)(b) ]]; [[ zz =~ (a) ]]; echo $? \${#BASH_REMATCH[@]}`),
  t('regex from a variable', `re='^([0-9]+)\\.([0-9]+)$'; [[ 3.14 =~ $re ]] && echo "\${BASH_REMATCH[2]}.\${BASH_REMATCH[1]}"`),
  t('quoted regex is literal', st(`[[ a.c =~ "a.c" ]]`, `[[ abc =~ "a.c" ]]`, `[[ abc =~ a"."c ]]`, `[[ a.c =~ a"."c ]]`)),
  t('regex with optional and alternation groups', `[[ foo =~ (x)?(foo|bar) ]] && printf '[%s]' "\${BASH_REMATCH[@]}"; echo`),
  t('regex special characters', `[[ 'a b' =~ a\\ b ]] && echo escaped-space; [[ 'a+b' =~ a\\+b ]] && echo escaped-plus; [[ '(x)' =~ \\(x\\) ]] && echo parens`),
  t('invalid regex', `[[ a =~ ( ]]; echo status $?`),
  t('regex character classes', `[[ 'ab12' =~ ^[[:alpha:]]+([[:digit:]]+)$ ]] && echo "\${BASH_REMATCH[1]}"`),
  t('regex is unanchored by default', st(`[[ xxabcxx =~ abc ]]`, `[[ abc =~ ^b ]]`)),
  t('extglob in [[ ]]', st(`[[ foo.txt == @(*.txt|*.md) ]]`, `[[ foo.c == !(*.txt) ]]`, `[[ aaa == +(a) ]]`)),
  t('nocasematch affects == and =~', `shopt -s nocasematch; ${st(`[[ ABC == abc ]]`, `[[ ABC =~ ^abc$ ]]`)}`),
  t('conditional with command substitution', `[[ $(echo yes) == yes ]] && echo subst-ok`),
  t('multiline conditional', `[[ a == a &&\n   b == b ]] && echo multiline`),
  t('-eq with a non-numeric operand', `[[ abc -eq 0 ]]; echo status $?; [[ 1x -eq 1 ]]; echo status $?`),
  t('string equality with =', st(`[[ x = x ]]`, `[[ x = y ]]`)),
  t('tilde and parameter expansion inside', `h=$HOME; [[ ~ == "$h" ]] && echo tilde-ok; [[ ~/x == "$h/x" ]] && echo tilde-path`),
  t('conditional syntax error', `[[ a == ]]; echo status $?`),
  t('conditional unexpected token', `[[ a b ]]; echo after`),
  t('file comparison operators', st(`[[ f -ef f ]]`, `[[ f -nt nope ]]`, `[[ nope -ot f ]]`), { files: { f: '' } }),
  t('-a and -o are file and option tests', st(`[[ -a f ]]`, `[[ -o nosuchopt ]]`), { files: { f: '' } }),
  t('status of a conditional in an if', `if [[ 1 -lt 2 && abc == a* ]]; then echo both; fi`),
]);

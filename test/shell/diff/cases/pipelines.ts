// Pipelines: data flow, exit status, negation, pipefail, PIPESTATUS, lastpipe.
// (Scripts are JS template literals: \${ is ${, \\ is \, \` is a backquote.)
import { t, topic } from '../types.js';

export default topic('pipelines', [
  t('simple pipeline', `echo hello | { read -r x; echo "got $x"; }`, { posix: true }),
  t('three stages', `printf 'a\\nb\\nc\\n' | while read -r l; do echo "<$l>"; done | while read -r l; do echo "$l!"; done`, { posix: true }),
  t('status is the last command', `false | true; echo $?; true | false; echo $?`, { posix: true }),
  t('negated pipeline', `! true | false; echo $?; ! false | true; echo $?`, { posix: true }),
  t('pipefail', `set -o pipefail; false | true; echo $?; true | true; echo $?; (exit 3) | (exit 4) | true; echo $?`),
  t('pipefail off by default', `false | true; echo $?`),
  t('PIPESTATUS', `true | false | (exit 5); echo "\${PIPESTATUS[@]}"; echo \${#PIPESTATUS[@]}`),
  t('PIPESTATUS of a single command', `(exit 9); echo "\${PIPESTATUS[@]}"; true; echo "\${PIPESTATUS[0]}"`),
  t('PIPESTATUS assigned, extended or unset is reset by the next command',
    `true; PIPESTATUS=7; echo "\${PIPESTATUS[@]}"; true; echo "\${PIPESTATUS[@]}"; true; PIPESTATUS[1]=x; true; echo "\${PIPESTATUS[@]}"\n`
    + `unset PIPESTATUS; true; echo "\${PIPESTATUS[@]}"; false | true; true; echo "\${PIPESTATUS[@]}" \${#PIPESTATUS[@]}`),
  t('variables set in a pipeline do not leak', `x=before; echo v | read -r x; echo $x; echo z | { y=inner; }; echo "[$y]"`),
  t('lastpipe keeps the last stage in the shell', `shopt -s lastpipe; echo v | read -r x; echo $x`),
  t('pipeline into a function', `upper() { while read -r l; do echo "\${l^^}"; done; }; printf 'ab\\ncd\\n' | upper`),
  t('pipeline from a loop', `for i in 3 1 2; do echo $i; done | while read -r n; do echo $((n*10)); done`, { posix: true }),
  t('stderr is not piped', `{ echo out; echo err >&2; } | while read -r l; do echo "piped:$l"; done`, { posix: true }),
  t('pipe with |& includes stderr', `{ echo err >&2; } |& { read -r l; echo "got:$l"; }`),
  t('pipeline with a subshell stage', `(echo a; echo b) | (read -r x; read -r y; echo "$y$x")`, { posix: true }),
  t('early exit of the reader', `{ echo 1; echo 2; echo 3; } | { read -r x; echo "only $x"; }`, { posix: true }),
  t('large data through a pipe', `i=0; while [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done | { n=0; while read -r l; do n=$((n+1)); done; echo $n; }`, { posix: true }),
  t('pipeline in a condition', `if echo x | read -r y; then echo read-ok; fi; if echo | false; then :; else echo false-last; fi`),
  t('time-less pipeline in and-or list', `echo a | read -r _ && echo yes || echo no`, { posix: true }),
  t('pipeline with builtins on both sides', `printf '%s\\n' c b a | { mapfile -t arr; echo "\${arr[2]}\${arr[1]}\${arr[0]}"; }`),
  t('a stage expands its words in its own process, once', `x=1; env echo $((x++)) | cat; echo $x; true | env echo \${y:=set} | cat; echo "y=$y"; echo $((x++)) | cat; echo $x`),
  t('a background command expands its words in the child, once', `x=1; echo $((x++)) & wait; env echo $((x++)) & wait; echo $x; env echo \${z:=v} >/dev/null & wait; echo "z=$z"`),
  t('a command substitution in a stage runs once', `f=$(mktemp); env echo $(echo x >> "$f") | cat; echo $(echo y >> "$f") | cat; wc -l < "$f"; rm -f "$f"`),
  t('set -u in a stage or a background command ends only that process, with status 127',
    `set -u; env echo $nope | cat; echo "\${PIPESTATUS[@]}"; echo $nope | cat; echo "\${PIPESTATUS[@]}"; env echo $nope & wait $!; echo "bg $?"; `
    + `{ echo $nope; } 2>/dev/null | cat; echo "group \${PIPESTATUS[@]}"; echo end`),
  t('exit inside a pipeline stage does not exit the shell', `echo x | exit 3; echo still here $?`, { posix: true }),
  t('pipeline newline continuation', `echo a |\n{ read -r x; echo "[$x]"; }`, { posix: true }),
  t('pipeline status with pipefail and negation', `set -o pipefail; ! false | true; echo $?`),
  t('pipe into cat', `echo through-cat | cat`, { posix: true, needs: ['cat'] }),
]);

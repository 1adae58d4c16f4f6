// Here-documents: expansion, quoted delimiters, <<-, several per line, in
// loops and functions. Bodies are read with `read`/`while read` (no cat).
// (Scripts are JS template literals: \${ is ${, \\ is \, \` is a backquote.)
import { t, topic } from '../types.js';

const dump = `while IFS= read -r l; do printf '[%s]\\n' "$l"; done`;

export default topic('heredoc', [
  t('simple here-document', `${dump} <<EOF\nline 1\n  line 2\nEOF`, { posix: true }),
  t('parameter expansion in body', `x=world; ${dump} <<EOF\nhello $x\n\${x}!\nEOF`, { posix: true }),
  t('command and arithmetic substitution in body', `${dump} <<EOF\n$(echo sub) $((6*7)) \`echo bq\`\nEOF`, { posix: true }),
  t('quoted delimiter disables expansion', `x=v; ${dump} <<'EOF'\n$x $(echo no) \\$ \\\\\nEOF`, { posix: true }),
  t('partly quoted delimiter', `x=v; ${dump} <<E"O"F\n$x\nEOF`, { posix: true }),
  t('backslash-quoted delimiter', `x=v; ${dump} <<\\EOF\n$x\nEOF`, { posix: true }),
  t('backslashes in an unquoted body', `${dump} <<EOF\na\\$b \\\\ \\" \\x\nEOF`, { posix: true }),
  t('backslash-newline in an unquoted body', `${dump} <<EOF\nab\\\ncd\nEOF`, { posix: true }),
  t('double quotes are literal in the body', `x=1; ${dump} <<EOF\n"$x" '$x'\nEOF`, { posix: true }),
  t('dash strips leading tabs', `${dump} <<-EOF\n\tindented\n\t\tmore\n  spaces kept\n\tEOF`, { posix: true }),
  t('two here-documents on one line', `${dump} <<A; ${dump} <<B\nfirst\nA\nsecond\nB`, { posix: true }),
  t('here-document to a specific descriptor', `{ read -r a <&3; echo "fd3: $a"; } 3<<EOF\nthree\nEOF`, { posix: true }),
  t('here-document in a function', `f() {\n${dump} <<EOF\narg=$1\nEOF\n}\nf one; f two`, { posix: true }),
  t('here-document in a loop', `for i in 1 2; do\n  read -r l <<EOF\nvalue $i\nEOF\n  echo "$l"\ndone`, { posix: true }),
  t('here-document feeding a pipeline', `${dump} <<EOF | while read -r l; do echo "piped $l"; done\na\nb\nEOF`, { posix: true }),
  t('empty here-document', `${dump} <<EOF\nEOF\necho status $?`, { posix: true }),
  t('delimiter must match a whole line', `${dump} <<EOF\n EOF\nEOF \nEOFX\nEOF`, { posix: true }),
  t('here-document at end of input warns', `${dump} <<EOF\nunterminated`),
  t('here-document with read -d', `read -r -d '' v <<'EOF'\nmulti\nline\nEOF\nprintf '%s|' "$v"; echo`),
  t('here-document body with special characters', `${dump} <<'EOF'\n* ? [a] {b,c} ~ ; & | < >\nEOF`, { posix: true, files: { a: '' } }),
  t('here-document after a command substitution in the same line', `x=$(echo pre); ${dump} <<EOF\n$x body\nEOF`, { posix: true }),
  t('here-document inside command substitution', `x=$(${dump} <<EOF\ninside\nEOF\n); echo "$x"`, { posix: true }),
  t('here-document with positional parameters', `set -- a b; ${dump} <<EOF\n$# $1 $2 $@\nEOF`, { posix: true }),
  t('here-document with unset variable and set -u', `set -u; ${dump} <<EOF\n$nope\nEOF\necho after`),
  t('long here-document', `n=0; while read -r l; do n=$((n+1)); done <<EOF\n${Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n')}\nEOF\necho $n`, { posix: true }),
]);

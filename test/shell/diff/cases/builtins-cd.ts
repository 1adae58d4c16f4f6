// cd, pwd, PWD/OLDPWD, CDPATH, pushd/popd/dirs. Every case runs in a
// directory with the same absolute path on the host and in the VM.
// (Scripts are JS template literals: \${ is ${, \\ is \, \` is a backquote.)
import { t, topic } from '../types.js';

const dirs = { 'a/b/c/.keep': '', 'x/.keep': '', '~/hd/.keep': '' };

export default topic('builtins-cd', [
  t('cd and pwd', `here=$(pwd); cd a/b; p=$(pwd); echo "\${p#"$here"}"`, { posix: true, files: dirs }),
  t('PWD and OLDPWD', `here=$PWD; cd a; echo "\${PWD#"$here"} \${OLDPWD#"$here"}x"`, { posix: true, files: dirs }),
  t('cd - goes back and prints', `here=$PWD; cd a/b; cd - > "$here/out"; read -r l < "$here/out"; [ "$l" = "$here" ] && echo printed-old; [ "$PWD" = "$here" ] && echo back`, { posix: true, files: dirs }),
  t('cd with no arguments goes home', `cd; [ "$PWD" = "$HOME" ] && echo home`, { posix: true, files: dirs }),
  t('cd to a missing directory', `cd nope; echo status $?`, { files: dirs }),
  t('cd to a file', `cd a/b/c/.keep; echo status $?`, { files: dirs }),
  t('cd with too many arguments', `cd a x; echo status $?`, { files: dirs }),
  t('cd .. and dot components', `here=$PWD; cd a/b/../b/./c/..; echo "\${PWD#"$here"}"`, { posix: true, files: dirs }),
  t('cd / and pwd', `cd /; pwd; cd //; pwd; cd ///; pwd`, { posix: true }),
  t('CDPATH search prints the directory', `here=$PWD; CDPATH=$here/a; cd b > "$here/out"; read -r l < "$here/out"; echo "\${l#"$here"}"; echo "\${PWD#"$here"}"`, { posix: true, files: dirs }),
  t('cd with HOME unset', `unset HOME; cd; echo status $?`, { files: dirs }),
  t('cd with OLDPWD unset', `unset OLDPWD; cd -; echo status $?`, { files: dirs }),
  t('pwd -P and -L without symlinks', `cd a; [ "$(pwd -P)" = "$(pwd -L)" ] && echo same`, { posix: true, files: dirs }),
  t('cd into home via tilde', `cd ~/hd && [ "$PWD" = "$HOME/hd" ] && echo ok`, { files: dirs }),
  t('cd updates PWD in a child', `cd a; bash -c 'echo "\${PWD##*/}"'`, { files: dirs }),
  t('pwd with a bad option', `pwd -z; echo status $?`),
]);

export const pushd = topic('builtins-pushd', [
  t('pushd and popd', `cd /; pushd /tmp > /dev/null; pwd; popd > /dev/null; pwd`),
  t('dirs output with home abbreviation', `cd ~/hd; dirs; pushd / ; pushd ~ ; dirs -v; dirs -p`, { files: dirs }),
  t('pushd without arguments swaps', `cd /; pushd /tmp >/dev/null; pushd > /dev/null; pwd; dirs -l | { read -r a b; echo "$a $b"; }`),
  t('popd with an empty stack', `popd; echo status $?`),
  t('pushd to a missing directory', `pushd /nonexistent-dir-xyz; echo status $?`),
  t('dirs -c clears the stack', `cd /; pushd /tmp > /dev/null; dirs -c; dirs`),
  t('pushd +N rotates', `cd /; pushd /tmp >/dev/null; pushd /usr >/dev/null; pushd +1; popd +0 >/dev/null; dirs`),
  t('DIRSTACK array', `cd /; pushd /tmp >/dev/null; echo "\${DIRSTACK[@]}" \${#DIRSTACK[@]}`),
  t('popd -n keeps the directory', `cd /; pushd /tmp >/dev/null; pushd /usr >/dev/null; popd -n >/dev/null; pwd; dirs`),
  t('pushd -n does not change directory', `cd /; pushd -n /tmp >/dev/null; pwd; dirs`),
]);

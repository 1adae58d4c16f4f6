// Commands that run commands (timeout, nohup), look them up (which) or report on the
// session (tty, pwd).
import { family, u } from '../types.js';

export const timeout = family('timeout', [
  u('command finishes first', 'timeout 5 echo hi; echo "status $?"'),
  u('passes exit status', 'timeout 5 sh -c "exit 3"; echo "status $?"'),
  u('times out with 124', 'timeout 0.3 sleep 5; echo "status $?"'),
  u('suffix s', 'timeout 0.2s sleep 5; echo "status $?"'),
  u('preserve status', 'timeout --preserve-status 0.2 sleep 5; echo "status $?"'),
  u('-s INT', 'timeout -s INT 0.2 sleep 5; echo "status $?"'),
  u('-s 9 kills timeout too', '(timeout -s 9 0.2 sleep 5) 2>/dev/null; echo "status $?"', { stderr: 'ignore' }),
  // The TERM comes after 1 s, so a loaded machine still has the trap set first;
  // bash reports the kill with a pid, hence stderr ignored.
  u('-k after TERM ignored', 'timeout -k 0.3 1 sh -c \'trap "" TERM; sleep 5\'; echo "status $?"', { stderr: 'ignore' }),
  u('zero duration disables', 'timeout 0 sh -c "echo ran"; echo "status $?"'),
  u('command not found', 'timeout 1 no-such-command; echo "status $?"'),
  u('not executable', 'echo x > f; chmod -x f; timeout 1 ./f; echo "status $?"'),
  u('invalid duration', 'timeout x sleep 1; echo "status $?"'),
  u('missing command', 'timeout 1; echo "status $?"'),
  u('no operands', 'timeout; echo "status $?"'),
  u('invalid signal', 'timeout -s NOPE 1 true; echo "status $?"'),
  u('stdin passes through', 'printf "a\\nb\\n" | timeout 5 cat'),
  u('options after command are its own', 'timeout 5 ls -d .'),
  u('pipeline output', 'timeout 5 seq 3 | tail -n 1'),
]);

export const nohup = family('nohup', [
  u('stdout not a terminal passes through', 'nohup echo hello; echo "status $?"; ls nohup.out 2>&1'),
  u('exit status passes', 'nohup sh -c "exit 4"; echo "status $?"'),
  u('missing operand', 'nohup; echo "status $?"'),
  u('not found', 'nohup no-such-command; echo "status $?"'),
  u('hangup ignored', 'nohup sh -c "kill -HUP \\$\\$; echo survived"'),
]);

export const which = family('which', [
  u('finds sh', 'which sh >/dev/null; echo "status $?"'),
  u('path output', 'mkdir bin; printf "#!/bin/sh\\n" > bin/tool; chmod +x bin/tool; PATH=$PWD/bin:$PATH which tool | sed "s#$PWD#DIR#"'),
  u('-a all matches', 'mkdir a b; for d in a b; do printf "#!/bin/sh\\n" > $d/t; chmod +x $d/t; done; PATH=$PWD/a:$PWD/b which -a t | sed "s#$PWD#DIR#"'),
  u('first only without -a', 'mkdir a b; for d in a b; do printf "#!/bin/sh\\n" > $d/t; chmod +x $d/t; done; PATH=$PWD/a:$PWD/b which t | sed "s#$PWD#DIR#"'),
  u('not executable skipped', 'mkdir a; echo x > a/t; PATH=$PWD/a which t; echo "status $?"'),
  u('missing name', 'which no-such-command-xyz; echo "status $?"'),
  u('some missing', 'which sh no-such-command-xyz >/dev/null; echo "status $?"'),
  u('no arguments', 'which; echo "status $?"'),
  u('path with slash', 'printf "#!/bin/sh\\n" > t; chmod +x t; which ./t; echo "status $?"; which ./nope; echo "status $?"'),
  u('directory not matched', 'mkdir -p a/t; PATH=$PWD/a which t; echo "status $?"'),
  u('empty PATH element is cwd', 'printf "#!/bin/sh\\n" > t; chmod +x t; PATH=/nonexistent: which t'),
  u('invalid option', 'which -x ls | sed "s#: .*/which#: which#"; echo "status ${PIPESTATUS[0]}"'), // $0 is the install path
]);

export const tty = family('tty', [
  u('not a tty', 'tty < /dev/null; echo "status $?"'),
  u('-s silent', 'tty -s < /dev/null; echo "status $?"'),
  u('pipe stdin', 'echo | tty; echo "status $?"'),
  u('extra operand', 'tty x; echo "status $?"'),
  u('invalid option', 'tty -q; echo "status $?"'),
]);

export const pwd = family('pwd', [
  u('physical default', 'mkdir -p real/sub; ln -s real/sub link; cd link; env pwd | sed "s#$HOME#H#"'),
  u('-P', 'mkdir -p real; ln -s real link; cd link; env pwd -P | sed "s#$HOME#H#"'),
  u('-L uses PWD', 'mkdir -p real; ln -s real link; cd link; env pwd -L | sed "s#$HOME#H#"'),
  u('-L with stale PWD', 'mkdir real; cd real; PWD=/ env pwd -L | sed "s#$HOME#H#"'),
  u('-L then -P', 'mkdir -p real; ln -s real link; cd link; env pwd -L -P | sed "s#$HOME#H#"'),
  u('operands ignored', 'env pwd extra | sed "s#$HOME#H#"; echo "status $?"'),
  u('invalid option', 'env pwd -x; echo "status $?"'),
]);

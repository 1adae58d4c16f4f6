// Subshells and command substitution: isolation of variables, cwd, options,
// traps and functions; exit statuses; $BASH_SUBSHELL; nesting.
// (Scripts are JS template literals: \${ is ${, \\ is \, \` is a backquote.)
import { t, topic } from '../types.js';

export default topic('subshells', [
  t('subshell variables do not leak', `x=1; (x=2; echo in $x); echo out $x`, { posix: true }),
  t('subshell cd does not leak', `(cd / && pwd); [ "$PWD" = "$(pwd)" ] && echo same`, { posix: true }),
  t('subshell exit status', `(exit 42); echo $?; (false); echo $?; (true); echo $?`, { posix: true }),
  t('exit in a subshell does not exit the shell', `(exit 1); echo still; (echo a; exit 0; echo b)`, { posix: true }),
  t('command substitution variables do not leak', `x=1; y=$(x=2; echo $x); echo $x $y`, { posix: true }),
  t('command substitution sees the shell variables', `a=vis; f() { echo fn; }; echo $(echo $a; f)`, { posix: true }),
  t('command substitution status in assignment', `x=$(false); echo $?; x=$(exit 7) y=2; echo $?`, { posix: true }),
  t('command substitution status with a command', `echo $(exit 3); echo $?`, { posix: true }),
  t('nested subshells', `(x=1; (x=2; (echo $x)); echo $x)`, { posix: true }),
  t('BASH_SUBSHELL', `echo $BASH_SUBSHELL; (echo $BASH_SUBSHELL; (echo $BASH_SUBSHELL)); echo $(echo $BASH_SUBSHELL)`),
  t('set options are inherited but do not leak', `(set -f; echo $-); echo $-`),
  t('functions defined in a subshell do not leak', `(f() { echo f; }; f); f 2>/dev/null; echo $?`),
  t('traps are reset in a subshell', `trap 'echo parent-exit' EXIT; (echo child); echo end`),
  // A child shell gets its command as printed text: its lines must still be the script's.
  t('LINENO in a group piped', `true\n{ echo $LINENO; } | cat\n{ echo a\necho $LINENO; } | cat`),
  t('LINENO in a subshell and a loop piped', `true\n( echo $LINENO ) | cat\nwhile true; do echo $LINENO; break; done | cat`),
  t('LINENO in a background group', `true\n\n{ echo $LINENO; } &\nwait`),
  // (bash -c names no line in these messages; a script file does.)
  t('error line in a piped group', `bash s; bash s2`, {
    files: { s: 'set -u\ntrue\n{ echo $nope; } | cat\n{ true\n\necho $nope2; } | cat\n', s2: 'true\n{ echo a\ncd /nonexist; } | cat\n' },
  }),
  t('function lines in a child shell', `f() {\n  echo "f $LINENO \${BASH_LINENO[0]} \${FUNCNAME[0]}"\n}\n\n{ f; } | cat\n( :\nf ) | cat`),
  t('set -x lines in a piped group', `true\n{ set -x; echo a\n: $LINENO; } 2>&1 | cat`),
  t('ERR trap line in a piped group', `set -E\ntrap 'echo trap $LINENO' ERR\n{ false\n:; } | cat`),
  // State past the syscall channel crosses in a file: the lines go with it.
  t('LINENO in a piped group with a big state', `x=$(printf '%300000s' a)\n{ echo \${#x} $LINENO; } | cat`),
  t('LINENO after a here-document in a piped group', `true\n{ cat <<EOF\nhello\nEOF\necho $LINENO; } | cat\necho $LINENO`),
  t('trap set in a subshell runs at its exit', `(trap 'echo sub-exit' EXIT; echo body); echo after`),
  t('exported variables reach a child shell', `export A=exported; B=local; bash -c 'echo "[$A][$B]"'`),
  t('assignment prefix exports for one command', `V=once bash -c 'echo $V'; echo "[$V]"`),
  t('a non-interactive login shell reads ~/.profile', `mkdir h && echo 'echo from-profile; P=set' > h/.profile && HOME=$PWD/h bash -l -c 'echo "body [$P]"'; HOME=$PWD/h bash --noprofile -l -c 'echo "quiet [$P]"'; HOME=$PWD/h bash -c 'echo "plain [$P]"'`),
  t('printenv sees exported variables', `export ZZ=from-shell; printenv ZZ; unset ZZ; printenv ZZ; echo $?`),
  t('env with an assignment', `env QQ=1 printenv QQ`),
  t('subshell inherits positional parameters', `set -- a b; (echo $# $2)`, { posix: true }),
  t('pipeline stages are subshells', `n=0; echo x | n=5; echo $n; { n=6; } | true; echo $n`),
  t('$$ is the parent pid in a subshell', `p=$$; (q=$$; [ "$p" = "$q" ] && echo same-pid)`, { posix: true }),
  t('BASHPID differs in a subshell', `p=$BASHPID; (q=$BASHPID; [ "$p" != "$q" ] && echo differs)`),
  t('command substitution with a trailing subshell status', `x=$( (exit 2) ); echo $?`, { posix: true }),
  t('readonly in a subshell is local to it', `(readonly R=1); R=2; echo $R`),
  t('subshell output order', `echo 1; (echo 2); echo 3; $(echo echo 4)`, { posix: true }),
  t('command substitution of a builtin with a redirect', `x=$(echo err >&2; echo out); echo "[$x]"`, { posix: true }),
  t('unset in a subshell', `v=1; (unset v; echo "[\${v-unset}]"); echo $v`, { posix: true }),
  t('background subshell with wait', `(echo bg-start) & wait; echo after-wait`),
  t('subshell with set -e failing command', `(set -e; false; echo not-here); echo status $?`, { posix: true }),
  t('SHLVL in child shells', `echo $SHLVL; bash -c 'echo $SHLVL'; bash -c 'bash -c "echo \\$SHLVL"; true'; b=$(bash -c 'echo $SHLVL'); echo $b`),
  t('umask is inherited and isolated', `umask 027; (umask 077; umask); umask`, { posix: true }),
]);

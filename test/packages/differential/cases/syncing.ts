// Named pipes and syncing: mkfifo, sync. sync's effect (durability) cannot be seen from a
// script, so its cases compare statuses and errors; mkfifo's compare the nodes made.
import { family, u } from '../types.js';

export const mkfifo = family('mkfifo', [
  u('makes a fifo', 'mkfifo p; stat -c "%F %a" p'),
  u('several names', 'mkfifo p q; stat -c "%n %F" p q'),
  u('-m octal', 'mkfifo -m 600 p; stat -c "%a" p; mkfifo --mode=0640 q; stat -c "%a" q'),
  u('-m symbolic', 'mkfifo -m u=rw,go=r p; stat -c "%a" p; mkfifo -m a-w q; stat -c "%a" q'),
  u('-m ignores the umask', 'umask 077; mkfifo -m 666 p; stat -c "%a" p'),
  u('umask applies without -m', 'umask 027; mkfifo p; stat -c "%a" p'),
  u('data passes through', 'mkfifo p; (echo through > p) & cat p; wait; stat -c %F p'),
  u('exists', 'mkfifo p; mkfifo p; echo "status $?"'),
  u('exists, others still made', 'touch f; mkfifo f g; echo "status $?"; stat -c "%n %F" f g'),
  u('missing directory', 'mkfifo nodir/p; echo "status $?"'),
  u('invalid mode', 'mkfifo -m abc p; echo "status $?"; ls'),
  u('mode beyond permissions', 'mkfifo -m 4755 p; echo "status $?"; ls'),
  u('missing operand', 'mkfifo; echo "status $?"'),
]);

export const sync = family('sync', [
  u('no operand', 'sync; echo "status $?"'),
  u('files', 'echo a > f; echo b > g; sync f g; echo "status $?"'),
  u('-d file', 'echo a > f; sync -d f; echo "status $?"; sync --data f; echo "status $?"'),
  u('-f file', 'echo a > f; sync -f f; echo "status $?"; sync --file-system .; echo "status $?"'),
  u('directory', 'mkdir d; sync d; echo "status $?"'),
  u('missing file', 'echo a > f; sync nope f; echo "status $?"'),
  u('-d needs a file', 'sync -d; echo "status $?"'),
  u('-d with -f', 'sync -d -f f; echo "status $?"'),
  u('bad option', 'sync -x; echo "status $?"'),
]);

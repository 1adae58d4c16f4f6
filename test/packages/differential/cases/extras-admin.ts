// chown, install, groups, stty, and tail's follow options (their errors and
// warnings; following itself is in test/packages/coreutils/extras.test.ts).
// Both sides run as root. Owners are compared by number, or by names the host's
// and agentOS's /etc files share (root, nobody, nogroup, users); ids such as
// 4242 have no name on either side.
import { family, u } from '../types.js';

const TREE = 'touch f g; mkdir -p d/e; touch d/e/h; ln -s f l; ln -s nowhere dl; ';
const OWNERS = '; echo "status $?"; stat -c "%u:%g %n" f g d d/e d/e/h; stat -c "%u:%g %n" l dl';

export const chown = family('chown', [
  u('numeric user -v', `${TREE}chown -v 65534 f; chown -v 65534 f${OWNERS}`),
  u(':group', `${TREE}chown -v :100 f${OWNERS}`),
  u('user:group numbers', `${TREE}chown -v 4242:4243 f${OWNERS}`),
  u('names', `${TREE}chown -v nobody:nogroup f; chown -c root:root f g${OWNERS}`),
  u('OWNER: login group', `${TREE}chown -v nobody: f${OWNERS}`),
  u('OWNER.GROUP warns', `${TREE}chown -v 4242.4243 f${OWNERS}`),
  u('+N is numeric', `${TREE}chown -v :+7777 f; chown +5 g${OWNERS}`),
  u('-R', `${TREE}chown -R 4242:4243 d${OWNERS}`),
  u('-R -c', `${TREE}chown -Rc 4242 d/e${OWNERS}`),
  u('symlink: referent by default', `${TREE}chown 4242 l${OWNERS}`),
  u('-h: the link itself', `${TREE}chown -h 4242 l; chown -h 4243 dl${OWNERS}`),
  u('-R does not follow', `${TREE}chown -R 4242 l${OWNERS}`),
  u('-R -H follows operands', `${TREE}chown -R -H 4242 l${OWNERS}`),
  u('--from', `${TREE}chown -v --from=0 4242 f g; chown -v --from=7 5 f${OWNERS}`),
  u('--reference', `${TREE}chown 4242:4243 d/e/h; chown --reference=d/e/h g${OWNERS}`),
  u('empty and colon specs', `${TREE}chown "" f; chown -v "" f; chown -v : f${OWNERS}`),
  u('dangling link', `${TREE}chown 4242 dl${OWNERS}`),
  u('invalid user/group', `${TREE}chown nope f; chown :nope f; chown nope:nope f; chown 1:2:3 f; chown 4242: f${OWNERS}`),
  u('missing operands', 'chown; chown x; echo "status $?"'),
  u('missing file', 'chown 0 nofile; chown -f 0 nofile; echo "status $?"'),
  u('bad reference', 'touch f; chown --reference=nope f; echo "status $?"'),
  u('-R --dereference', 'mkdir d; chown --dereference -R 0 d; echo "status $?"'),
]);

const FILES = { 'a': 'hello\n', 'b': 'bee\n', 'dir/': '' };
const LIST = '; echo "status $?"; find . | sort | while read f; do stat -c "%a %F %n" "$f"; done';

export const install = family('install', [
  u('default mode 755', `install a b${LIST}`, { files: FILES }),
  u('-m 644', `install -m 644 a c${LIST}`, { files: FILES }),
  u('symbolic -m', `install -m u+x a f; install -m +w a g${LIST}`, { files: FILES }),
  u('-v', `install -v a d; install -v a d${LIST}`, { files: FILES }),
  u('-d -v', `install -d -v x/y/z${LIST}`, { files: FILES }),
  u('-d -m applies to the last', `install -d -m 700 m/n${LIST}`, { files: FILES }),
  u('-D', `install -D -v a p/q/r${LIST}`, { files: FILES }),
  u('-t', `install -v -t dir a b${LIST}`, { files: FILES }),
  u('-D -t', `install -Dv -t t/u a b${LIST}`, { files: FILES }),
  u('into a directory', `install a b dir; install -v a dir${LIST}`, { files: FILES }),
  u('-C keeps an identical file', 'install -C a b2; touch -d 2001-01-01 b2; install -C a b2; stat -c %Y b2; install -Cv -m 600 a b2; stat -c %a b2', { files: FILES }),
  u('-p', 'touch -d "2010-05-06 07:08:09" a; install -p a pp; stat -c %Y pp', { files: FILES }),
  u('-o -g', `install -o nobody -g 100 a own; stat -c "%u:%g" own${LIST}`, { files: FILES }),
  u('-T', `install -T a dir${LIST}`, { files: FILES }),
  u('errors', `install nope x; install dir y; install a a; install -d a; install -m 999 a e${LIST}`, { files: FILES }),
  u('operands', 'install; install a; install -d; install a b c; install -t nodir a; install -t a b; echo "status $?"', { files: FILES }),
  u('bad owner', 'install -o nobodyx a own; install -g nogrp a own; echo "status $?"', { files: FILES }),
  u('cannot create', 'install a nodir/x; install -D a nd/x/; echo "status $?"', { files: FILES }),
]);

export const groups = family('groups', [
  u('current process', 'groups'),
  u('users', 'groups root nobody'),
  u('unknown user', 'groups nope root; echo "status $?"'),
]);

export const stty = family('stty', [
  u('no terminal', 'stty </dev/null; echo "status $?"'),
  u('-a -g size speed', 'stty -a </dev/null; stty -g </dev/null; stty size </dev/null; stty speed </dev/null; echo "status $?"'),
  u('settings need a terminal', 'stty raw -echo </dev/null; stty cols 80 </dev/null; stty 9600 </dev/null; echo "status $?"'),
  u('from a pipe and a file', 'echo | stty; echo "status $?"; echo x > f; stty < f; echo "status $?"'),
  u('-F', 'stty -F /dev/null; stty -F nope; stty --file=/dev/null -a; stty -F /dev/null -F /dev/zero; echo "status $?"'),
  u('invalid argument first', 'stty foo </dev/null; stty -x </dev/null; stty -F </dev/null; echo "status $?"'),
  u('missing argument', 'stty rows </dev/null; stty intr </dev/null; echo "status $?"'),
  u('invalid values', 'stty intr ab </dev/null; stty min -1 </dev/null; stty line 300 </dev/null; echo "status $?"'),
  u('output styles', 'stty -a -g </dev/null; stty -a raw </dev/null; echo "status $?"'),
  u('recover string', 'stty 500:5:bf:8a3b:3:1c:7f:15:4:0:1:0:11:13:1a:0:12:f:17:16:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0 </dev/null; echo "status $?"'),
]);

export const tailFollow = family('tail-follow', [
  u('pipe on stdin is not followed', 'seq 3 | tail -f; echo "status $?"'),
  u('-f - with a pipe', 'seq 3 | tail -n 1 -f -; echo "status $?"'),
  u('no files remaining', 'tail -f nope; echo "status $?"'),
  u('--pid already gone', 'seq 3 > f; sleep 0.1 & p=$!; wait $p; tail -n 2 -f --pid=$p -s 0.1 f; echo "status $?"'),
  u('bad --follow', 'tail --follow=x f; echo "status $?"'),
  u('bad -s / --pid', 'tail -s x -f f; tail --pid=x -f f; echo "status $?"'),
  u('warnings without -f', 'seq 2 > f; tail --pid=1 f; tail --retry f; echo "status $?"'),
  u('--retry with descriptor', 'seq 2 > f; sleep 0.1 & p=$!; wait $p; tail -f --retry --pid=$p -s 0.1 f; echo "status $?"'),
]);

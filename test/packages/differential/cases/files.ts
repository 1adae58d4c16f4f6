// mkdir, rmdir, rm, touch, cp, mv, ln: changing the tree. Results are shown with
// find-free means (ls -1, cat, test) so only the command under test varies.
import { family, u } from '../types.js';

const F = { 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'd/x': 'x\n', 'd/sub/y': 'y\n' };
const show = 'ls -1R';

export const mkdirRmdir = family('mkdir-rmdir', [
  u('mkdir one', `mkdir n; ${show}`),
  u('mkdir several', `mkdir a b c; ${show}`),
  u('mkdir exists', 'mkdir d; mkdir d; echo "status $?"'),
  u('mkdir missing parent', 'mkdir x/y; echo "status $?"'),
  u('mkdir -p', `mkdir -p x/y/z; ${show}`),
  u('mkdir -p existing', 'mkdir -p d; mkdir -p d; echo "status $?"'),
  u('mkdir -v', 'mkdir -v a; mkdir -pv p/q'),
  u('mkdir -m', 'mkdir -m 700 m; stat -c %a m'),
  u('mkdir -m symbolic', 'mkdir -m u=rwx,g=rx,o= m; stat -c %a m'),
  u('mkdir invalid mode', 'mkdir -m 999 m; echo "status $?"'),
  u('mkdir missing operand', 'mkdir'),
  u('mkdir over a file', 'touch f; mkdir f; mkdir -p f; echo "status $?"'),
  u('rmdir empty', `mkdir e; rmdir e; ${show}`),
  u('rmdir non-empty', 'rmdir d; echo "status $?"', { files: F }),
  u('rmdir missing', 'rmdir nope; echo "status $?"'),
  u('rmdir -p', `mkdir -p a/b/c; rmdir -p a/b/c; ${show}`),
  u('rmdir a file', 'touch f; rmdir f; echo "status $?"'),
  u('rmdir --ignore-fail-on-non-empty', 'rmdir --ignore-fail-on-non-empty d; echo "status $?"', { files: F }),
]);

export const rm = family('rm', [
  u('file', `rm a.txt; ${show}`, { files: F }),
  u('missing', 'rm nope; echo "status $?"'),
  u('-f missing', 'rm -f nope; echo "status $?"'),
  u('-f no operand', 'rm -f; echo "status $?"'),
  u('no operand', 'rm'),
  u('directory without -r', 'rm d; echo "status $?"', { files: F }),
  u('-r', `rm -r d; ${show}`, { files: F }),
  u('-rf mixed', `rm -rf d nope a.txt; echo "status $?"; ${show}`, { files: F }),
  u('-d empty dir', `mkdir e; rm -d e; ${show}`),
  u('-v', 'rm -v a.txt b.txt', { files: F }),
  u('-rv', 'rm -rv d', { files: F }),
  u('dot refused', 'rm -rf . ; echo "status $?"'),
  u('root refused', 'rm -rf /; echo "status $?"'),
  u('-i yes and no', `rm -i a.txt b.txt; ${show}`, { files: F, stdin: 'y\nn\n' }),
  u('symlink not followed', `ln -s d l; rm l; ${show}`, { files: F }),
]);

export const touch = family('touch', [
  u('creates', `touch new; ${show}; wc -c new`),
  u('several', `touch a b c; ${show}`),
  u('-c does not create', `touch -c nope; echo "status $?"; ${show}`),
  u('missing dir', 'touch nodir/f; echo "status $?"'),
  u('-d date', `touch -d "2020-02-03 04:05:06" f; stat -c '%n %Y' f`),
  u('-d @epoch', 'touch -d @86400 f; stat -c %Y f'),
  u('-r reference', 'touch -d "2001-01-01" r; touch -r r f; stat -c %Y f'),
  u('-t stamp', 'touch -t 202101021530.45 f; stat -c %Y f'),
  u('invalid date', 'touch -d "not a date" f; echo "status $?"'),
  u('missing operand', 'touch'),
]);

export const cp = family('cp', [
  u('/dev/stdin is copied as contents', 'printf "piped\\n" | cp /dev/stdin got; echo "status $?"; cat got; test -f got && echo regular'),
  u('a FIFO without -r: its contents; with -r: a FIFO', 'mkfifo p; (printf "through\\n" > p &); cp p got; cat got; cp -r p q; test -p q && echo fifo'),
  u('file to file', 'cp a.txt c.txt; cat c.txt', { files: F }),
  u('overwrite', 'cp a.txt b.txt; cat b.txt', { files: F }),
  u('into directory', `cp a.txt b.txt d; ${show} d`, { files: F }),
  u('missing source', 'cp nope x; echo "status $?"'),
  u('missing destination', 'cp a.txt', { files: F }),
  u('missing operands', 'cp'),
  u('directory without -r', 'cp d e; echo "status $?"', { files: F }),
  u('-r', `cp -r d e; ${show} e; cat e/sub/y`, { files: F }),
  u('-r into existing', `mkdir e; cp -r d e; ${show} e`, { files: F }),
  u('-r into itself', 'cp -r d d/sub; echo "status $?"', { files: F }),
  u('same file', 'cp a.txt a.txt; echo "status $?"', { files: F }),
  u('-n no clobber', 'cp -n a.txt b.txt; cat b.txt', { files: F }),
  u('-v', 'cp -v a.txt c.txt; cp -rv d e', { files: F }),
  u('multiple to non-dir', 'cp a.txt b.txt c; echo "status $?"', { files: F }),
  u('-p keeps mode', 'chmod 640 a.txt; cp -p a.txt c; stat -c %a c', { files: F }),
  u('mode of a new copy', 'chmod 750 a.txt; cp a.txt c; stat -c %a c', { files: F }),
  u('-a symlink copied as link', 'ln -s a.txt l; cp -a l m; readlink m', { files: F }),
  u('follows symlink without -r', 'ln -s a.txt l; cp l m; cat m; readlink m; echo "status $?"', { files: F }),
  u('-t', `cp -t d a.txt b.txt; ${show} d`, { files: F }),
  u('-T', 'mkdir e; cp -T a.txt e; echo "status $?"', { files: F }),
]);

export const mv = family('mv', [
  u('rename', `mv a.txt c.txt; ${show}`, { files: F }),
  u('into directory', `mv a.txt b.txt d; ${show}`, { files: F }),
  u('directory rename', `mv d e; ${show}`, { files: F }),
  u('missing source', 'mv nope x; echo "status $?"'),
  u('missing operand', 'mv'),
  u('missing destination', 'mv a.txt', { files: F }),
  u('-v', 'mv -v a.txt c.txt', { files: F }),
  u('-n', 'mv -n a.txt b.txt; cat a.txt b.txt', { files: F }),
  u('same file', 'mv a.txt a.txt; echo "status $?"', { files: F }),
  u('into itself', 'mv d d/sub; echo "status $?"', { files: F }),
  u('overwrite', 'mv a.txt b.txt; cat b.txt; ls', { files: F }),
  u('multiple to non-dir', 'mv a.txt b.txt c; echo "status $?"', { files: F }),
]);

export const ln = family('ln', [
  u('hard link', 'ln a.txt h; cat h; stat -c %h a.txt', { files: F }),
  u('symlink', 'ln -s a.txt s; readlink s; cat s', { files: F }),
  u('exists', 'ln -s a.txt b.txt; echo "status $?"', { files: F }),
  u('-f replaces', 'ln -sf a.txt b.txt; readlink b.txt', { files: F }),
  u('into directory', 'ln -s /x/a.txt d; readlink d/a.txt', { files: F }),
  u('-n with link to dir', 'ln -s d ld; ln -sfn a.txt ld; readlink ld', { files: F }),
  u('one operand', 'cd d; ln -s ../a.txt; readlink a.txt', { files: F }),
  u('hard link missing target', 'ln nope h; echo "status $?"'),
  u('hard link errors name both ends, unless about the destination', 'ln a.txt b.txt; ln /proc/version v; ln -s a.txt b.txt; echo "status $?"', { files: F }),
  u('-v', 'ln -sv a.txt s', { files: F }),
  u('missing operand', 'ln'),
]);

// ls, stat, chmod. Long listings need three normalisations, each for what
// cannot match: the date column (files are created "now" on both sides, a
// moment apart), directory sizes and link counts (ext4 vs the VM's MemFs), and
// the "total" line for directories (block accounting of directories differs).
import { family, u } from '../types.js';

const F = {
  'b.txt': 'bb\n', 'a.txt': 'a\n', 'C.txt': 'ccc\n', '.hidden': 'h\n', 'big': 'x'.repeat(3000), 'd/f1': '1\n', 'd/.h': '', 'd/sub/f2': '22\n',
};
/** Mask the date (Mon DD HH:MM or Mon DD  YYYY) of ls -l lines. */
const DATE: [RegExp, string] = [/ [A-Z][a-z]{2} [ \d]\d (?:\d\d:\d\d| \d{4}) /g, ' DATE '];
/** Directory rows: size and link count differ between filesystems. */
const DIRROW: [RegExp, string] = [/^d([rwxsStT-]{9}) +\d+ (\S+) +(\S+) +\d+ /gm, 'd$1 N $2 $3 SIZE '];
const TOTAL: [RegExp, string] = [/^total \d+$/gm, 'total N'];
/** Directory sizes also widen the size column, so runs of spaces are collapsed where directories are listed. */
const SPACES: [RegExp, string] = [/ +/g, ' '];
const LONG = { files: F, normalise: [DATE, DIRROW, TOTAL] };
const LONG_DIRS = { files: F, normalise: [DATE, DIRROW, TOTAL, SPACES] };

export const ls = family('ls', [
  u('plain', 'ls', { files: F }),
  u('-a', 'ls -a', { files: F }),
  u('-A', 'ls -A', { files: F }),
  u('-1', 'ls -1 d', { files: F }),
  u('operands sorted, files first', 'ls d b.txt a.txt', { files: F }),
  u('two dirs', 'ls d d/sub', { files: F }),
  u('-d', 'ls -d d d/sub .', { files: F }),
  u('-r', 'ls -r', { files: F }),
  u('-S', 'ls -S *.txt big', { files: F }),
  u('-Sr', 'ls -Sr *.txt big', { files: F }),
  u('-t', 'touch -d 2020-01-01 a.txt; touch -d 2021-01-01 C.txt; touch -d 2019-01-01 b.txt big; touch -d 2018-01-01 d; ls -t', { files: F }),
  u('-F', 'chmod +x big; ln -s a.txt link; ls -F', { files: F }),
  u('-R', 'ls -R', { files: F }),
  u('-R dir', 'ls -R d', { files: F }),
  u('-aR', 'ls -aR d', { files: F }),
  u('missing', 'ls nope; echo "status $?"'),
  u('missing among others', 'ls a.txt nope d; echo "status $?"', { files: F }),
  u('invalid option', 'ls -z'),
  u('ambiguous long option', 'ls --a'),
  u('unrecognized long option', 'ls --bogus'),
  u('-l file', 'chmod 644 a.txt; ls -l a.txt', LONG),
  u('-l dir', 'chmod 644 *.txt big; ls -l', LONG_DIRS),
  u('-la', 'chmod 644 *.txt big; ls -la d', LONG_DIRS),
  u('-l modes', 'chmod 755 a.txt; chmod 600 b.txt; chmod 4755 C.txt; chmod 1777 d; ls -ld a.txt b.txt C.txt d', LONG_DIRS),
  u('-l symlink', 'ln -s a.txt link; ls -l link', LONG),
  u('-lh', 'chmod 644 big; ls -lh big', LONG),
  u('-n', 'chmod 644 a.txt; ls -n a.txt', LONG),
  u('-l old date', 'chmod 644 a.txt; touch -d "2001-02-03 04:05" a.txt; ls -l a.txt', { files: F }),
  u('-lt old dates', 'chmod 644 a.txt b.txt; touch -d "2001-02-03 04:05" a.txt; touch -d "1999-12-31 23:59" b.txt; ls -lt a.txt b.txt', { files: F }),
  u('empty dir', 'mkdir e; ls e; echo "status $?"'),
  u('-1 with names with spaces', 'touch "x y" "p q"; ls -1', { files: {} }),
  u('glob operands', 'ls -d *.txt', { files: F }),
]);

export const stat = family('stat', [
  u('-c size and name', 'stat -c "%n %s" a.txt big', { files: F }),
  u('-c modes', 'chmod 640 a.txt; stat -c "%a %A" a.txt', { files: F }),
  u('-c type', 'ln -s a.txt l; mkdir e; touch z; stat -c %F a.txt e l z', { files: F }),
  u('-c owner', 'stat -c "%u %g %U %G" a.txt', { files: F }),
  u('-c links', 'ln a.txt h; stat -c %h a.txt h', { files: F }),
  u('-L follows', 'ln -s big l; stat -L -c "%s %F" l', { files: F }),
  u('missing', 'stat -c %n nope; echo "status $?"'),
  u('missing operand', 'stat'),
  u('--printf', 'stat --printf "%n\\t%s\\n" a.txt', { files: F }),
]);

export const chmod = family('chmod', [
  u('octal', 'chmod 600 a.txt; stat -c %a a.txt', { files: F }),
  u('symbolic +x', 'chmod 644 a.txt; chmod +x a.txt; stat -c %a a.txt', { files: F }),
  u('symbolic u=rw,go=', 'chmod u=rw,go= a.txt; stat -c %a a.txt', { files: F }),
  u('symbolic g+w,o-r', 'chmod 644 a.txt; chmod g+w,o-r a.txt; stat -c %a a.txt', { files: F }),
  u('-w is a mode', 'chmod 644 a.txt; chmod -w a.txt; stat -c %a a.txt', { files: F }),
  u('a=r', 'chmod a=r a.txt; stat -c %a a.txt', { files: F }),
  u('copy u to g', 'chmod 740 a.txt; chmod g=u a.txt; stat -c %a a.txt', { files: F }),
  u('-R', 'chmod -R 700 d; stat -c "%n %a" d d/f1 d/sub d/sub/f2', { files: F }),
  u('X on dirs only', 'chmod -R 600 d; chmod 700 d; chmod -R a+X d; stat -c "%n %a" d/f1 d/sub', { files: F }),
  u('invalid mode', 'chmod 99 a.txt; echo "status $?"', { files: F }),
  u('missing file', 'chmod 644 nope; echo "status $?"'),
  u('missing operand', 'chmod 644'),
  u('-v', 'chmod 644 a.txt; chmod -v 600 a.txt', { files: F }),
  u('sticky and setuid', 'chmod 1755 a.txt; stat -c "%a %A" a.txt; chmod u+s,o-x a.txt; stat -c "%a %A" a.txt', { files: F }),
]);

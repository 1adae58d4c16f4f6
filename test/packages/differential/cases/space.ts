// Sizes: du, df, truncate, dd. agentOS and the host's file system agree on file sizes and
// on st_blocks for small regular files (whole 4 KiB pages) but not on directories (agentOS
// reports 0 blocks; ext4 4096 bytes), so du cases count files, or cut directories out.
// df: only the header and error paths can match (the numbers are another file system's).
import { family, u } from '../types.js';

const tree = { 'd/a': 'x'.repeat(5000), 'd/b': 'hello\n', 'd/s/c': 'y'.repeat(100) };

export const du = family('du', [
  u('file blocks', 'printf hello > f; du f'),
  u('file -b', 'printf hello > f; du -b f'),
  u('--apparent-size', 'printf hello > f; du --apparent-size f'),
  u('two pages', 'head -c 5000 /dev/zero > f; du f; du -b f'),
  u('-h', 'head -c 5000 /dev/zero > f; du -h f; du -bh f'),
  u('-c total of files', 'printf abc > x; printf defg > y; du -cb x y'),
  u('-c blocks', 'printf abc > x; printf defg > y; du -c x y'),
  u('-a lists files (dirs cut)', 'du -ab d | grep -v "	d$" | grep -v "	d/s$" | sort -k2', { files: tree }),
  u('-a blocks of files', 'du -a d | grep -v "	d$" | grep -v "	d/s$" | sort -k2', { files: tree }),
  u('-s names the operand', 'du -s d | cut -f2', { files: tree }),
  u('-d 0 like -s', 'du -d 0 d | cut -f2; du --max-depth=1 d | cut -f2 | sort', { files: tree }),
  u('hard links counted once', 'head -c 5000 /dev/zero > f; ln f g; du -cb f g'),
  u('missing file', 'du nope; echo "status $?"'),
  u('invalid depth', 'du -d x .; echo "status $?"'),
  u('-m rounds up', 'printf a > f; du -m f'),
  u('symlink not followed', 'ln -s target l; du -b l'),
]);

export const df = family('df', [
  // Column widths follow the numbers, which differ: the header is compared squeezed.
  u('header', 'df . | head -n 1 | tr -s " "'),
  u('header -h', 'df -h . | head -n 1 | tr -s " "'),
  u('header -T', 'df -T . | head -n 1 | tr -s " "'),
  u('header -k --total', 'df -k --total . | head -n 1 | tr -s " "'),
  u('total line', 'df --total . | tail -n 1 | cut -c 1-5'),
  u('one line per file', 'df . . | wc -l'),
  u('missing file', 'df nope; echo "status $?"'),
  u('mount point column', 'df / | tail -n 1 | rev | cut -d " " -f 1 | rev'),
]);

export const truncate = family('truncate', [
  u('create and size', 'truncate -s 10 f; wc -c < f; od -c f | head -n 2'),
  u('shrink', 'printf hello > f; truncate -s 2 f; cat f'),
  u('extend by', 'printf hello > f; truncate -s +3 f; wc -c < f'),
  u('reduce by', 'printf hello > f; truncate -s -3 f; cat f; truncate -s -10 f; wc -c < f'),
  u('at most / at least', 'printf hello > f; truncate -s "<3" f; wc -c < f; truncate -s ">8" f; wc -c < f; truncate -s ">2" f; wc -c < f'),
  u('round down / up', 'printf 1234567 > f; truncate -s /4 f; wc -c < f; truncate -s %5 f; wc -c < f'),
  u('units', 'truncate -s 1K a; truncate -s 1KB b; truncate -s 2k c; truncate -s 1KiB d; wc -c a b c d'),
  u('-c does not create', 'truncate -c -s 5 nope; echo "status $?"; ls nope 2>&1'),
  u('reference', 'printf 12345 > r; truncate -r r f; wc -c < f'),
  u('reference relative', 'printf 12345 > r; printf ab > f; truncate -r r -s +2 f; wc -c < f'),
  u('no size', 'truncate f; echo "status $?"'),
  u('bad size', 'truncate -s 1x f; echo "status $?"'),
  u('missing operand', 'truncate -s 1; echo "status $?"'),
  u('cannot open', 'truncate -s 1 nodir/f; echo "status $?"'),
  u('absolute reference', 'printf 1 > r; truncate -r r -s 4 f; echo "status $?"'),
  u('multiple files', 'truncate -s 3 a b; wc -c a b'),
]);

/** dd's last summary line has a time and rate; only the record counts are compared. */
const rec = (s: string) => `{ ${s}; } 2>err; echo "status $?"; head -n 2 err`;

export const dd = family('dd', [
  u('copy stdin to stdout', rec('printf hello | dd'), ),
  u('if= of=', rec('printf "hello world" > in; dd if=in of=out') + '; cat out'),
  u('bs and count', rec('seq 100 > in; dd if=in bs=10 count=3') ),
  u('skip', rec('printf 0123456789 > in; dd if=in bs=2 skip=3')),
  u('skip on a pipe', rec('printf 0123456789 | dd bs=2 skip=3')),
  u('seek', rec('printf abcdef > out; printf XY | dd of=out bs=1 seek=2') + '; cat out; echo'),
  u('seek truncates', rec('printf abcdefgh > out; printf XY | dd of=out bs=1 seek=2') + '; cat out; echo'),
  u('conv=notrunc', rec('printf abcdefgh > out; printf XY | dd of=out bs=1 seek=2 conv=notrunc') + '; cat out; echo'),
  u('conv=ucase', rec('printf "Hello World\\n" | dd conv=ucase')),
  u('conv=lcase', rec('printf "Hello World\\n" | dd conv=lcase')),
  u('ibs obs reblock', rec('head -c 1000 /dev/zero | dd ibs=100 obs=300 | wc -c')),
  u('partial records', rec('head -c 1300 /dev/zero > in; dd if=in bs=512 | wc -c')),
  u('suffixes', rec('head -c 4096 /dev/zero > in; dd if=in bs=1K count=2 | wc -c')),
  u('status=none', 'printf hi | dd status=none; echo "status $?"'),
  u('status=noxfer', 'printf hi | dd status=noxfer 2>&1 >/dev/null'),
  u('conv=sync pads', rec('printf abc | dd bs=8 conv=sync | od -c')),
  u('missing input', 'dd if=nope; echo "status $?"'),
  u('bad operand', 'dd foo=bar; echo "status $?"'),
  u('bad number', 'dd bs=1q </dev/null; echo "status $?"'),
  u('count=0', rec('printf abc | dd count=0')),
]);

// base64, md5sum/sha*sum, mktemp. (Scripts are JS template literals: \\ is \, \${ is ${.)
import { family, u } from '../types.js';

const F = {
  'a.txt': 'hello world\n',
  'empty.txt': '',
  'long.txt': 'The quick brown fox jumps over the lazy dog. '.repeat(8) + '\n',
  'bin.dat': '\x00\x01\x02\xfe\xff\x80abc',
};

export const base64 = family('base64', [
  u('encode', 'base64 a.txt', { files: F }),
  u('encode stdin', 'printf abc | base64'),
  u('padding 1', 'printf a | base64'),
  u('padding 2', 'printf ab | base64'),
  u('empty', 'base64 empty.txt', { files: F }),
  u('wrap default', 'base64 long.txt', { files: F }),
  u('-w 0', 'base64 -w 0 long.txt; echo', { files: F }),
  u('-w 20', 'base64 -w 20 long.txt', { files: F }),
  u('binary', 'base64 bin.dat', { files: F }),
  u('round trip', 'base64 bin.dat | base64 -d | od -c', { files: F }),
  u('-d', 'echo aGVsbG8gd29ybGQK | base64 -d'),
  u('-d wrapped', 'base64 -w 10 long.txt | base64 -d', { files: F }),
  u('-d invalid', 'echo "a@b" | base64 -d; echo "status $?"'),
  u('-d -i', 'echo "aGVs@bG8K" | base64 -d -i'),
  u('bad wrap', 'base64 -w x a.txt; echo "status $?"', { files: F }),
  u('missing file', 'base64 nope; echo "status $?"'),
]);

export const sums = family('sums', [
  u('md5sum', 'md5sum a.txt empty.txt long.txt bin.dat', { files: F }),
  u('sha1sum', 'sha1sum a.txt empty.txt long.txt bin.dat', { files: F }),
  u('sha256sum', 'sha256sum a.txt empty.txt long.txt bin.dat', { files: F }),
  u('sha512sum', 'sha512sum a.txt empty.txt long.txt bin.dat', { files: F }),
  u('stdin', 'printf abc | md5sum; printf abc | sha256sum'),
  u('block boundary', 'head -c 55 long.txt | sha256sum; head -c 56 long.txt | sha256sum; head -c 64 long.txt | md5sum; head -c 112 long.txt | sha512sum', { files: F }),
  u('-b', 'md5sum -b a.txt', { files: F }),
  u('--tag', 'sha256sum --tag a.txt; md5sum --tag a.txt', { files: F }),
  u('-c ok', 'md5sum a.txt long.txt > s.md5; md5sum -c s.md5; echo "status $?"', { files: F }),
  u('-c failed', 'sha256sum a.txt long.txt > s; echo changed > a.txt; sha256sum -c s; echo "status $?"', { files: F }),
  u('-c missing', 'sha1sum a.txt > s; rm a.txt; sha1sum -c s; echo "status $?"', { files: F }),
  u('-c --quiet', 'md5sum a.txt long.txt > s; md5sum -c --quiet s; echo "status $?"', { files: F }),
  u('-c --status', 'md5sum a.txt > s; echo x >> a.txt; md5sum -c --status s; echo "status $?"', { files: F }),
  u('-c no lines', 'echo junk > s; md5sum -c s; echo "status $?"', { files: F }),
  u('-c stdin', 'sha256sum a.txt | sha256sum -c; echo "status $?"', { files: F }),
  u('missing file', 'md5sum nope a.txt; echo "status $?"', { files: F }),
]);

export const mktemp = family('mktemp', [
  u('template file', 'f=$(mktemp fooXXXXXX); ls -l "$f" | cut -c1-10; echo "${#f}"; echo "${f:0:3}"'),
  u('-d directory', 'd=$(mktemp -d dirXXX); test -d "$d" && echo dir; ls -ld "$d" | cut -c1-10'),
  u('-p dir', 'mkdir t; f=$(mktemp -p t abcXXXX); echo "${f%????}"; test -f "$f" && echo file'),
  u('--tmpdir', 'mkdir t; f=$(TMPDIR=$PWD/t mktemp --tmpdir xXXXX); f=${f%????}; echo "${f#$PWD}"'),
  u('default in TMPDIR', 'mkdir t; f=$(TMPDIR=$PWD/t mktemp); f=${f%??????????}; echo "${f#$PWD}"'),
  u('suffix', 'f=$(mktemp aXXXX.txt); echo "${f#a????}"'),
  u('--suffix', 'f=$(mktemp --suffix=.log bXXXX); echo "${f#b????}"'),
  u('too few Xs', 'mktemp fooXX; echo "status $?"'),
  u('missing dir', 'mktemp nodir/fooXXXX; echo "status $?"'),
  u('-q missing dir', 'mktemp -q nodir/fooXXXX; echo "status $?"'),
  u('-u dry run', 'f=$(mktemp -u zzXXXX); test -e "$f" || echo absent'),
  u('unique', 'a=$(mktemp qXXX); b=$(mktemp qXXX); test "$a" != "$b" && echo differ'),
]);

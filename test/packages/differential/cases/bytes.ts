// xxd, hexdump, strings and iconv: byte dumps, reversing them, printable
// runs, and character set conversions with their errors.
// (Scripts are JS template literals: \\ is \, \${ is ${.)
import { family, u } from '../types.js';

let all = '';
for (let i = 0; i < 256; i++) all += String.fromCharCode(i);

const F = {
  'h.txt': 'hello world, this is xxd!\n\x00\x01\xff\x7f',
  'all.bin': all,
  'zeros.bin': '\x00'.repeat(80) + 'tail\n' + '\x00'.repeat(48),
  'empty': '',
  'short': 'abc',
  '1.bin': 'x\ny',
  'text.txt': 'The quick brown fox\njumps over\tthe lazy dog.\n',
};

export const xxd = family('xxd', [
  u('default', 'xxd h.txt', { files: F }),
  u('all bytes', 'xxd all.bin', { files: F }),
  u('stdin', 'cat text.txt | xxd', { files: F }),
  u('-p', 'xxd -p all.bin', { files: F }),
  u('-ps -c 8', 'xxd -ps -c 8 h.txt', { files: F }),
  u('-p -c 0', 'xxd -p -c 0 all.bin | wc -c', { files: F }),
  u('-i', 'xxd -i h.txt', { files: F }),
  u('-i stdin', 'xxd -i < h.txt', { files: F }),
  u('-i names', 'xxd -i 1.bin; xxd -C -i 1.bin; xxd -i -n foo 1.bin', { files: F }),
  u('-i -u -c 4', 'xxd -i -u -c 4 short', { files: F }),
  u('-u -g 4 -c 8', 'xxd -u -g 4 -c 8 h.txt', { files: F }),
  u('-g 0 -g 3', 'xxd -g 0 h.txt; xxd -g 3 h.txt; xxd -g3 -c12 h.txt', { files: F }),
  u('-b', 'xxd -b h.txt', { files: F }),
  u('-b -c 4', 'xxd -b -c 4 text.txt', { files: F }),
  u('-e', 'xxd -e h.txt', { files: F }),
  u('-l -s', 'xxd -l 10 -s 5 h.txt; xxd -s 0x10 h.txt; xxd -len 3 h.txt', { files: F }),
  u('-s negative', 'xxd -s -5 h.txt', { files: F }),
  u('-s + stdin', 'cat h.txt | xxd -s +3', { files: F }),
  u('-d -o', 'xxd -d -o 16 h.txt', { files: F }),
  u('-a', 'xxd -a zeros.bin; xxd zeros.bin | wc -l', { files: F }),
  u('empty', 'xxd empty; xxd -p empty; xxd -i empty; echo "status $?"', { files: F }),
  u('-r', 'xxd h.txt | xxd -r | od -c', { files: F }),
  u('-r -p', 'xxd -p all.bin | xxd -r -p | cmp - all.bin && echo same', { files: F }),
  u('-r -p spaced', 'echo "68 65 6c 6c 6f 0a" | xxd -r -p', { files: F }),
  u('-r offsets', 'printf "00000010: 4142 4344  ABCD\\n" | xxd -r | od -c'),
  u('-r to file', 'xxd text.txt > d; xxd -r d out; cmp out text.txt && echo same', { files: F }),
  u('outfile', 'xxd short out; cat out', { files: F }),
  u('bad cols', 'xxd -c 300 h.txt; echo "status $?"', { files: F }),
  u('bad group -e', 'xxd -e -g 3 h.txt; echo "status $?"', { files: F }),
  u('missing file', 'xxd nope; echo "status $?"'),
  u('bad option', 'xxd -Z h.txt 2>/dev/null; echo "status $?"', { files: F }),
  u('help', 'xxd -h 2>&1 | head -2; xxd --help > /dev/null 2>&1; echo "status $?"'),
]);

export const hexdump = family('hexdump', [
  u('default', 'hexdump h.txt', { files: F }),
  u('-C', 'hexdump -C h.txt', { files: F }),
  u('-C all', 'hexdump -C all.bin', { files: F }),
  u('-c', 'hexdump -c h.txt', { files: F }),
  u('-x', 'hexdump -x h.txt', { files: F }),
  u('-b -d -o', 'hexdump -b h.txt; hexdump -d h.txt; hexdump -o h.txt', { files: F }),
  u('-n -s', 'hexdump -n 5 -s 3 -C h.txt; hexdump -s 100 h.txt', { files: F }),
  u('squeeze', 'hexdump zeros.bin; hexdump -C zeros.bin', { files: F }),
  u('-v', 'hexdump -v zeros.bin', { files: F }),
  u('stdin odd length', 'printf abc | hexdump; printf abc | hexdump -C'),
  u('empty', 'hexdump empty; hexdump -C < empty; echo "status $?"', { files: F }),
  u('two files', 'hexdump -C short text.txt', { files: F }),
  u('-Cc', 'hexdump -Cc text.txt', { files: F }),
  u('-e', `hexdump -e '"%08_ax " 4/1 "%02X" "\\n"' h.txt`, { files: F }),
  u('-e %_u', `hexdump -e '16/1 "%_u " "\\n"' h.txt`, { files: F }),
  u('-e 4/4', `hexdump -e '4/4 "%08x " "\\n"' h.txt`, { files: F }),
  u('-e %c repeats', `hexdump -e '1/1 "%c"' h.txt | od -c`, { files: F }),
  u('-e %_p %d', `hexdump -e '8/1 "%_p" "  " 2/4 "%d " "\\n"' text.txt`, { files: F }),
  u('missing file', 'hexdump nope; echo "status $?"; hexdump -C short nope; echo "status $?"', { files: F }),
  u('bad format', `hexdump -e '"%z"' h.txt; echo "status $?"`, { files: F }),
  u('bad length', 'hexdump -n x h.txt; echo "status $?"', { files: F }),
  u('bad option', 'hexdump -k h.txt; echo "status $?"', { files: F }),
]);

const S = {
  's1': 'abc\x00defg\x00hij\tklm\nnopq\x01rstu\xe9vwxyz12\r\n ab',
  'w16': 'h\x00e\x00l\x00l\x00o\x00\x00\x00w\x00o\x00r\x00l\x00d\x00',
};

export const strings = family('strings', [
  u('default', 'strings s1', { files: S }),
  u('-n 3', 'strings -n 3 s1; strings -3 s1; strings --bytes=2 s1', { files: S }),
  u('-t', 'strings -t x s1; strings -t d s1; strings -t o s1; strings -o s1', { files: S }),
  u('-w', 'strings -w s1 | od -c', { files: S }),
  u('-e S', 'strings -e S s1 | od -c', { files: S }),
  u('-e l', 'strings -e l w16; strings -e b w16; echo "status $?"', { files: S }),
  u('-f', 'strings -f s1 s1', { files: S }),
  u('-s', 'strings -s , s1', { files: S }),
  u('stdin', 'cat s1 | strings', { files: S }),
  u('binary', 'head -c 3000 /dev/zero > z; printf "needle in a haystack" >> z; head -c 100 /dev/zero >> z; strings -t d z'),
  u('missing file', 'strings nope; echo "status $?"'),
  u('bad length', 'strings -n 0 s1; echo "status $?"', { files: S }),
]);

const I = {
  'u8.txt': 'h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac\n',
  'l1.txt': 'h\xe9llo\n',
  'bad.txt': 'h\xffllo w\xc3\xb6rld\n',
  'cut.txt': 'h\xc3',
  'fancy.txt': '\xe2\x80\x9cq\xe2\x80\x9d \xe2\x80\x94 \xe2\x80\xa6 \xc2\xa9 \xc3\x9f \xef\xac\x81 \xef\xbc\xa1\n',
};

export const iconv = family('iconv', [
  u('utf-8 to latin1', 'iconv -f utf-8 -t latin1 u8.txt | od -c', { files: I }),
  u('latin1 to utf-8', 'iconv -f ISO-8859-1 -t UTF-8 l1.txt | od -c', { files: I }),
  u('aliases', 'iconv -f utf8 -t ISO_8859-1 l1.txt; echo "status $?"; iconv -f L1 -t UTF8 l1.txt | od -c; iconv --from-code=latin1 --to-code=utf-8 l1.txt | od -c', { files: I }),
  u('unconvertible', 'iconv -f utf-8 -t ascii u8.txt; echo "status $?"', { files: I }),
  u('illegal input', 'iconv -f utf-8 -t latin1 bad.txt; echo "status $?"', { files: I }),
  u('incomplete', 'iconv -f utf-8 -t latin1 cut.txt; echo "status $?"', { files: I }),
  u('//TRANSLIT', 'iconv -f utf-8 -t ascii//TRANSLIT u8.txt; echo "status $?"; iconv -f utf-8 -t ASCII//TRANSLIT fancy.txt', { files: I }),
  u('//IGNORE', 'iconv -f utf-8 -t ascii//IGNORE u8.txt; echo "status $?"', { files: I }),
  u('//TRANSLIT//IGNORE', 'iconv -f utf-8 -t ascii//TRANSLIT//IGNORE u8.txt; echo "status $?"', { files: I }),
  u('-c', 'iconv -c -f utf-8 -t ascii u8.txt; echo "status $?"; iconv -c -f utf-8 -t latin1 bad.txt | od -c', { files: I }),
  u('utf-16', 'printf hi | iconv -f utf-8 -t utf-16 | od -c; printf "\\xff\\xfeh\\0i\\0" | iconv -f utf-16 -t utf-8; echo; printf "\\xfe\\xff\\0h" | iconv -f UTF-16 -t utf-8; echo'),
  u('utf-16 no bom', 'printf "h\\0i\\0" | iconv -f utf-16 -t utf-8; echo'),
  u('utf-16le/be', 'iconv -f utf-8 -t utf-16le u8.txt | od -An -tx1; iconv -f utf-8 -t UTF-16BE u8.txt | od -An -tx1', { files: I }),
  u('surrogate pairs', 'printf "\\xf0\\x9f\\x98\\x80" | iconv -f utf-8 -t utf-16be | od -An -tx1; printf "\\xd8\\x3d\\xde\\x00" | iconv -f utf-16be -t utf-8 | od -An -tx1'),
  u('utf-32', 'printf hi | iconv -f utf-8 -t utf-32 | od -An -tx1; printf hi | iconv -f utf-8 -t UTF-32BE | od -An -tx1; printf "\\0\\0\\0a" | iconv -f ucs-4 -t utf-8'),
  u('ucs-2', 'printf "\\xc3\\xa9" | iconv -f utf-8 -t ucs-2 | od -An -tx1; printf "\\xf0\\x9f\\x98\\x80" | iconv -f utf-8 -t ucs-2; echo "status $?"'),
  u('windows-1252', 'printf "\\x80\\x93\\x9f" | iconv -f windows-1252 -t utf-8 | od -An -tx1; printf "\\xe2\\x82\\xac" | iconv -f utf-8 -t CP1252 | od -An -tx1; printf "\\x81" | iconv -f cp1252 -t utf-8; echo "status $?"'),
  u('utf-8 bom kept', 'printf "\\xef\\xbb\\xbfa" | iconv -f utf-8 -t utf-16le | od -An -tx1'),
  u('surrogate in utf-8', 'printf "\\xed\\xa0\\x80" | iconv -f utf-8 -t utf-16le; echo "status $?"'),
  u('several files', 'iconv -f latin1 -t utf-8 l1.txt l1.txt | od -c', { files: I }),
  u('-o', 'iconv -f latin1 -t utf-8 -o out l1.txt; od -c out', { files: I }),
  u('stdin', 'cat l1.txt | iconv -f latin1 -t utf-8 | od -c', { files: I }),
  u('unknown charset', 'iconv -f foo -t utf-8 l1.txt; echo "status $?"; iconv -f utf-8 -t bar l1.txt; echo "status $?"', { files: I }),
  u('missing file', 'iconv -f latin1 -t utf-8 nope; echo "status $?"'),
  u('-l', 'iconv -l | grep -x -e "UTF-8//" -e "LATIN1//" -e "WINDOWS-1252//" -e "UTF-16LE//" | sort'),
  u('bad option', 'iconv -k; echo "status $?"'),
]);

// column and tree (util-linux package), file, tput and clear (ncurses package).
// Oracles: Debian's bsdextrautils (column), tree, file and ncurses-bin.
// Binary fixtures are built here byte by byte; the ELF one is the host's /bin/true.
import { readFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { family, u } from '../types.js';

const LIST = { 'l.txt': `${Array.from({ length: 30 }, (_, i) => String(i + 1)).join('\n')}\n`, 'w.txt': 'apple\nbanana\ncherry\ndate\nelderberry\nfig\ngrape\n' };
const TABLE = {
  't.txt': 'name  age city\nbob 25   paris\nalice 30 london\n',
  's.csv': 'a:b:c\nddd::e\n:x:\n',
  'e.txt': 'a b\n\nc d\n   \n',
};

export const column = family('column', [
  u('fill columns', 'column l.txt', { files: LIST }),
  u('-x fill rows', 'column -x l.txt', { files: LIST }),
  u('-c width', 'column -c 30 w.txt; column -x -c 30 w.txt', { files: LIST }),
  u('$COLUMNS', 'COLUMNS=40 column l.txt', { files: LIST }),
  u('long entries', 'printf "%075d\\nb\\nc\\n" 0 | column; printf "%075d\\nb\\nc\\n" 0 | column -x -c 79', { files: LIST }),
  u('-t', 'column -t t.txt', { files: TABLE }),
  u('-t -s -o', 'column -t -s : -o "|" s.csv', { files: TABLE }),
  u('-t -N -R', 'column -t -N NAME,AGE,CITY -R AGE t.txt', { files: TABLE }),
  u('-t -R last column', 'printf "a b c\\nx\\n" | column -t -R 3 | od -c'),
  u('-t -H -O', 'column -t -N n,a,c -H a t.txt; column -t -O 3,1 t.txt', { files: TABLE }),
  u('-t -d', 'column -t -N n,a,c -d t.txt', { files: TABLE }),
  u('-t -l', 'printf "x y z w\\nx  y z\\n" | column -t -l 2 -o "|"'),
  u('empty lines', 'column -t e.txt; column -t -L e.txt | od -c', { files: TABLE }),
  u('-J', 'column -J -N Name,Age,City t.txt; column -J -n people -N n,a,c t.txt', { files: TABLE }),
  u('-J nulls and escapes', 'printf "a:\\n:\\"q\\\\\\\\z\\tw\\n" | column -J -s : -N one,two'),
  u('files and stdin', 'echo x | column - w.txt', { files: LIST }),
  u('errors', 'column nope; printf "a b\\n" | column -J; printf "a b\\n" | column -c x; printf "a b\\n" | column -t -R z; echo "status $?"'),
  u('JSON needs names', 'printf "a b c\\n" | column -J -N x,y; echo "status $?"'),
]);

const TREE_FILES = { 'a': 'hello\n', 'B': '', '.hidden': '', 'd1/f': 'x', 'd1/d2/g': '', 'd1/d2/h i': '', 'e/': '', 'e2/sub/': '', 'z9/one': '1234567890'.repeat(200) };
const LINKS = 'ln -s a la; ln -s nowhere lb; ln -s d1 ld; chmod 755 a; ';
const T = { files: TREE_FILES };

export const tree = family('tree', [
  u('default', `${LINKS}tree`, T),
  u('-a', `${LINKS}tree -a`, T),
  u('-d', `${LINKS}tree -d`, T),
  u('-L 1', `${LINKS}tree -L 1`, T),
  u('-f', `${LINKS}tree -f d1`, T),
  u('-I', `${LINKS}tree -I "d*|z9"`, T),
  u('-P', `${LINKS}tree -P "*a*"`, T),
  u('-P --prune', `${LINKS}tree --prune -P g`, T),
  u('--noreport', `${LINKS}tree --noreport d1`, T),
  u('-i -F', `${LINKS}tree -i -F`, T),
  u('--dirsfirst -r', `${LINKS}tree --dirsfirst -r`, T),
  u('-l follows and stops at repeats', `${LINKS}tree -l`, T),
  u('several roots', `${LINKS}tree d1 e nope; echo "status $?"`, T),
  u('file root', `${LINKS}tree a; echo "status $?"`, T),
  u('-p -u -g', `${LINKS}tree -pug d1`, T),
  u('-s -h on files', `${LINKS}tree -s z9 | tail -n +2; tree -h z9 | tail -n +2`, T),
  u('-Q', `${LINKS}tree -Q -L 1`, T),
  u('escaped names', 'touch "x y" "b\\\\s" "$(printf "t\\tt")" "$(printf "\\303\\251")"; tree; tree -N | od -c | tail -3'),
  u('UTF-8 lines', `${LINKS}LC_ALL= LANG=C.UTF-8 tree d1; tree --charset=utf-8 e2`, T),
  u('empty root is not counted', `${LINKS}tree e; tree -d e2`, T),
  u('option errors', 'tree -L 0; tree -L; tree -Z; tree --nosuch; echo "status $?"'),
]);

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

function png(w: number, h: number, depth: number, color: number, interlace: number): string {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([depth, color, 0, 0, interlace], 8);
  return Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), pngChunk('IHDR', ihdr), pngChunk('IEND', Buffer.alloc(0))]).toString('latin1');
}

/** A gzip member with an original name, a time, the best-compression flag and the Unix OS byte. */
function gzipNamed(name: string, data: string, mtime: number): string {
  const head = Buffer.from([0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 2, 3]);
  head.writeUInt32LE(mtime, 4);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(crc32(Buffer.from(data, 'latin1')) >>> 0, 0);
  tail.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, Buffer.from(`${name}\0`, 'latin1'), deflateRawSync(Buffer.from(data, 'latin1')), tail]).toString('latin1');
}

const zip = (level: 0 | 6): string =>
  Buffer.from(zipSync({ 'a.txt': strToU8('hello '.repeat(20)) }, { level, mtime: new Date(2020, 0, 2) })).toString('latin1');

/** One tar header (with a right checksum) and a block of data. */
function tar(gnu: boolean): string {
  const h = Buffer.alloc(512);
  const field = (at: number, s: string) => h.write(s, at, 'latin1');
  field(0, 'x');
  field(100, '0000644\0');
  field(108, '0000000\0');
  field(116, '0000000\0');
  field(124, '00000000002\0');
  field(136, '14000000000\0');
  field(156, '0');
  field(257, gnu ? 'ustar  \0' : 'ustar\x0000');
  h.fill(32, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  field(148, `${sum.toString(8).padStart(6, '0')}\0 `);
  return Buffer.concat([h, Buffer.from('hi'), Buffer.alloc(510)]).toString('latin1');
}

function elfHeader(type: number, machine: number, osabi: number, bits: 32 | 64): string {
  const b = Buffer.alloc(bits === 64 ? 64 : 52);
  b.write('\x7fELF', 0, 'latin1');
  b.set([bits === 64 ? 2 : 1, 1, 1, osabi], 4);
  b.writeUInt16LE(type, 16);
  b.writeUInt16LE(machine, 18);
  b.writeUInt32LE(1, 20);
  return b.toString('latin1');
}

const jfif = '\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x02\x01\x00\x48\x00\x48\x00\x00';
const sof = '\xff\xc0\x00\x11\x08\x00\x14\x00\x1e\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01';

const KINDS: Record<string, string> = {
  'ascii': 'hello\n', 'nonl': 'hello', 'crlf': 'a\r\nb\r\n', 'cr': 'a\rb\r', 'mixed': 'a\r\nb\n',
  'utf8': 'h\xc3\xa9llo\n', 'bom': '\xef\xbb\xbfhi\n', 'latin1': 'h\xe9llo\n', 'ext': 'caf\x82\n', 'utf16': '\xff\xfeh\x00i\x00',
  'bin': '\x00\x01\x02\x03', 'one': 'a', 'empty': '', 'long': `${'x'.repeat(301)}\n`, 'esc': 'a\x1b[1mb\n', 'bs': 'a\bb\n',
  'j.json': '{"a": [1, 2.5e3, true, null]}\n', 'arr.json': '[]', 'notjson': '{"a":}',
  's.sh': '#!/bin/sh\necho hi\n', 'b.bash': '#!/usr/bin/env bash\necho\n', 'p.py': '#!/usr/bin/env python3\nprint(1)\n',
  'n.js': '#!/usr/bin/env node\nx\n', 'perl': '#!/usr/bin/perl\nx\n', 'zsh': '#!/bin/zsh\n', 'foo': '#!/usr/local/bin/foo\n',
  'envsh': '#!/usr/bin/env sh\n', 'crlf.sh': '#!/bin/sh\r\nx\r\n', 'h.html': '<!DOCTYPE html>\n<p>', 'x.xml': '<?xml version="1.0"?>\n<a/>\n',
  'c.c': '#include <stdio.h>\nint main(void){}\n',
  'w.wasm': '\x00asm\x01\x00\x00\x00', 'w2.wasm': '\x00asm\x02\x00\x00\x00',
  'i.png': png(3, 2, 8, 6, 0), 'g.png': png(300, 20, 1, 0, 1), 'i.gif': 'GIF89a\x05\x00\x07\x00\x00\x00\x00;',
  'j.jpg': `${jfif}${sof}\xff\xd9`, 'j0.jpg': jfif, 'd.pdf': '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n',
  'named.gz': gzipNamed('notes.txt', 'hello\n', 1577934245), 'z.zip': zip(6), 's.zip': zip(0), 'e.zip': 'PK\x05\x06' + '\0'.repeat(18),
  'g.tar': tar(true), 'u.tar': tar(false),
  'rel.o': elfHeader(1, 62, 0, 64), 'exe': elfHeader(2, 62, 0, 64), 'i386': elfHeader(2, 3, 0, 32), 'arm': elfHeader(3, 183, 0, 64),
  'fbsd': elfHeader(2, 62, 9, 64), 'true.elf': readFileSync('/bin/true', 'latin1'), 'dir/': '',
};
const K = { files: KINDS };

export const file = family('file', [
  u('every kind', 'ln -s ascii sl; ln -s nowhere bsl; file *', K),
  u('-i', 'file -i *', K),
  u('--mime-type -b', 'file -b --mime-type *', K),
  u('--mime-encoding -N', 'file --mime-encoding -N *', K),
  u('symlinks -L -h', 'ln -s ascii sl; ln -s nowhere bsl; file -L sl bsl; file -h sl; file -b -L -i sl', K),
  u('stdin', 'printf hi | file -; file - < j.json; file -bi - < i.png', K),
  u('-F and -b', 'file -F "|" ascii; file -b utf8', K),
  u('setuid text', 'chmod u+s ascii; file ascii', K),
  u('device', 'file /dev/null; file -i /dev/null'),
  u('cannot open', 'file nope; echo "status $?"; file -E nope; echo "status $?"; file -b nope'),
  u('usage', 'file; echo "status $?"; file --bogus; echo "status $?"'),
]);

const tputCases = (term: string) => [
  u(`${term}: sizes and colors`, `TERM=${term} tput cols lines colors it; echo "status $?"`),
  u(`${term}: attributes`, `TERM=${term} tput bold sgr0 smso rmso smul rmul rev | od -An -c; echo "status \${PIPESTATUS[0]}"`),
  u(`${term}: clear el ed`, `TERM=${term} tput clear el ed | od -An -c; echo "status \${PIPESTATUS[0]}"`),
  u(`${term}: colors`, `TERM=${term} tput setaf 1 setab 4 | od -An -c; TERM=${term} tput setaf 100 | od -An -c; echo "status \${PIPESTATUS[0]}"`),
  u(`${term}: cup`, `TERM=${term} tput cup 5 10 | od -An -c; echo "status \${PIPESTATUS[0]}"`),
  u(`${term}: booleans and longname`, `TERM=${term} tput am; echo "am $?"; TERM=${term} tput bce; echo "bce $?"; TERM=${term} tput longname; echo`),
  u(`${term}: cursor and screens`, `TERM=${term} tput civis cnorm smcup rmcup | od -An -c; echo "status \${PIPESTATUS[0]}"`),
];

export const tput = family('tput', [
  ...['xterm', 'xterm-256color', 'screen', 'vt100', 'dumb'].flatMap(tputCases),
  u('parameters left raw', 'TERM=xterm tput cup | od -An -c; TERM=xterm tput hpa | od -An -c'),
  u('missing and odd parameters', 'TERM=xterm tput cup 5 | od -An -c; TERM=xterm tput cup 5 x setaf x | od -An -c; TERM=xterm tput cup 0x10 010 | od -An -c'),
  u('extra arguments are capabilities', 'TERM=xterm tput bold 1; echo "status $?"; TERM=xterm tput setaf 1 bold | od -An -c'),
  u('sgr', 'TERM=xterm tput sgr 1 0 1 0 0 0 0 0 0 | od -An -c; TERM=vt100 tput sgr 0 0 0 0 0 0 0 0 1 | od -An -c'),
  u('-T', 'TERM=xterm tput -T vt100 clear | od -An -c; tput -T dumb cols'),
  u('-x clear', 'TERM=xterm tput -x clear | od -An -c'),
  u('-S', 'printf "cols\\nbold\\nsetaf 2\\n" | TERM=xterm tput -S | od -An -c'),
  u('$COLUMNS and $LINES', 'COLUMNS=100 LINES=50 TERM=xterm tput cols lines'),
  u('extended capabilities', 'TERM=xterm tput E3 | od -An -c; TERM=xterm tput AX; echo "AX $?"; TERM=vt100 tput AX; echo "status $?"'),
  u('absent string', 'TERM=dumb tput bold; echo "status $?"; TERM=dumb tput clear; echo "status $?"'),
  u('unknown capability', 'TERM=xterm tput foo; echo "status $?"'),
  u('unknown terminal', 'TERM=nope tput cols; echo "status $?"'),
  u('no TERM', 'unset TERM; tput cols; echo "status $?"'),
  u('usage', 'TERM=xterm tput; echo "status $?"; TERM=xterm tput --help; echo "status $?"; TERM=xterm tput setaf -1; echo "status $?"'),
  u('init without a terminal', 'TERM=xterm tput init; echo "status $?"'),
  u('version', 'tput -V'),
]);

export const clear = family('clear', [
  u('xterm', 'TERM=xterm clear | od -An -c'),
  u('-x', 'TERM=xterm clear -x | od -An -c'),
  u('-T', 'TERM=xterm clear -T vt100 | od -An -c; TERM=xterm clear -T screen | od -An -c'),
  u('dumb', 'TERM=dumb clear; echo "status $?"'),
  u('unknown terminal', 'TERM=nope clear; echo "status $?"'),
  u('no TERM', 'unset TERM; clear; echo "status $?"'),
  u('usage', 'TERM=xterm clear x; echo "status $?"; TERM=xterm clear --help; echo "status $?"'),
  u('version', 'clear -V'),
]);

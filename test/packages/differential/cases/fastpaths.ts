// Edges of the text tools' fast paths (decision 0025): newline counting a word
// at a time, latin1 conversion through the native decoders, reads of a whole
// syscall's worth, and sort's keys prepared once per line.
// (Scripts are JS template literals: \\ is \, \${ is ${.)
import { family, u } from '../types.js';

let all = '';
for (let i = 0; i < 256; i++) all += String.fromCharCode(i);

/** ~700 KB of lines of every length 0–40, so reads and words end mid-line. */
function big(): string {
  const out: string[] = [];
  for (let i = 0; out.length < 40000; i++) out.push('x'.repeat(i % 41) + (i % 97 === 0 ? '\r' : ''));
  return out.join('\n');
}

const F = {
  'all.bin': all,
  'c1.bin': '\x80\x81\x8d\x8f\x90\x9d\x9f\n\xa0\xff\n',
  'big.txt': big(),
  'nl-only': '\n\n\n\n\n\n\n',
  'nonl': 'a\nb\nno newline',
  'one': 'x',
  'empty': '',
  'cr.txt': 'a\rb\r\nc\r\n\r',
  'nums.txt': '3\n-0\n0\n 7\n\t-2\n-\n.5\n-.5\n5.\n0010\n1e3\n+4\nabc\n\n2.50\n2.5\n-2.5\n',
  'long.txt':
    '12345678901234567891\n12345678901234567890\n-12345678901234567891\n-12345678901234567890\n' +
    '1.000000000000000000001\n1.0000000000000000000001\n1\n99999999999999999999999\n100000000000000000000000\n' +
    `${'9'.repeat(400)}\n${'9'.repeat(399)}8\n-${'9'.repeat(400)}\n`,
  'dup.txt': '5\n3\n5\n05\n3.0\n-3\n3\n',
  'keys.txt': 'b 10 x\na 9 y\nc 10 a\nd -1 z\ne 010 q\n',
};

export const fastpaths = family('fast paths', [
  u('wc -l, every byte value', 'wc -l all.bin; wc -c all.bin', { files: F }),
  u('wc -l across reads, CR bytes, no final newline', 'wc -l big.txt; wc -lc big.txt; wc big.txt', { files: F }),
  u('wc -l of newlines only, unterminated, empty', 'wc -l nl-only nonl one empty cr.txt', { files: F }),
  u('wc -l through a pipe', 'cat big.txt big.txt | wc -l', { files: F }),
  u('wc -l at every alignment', 'for i in 1 2 3 4 5 6 7; do tail -c +$i big.txt | wc -l; done', { files: F }),
  u('sort keeps bytes 0x80-0x9f (not windows-1252)', 'sort c1.bin | od -An -tx1', { files: F }),
  u('sort of every byte value', 'sort all.bin | od -An -tx1', { files: F }),
  u('sort -n edge forms', 'sort -n nums.txt', { files: F }),
  u('sort -nr edge forms', 'sort -nr nums.txt', { files: F }),
  u('sort -n beyond a double', 'sort -n long.txt', { files: F }),
  u('sort -nu', 'sort -nu dup.txt', { files: F }),
  u('sort -n -s', 'sort -n -s dup.txt', { files: F }),
  u('sort -c -n', 'sort -c -n dup.txt; echo $?; sort -n dup.txt | sort -c -n; echo $?', { files: F }),
  u('sort -k2,2n -k1,1r', 'sort -k2,2n -k1,1r keys.txt; sort -k2n keys.txt', { files: F }),
  u('sort -z -n skips newlines as blanks', "printf '@5\\n3\\n 4\\n' | tr '@\\n' '\\n\\0' | sort -z -n | od -An -c"),
  u('sort big input', 'sort big.txt | md5sum; sort -r big.txt | md5sum', { files: F }),
  u('tr of every byte value', 'tr a-z A-Z < all.bin | od -An -tx1', { files: F }),
]);

// Characters: the same commands over non-ASCII text. Under LANG=C.UTF-8 the
// tools GNU makes character-aware count and split characters; under LC_ALL=C
// they stay byte-exact. Both locales run every case (diff.test.ts).
import { family, u } from '../types.js';

/** Fixture text as the byte string the suite writes (UTF-8 bytes, one char per byte). */
const b = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

const T = {
  // Characters of 2, 3 and 4 bytes, a double-width line, and tabs after wide text.
  'u.txt': b('héllo wörld €\nÀbç αβγ 😀!\nstraße 日本語\n\tcafé\tx\n'),
  'w.txt': b('日本語のテキスト と English text mixed 😀 together\n'),
  // An invalid byte and a sequence cut short.
  'bad.txt': 'ok \xc3\xa9 \xff end\nh\xc3\n',
  'ü/é.txt': 'x\n',
  'naïve.txt': '',
  'ab.txt': '',
};

export const chars = family('chars', [
  u('wc -m -c -w -l', 'wc -m u.txt; wc -c u.txt; wc -w u.txt w.txt; wc -lmwc u.txt', { files: T }),
  u('wc -L', 'wc -L u.txt w.txt', { files: T }),
  u('wc over invalid bytes', 'wc -mwc bad.txt; wc -L bad.txt', { files: T }),
  u('wc -m from a pipe', 'printf "é%.0s" $(seq 5000) | wc -m; cat u.txt u.txt | wc -m', { files: T }),
  u('rev', 'rev u.txt | od -c', { files: T }),
  u('cut -b and -c', 'cut -b 2 u.txt | od -c; cut -c 1-3 u.txt | od -c', { files: T }),
  u('fold', 'fold -w 5 u.txt | od -c; fold -b -w 4 w.txt | od -c', { files: T }),
  u('expand and unexpand', 'expand -t 4 u.txt | od -c; expand -t 4 u.txt | unexpand -a -t 4 | od -c', { files: T }),
  u('od -c', 'od -c u.txt', { files: T }),
  u('tr bytes', 'tr -d "\\200-\\377" < u.txt; tr a-z A-Z < u.txt', { files: T }),
  u('head and tail -c', 'head -c 2 u.txt | od -c; tail -c 3 u.txt | od -c', { files: T }),
  u('sort and uniq', 'sort u.txt | od -c; sort -u w.txt u.txt | uniq -c', { files: T }),
  u('nl and paste', 'nl u.txt; paste u.txt w.txt', { files: T }),
  u('expr', 'expr length "héllo"; expr substr "héllo" 2 2; expr index "héllo" "l"; expr "héllo" : "h.l"', { files: T }),
  u('ls names', 'ls; ls ü; ls -1 ü/é.txt naïve.txt; ls -l ü | cut -c 1-10', { files: T }),
  u('ls columns', 'ls -C -w 30; ls -x -w 40', { files: T }),
  u('basename and dirname', 'basename ü/é.txt .txt; dirname ü/é.txt', { files: T }),
  u('diagnostics quote names', 'cat nöpe; ls nöpe; head -n x u.txt; true', { files: T }),
  u('column', 'column -t u.txt', { files: T }),
  u('fmt', 'fmt -w 12 w.txt', { files: T }),
]);

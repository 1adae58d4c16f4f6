// patch: unified, context and normal diffs; offsets and fuzz; rejects;
// reversed patches; creating and deleting files; and round trips of
// generated file pairs through diff and patch.
// (Scripts are JS template literals: \\ is \, \${ is ${.)
import { family, u, type UCase } from '../types.js';
import { TIMES } from './compare.js';
import { editLines, gen, randomLines, text } from './textgen.js';

const seq = (a: number, b: number, f: (n: number) => string = String): string => {
  let s = '';
  for (let i = a; i <= b; i++) s += `${f(i)}\n`;
  return s;
};

const F = {
  'a': seq(1, 30),
  'b': seq(1, 30, (n) => (n === 5 ? 'FIVE' : n === 20 ? 'TWENTY' : String(n))),
  'shifted': `new1\nnew2\n${seq(1, 30)}`,
  'fuzzy': `new1\n${seq(1, 30, (n) => (n === 3 ? 'three' : n === 18 ? 'x' : String(n)))}`,
  'conflict': seq(1, 30, (n) => (n === 5 ? 'five' : String(n))),
};

/** Make the diffs inside the case (GNU diff on the host, agentOS diff in the VM: their equality is tested elsewhere). */
const MK = 'diff -u a b > u.diff; diff -c a b > c.diff; diff a b > n.diff; ';

const handmade: UCase[] = [
  u('unified', `${MK}cp a t; patch t < u.diff; echo "status $?"; cmp t b && echo same`, { files: F }),
  u('operand patchfile', `${MK}cp a t; patch t u.diff; echo "status $?"; cmp t b && echo same`, { files: F }),
  u('-i', `${MK}cp a t; patch -i u.diff t; echo "status $?"; cmp t b && echo same`, { files: F }),
  u('names from headers', `${MK}cp a keep; patch < u.diff; echo "status $?"; cmp a b && echo same`, { files: F }),
  u('context', `${MK}cp a t; patch t < c.diff; echo "status $?"; cmp t b && echo same`, { files: F }),
  u('normal', `${MK}cp a t; patch t < n.diff; echo "status $?"; cmp t b && echo same`, { files: F }),
  u('normal without file', `${MK}patch < n.diff; echo "status $?"`, { files: F }),
  u('--dry-run', `${MK}patch --dry-run < u.diff; echo "status $?"; cmp a b >/dev/null || echo unchanged`, { files: F }),
  u('-o', `${MK}patch -o out a < u.diff; echo "status $?"; cmp out b && echo same; sed -n 5p a`, { files: F }),
  u('-b', `${MK}patch -b < u.diff; echo "status $?"; ls; cmp a.orig shifted 2>/dev/null; sed -n 5p a.orig`, { files: F }),
  u('offset', `${MK}patch shifted < u.diff; echo "status $?"; ls; sed -n 7p shifted`, { files: F }),
  u('offset context', `${MK}patch shifted < c.diff; echo "status $?"`, { files: F }),
  u('offset normal', `${MK}patch shifted < n.diff; echo "status $?"`, { files: F }),
  u('fuzz', `${MK}patch fuzzy < u.diff; echo "status $?"; sed -n 6p fuzzy`, { files: F }),
  u('fuzz context', `${MK}patch fuzzy < c.diff; echo "status $?"`, { files: F }),
  u('-F 0', `${MK}patch -F 0 fuzzy < u.diff; echo "status $?"; cat fuzzy.rej`, { files: F, normalise: TIMES }),
  u('reject unified', `${MK}patch conflict < u.diff; echo "status $?"; cat conflict.rej; ls`, { files: F, normalise: TIMES }),
  u('reject context', `${MK}patch conflict < c.diff; echo "status $?"; cat conflict.rej`, { files: F, normalise: TIMES }),
  u('reject normal', `${MK}patch conflict < n.diff; echo "status $?"; cat conflict.rej`, { files: F }),
  u('reject --dry-run', `${MK}patch --dry-run conflict < u.diff; echo "status $?"; ls`, { files: F }),
  u('reversed', `${MK}cp b t; patch t < u.diff; echo "status $?"; cat t.rej | tail -n +3; cmp t b && echo unchanged`, { files: F }),
  u('reversed -N', `${MK}cp b t; patch -N t < u.diff; echo "status $?"; cmp t b && echo unchanged`, { files: F }),
  u('reversed -t', `${MK}cp b t; patch -t t < u.diff; echo "status $?"; cmp t a && echo reverted`, { files: F }),
  u('reversed -f', `${MK}cp b t; patch -f t < u.diff; echo "status $?"`, { files: F }),
  u('-R', `${MK}cp b t; patch -R t < u.diff; echo "status $?"; cmp t a && echo reverted`, { files: F }),
  u('-R unreversed', `${MK}cp a t; patch -R t < u.diff; echo "status $?"`, { files: F }),
  u('-s', `${MK}cp b t; patch -s t < u.diff; echo "status $?"; patch -s shifted < u.diff; echo "status $?"`, { files: F }),
  u('create', 'printf "x\\ny\\n" > new; diff -u /dev/null new > p; rm new; patch < p; echo "status $?"; cat new'),
  u('create in dir', 'mkdir n; printf "x\\n" > n/f; diff -uN o n > p; rm -r n; patch -p1 < p; echo "status $?"; ls; cat f'),
  u('create existing', 'printf "x\\n" > new; diff -u /dev/null new > p; patch < p; echo "status $?"; cat new'),
  u('delete', 'printf "x\\ny\\n" > old; diff -u old /dev/null > p; patch < p; echo "status $?"; ls'),
  u('delete missing', 'printf "x\\n" > old; diff -u old /dev/null > p; rm old; patch < p; echo "status $?"'),
  u('delete differs', 'printf "x\\n" > old; diff -u old /dev/null > p; printf "x\\nmore\\n" > old; patch < p; echo "status $?"; cat old'),
  u('-E', 'printf "x\\n" > f; printf "" > g; diff -u f g > p; patch f < p; wc -c < f; patch -R f < p; cat f; patch -E f < p; echo "status $?"; ls'),
  u('tree -p1', 'mkdir -p o/sub n/sub n/new; seq 1 10 > o/f; seq 1 10 | sed s/5/FIVE/ > n/f; echo gone > o/sub/del; echo hi > n/new/file; seq 1 20 > o/sub/g; seq 1 20 | sed "s/^2$/TWO/;s/^19$/N19/" > n/sub/g; diff -ruN o n > p; cp -r o w; cd w && patch -p1 < ../p; echo "status $?"; find . | sort; cd ..; diff -r w n && echo same'),
  u('tree -p1 -b', 'mkdir -p o n; seq 1 10 > o/f; seq 2 11 > n/f; echo x > n/g; diff -ruN o n > p; cd o && patch -p1 -b < ../p; echo "status $?"; ls'),
  u('tree --dry-run -R', 'mkdir -p o n; seq 1 10 > o/f; seq 2 11 > n/f; echo x > n/g; diff -ruN o n > p; cd n && patch -p1 -R --dry-run < ../p; echo "status $?"; ls'),
  u('-p0 path', 'mkdir -p x/y; seq 1 5 > x/y/f; seq 1 5 | sed s/3/T/ > g; diff -u x/y/f g | sed "2s/.*/+++ x\\/y\\/f/" > p; patch -p0 < p; echo "status $?"; cat x/y/f'),
  u('no -p basename', 'mkdir -p x/y; seq 1 5 > x/y/f; seq 1 5 | sed s/3/T/ > g; diff -u x/y/f g | sed "2s/.*/+++ x\\/y\\/f/" > p; cp x/y/f f; patch < p; echo "status $?"; cat f; cat x/y/f'),
  u('missing file', 'seq 1 5 > f; seq 1 5 | sed s/3/T/ > g; diff -u f g | sed "1s/f/zz\\/q/;2s/g/zz\\/q/" > p; patch -p1 < p; echo "status $?"', { normalise: TIMES }),
  u('missing file -f', 'seq 1 5 > f; seq 1 5 | sed s/3/T/ > g; diff -u f g | sed "1s/f/q/;2s/g/q/" > p; patch -f < p; echo "status $?"', { normalise: TIMES }),
  u('garbage', 'echo hello | patch; echo "status $?"'),
  u('empty patch', 'patch < /dev/null; echo "status $?"'),
  u('malformed', 'printf -- "--- a\\n+++ a\\n@@ -1,2 +1,2 @@\\n x\\n?y\\n" > p; echo x > a; patch < p; echo "status $?"'),
  u('truncated', 'printf -- "--- a\\n+++ a\\n@@ -1,5 +1,5 @@\\n x\\n-y\\n" > p; printf "x\\ny\\n" > a; patch < p; echo "status $?"'),
  u('no newline added', 'printf "a\\nb" > f; printf "a\\nb\\n" > g; diff -u f g > p; patch f < p; echo "status $?"; od -c f'),
  u('no newline removed', 'printf "a\\nb\\n" > f; printf "a\\nc" > g; diff -u f g > p; patch f < p; echo "status $?"; od -c f'),
  u('no newline context', 'printf "a\\nb" > f; printf "a\\nc" > g; diff -c f g > p; patch f < p; echo "status $?"; od -c f'),
  u('append after no newline', 'printf "a\\nb" > f; printf "a\\nb\\nc\\n" > g; diff f g > p; patch f < p; echo "status $?"; od -c f'),
  u('-U0 insert', 'seq 1 10 > f; (seq 1 3; echo x; seq 4 10) > g; diff -U0 f g > p; seq 1 10 | sed "1i\\\\\ntop" > h; patch h < p; echo "status $?"; sed -n 5p h'),
  u('two hunks one fails', 'seq 1 40 > f; seq 1 40 | sed "s/^3$/T/;s/^30$/X/" > g; diff -u f g > p; seq 1 40 | sed "s/^30$/thirty/" > f; patch f < p; echo "status $?"; tail -n +3 f.rej'),
  u('-r rejfile', 'seq 1 10 > f; seq 1 10 | sed s/5/F/ > g; diff -u f g > p; seq 1 10 | sed s/5/V/ > f; patch -r out.rej f < p; echo "status $?"; ls; tail -n +3 out.rej'),
  u('-l whitespace', 'printf "a b\\nc\\n" > f; printf "a b\\nC\\n" > g; diff -u f g > p; printf "a  b\\nc\\n" > f; patch f < p; echo "status $?"; patch -l f < p; echo "status $?"; cat f'),
  u('-d', 'mkdir d; seq 1 5 > d/f; seq 1 5 | sed s/2/B/ > g; diff -u d/f g > p; patch -d d < p; echo "status $?"; cat d/f'),
  u('bad option', 'patch -Q; echo "status $?"'),
  u('extra operand', 'patch a b c; echo "status $?"'),
  u('bad strip', 'patch -p x < /dev/null; echo "status $?"'),
  u('missing patch file', 'patch f nope; echo "status $?"'),
  u('index line', 'seq 1 5 > f; seq 1 5 | sed s/2/B/ > g; (echo "Index: f"; echo "==="; diff -u f g | sed "1s/.*/--- f.orig/;2s/.*/+++ f.new/") > p; patch < p; echo "status $?"; cat f'),
  u('git new and deleted files', 'mkdir d; echo gone > d/old; printf "diff --git a/d/new b/d/new\\nnew file mode 100644\\nindex 0000000..3b18e51\\n--- /dev/null\\n+++ b/d/new\\n@@ -0,0 +1 @@\\n+hello\\ndiff --git a/d/old b/d/old\\ndeleted file mode 100644\\nindex 3b18e51..0000000\\n--- a/d/old\\n+++ /dev/null\\n@@ -1 +0,0 @@\\n-gone\\n" > p; patch -p1 < p; echo "status $?"; ls d; cat d/new'),
  u('git style', 'mkdir a b; seq 1 5 > a/f; seq 1 5 | sed s/4/D/ > b/f; (echo "diff --git a/f b/f"; echo "index 1234567..89abcde 100644"; diff -u a/f b/f) > p; cp a/f f; patch -p1 < p; echo "status $?"; cat f'),
];

/** diff | patch on generated pairs: the patched file must equal the target, as with GNU. */
function roundTrips(): UCase[] {
  const cases: UCase[] = [];
  for (let k = 0; k < 30; k++) {
    const g = gen(5000 + k);
    const vocab = 3 + (k % 15);
    const a = randomLines(g, 10 + g.int(120), vocab);
    const b = editLines(g, a, 1 + g.int(8), vocab);
    const files = { 'a.txt': text(a, k % 7 === 2), 'b.txt': text(b, k % 9 === 4) };
    const fmt = k % 3 === 0 ? '-u' : k % 3 === 1 ? '-c' : '';
    cases.push(u(`round trip ${k} ${fmt || 'normal'}`, `diff ${fmt} a.txt b.txt > p; patch -o out a.txt < p; echo "status $?"; cmp out b.txt && echo same`, { files }));
  }
  return cases;
}

/** Patches applied to files that drifted elsewhere: offsets, fuzz and rejects as GNU reports them. */
function drifted(): UCase[] {
  const cases: UCase[] = [];
  for (let k = 0; k < 25; k++) {
    const g = gen(7000 + k);
    const vocab = 6 + (k % 14);
    const a = randomLines(g, 40 + g.int(150), vocab);
    const b = editLines(g, a, 1 + g.int(5), vocab);
    const c = editLines(g, a, 1 + g.int(6), vocab);
    const files = { 'a.txt': text(a), 'b.txt': text(b), 'c.txt': text(c) };
    const fmt = k % 2 === 0 ? '-u' : '-c';
    cases.push(u(`drifted ${k} ${fmt}`, `diff ${fmt} --label a.txt --label b.txt a.txt b.txt > p; patch c.txt < p; echo "status $?"; cat c.txt; cat c.txt.rej 2>/dev/null; ls`, { files }));
  }
  return cases;
}

export const patch = family('patch', handmade);
export const patchRoundTrips = family('patch round trips', roundTrips());
export const patchDrifted = family('patch drifted', drifted());

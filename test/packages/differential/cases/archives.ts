// Archives: tar, gzip/gunzip/zcat, zip/unzip against GNU tar 1.34, GNU gzip
// 1.12 and Info-ZIP zip 3.0 / UnZip 6.00.
//
// Each side lists, extracts and reports on archives made by its own tools,
// or on archives made by the real tools (archive-fixtures.ts). Things that
// cannot match are kept out of the comparison, each for its reason:
// - compressed sizes and ratios of data WE compress (fflate's deflate is not
//   zlib's): gzip -l/-v and zip's "deflated N%" are compared on fixtures, or
//   on stored data;
// - directory order: ext4 hands out entries in hash order, agentOS in
//   creation order, so archives of several files use --sort=name, explicit
//   operand lists or sorted output;
// - times of things created during the run: files get fixed times with
//   `touch -d @...` (agentOS's touch has no -h, so symlink times are cut out);
// - directory sizes (ext4 4096, agentOS 60) in stat output.
import { family, u } from '../types.js';
import { gnuTar, gnuTgz, helloGz, infoZip, paxTar, seqGz, streamZip, ustarTar, v7Tar } from './archive-fixtures.js';

const T = '1600000000';
/** A small tree with every member type, all times fixed (the symlink's excepted). */
const TREE =
  `mkdir -p d/sub d/empty && printf 'hello\\n' > d/a && seq 100 > d/sub/n && ln -s a d/link && ln d/a d/hard ` +
  `&& printf '#!/bin/sh\\n' > d/run && chmod 755 d/run && find d -exec touch -d @${T} {} +`;
/** tar -tv, with symlink times cut (see above). */
const TV = `sed -E 's/^(l.{30}).{16}/\\1 (time)/'`;
const st = 'echo "status $?"';
const statTree = (dir: string) => `find ${dir} ! -type l ! -type d -exec stat -c '%A %h %s %Y %n' {} + | sort; find ${dir} -type l -exec stat -c '%A %n %N' {} + | sort; find ${dir} -type d | sort`;
const fx = (name: string, content: string) => ({ [name]: content });

export const tar = family('tar', [
  // Creating: GNU's default format, byte for byte.
  // (The symlink's own time cannot be set here, so byte comparisons leave it out.)
  u('create: same bytes as GNU', `${TREE}; tar --sort=name -cf a.tar --exclude=link d; md5sum a.tar; ${st}`),
  u('create: long names (99..101, 150 bytes), same bytes', `mkdir l; for n in 99 100 101 150; do f=l/$(printf "n%.0s" $(seq $((n-2)))); echo $n > $f; done; find l -exec touch -d @${T} {} +; tar --sort=name -cf - l | md5sum`),
  u('create: long symlink target', `mkdir l; ln -s $(printf 'y%.0s' $(seq 120)) l/s; tar -cf - l/s | tar -tvf - | ${TV}`),
  u('create: ustar format, same bytes', `${TREE}; tar --sort=name --format=ustar --exclude=link -cf - d | md5sum`),
  u('create: ustar name too long', `mkdir l; touch l/$(printf 'n%.0s' $(seq 120)); tar --format=ustar -cf a.tar l/n*; ${st}; tar -tf a.tar`),
  u('create: v7 format listing', `${TREE}; tar --format=v7 -cf a.tar d/a d/run; tar -tvf a.tar`),
  u('create -v names', `${TREE}; tar --sort=name -cvf a.tar d`),
  u('create -vv long listing', `${TREE}; tar --sort=name -cvvf a.tar d | ${TV}`),
  u('create to stdout: verbose on stderr', `${TREE}; tar --sort=name -cvf - d | tar -tf - | wc -l`),
  u('create: removing leading /', `${TREE}; tar -cf a.tar "$PWD/d/a"; ${st}; tar -tf a.tar | sed "s|^\${PWD#/}|PWD|"`),
  u('create: removing leading ../', `${TREE}; cd d/sub && tar -cf ../../a.tar ../a ../../d/run; ${st}; cd ../..; tar -tf a.tar`),
  u('create -P keeps /', `${TREE}; tar -cPf a.tar "$PWD/d/a"; tar -tf a.tar | sed "s|^$PWD|PWD|"`),
  u('create: nothing to archive', `tar -cf a.tar; ${st}`),
  u('create: missing operand', `${TREE}; tar -cf a.tar d/a nope d/run; ${st}; tar -tf a.tar`),
  u('create -C', `${TREE}; tar -cf a.tar -C d sub -C sub n; tar -tf a.tar`),
  u('create --exclude', `${TREE}; tar --sort=name -cf a.tar --exclude=n --exclude='*un' d; tar -tf a.tar`),
  u('create --exclude a directory', `${TREE}; tar --sort=name -cf a.tar --exclude=d/sub d; tar -tf a.tar`),
  u('create: --exclude after the names', `${TREE}; tar --sort=name -cf a.tar d --exclude=n; ${st}; tar -tf a.tar`),
  u('create -T list', `${TREE}; printf 'd/a\\nd/sub\\n' > list; tar -cf a.tar -T list; tar -tf a.tar`),
  u('create -X exclude file', `${TREE}; printf 'n\\nrun\\n' > ex; tar --sort=name -cf a.tar -X ex d; tar -tf a.tar`),
  u('create: the archive is left out', `${TREE}; cd d; tar --sort=name -cf a.tar .; ${st}; tar -tf a.tar`),
  u('create -h follows symlinks', `${TREE}; tar -chf a.tar d/link; tar -tvf a.tar`),
  u('create --owner --group --numeric-owner', `${TREE}; tar --owner=nobody --group=65534 -cf a.tar d/a; tar -tvf a.tar; tar --numeric-owner -tvf a.tar`),
  u('old-style options', `${TREE}; tar cf a.tar d/a d/run; tar tvf a.tar; tar xfO a.tar d/a`),
  // Listing.
  u('list: names with newline and backslash quoted', `mkdir q; touch "q/a$(printf '\\nb')" 'q/back\\\\slash' 'q/tab	x'; tar --sort=name -cf a.tar q; tar -tf a.tar; tar -tvf a.tar | cut -c 50-`),
  u('list --full-time', `${TREE}; tar -cf a.tar d/a; tar --full-time -tvf a.tar`),
  u('list: member names', `${TREE}; tar --sort=name -cf a.tar d; tar -tf a.tar d/sub d/a; ${st}`),
  u('list: not found', `${TREE}; tar -cf a.tar d; tar -tf a.tar d/a nope d/a; ${st}`),
  u('list: wildcards need --wildcards', `${TREE}; tar --sort=name -cf a.tar d; tar -tf a.tar 'd/s*'; ${st}; tar -tf a.tar --wildcards 'd/s*'`),
  u('list --exclude', `${TREE}; tar --sort=name -cf a.tar d; tar -tf a.tar --exclude=sub --exclude='*n'`),
  u('list: GNU long names (fixture)', 'tar -tvf gnu.tar', { files: fx('gnu.tar', gnuTar) }),
  u('list: pax (fixture)', 'tar -tvf pax.tar', { files: fx('pax.tar', paxTar) }),
  u('list: ustar prefix (fixture)', 'tar -tvf ustar.tar', { files: fx('ustar.tar', ustarTar) }),
  u('list: v7 (fixture)', 'tar -tvf v7.tar', { files: fx('v7.tar', v7Tar) }),
  u('list: gzipped (fixture), -z and detected', 'tar -tzvf a.tgz; tar -tvf a.tgz', { files: fx('a.tgz', gnuTgz) }),
  u('list: not an archive', `printf 'hello\\n' > f; tar -tf f; ${st}; head -c 2000 /dev/zero | tr '\\0' x > big; tar -tf big; ${st}`),
  u('list: empty file', `: > e; tar -tf e; ${st}`),
  u('list: truncated member', `${TREE}; tar -cf a.tar d/sub/n; head -c 800 a.tar > t.tar; tar -tf t.tar; ${st}`),
  u('list: lone zero block', `${TREE}; tar -cf a.tar d/a; head -c 1024 a.tar > z.tar; head -c 512 /dev/zero >> z.tar; tar -tf z.tar; ${st}`),
  u('list: no end blocks', `${TREE}; tar -cf a.tar d/a; head -c 1024 a.tar > z.tar; tar -tf z.tar; ${st}`),
  u('list: bad header then good', `${TREE}; tar -cf a.tar d/a d/run; printf XXXX | dd of=a.tar bs=1 seek=148 conv=notrunc 2>/dev/null; tar -tf a.tar; ${st}`),
  u('list -i ignores zeros', `${TREE}; tar -cf a.tar d/a; tar -cf b.tar d/run; cat a.tar b.tar > c.tar; tar -tf c.tar; tar -itf c.tar`),
  // Extracting.
  u('extract: the tree', `${TREE}; tar -cf a.tar d; mkdir o; tar -xf a.tar -C o; ${st}; ${statTree('o')}`),
  u('extract -v names', `${TREE}; tar --sort=name -cf a.tar d; mkdir o; cd o; tar -xvf ../a.tar`),
  u('extract: fixture with long names and links', `mkdir o; tar -xf gnu.tar -C o; ${st}; ${statTree('o')}`, { files: fx('gnu.tar', gnuTar) }),
  u('extract: pax fixture', `mkdir o; tar -xf pax.tar -C o; ${st}; ${statTree('o')}`, { files: fx('pax.tar', paxTar) }),
  u('extract: one member and a missing one', `${TREE}; tar -cf a.tar d; mkdir o; tar -xf a.tar -C o d/sub/n nope; ${st}; find o | sort`),
  u('extract --strip-components', `${TREE}; tar --sort=name -cf a.tar d; mkdir o; tar -xvf a.tar -C o --strip-components=1; find o | sort`),
  u('extract -k keeps files', `${TREE}; tar --sort=name -cf a.tar d; echo changed > d/sub/n; tar -xkf a.tar; ${st}; cat d/sub/n`),
  u('extract --skip-old-files', `${TREE}; tar -cf a.tar d; echo changed > d/sub/n; tar --skip-old-files -xf a.tar; ${st}; cat d/sub/n`),
  u('extract replaces files, keeps nothing stale', `${TREE}; tar -cf a.tar d; echo changed > d/sub/n; rm d/a; mkdir d/a; tar -xf a.tar; ${st}; cat d/sub/n d/a`),
  u('extract -O', `${TREE}; tar --sort=name -cf a.tar d; tar -xOf a.tar; tar -xOf a.tar d/sub/n | tail -n 2; tar -xvOf a.tar d/a`),
  u('extract -p modes and -m', `${TREE}; chmod 640 d/a; chmod 700 d/sub; tar -cf a.tar d; mkdir o p; tar -xpf a.tar -C o; stat -c '%a %Y %n' o/d/a o/d/sub o/d/run; tar -xmf a.tar -C p; stat -c '%a %n' p/d/a`),
  u('extract: -C applies to the names after it', `${TREE}; tar -cf a.tar d; mkdir o p; rm d/a; tar -xf a.tar d/a -C o d/run -C ../p d/sub/n; find o p | sort; ls d`),
  // The seconds in the warning run on with the clock: cut to their shape.
  u('extract: time stamp in the future', `printf 'x\\n' > f; touch -d @4000000000 f; tar -cf a.tar f; mkdir o; tar -xf a.tar -C o 2>&1 | sed 's/is [0-9]*[.][0-9]* s/is N s/'; stat -c %Y o/f`),
  u('extract: into a missing directory', `${TREE}; tar -cf a.tar d; tar -xf a.tar -C nodir; ${st}`),
  u('extract: archive missing', `tar -xf nope.tar; ${st}`),
  u('extract: .. members are made safe', `mkdir -p x/y; echo evil > x/e; cd x/y; tar -cf ../../a.tar ../e; cd ../..; mkdir o; tar -xvf a.tar -C o; ${st}; find o | sort`),
  // gzip through tar.
  u('-z round trip', `${TREE}; tar --sort=name -czf a.tgz d; tar -tzvf a.tgz | ${TV}; mkdir o; tar -xzf a.tgz -C o; ${statTree('o')}`),
  u('-z detected when reading a file', `${TREE}; tar -czf a.tgz d/a; tar -tf a.tgz; tar -xOf a.tgz`),
  u('-z stdin without -z', `${TREE}; tar -czf - d/a | tar -tf -; ${st}`),
  u('-z on a plain tar', `${TREE}; tar -cf a.tar d/a; tar -tzf a.tar; ${st}`),
  u('-z archive missing', `tar -xzf nope.tgz; ${st}`),
  u('-z trailing garbage', `${TREE}; tar -czf a.tgz d/a; echo junk >> a.tgz; tar -tzf a.tgz; ${st}`),
  u('-z truncated', `${TREE}; seq 20000 > big; tar -czf a.tgz big; head -c 1000 a.tgz > t.tgz; tar -tzf t.tgz; ${st}`),
  // Appending and updating.
  u('append -r', `${TREE}; tar -cf a.tar d/a; tar -rf a.tar d/run; tar -tf a.tar; ${st}`),
  u('append to a new archive', `${TREE}; tar -rf n.tar d/a; tar -tf n.tar`),
  u('update -u adds only newer files', `${TREE}; tar -cf a.tar d/a d/run; touch -d @1700000000 d/run; tar -uf a.tar d/a d/run d/sub/n; tar -tf a.tar`),
  u('append to a compressed archive', `${TREE}; tar -czf a.tgz d/a; tar -rf a.tgz d/run; ${st}; tar -rzf a.tgz d/run; ${st}`),
  u('append to stdout', `${TREE}; tar -rf - d/a; ${st}`),
  // Usage.
  u('usage: invalid option', `tar -y; ${st}; tar --nope; ${st}`),
  u('usage: no operation', `tar -f a.tar; ${st}`),
  u('usage: two operations', `tar -cx; ${st}`),
  u('usage: -f without argument', `tar -cf; ${st}`),
  u('usage: bad --strip-components', `tar -xf a.tar --strip-components=x; ${st}`),
  u('usage: bad --format', `tar -cf a.tar --format=zz .; ${st}`),
  u('usage: --sort', `tar -cf a.tar --sort=zz .; ${st}`),
]);

/** GNU gzip's own output of `printf 'hello\n'` (name hello.txt) and of `seq 1000 | gzip -9`. */
const GZ = { 'hello.gz': helloGz, 'n.gz': seqGz };

export const gzip = family('gzip', [
  u('round trip', `seq 5000 > f; gzip f; ls; gunzip f.gz; ls; md5sum f`),
  u('binary round trip', `head -c 70000 /dev/urandom > r; cp r r0; gzip r; gzip -d r.gz; [ "$(md5sum < r)" = "$(md5sum < r0)" ] && echo same`),
  u('-c keeps the file', `printf 'x\\n' > f; gzip -c f | gzip -dc; ls`),
  u('-k', `printf 'x\\n' > f; gzip -k f; ls; gzip -dk f.gz; ${st}`),
  u('header: name, time, XFL and OS', `printf 'x\\n' > f; touch -d @${T} f; gzip -c f | head -c 12 | od -A d -t x1; gzip -9nc f | head -c 10 | od -A d -t x1; gzip -1 < f | head -c 10 | od -A d -t x1`),
  u('mode and time carried over', `printf 'x\\n' > f; chmod 640 f; touch -d @${T} f; gzip f; stat -c '%a %Y %n' f.gz; gunzip f.gz; stat -c '%a %Y %n' f`),
  u('-l (fixture)', 'gzip -l hello.gz; gzip -l n.gz hello.gz', { files: GZ }),
  u('-lv (fixture)', `touch -d @${T} hello.gz n.gz; gzip -lv hello.gz n.gz`, { files: GZ }),
  u('-lN shows the stored name (fixture)', 'gzip -lN hello.gz; gzip -l < hello.gz', { files: GZ }),
  u('-l of several members (fixture)', 'cat hello.gz n.gz > m.gz; gzip -l m.gz; zcat m.gz | wc -l', { files: GZ }),
  u('-d restores the name with -N (fixture)', `gunzip -N hello.gz; ls; cat hello.txt; stat -c %Y hello.txt`, { files: GZ }),
  u('-t and -tv (fixture)', `gzip -t hello.gz n.gz; ${st}; gzip -tv hello.gz`, { files: GZ }),
  u('-v decompressing (fixture)', 'gzip -dv n.gz; wc -l n', { files: GZ }),
  u('zcat several files', `printf 'a\\n' | gzip > a.gz; printf 'b\\n' | gzip > b.gz; zcat a.gz b.gz; zcat < a.gz`),
  u('zcat -f passes plain data', `printf 'plain\\n' > p; zcat -f p; printf 'x' | zcat -f; echo`),
  u('not in gzip format', `printf 'plain\\n' > p.gz; gunzip p.gz; ${st}; gzip -d < p.gz; ${st}`),
  u('empty input', `gzip -d < /dev/null; ${st}; : > e.gz; gunzip e.gz; ${st}`),
  u('unexpected end of file (fixture)', `head -c 20 n.gz > t.gz; gunzip t.gz; ${st}; ls t*`, { files: GZ }),
  u('crc error (fixture)', `cp hello.gz c.gz; printf 'X' | dd of=c.gz bs=1 seek=31 conv=notrunc 2>/dev/null; gzip -dc c.gz; ${st}`, { files: GZ }),
  u('length error (fixture)', `cp hello.gz c.gz; printf 'X' | dd of=c.gz bs=1 seek=33 conv=notrunc 2>/dev/null; gzip -dc c.gz; ${st}`, { files: GZ }),
  u('trailing garbage (fixture)', `cat hello.gz > g.gz; echo junk >> g.gz; gzip -dc g.gz; ${st}; gzip -l g.gz; ${st}`, { files: GZ }),
  u('trailing zeros (fixture)', `cat hello.gz > z.gz; head -c 10 /dev/zero >> z.gz; gzip -dc z.gz; ${st}; gzip -dvc z.gz >/dev/null; ${st}`, { files: GZ }),
  u('unknown suffix', `printf 'x' > f; gunzip f; ${st}; gzip -dq f; ${st}`),
  u('already has the suffix', `printf 'x' > f.gz; gzip f.gz; ${st}; printf 'x' > g.tgz; gzip g.tgz; ${st}`),
  u('output exists', `printf 'x' > f; printf 'y' > f.gz; gzip f; ${st}; gzip -f f; ${st}; ls`),
  u('gunzip NAME finds NAME.gz', `printf 'x\\n' > f; gzip f; gunzip f; cat f; gunzip nope; ${st}`),
  u('.tgz becomes .tar', `printf 'x\\n' > f; gzip -c f > a.tgz; gunzip a.tgz; ls`),
  u('directories: refused, or -r', `mkdir -p d/e; printf 'x' > d/a; printf 'y' > d/e/b; gzip d; ${st}; gzip -r d; find d | sort; gunzip -r d; find d | sort`),
  u('symlinks and hard links', `printf 'x' > f; ln -s f l; ln f h; gzip l; ${st}; gzip h; ${st}; gzip -c l | gzip -dc`),
  u('-S suffix', `printf 'x\\n' > f; gzip -S .z f; ls; gunzip -S .z f.z; ls; gzip -S '' f; ${st}`),
  u('missing file', `gzip nope; ${st}`),
  u('invalid option', `gzip -y; ${st}; gzip --nope; ${st}`),
  u('--help first lines', 'gzip --help | head -n 3'),
  u('stdin, empty and not', `gzip < /dev/null | gzip -dc | wc -c; printf 'abc' | gzip | gzip -dc`),
]);

/** Info-ZIP's own archives: dir/, a.txt and run.sh and link stored, seq.txt and sub/x.bin deflated; and one written to a pipe. */
const ZIPS = { 'info.zip': infoZip, 'stream.zip': streamZip };
/** Files that stay stored (so zip's messages do not depend on the deflater). */
const SMALL = `printf 'hello\\n' > a; printf 'x' > b; mkdir e; touch -d @${T} a b e`;

export const zip = family('zip', [
  u('zip: adding stored files', `${SMALL}; zip x.zip a b e; ${st}; unzip -l x.zip`),
  u('zip -q -r and unzip -v', `${SMALL}; mkdir -p t/s; cp a t/s/a; touch -d @${T} t t/s t/s/a; zip -qr x.zip t; unzip -v x.zip`),
  u('zip: name not matched', `${SMALL}; zip x.zip a nope; ${st}`),
  u('zip: nothing to do', `zip x.zip nope; ${st}; ls`),
  u('zip: updating and -u', `${SMALL}; zip -q x.zip a; zip x.zip a b; ${st}; zip -u x.zip a b; ${st}; touch -d @1700000000 a; zip -u x.zip a b; ${st}`),
  u('zip -d', `${SMALL}; zip -q x.zip a b; zip -d x.zip a; ${st}; unzip -l x.zip; zip -d x.zip nope; ${st}`),
  u('zip -j', `${SMALL}; mkdir -p t/s; cp a t/s/a2; touch -d @${T} t/s/a2; zip -j x.zip t/s/a2 b; unzip -l x.zip`),
  u('zip -0 stores', `seq 1000 > n; touch -d @${T} n; zip -0 x.zip n; unzip -v x.zip`),
  u('zip: adds .zip', `${SMALL}; zip -q x a; ls x*`),
  u('zip -y stores the link', `${SMALL}; ln -s a l; zip -y x.zip l; unzip -v x.zip | sed 's/20[0-9-]* [0-9:]*/(time)/'`),
  u('zip: bad options', `zip -Q x.zip a; ${st}; zip --nope x.zip a; ${st}; zip x.zip -x; ${st}`),
  u('zip -d on stdout', `zip -d; ${st}`),
  u('zip: not a zip file', `printf 'junk\\n' > j.zip; printf 'x' > a; zip j.zip a; ${st}`),
  u('unzip -l (fixture)', 'unzip -l info.zip; unzip -l stream.zip', { files: ZIPS }),
  u('unzip -v (fixture)', 'unzip -v info.zip; unzip -v stream.zip', { files: ZIPS }),
  u('unzip -Z1, -Z -2 and patterns (fixture)', `unzip -Z1 info.zip; unzip -Z -2 stream.zip; unzip -Z1 info.zip 'dir/s*' nope; ${st}`, { files: ZIPS }),
  u('unzip -ql, -qql and patterns (fixture)', `unzip -ql info.zip; unzip -qql info.zip 'dir/s*'; unzip -l info.zip nope; ${st}`, { files: ZIPS }),
  u('unzip extracts (fixture)', `unzip info.zip; ${st}; ${statTree('dir')}; cat dir/link`, { files: ZIPS }),
  u('unzip a streamed zip (fixture)', `unzip stream.zip; ${st}; md5sum dir/*`, { files: ZIPS }),
  u('unzip -d and -j (fixture)', `unzip -d out info.zip dir/a.txt; unzip -j -d flat info.zip; find out flat | sort`, { files: ZIPS }),
  u('unzip -x (fixture)', `unzip info.zip -x 'dir/s*' dir/link; find dir | sort`, { files: ZIPS }),
  u('unzip: existing files, -o and -n (fixture)', `unzip -q info.zip dir/a.txt; echo changed > dir/a.txt; unzip -n info.zip dir/a.txt; cat dir/a.txt; unzip -o info.zip dir/a.txt; cat dir/a.txt`, { files: ZIPS }),
  u('unzip: prompt at end of input (fixture)', `unzip -q info.zip dir/a.txt dir/run.sh; unzip info.zip dir/a.txt dir/run.sh < /dev/null; ${st}`, { files: ZIPS }),
  u('unzip: prompt answered (fixture)', `unzip -q info.zip dir/a.txt dir/run.sh; echo changed > dir/a.txt; printf 'n\\ny\\n' | unzip info.zip dir/a.txt dir/run.sh; ${st}; cat dir/a.txt`, { files: ZIPS }),
  u('unzip -t (fixture)', `unzip -t info.zip; ${st}; unzip -tq info.zip; unzip -t info.zip nope; ${st}`, { files: ZIPS }),
  // dir/a.txt's data ("hello\n", stored) starts at byte 129.
  u('unzip -t bad CRC (fixture)', `cp info.zip b.zip; printf 'J' | dd of=b.zip bs=1 seek=129 conv=notrunc 2>/dev/null; unzip -t b.zip; ${st}; unzip -o b.zip dir/a.txt; ${st}`, { files: ZIPS }),
  u('unzip -p (fixture)', 'unzip -p info.zip dir/a.txt dir/seq.txt | md5sum; unzip -p info.zip | wc -c', { files: ZIPS }),
  u('unzip: member not found (fixture)', `unzip info.zip nope; ${st}; unzip -p info.zip nope; ${st}`, { files: ZIPS }),
  u('unzip: archive missing', `unzip nope.zip; ${st}; unzip -l nope; ${st}`),
  u('unzip: not a zip file', `printf 'junk\\n' > j.zip; unzip j.zip; ${st}; : > e.zip; unzip -l e.zip; ${st}`),
  u('unzip: finds NAME.zip', 'unzip -l info', { files: ZIPS }),
  u('zip then unzip round trip', `${SMALL}; mkdir -p t/s; seq 3000 > t/s/n; cp a t/a; zip -qr x.zip t; mkdir o; cd o; unzip -q ../x.zip; cd ..; md5sum t/s/n o/t/s/n t/a o/t/a | cut -c1-32`),
]);

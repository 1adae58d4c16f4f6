// Differential tests of the smaller tools people reach for — nproc, cksum,
// factor, tsort, numfmt, csplit, pr (coreutils 9.1), getopt, uuidgen
// (util-linux 2.38), envsubst (gettext), killall (psmisc) — against the
// host's real ones: the same fixture files at the same path on both sides,
// each command line run by bash; stdout, stderr and the exit status compared.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { checkCaseList, ENV, requireOracle, runCases, setupFixtures, summarize, teardownFixtures, TIMEOUT_MS, type Fixture } from '../oracle.js';

interface Case {
  cmd: string;
  stdin?: string;
}

/** Cases known to differ from the real tools, with the reason. */
const divergences: Record<string, string> = {};

const seq = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => `${a + i}\n`).join('');

const FILES: Record<string, string> = {
  'n20': seq(1, 20),
  'n100': seq(1, 100),
  'abc': 'abc',
  'empty': '',
  'words': 'alpha beta\ngamma\n\tdelta  epsilon\nzeta\n',
  'pairs': 'a b\nb c\nc d\na d\ne f\n',
  'loop': 'a b\nb c\nc a\nd e\n',
  'odd': 'a b c\n',
  'sizes': 'name 1000 2048\nfile 1500000 1048576\nbig 999999 12\n',
  'tpl': 'Hello $USER_X, home ${HOME_X}; $UNSET_X stays? $$ and \\$USER_X\n',
  'binary': '\x00\x01\x02\xff\xfe',
};

const C = (cmd: string, stdin?: string): Case => ({ cmd, stdin });

const CASES: Case[] = [
  // nproc: the host's core count, delivered by the kernel
  C('nproc'), C('nproc --all'), C('OMP_NUM_THREADS=3 nproc'), C('OMP_NUM_THREADS=3 nproc --all'), C('OMP_THREAD_LIMIT=1 nproc'),
  C('nproc --ignore=1'), C('nproc --ignore=100'), C('nproc --ignore=x'), C('nproc extra'),
  // cksum
  C('cksum abc'), C('cksum < abc'), C('cksum abc empty binary n100'), C('cksum - < n20'), C('cksum nofile abc'),
  C('cksum -a md5 abc'), C('cksum -a sha1 abc n20'), C('cksum -a sha256 < abc'), C('cksum -a sha512 --untagged abc'),
  C('cksum -a sysv n100 abc'), C('cksum -a bsd n100 abc'), C('cksum -a crc n100'), C('cksum -a nope abc'), C('cksum -z abc | od -c'),
  // factor
  C('factor 1 2 3 4 12 97 100'), C('factor 0'), C('factor 600851475143'), C('factor 18446744073709551615'),
  C('factor 170141183460469231731687303715884105727'), C('factor 123456789012345678901'), C('factor', '10 20\n  30\n'),
  C('factor -- -5'), C('factor x 4'), C('factor +8'), C('factor 4294967297 9999999967'),
  // tsort
  C('tsort pairs'), C('tsort < pairs'), C('tsort', 'x y\ny z\nq r\n'), C('tsort', 'a a\n'), C('tsort loop'),
  C('tsort odd'), C('tsort nofile'), C('tsort pairs extra'), C('tsort', ''),
  // numfmt
  C('numfmt 1.5 12 1.25'), C('numfmt --to=si 1000 999 12345 9999 999999 1.5 0'), C('numfmt --to=si -- -1234'),
  C('numfmt --to=iec 1024 1536 1048575 1023'), C('numfmt --to=iec-i 2048 5'), C('numfmt --from=si 1.5K 2M'),
  C('numfmt --from=iec 1K 1.5M'), C('numfmt --from=auto 1Ki 1K'), C('numfmt --from=iec-i 4Gi'), C('numfmt 1K'), C('numfmt abc'),
  C('numfmt --to=si --round=down 1999'), C('numfmt --to=si --round=up 1001'), C('numfmt --round=nearest --to=si 1450 1550'),
  C('numfmt --to=si --round=towards-zero -- -1999'), C('numfmt --padding=8 123'), C('numfmt --padding=-8 123 | od -c'),
  C('numfmt --suffix=B --to=si 2000'), C('numfmt --format="%08.2f" 3.14159'), C('numfmt --format="a%5fb" 12'),
  C('numfmt --format="%-6f|" 7'), C('numfmt --format="%x" 1'), C('numfmt --field=2 --to=si < sizes'),
  C('numfmt --field=2,3 --to=iec < sizes'), C('numfmt --field=2- --to=si < sizes'), C('numfmt --header --to=si', 'head 1\n2000\n'),
  C('numfmt --invalid=warn --field=2', '1000 x\n'), C('numfmt --invalid=ignore', 'x\n5\n'), C('numfmt --invalid=fail', 'x\n5\n'),
  C('numfmt --from-unit=1024 --to=si 3'), C('numfmt --to-unit=1000 5000000'), C('numfmt --format="%.3f" --to=si 12345'),
  C('numfmt -d: --field=2 --to=iec', 'x:2048:y\n'), C('numfmt --to=si', '  1000 x\n'), C('numfmt --to=si 0.5'),
  C('numfmt --to=bogus 1'), C('numfmt --padding=0 1'),
  // csplit
  C('rm -rf s1 && mkdir s1 && cd s1 && csplit ../n20 5 /1[2]/ "%15%" "{0}"; ls; cat xx01'),
  C('rm -rf s2 && mkdir s2 && cd s2 && csplit ../n20 /x/; echo $?; ls'),
  C('rm -rf s3 && mkdir s3 && cd s3 && csplit -k ../n20 5 30; echo $?; ls'),
  C('rm -rf s4 && mkdir s4 && cd s4 && csplit ../n20 0; echo $?'),
  C('rm -rf s5 && mkdir s5 && cd s5 && csplit -s -f p -n 3 ../n20 3 "{2}"; ls; cat p003'),
  C('rm -rf s6 && mkdir s6 && cd s6 && csplit ../n20 /5/ "{*}"; ls'),
  C('rm -rf s7 && mkdir s7 && cd s7 && csplit -z ../n20 /1/ "{*}"; ls'),
  C('rm -rf s8 && mkdir s8 && cd s8 && csplit --suppress-matched ../n20 /5/; head -2 xx01'),
  C('rm -rf s9 && mkdir s9 && cd s9 && csplit ../n20 10 5; echo $?; ls'),
  C('rm -rf s10 && mkdir s10 && cd s10 && csplit ../n20 "/3/+2" "/8/-1"; ls; cat xx01'),
  C('rm -rf s11 && mkdir s11 && cd s11 && csplit -b "%03x.txt" ../n20 12; ls'),
  C('rm -rf s12 && mkdir s12 && cd s12 && csplit ../n20 5 "{10}"; echo $?; ls'),
  C('rm -rf s13 && mkdir s13 && cd s13 && csplit ../n20 21; echo $?'),
  C('rm -rf s14 && mkdir s14 && cd s14 && csplit - 3 < ../n20; cat xx00'),
  C('csplit n20'), C('csplit'), C('rm -rf s15 && mkdir s15 && cd s15 && csplit ../nofile 1'),
  // pr
  C('pr -t n20 | head -5'), C('pr -2 -t n20'), C('pr -3 -t n20'), C('pr -2 -t -s, n20'), C('pr -t -n n20 | head -3'),
  C('pr -t -d words'), C('pr -t -o 3 words'), C('pr -3 -a -t -w 20 n20'), C('pr -m -t n20 words'), C('pr -l 20 n100 | head -40'),
  C('pr -l 15 -2 n100'), C('pr -h HDR -l 12 words'), C('pr -l 12 -w 73 words'), C('pr +2 -l 15 n20'), C('pr -t -n:3 words'),
  C('pr -D "%d/%m %H" -l 12 words'), C('pr -T n20 | head -3'), C('pr -t -N 7 -n words'), C('pr -4 -t -w 40 n100 | head -5'),
  C('pr nofile'), C('pr -l x n20'),
  // envsubst
  C('USER_X=u HOME_X=/h envsubst < tpl'), C('A=1 B=2 C=3 envsubst \'$A ${C}\'', '$A $B ${C} ${BAD ${ $1 ${A-b}\n'),
  C('envsubst -v \'$B $A ${A} $C_1 x$Y\''), C('envsubst --variables'), C('envsubst a b'), C('A=z envsubst | od -c', 'no newline $A'),
  C('envsubst --bogus'), C('printf "\\x80\\x9f\\xff $A\\n" | A=é envsubst | od -An -tx1'), C('envsubst -h | head -3'), C('A=\'$B\' B=x envsubst', '$A\n'),
  // getopt
  C('getopt -o ab:c:: --long alpha,beta:,gamma:: -n prog -- -a -b1 -c -c2 --alpha --beta=x --gamma --gamma=y arg1 "it\'s" -- -z'),
  C('getopt -o a -- -x'), C('getopt -o a -n N -- --bogus'), C('getopt -o b: -- -b'), C('getopt ab:c a -b x y -c'), C('getopt -T'),
  C('getopt -o +a -- x -a'), C('getopt -o -a -- x -a y'), C('getopt -u -o ab: -- -a -b "v w" z'), C('getopt -q -o a -- -x'),
  C('getopt -Q -o a -- -a -x'), C('getopt -s csh -o a: -- -a "x\'y"'), C('getopt -a -o a --long long -- -long'),
  C('getopt --long al,ab -o "" -- --a'), C('getopt -o ab --long foo:: -- --foo bar -ab'), C('getopt'), C('getopt -o "" --'),
  C('getopt -o a --long alpha -- --alpha=x'), C('getopt -o a --long beta: -- --beta'), C('getopt -a -o a --long beta: -- -beta'),
  C('getopt -a -o a --long beta: -- -bogus'), C('getopt -o a -l x -l y, -- --x --y'), C('getopt -o a -- -- -a'),
  C('getopt -s bash -o a: -- -a \'$x!\''), C('getopt -s csh -o a: -- -a \'x!y\''), C('getopt -s zsh -o a'), C('getopt --name=P -o a -- -q'),
  C('POSIXLY_CORRECT=1 getopt -o a -- x -a'), C('getopt -o a: -- -a'), C('getopt -l long: -- --lon=v'),
  // uuidgen: name-based ones are deterministic; random and time-based ones are checked for shape
  C('uuidgen --md5 -n @dns -N example.com'), C('uuidgen -s -n @url -N http://x'), C('uuidgen -s -n 6ba7b811-9dad-11d1-80b4-00c04fd430c8 -N http://x'),
  C('uuidgen -s -n @oid -x -N 414243'), C('uuidgen --sha1 --namespace @x500 --name "cn=x"'), C('uuidgen -m -N x'),
  C('uuidgen -m -n @bogus -N x'), C('uuidgen -s -n @dns'), C('uuidgen -s -n nope -N x'),
  C('uuidgen -r | grep -cE "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"'),
  C('uuidgen | grep -cE "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"'),
  C('uuidgen -t | grep -cE "^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"'),
  C('a=$(uuidgen -r); b=$(uuidgen -r); [ "$a" != "$b" ] && echo differ'),
  // flock: a holder in the background signals when it has the lock
  C('rm -f lk held; flock lk sh -c "touch held; sleep 1" & while [ ! -e held ]; do sleep 0.02; done; flock -n lk true; echo $?; flock -n -E 9 lk true; echo $?; flock -w 0.1 lk true; echo $?; flock lk echo waited; wait'),
  C('rm -f lk2 held2; flock -s lk2 sh -c "touch held2; sleep 1" & while [ ! -e held2 ]; do sleep 0.02; done; flock -s -n lk2 echo shared-ok; flock -x -n lk2 true; echo $?; wait'),
  C('exec 9>lk3; flock -n 9; echo $?; flock -u 9; echo $?; flock -s 9; echo $?'),
  // the lock belongs to the open file: a dup keeps it after the first fd closes; the last close releases it
  C('rm -f lk5; exec 9>lk5 8>&9; flock 9; exec 9>&-; flock -n lk5 true; echo $?; exec 8>&-; flock -n lk5 true; echo $?'),
  C('rm -f lk6; exec 7>lk6; flock -s 7; flock -s -n lk6 echo shared-too; flock -n lk6 true; echo $?; flock -n 7; echo upgraded $?'),
  C('flock /nonexist/x true'), C('flock'), C('flock lk4'), C('flock lk4 sh -c "exit 3"'), C('flock lk4 -c "echo hi; exit 4"'),
  C('flock lk4 nosuchcmd'), C('flock 99'), C('flock -n lk4 true; echo $?'), C('flock -w x lk4 true'), C('flock -s lk4 true; echo $?'),
  C('flock x y -c z'), C('flock lk4 -c'), C('mkdir -p dlk && flock dlk echo dir-lock'),
  // killall: a uniquely named script, so the host's own processes are never touched
  C('printf "#!/bin/sh\\nwhile :; do sleep 0.05; done\\n" > zzloop_u16a; chmod +x zzloop_u16a; ./zzloop_u16a & sleep 0.5; killall zzloop_u16a; echo $?; wait $! 2>/dev/null; echo $?'),
  C('printf "#!/bin/sh\\nwhile :; do sleep 0.05; done\\n" > zzloop_u16b; chmod +x zzloop_u16b; ./zzloop_u16b & sleep 0.5; { killall -s KILL zzloop_u16b; wait $!; echo $?; } 2>/dev/null'),
  C('printf "#!/bin/sh\\nwhile :; do sleep 0.05; done\\n" > zzloop_u16c; chmod +x zzloop_u16c; ./zzloop_u16c & sleep 0.5; { killall -HUP -w zzloop_u16c; echo $?; wait $!; echo $?; } 2>/dev/null'),
  C('killall zzloop_u16none'), C('killall -q zzloop_u16none; echo $?'), C('killall -l'), C('killall -s BOGUS x'), C('killall'),
  C('killall -u nosuchuser_u16 x'), C('killall zzloop_u16none zzloop_u16none2'),
];

let fx: Fixture | null = null;

before(async () => {
  const files = Object.fromEntries(Object.entries(FILES).map(([k, v]) => [k, Buffer.from(v, 'latin1')]));
  fx = await setupFixtures('agentos-tools-', files);
  const setup = 'touch -d "2020-01-02 03:04:05" words n20 n100';
  const h = spawnSync('bash', ['-c', setup], { cwd: fx.root, env: ENV });
  assert.equal(h.status, 0);
  const v = await fx.m.run(['/bin/bash', '-c', setup], { cwd: fx.root, env: ENV, stdin: '', timeoutMs: TIMEOUT_MS });
  assert.equal(v.exitCode, 0);
});

after(async () => {
  await teardownFixtures(fx);
});

test('tools: the case list is well formed', () => {
  checkCaseList(CASES, divergences, { min: 100, key: (c) => `${c.cmd}\0${c.stdin ?? ''}` });
});

test('tools: differential against the real tools', async () => {
  requireOracle('cksum', /GNU coreutils\) 9\./, 'the oracle must be GNU coreutils 9');
  const results = await runCases(fx!, CASES, () => ({ sorted: false, stderrOk: (want, got) => want === got }));
  summarize('tools', results, divergences);
});

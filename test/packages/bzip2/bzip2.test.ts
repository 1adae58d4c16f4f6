// Differential tests of agentOS bzip2/bunzip2/bzcat against bzip2 1.0.8: the
// same files on both sides (text, pseudo-random and repetitive data, several
// blocks, .bz2 files the host's bzip2 made), each command line run by bash;
// stdout, stderr and exit status compared — compressed bytes included, since
// the codec follows libbzip2 step for step. Then interoperation both ways.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { C, compressorSuite, hostRun, noise, sampleText, type Case } from '../../userland/compress/compressor-suite.js';

/** Cases known to differ from bzip2 1.0.8, with the reason. */
const divergences: Record<string, string> = {};

const text = sampleText(12000);
const hostBz = (data: Uint8Array | string, args: string[] = []) => hostRun('bzip2', data, ['-c', ...args]);

const CASES: Case[] = [
  // compressed bytes: levels, block boundaries, runs, every byte value
  ...[1, 2, 9].map((l) => C(`bzip2 -${l} -c text | md5sum`)),
  C('bzip2 -c noise | md5sum'), C('bzip2 -c runs | md5sum'), C('bzip2 -c periodic | md5sum'), C('bzip2 -c allbytes | md5sum'),
  C('bzip2 -c empty | od -An -tx1'), C('bzip2 -c one | od -An -tx1'), C('bzip2 --fast -c text | md5sum'), C('bzip2 --best -c noise | md5sum'),
  C('bzip2 < text | md5sum'), C('bzip2 -c text noise | bzip2 -dc | md5sum'), C('bzip2 -c text | bzip2 -d | cmp - text && echo same'),
  // decompression of the host's files
  C('bzip2 -dc host.bz2 | md5sum'), C('bzcat host.bz2 hostnoise.bz2 | md5sum'), C('bunzip2 -c host-multi.bz2'), C('bzip2 -dc < host.bz2 | wc -c'),
  C('bzip2 -t host.bz2 hostnoise.bz2; echo $?'), C('bzip2 -tv host.bz2 hostnoise.bz2'), C('bzip2 -dc host-empty.bz2 | od -c'),
  // errors
  C('bzip2 -dc truncated.bz2 > /dev/null'), C('bzip2 -dc corrupt.bz2 > /dev/null'), C('bzip2 -dc < notbz.bz2'), C('bzip2 -t truncated.bz2'),
  C('bzip2 -t corrupt.bz2'), C('bzip2 -t notbz.bz2'), C('bzip2 -tv host.bz2 notbz.bz2'), C('bzip2 -dc trailing.bz2 | wc -c'),
  C('bzip2 -dc nofile.bz2'), C('bzip2 -s -dc host.bz2 | md5sum'), C('bzcat host.bz2 nofile.bz2 | wc -c'), C('bzip2 -c -3 periodic | bzip2 -dc | md5sum'), C('bzip2 --bogus 2>&1 | head -1'), C('bzip2 -x 2>&1 | head -1'),
  // files
  C('rm -rf w1 && mkdir w1 && cp text w1/f && cd w1 && bzip2 f && ls && bzip2 -d f.bz2 && ls && cmp f ../text && echo ok'),
  C('rm -rf w2 && mkdir w2 && cp text w2/f && cd w2 && bzip2 -k f && ls && bzip2 f; echo $?; bzip2 -f f; echo $?; ls'),
  C('rm -rf w3 && mkdir w3 && cp host.bz2 w3/f.bz2 && cd w3 && bzip2 f.bz2; echo $?; cp f.bz2 q && bzip2 -d q; echo $?; ls'),
  C('rm -rf w4 && mkdir w4 && cd w4 && echo junk > j.bz2 && bzip2 -d j.bz2; echo $?; ls; mkdir d && bzip2 d; echo $?'),
  C('rm -rf w5 && mkdir w5 && cp text w5/f && cd w5 && chmod 640 f && touch -d "2001-02-03 04:05:06" f && bzip2 f && stat -c "%a %Y" f.bz2'),
  C('rm -rf w6 && mkdir w6 && cp host.bz2 w6/a.tbz2 && cp host.bz2 w6/b.bz && cd w6 && bzip2 -d a.tbz2 b.bz && ls'),
  C('rm -rf w7 && mkdir w7 && cp truncated.bz2 w7/t.bz2 && cd w7 && bzip2 -d t.bz2; echo $?; ls'),
  C('rm -rf w8 && mkdir w8 && cp corrupt.bz2 w8/c.bz2 && cd w8 && bzip2 -d c.bz2; echo $?; ls'),
  C('rm -rf w9 && mkdir w9 && cp host.bz2 w9/h.bz2 && cd w9 && bzip2 -dk h.bz2 && bzip2 -d h.bz2; echo $?; ls'),
  C('rm -rf w10 && mkdir w10 && cd w10 && cp ../text f && bzip2 -v f'),
  C('rm -rf w11 && mkdir w11 && cd w11 && bzip2 nofile; echo $?; bzip2 -q nofile; echo $?'),
];

const suite = compressorSuite({
  name: 'bzip2',
  against: 'bzip2 1.0.8',
  checkOracle: () => {
    const v = spawnSync('bzip2', ['--help'], { encoding: 'utf8' });
    assert.match(v.stderr, /Version 1\.0\.8/, 'the oracle must be bzip2 1.0.8');
  },
  cases: CASES,
  divergences,
  min: 44,
  files: () => {
    const noiseData = noise(150_000, 0x2468ace);
    const host = hostBz(text);
    const runs = Buffer.concat(Array.from({ length: 3000 }, (_, i) => Buffer.alloc(1 + (i % 300), i % 256)));
    return {
      text,
      noise: noiseData,
      runs,
      periodic: 'abcdefgh\n'.repeat(30_000),
      allbytes: Uint8Array.from({ length: 256 * 40 }, (_, i) => (i * 37) & 0xff),
      empty: '',
      one: 'x',
      'host.bz2': host,
      'hostnoise.bz2': hostBz(noiseData, ['-3']),
      'host-multi.bz2': Buffer.concat([hostBz('first\n'), hostBz('second\n')]),
      'host-empty.bz2': hostBz(''),
      'truncated.bz2': host.subarray(0, 2000),
      'corrupt.bz2': Uint8Array.from(host, (b, i) => (i === 3000 ? b ^ 0xff : b)),
      'notbz.bz2': 'this is not bzip2\n',
      'trailing.bz2': Buffer.concat([host, Buffer.from('garbage')]),
    };
  },
});

test('bzip2: what the VM writes, bzip2 1.0.8 reads', async () => {
  const fx = suite.fx();
  const m = fx.m;
  for (const args of ['-1', '-9']) {
    const r = await m.run(['/bin/bash', '-c', `cat noise text > both && bzip2 ${args} -c both > out.bz2`], { cwd: fx.root });
    assert.equal(r.exitCode, 0, Buffer.from(r.stderr).toString());
    const file = join(suite.scratch(), 'out.bz2');
    writeFileSync(file, await m.readFile(`${fx.root}/out.bz2`));
    const host = spawnSync('bzip2', ['-dc', file], { maxBuffer: 64 << 20 });
    assert.equal(host.status, 0, `host bzip2 -d of VM bzip2 ${args}: ${host.stderr}`);
    const want = Buffer.concat([readFileSync(join(fx.root, 'noise')), readFileSync(join(fx.root, 'text'))]);
    assert.ok(Buffer.from(host.stdout).equals(want), `bzip2 ${args}`);
  }
});

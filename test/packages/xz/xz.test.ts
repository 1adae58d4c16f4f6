// Differential tests of agentOS xz/unxz/xzcat against XZ Utils: the same
// files (text, pseudo-random bytes, empty, .xz files the host's xz made) on
// both sides, each command line run by bash; stdout, stderr and exit status
// compared. Then interoperation both ways: what the VM's xz writes, the
// host's xz reads, and the other way round.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { EXPORTS } from '../../../src/packages/xz/programs/liblzma.js';
import { requireOracle } from '../oracle.js';
import { C, compressorSuite, hostRun, noise, sampleText, type Case } from '../../userland/compress/compressor-suite.js';

/** Cases known to differ from XZ Utils, with the reason. */
const divergences: Record<string, string> = {
  'xz -F lzma -c text | md5sum': 'agentOS xz writes only .xz (the module exports no .lzma encoder); it says so and exits 1',
  'xz -9 -c text | od -An -tx1 | md5sum':
    "preset 9's encoder needs 674 MiB; the WebAssembly module holds 256 MiB, so the dictionary shrinks to 8 MiB (as xz does under a memory limit, with its note) and the header's dictionary size differs",
};

const text = sampleText(3000);
const hostXz = (data: Uint8Array | string, args: string[]) => hostRun('xz', data, args);

const CASES: Case[] = [
  // compression: the bytes liblzma writes, per preset and check
  ...[0, 1, 2, 3, 6, 9].map((p) => C(`xz -${p} -c text | od -An -tx1 | md5sum`)),
  C('xz -c noise | od -An -tx1 | md5sum'), C('xz -e -c text | od -An -tx1 | md5sum'), C('xz -c empty | od -An -tx1'),
  C('xz -C crc32 -c text | od -An -tx1 | md5sum'), C('xz -C none -c text | xz -l /dev/stdin'), C('xz --check=sha256 -c text | od -An -tx1 | md5sum'),
  C('xz -C bogus -c text'), C('xz -c < text | xz -dc | cmp - text && echo same'), C('xz -c text noise | xz -dc | md5sum'),
  // decompression of the host's files
  C('xz -dc host.xz | md5sum'), C('xzcat host.xz hostnoise.xz | md5sum'), C('unxz -c host-crc32.xz | md5sum'), C('xz -dc host-multi.xz | md5sum'),
  C('xz -dc host-padded.xz | md5sum'), C('xz -dc host-empty.xz | od -c'), C('xz -dc < host.xz | wc -c'), C('xz -t host.xz hostnoise.xz; echo $?'),
  // errors
  C('xz -dc truncated.xz | wc -c'), C('xz -dc corrupt.xz > /dev/null'), C('xz -dc notxz.xz'), C('xz -dc nofile.xz'), C('xz -t corrupt.xz'),
  C('xz -dc trailing.xz | wc -c'), C('xz -dc host.xz text'), C('xz --bogus'), C('xz -F lzip -c text'), C('xz -S "" text'),
  // files: names, suffixes, keep, force, metadata
  C('rm -rf w1 && mkdir w1 && cp text w1/f && cd w1 && xz f && ls && xz -d f.xz && ls && cmp f ../text && echo ok'),
  C('rm -rf w2 && mkdir w2 && cp text w2/f && cd w2 && xz -k f && ls && xz f; echo $?; xz -f f; echo $?; ls'),
  C('rm -rf w3 && mkdir w3 && cp host.xz w3/f.xz && cd w3 && xz f.xz; echo $?; cp f.xz q && xz -d q; echo $?; ls'),
  C('rm -rf w4 && mkdir w4 && cd w4 && echo junk > j.xz && xz -d j.xz; echo $?; mkdir d && xz d; echo $?; xz -d d; echo $?'),
  C('rm -rf w5 && mkdir w5 && cp text w5/f && cd w5 && chmod 640 f && touch -d "2001-02-03 04:05:06" f && xz f && stat -c "%a %Y" f.xz'),
  C('rm -rf w6 && mkdir w6 && cp host.xz w6/a.txz && cd w6 && xz -d a.txz && ls'),
  C('rm -rf w7 && mkdir w7 && cp text w7/f && cd w7 && xz -S .lz f && ls && xz -d -S .lz f.lz && ls'),
  C('rm -rf w8 && mkdir w8 && cp truncated.xz w8/t.xz && cd w8 && xz -d t.xz; echo $?; ls'),
  C('rm -rf w9 && mkdir w9 && cd w9 && cp ../text f && ln -s f l && xz l; echo $?; ls'),
  C('rm -rf w10 && mkdir w10 && cd w10 && cp ../text f && xz -q -d f; echo $?; xz -qq nofile; echo $?'),
  // listing
  // the older .lzma format: read (liblzma's decoder), not written
  C('xz -dc host.lzma | md5sum'), C('xzcat host.lzma host.xz | md5sum'), C('xz -l host.lzma'), C('xz -t host.lzma; echo $?'),
  C('rm -rf w11 && mkdir w11 && cp host.lzma w11/t.lzma && cd w11 && xz -d t.lzma && ls && md5sum t'),
  C('xz -F xz -dc host.lzma | wc -c'), C('xz -F lzma -dc host.lzma | md5sum'), C('xz -F lzma -c text | md5sum'),
  C('xz -l host.xz'), C('xz -l host.xz hostnoise.xz host-multi.xz'), C('xz -lv host.xz'), C('xz -lv host-multi.xz host-padded.xz'),
  C('xz -l notxz.xz'), C('xz -l'), C('xz -l host-empty.xz host-crc32.xz'), C('xz -l big.xz'),
];

const suite = compressorSuite({
  name: 'xz',
  against: 'XZ Utils',
  checkOracle: () => requireOracle('xz', /XZ Utils/, 'the oracle must be XZ Utils'),
  cases: CASES,
  divergences,
  min: 50,
  files: () => {
    const noiseData = noise(300_000, 0x1234567);
    const big = new Uint8Array(Buffer.from(text.repeat(10)));
    const hostXzFile = hostXz(text, ['-c']);
    const multi = Buffer.concat([hostXz('first\n', ['-c']), hostXz('second\n', ['-c', '-C', 'crc32'])]);
    const padded = Buffer.concat([hostXz('padded\n', ['-c']), Buffer.alloc(8)]);
    return {
      text,
      noise: noiseData,
      empty: '',
      'host.xz': hostXzFile,
      'host.lzma': hostXz(text, ['-c', '-F', 'lzma']),
      'hostnoise.xz': hostXz(noiseData, ['-c', '-3']),
      'host-crc32.xz': hostXz(text, ['-c', '-C', 'crc32']),
      'host-multi.xz': multi,
      'host-padded.xz': padded,
      'host-empty.xz': hostXz('', ['-c']),
      'big.xz': hostXz(big, ['-c', '-1']),
      'truncated.xz': hostXzFile.subarray(0, 200),
      'corrupt.xz': Uint8Array.from(hostXzFile, (b, i) => (i === 300 ? b ^ 0xff : b)),
      'notxz.xz': 'this is not xz\n',
      'trailing.xz': Buffer.concat([hostXzFile, Buffer.from('garbage')]),
    };
  },
});

test('xz: what the VM writes, XZ Utils reads; presets 0-9 and -e', async () => {
  const fx = suite.fx();
  const m = fx.m;
  for (const args of ['-0', '-6', '-9', '-6e', '-1 -C sha256']) {
    const r = await m.run(['/bin/bash', '-c', `xz ${args} -c noise > out.xz`], { cwd: fx.root });
    assert.equal(r.exitCode, 0, Buffer.from(r.stderr).toString());
    const out = await m.readFile(`${fx.root}/out.xz`);
    const file = join(suite.scratch(), 'out.xz');
    writeFileSync(file, out);
    const host = spawnSync('xz', ['-dc', file], { maxBuffer: 64 << 20 });
    assert.equal(host.status, 0, `host xz -d of VM xz ${args}: ${host.stderr}`);
    assert.deepEqual(new Uint8Array(host.stdout), new Uint8Array(readFileSync(join(fx.root, 'noise'))), `xz ${args}`);
  }
});

test('xz: the export map matches the liblzma build the package ships', () => {
  // The wasm's exports are minified names; node-liblzma's own glue says which is which.
  const glue = readFileSync(createRequire(import.meta.url).resolve('node-liblzma/wasm/liblzma.js'), 'utf8');
  const named = Object.fromEntries([...glue.matchAll(/\._(\w+)=(?:\([^)]*\)|\w+)=>\(\w+\._\1=\w+\.(\w+)\)/g)].map((m) => [m[1], m[2]]));
  const boot = /(\w+)=\w+\.exports;\w+=\1\.(\w+);\w+\(\);\w+\.unshift\(\1\.(\w+)\)/.exec(glue);
  assert.ok(boot, 'the glue instantiates the module as expected');
  for (const [fn, key] of Object.entries(EXPORTS)) {
    const want: string | undefined = fn === 'memory' ? boot[2] : fn === 'ctors' ? boot[3] : named[fn];
    assert.equal(key, want, `export of ${fn}`);
  }
});

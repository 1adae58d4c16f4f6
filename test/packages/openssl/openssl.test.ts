// Differential tests of agentOS openssl (dgst, md5/sha1/sha256/sha512, rand,
// base64, enc) against OpenSSL 3.0: the same files on both sides, each
// command line run by bash; stdout and the exit status compared, and stderr
// too once OpenSSL's library error lines (which carry addresses) are set
// aside. Random salts and bytes are compared by shape; files encrypted by
// one side are decrypted by the other.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { checkCaseList, runCases, setupFixtures, summarize, teardownFixtures, type Fixture } from '../oracle.js';

interface Case {
  cmd: string;
  stdin?: string;
}

/** Cases known to differ from OpenSSL 3.0, with the reason. */
const divergences: Record<string, string> = {};

const text = Array.from({ length: 200 }, (_, i) => `row ${i}: the quick brown fox\n`).join('');

function hostOpenssl(args: string[], input: string): Uint8Array {
  const r = spawnSync('openssl', args, { input });
  assert.equal(r.status, 0, r.stderr?.toString());
  return new Uint8Array(r.stdout);
}

const C = (cmd: string, stdin?: string): Case => ({ cmd, stdin });
const KEY = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const IV = 'f0e0d0c0b0a090807060504030201000';

const CASES: Case[] = [
  // digests
  C('openssl dgst -sha256 abc'), C('openssl dgst -sha256', 'abc'), C('openssl dgst -md5 -r abc'), C('openssl dgst -sha1 abc text'),
  C('openssl dgst abc'), C('openssl dgst -sha512 text'), C('openssl dgst -c -md5 abc'), C('openssl dgst -binary -sha1 abc | od -An -tx1'),
  C('openssl dgst -sha256 -hmac key abc'), C('openssl dgst -sha1 -hmac key', 'abc'), C('openssl dgst -md5 -hmac "$(head -c 100 text)" text'),
  C('openssl dgst -sha512 -hmac k text'), C('openssl md5 abc text'), C('openssl sha1 abc'), C('openssl sha256 empty'), C('openssl sha512 -r abc'),
  C('openssl dgst -sha256 -out d.out abc && cat d.out'), C('openssl dgst -nosuch abc'), C('openssl dgst -sha256 nofile; echo $?'),
  C('openssl dgst -sha256 abc nofile text; echo $?'),
  // rand
  C('openssl rand -hex 16 | grep -cE "^[0-9a-f]{32}$"'), C('openssl rand -base64 30 | wc -c'), C('openssl rand 1000 | wc -c'),
  C('openssl rand -hex 0'), C('openssl rand -hex x'), C('openssl rand'), C('openssl rand -base64 100 | wc -l'),
  C('openssl rand -out r.bin 32 && wc -c < r.bin'), C('a=$(openssl rand -hex 8); b=$(openssl rand -hex 8); [ "$a" != "$b" ] && echo differ'),
  // base64
  C('openssl base64 < abc'), C('openssl base64', 'hello world\n'), C('openssl base64 -in text | md5sum'), C('openssl base64 -A -in text | wc -l'),
  C('openssl base64 -d', 'aGVsbG8gd29ybGQK'), C('openssl base64 -in text | openssl base64 -d | cmp - text && echo same'), C('openssl base64 < empty | wc -c'),
  C('head -c 100 /dev/zero | openssl base64'), C('openssl base64 -A -in text | openssl base64 -d -A | md5sum'), C('openssl enc -base64 -in abc'),
  C('openssl base64 -d', 'aGVs\nbG8g\nd29y\nbGQK\n'), C('openssl base64 -in abc -out b.out && cat b.out'),
  // enc with a given key and IV: every AES size and mode
  ...['128', '192', '256'].flatMap((b) => ['cbc', 'ecb', 'ctr'].map((m) => C(`openssl enc -aes-${b}-${m} -K ${KEY.slice(0, Number(b) / 4)} -iv ${IV} -in text | od -An -tx1 | md5sum`))),
  C(`openssl enc -aes-256-cbc -K ${KEY} -iv ${IV} -in text | openssl enc -d -aes-256-cbc -K ${KEY} -iv ${IV} | cmp - text && echo same`),
  C(`openssl aes-128-cbc -K ${KEY.slice(0, 32)} -iv ${IV} -in abc | od -An -tx1`), C('openssl enc -aes-256-cbc -K 00 -iv 00 < /dev/null | od -An -tx1'),
  C(`openssl enc -aes-256-cbc -K ${KEY} -in abc`), C(`openssl enc -aes-128-ecb -K ${KEY.slice(0, 32)} -nopad -in abc; echo $?`),
  C(`openssl enc -aes-128-ecb -K ${KEY.slice(0, 32)} -nopad -in sixteen | od -An -tx1`),
  // enc with a password: PBKDF2, iterations, digests, explicit salts, the deprecated KDF
  C('openssl enc -aes-256-cbc -pbkdf2 -iter 1000 -pass pass:pw -S 0102030405060708 -in text | md5sum'),
  C('openssl enc -aes-256-cbc -pbkdf2 -pass pass:pw -a -S 0102030405060708', 'secret\n'),
  C('openssl enc -aes-128-cbc -pbkdf2 -pass pass:pw -P -S 0102030405060708'), C('openssl enc -aes-256-ctr -pbkdf2 -md sha1 -pass pass:pw -p -S 00ff00ff00ff00ff -in abc | head -3'),
  C('openssl enc -aes-192-cbc -iter 5 -md md5 -pass pass:x -S 1111111111111111 -in text | md5sum'),
  C('openssl enc -aes-256-cbc -pass pass:pw -nosalt -in abc | od -An -tx1'), C('openssl enc -aes-256-cbc -pass pass:pw -nosalt -md md5 -in abc | od -An -tx1'),
  C('openssl enc -aes-256-cbc -pbkdf2 -k pw -S 0102030405060708 -in abc | od -An -tx1'), C('PW=envpw openssl enc -aes-128-cbc -pbkdf2 -pass env:PW -S 01 -in abc | od -An -tx1'),
  C('openssl enc -aes-128-cbc -pbkdf2 -pass file:passfile -S 0102030405060708 -in abc | od -An -tx1'),
  C('openssl enc -aes-256-cbc -pbkdf2 -pass pass:pw -in text | openssl enc -d -aes-256-cbc -pbkdf2 -pass pass:pw | cmp - text && echo round'),
  C('openssl enc -aes-256-cbc -pbkdf2 -pass pass:pw -a -in text | openssl enc -d -a -aes-256-cbc -pbkdf2 -pass pass:pw | md5sum'),
  C('openssl enc -aes-256-cbc -pbkdf2 -pass pass:pw -in text -out e.out && head -c 8 e.out'), C('openssl enc -aes-256-cbc -pbkdf2 -pass pass:pw -in text | wc -c'),
  C('openssl enc -d -aes-256-cbc -pbkdf2 -pass pass:pw -in host.enc | md5sum'), C('openssl enc -d -a -aes-128-cbc -pbkdf2 -iter 500 -pass pass:pw -in host.enc.b64'),
  C('openssl enc -d -aes-256-cbc -pass pass:pw -in host-evp.enc 2>/dev/null | md5sum'), C('openssl enc -d -aes-256-cbc -pbkdf2 -pass pass:wrong -in host.enc > /dev/null; echo $?'),
  C('openssl enc -d -aes-256-cbc -pbkdf2 -pass pass:pw -in abc; echo $?'), C('openssl enc -aes-256-cbc -pbkdf2 -in abc; echo $?'),
  C('openssl enc -aes-256-cbc -pbkdf2 -pass bogus -in abc; echo $?'), C('openssl enc -aes-256-cbc -pbkdf2 -iter 0 -pass pass:x -in abc; echo $?'),
  C('openssl enc -aes-256-cbc -pbkdf2 -pass pass:x extra; echo $?'), C('openssl enc -bogus; echo $?'), C('openssl bogus; echo $?'),
];

let fx: Fixture | null = null;
let scratch = '';

before(async () => {
  const files: Record<string, string | Uint8Array> = {
    abc: 'abc',
    text,
    empty: '',
    sixteen: '0123456789abcdef',
    passfile: 'frompassfile\nsecond line\n',
    'host.enc': hostOpenssl(['enc', '-aes-256-cbc', '-pbkdf2', '-pass', 'pass:pw'], text),
    'host.enc.b64': hostOpenssl(['enc', '-aes-128-cbc', '-a', '-pbkdf2', '-iter', '500', '-pass', 'pass:pw'], 'hello from the host\n'),
    'host-evp.enc': hostOpenssl(['enc', '-aes-256-cbc', '-pass', 'pass:pw'], text),
  };
  fx = await setupFixtures('agentos-openssl-', files);
  scratch = mkdtempSync(join(tmpdir(), 'agentos-openssl-interop-'));
});

after(async () => {
  await teardownFixtures(fx);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** OpenSSL's library error lines ("4027CB0CD07F0000:error:…") carry a thread id and source paths. */
const shape = (s: string) => s.replace(/^[0-9A-F]+:error:.*\n/gm, '');

test('openssl: the case list is well formed', () => {
  checkCaseList(CASES, divergences, { min: 80, key: (c) => `${c.cmd}\0${c.stdin ?? ''}` });
});

test('openssl: differential against OpenSSL 3.0', async () => {
  const v = spawnSync('openssl', ['version'], { encoding: 'utf8' });
  assert.match(v.stdout, /^OpenSSL 3\./, 'the oracle must be OpenSSL 3');
  const results = await runCases(fx!, CASES, () => ({ sorted: false, stderrOk: (want, got) => shape(want) === shape(got) }));
  summarize('openssl', results, divergences);
});

test('openssl: what the VM encrypts with a random salt, OpenSSL decrypts', async () => {
  const m = fx!.m;
  for (const args of ['-aes-256-cbc -pbkdf2', '-aes-128-ctr -pbkdf2 -iter 2000', '-aes-192-cbc -pbkdf2 -md sha1 -a']) {
    const r = await m.run(['/bin/bash', '-c', `openssl enc ${args} -pass pass:s3cret -in text -out vm.enc`], { cwd: fx!.root });
    assert.equal(r.exitCode, 0, Buffer.from(r.stderr).toString());
    const file = join(scratch, 'vm.enc');
    writeFileSync(file, await m.readFile(`${fx!.root}/vm.enc`));
    const host = spawnSync('openssl', ['enc', '-d', ...args.split(' '), '-pass', 'pass:s3cret', '-in', file]);
    assert.equal(host.status, 0, `${args}: ${host.stderr}`);
    assert.equal(host.stdout.toString(), text, args);
  }
});

test('openssl: version says what it is', async () => {
  const r = await fx!.m.run(['/bin/bash', '-c', 'openssl version'], { cwd: fx!.root });
  const out = Buffer.from(r.stdout).toString();
  assert.match(out, /agentOS openssl/);
  assert.doesNotMatch(out, /^OpenSSL/);
});

// cksum [OPTION]... [FILE]...: checksum and count the bytes of each file
// (coreutils 9.1: the POSIX CRC by default; -a sysv/bsd/crc/md5/sha1/sha256/sha512).

import { CRC32_MSB_TABLE } from '../../../common/crc32.js';
import { chunks, command, forEachInput, join, type Cmd } from '../../../userland/lib/index.js';
import { DIGESTS, type Algo } from '../../../common/digest.js';
import { bin } from './text.js';

const USAGE = `Usage: cksum [OPTION]... [FILE]...
Print or verify checksums.
By default use the 32 bit CRC algorithm.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --algorithm=TYPE  select the digest type to use.  See DIGEST below.
      --tag             create a BSD-style checksum (the default)
      --untagged        create a reversed style checksum, without digest type
  -z, --zero            end each output line with NUL, not newline,
                          and disable file name escaping
      --help        display this help and exit
      --version     output version information and exit

DIGEST determines the digest algorithm and default output format:
  sysv      (equivalent to sum -s)
  bsd       (equivalent to sum -r)
  crc       (equivalent to cksum)
  md5       (equivalent to md5sum)
  sha1      (equivalent to sha1sum)
  sha256    (equivalent to sha256sum)
  sha512    (equivalent to sha512sum)
`;

const ALGOS = ['bsd', 'sysv', 'crc', 'md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'blake2b', 'sm3'];

function crcUpdate(crc: number, b: Uint8Array): number {
  for (let i = 0; i < b.length; i++) crc = ((crc << 8) ^ CRC32_MSB_TABLE[((crc >>> 24) ^ b[i]) & 255]) >>> 0;
  return crc;
}

/** CRC over the data, then the length in as few bytes as it takes (least significant first), inverted. */
function crcFinish(crc: number, len: number): number {
  for (let n = len; n > 0; n = Math.floor(n / 256)) crc = crcUpdate(crc, Uint8Array.of(n % 256));
  return ~crc >>> 0;
}

function summarize(c: Cmd, algo: string, fd: number): string {
  let size = 0;
  if (algo === 'crc') {
    let crc = 0;
    for (const b of chunks(c.sys, fd)) {
      crc = crcUpdate(crc, b);
      size += b.length;
    }
    return `${crcFinish(crc, size)} ${size}`;
  }
  if (algo === 'sysv') {
    let s = 0;
    for (const b of chunks(c.sys, fd)) {
      for (let i = 0; i < b.length; i++) s = (s + b[i]) >>> 0;
      size += b.length;
    }
    const r = (s & 0xffff) + (s >>> 16);
    return `${(r & 0xffff) + (r >>> 16)} ${Math.ceil(size / 512)}`;
  }
  let ck = 0;
  for (const b of chunks(c.sys, fd)) {
    for (let i = 0; i < b.length; i++) ck = (((ck >> 1) + ((ck & 1) << 15)) + b[i]) & 0xffff;
    size += b.length;
  }
  return `${String(ck).padStart(5, '0')} ${String(Math.ceil(size / 1024)).padStart(5)}`;
}

export const cksum = command(
  {
    name: 'cksum',
    usage: USAGE,
    short: 'a:z',
    long: { algorithm: ['a', 'required'], tag: ['tag', 'none'], untagged: ['untagged', 'none'], zero: ['z', 'none'] },
  },
  (c) => {
    const algo = c.get('a') ?? 'crc';
    const hits = ALGOS.filter((a) => a.startsWith(algo));
    const chosen = ALGOS.includes(algo) ? algo : hits.length === 1 ? hits[0] : null;
    if (!chosen) {
      c.warn(`${hits.length ? 'ambiguous' : 'invalid'} argument '${algo}' for '--algorithm'\nValid arguments are:\n${ALGOS.map((a) => `  - '${a}'`).join('\n')}`);
      return c.tryHelp();
    }
    const digest = DIGESTS[chosen as Algo];
    if (!digest && !['crc', 'sysv', 'bsd'].includes(chosen)) c.fail(`${chosen}: this digest is not available here`);
    const end = c.has('z') ? '\0' : '\n';
    const named = c.operands.length > 0;
    forEachInput(c, c.operands, (fd, file) => {
      if (digest) {
        let data: Uint8Array = new Uint8Array(0);
        for (const b of chunks(c.sys, fd)) data = join(data, b);
        const sum = digest.fn(data);
        c.out.write(bin(c.has('untagged') ? `${sum}  ${file}${end}` : `${digest.tag} (${file}) = ${sum}${end}`));
        return;
      }
      const s = summarize(c, chosen, fd);
      c.out.write(bin(named ? `${s} ${file}${end}` : `${s}${end}`));
    });
  },
);

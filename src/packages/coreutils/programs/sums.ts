// md5sum / sha1sum / sha256sum / sha512sum [OPTION]... [FILE]...: print or check digests.

import { chunks, closeInput, command, forEachInput, join, openInput, type Applet, type Cmd } from '../../../userland/lib/index.js';
import { DIGESTS, type Algo } from '../../../common/digest.js';
import { bin, records, str } from './text.js';

const usage = (name: string, tag: string) => `Usage: ${name} [OPTION]... [FILE]...
Print or check ${tag} checksums.

With no FILE, or when FILE is -, read standard input.

  -b, --binary         read in binary mode
  -c, --check          read checksums from the FILEs and check them
      --tag            create a BSD-style checksum
  -t, --text           read in text mode (default)
  -z, --zero           end each output line with NUL, not newline,
                       and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet          don't print OK for each successfully verified file
      --status         don't output anything, status code shows success
      --strict         exit non-zero for improperly formatted checksum lines
  -w, --warn           warn about improperly formatted checksum lines

      --help     display this help and exit
      --version  output version information and exit
`;

function make(algo: Algo): Applet {
  const d = DIGESTS[algo];
  const name = `${algo}sum`;
  return command(
    {
      name,
      usage: usage(name, d.tag),
      short: 'bctwz',
      long: {
        binary: ['b', 'none'], check: ['c', 'none'], tag: ['T', 'none'], text: ['t', 'none'], zero: ['z', 'none'],
        'ignore-missing': ['I', 'none'], quiet: ['Q', 'none'], status: ['S', 'none'], strict: ['X', 'none'], warn: ['w', 'none'],
      },
    },
    (c) => {
      if (c.has('c')) return check(c, algo);
      const mark = c.has('b') ? '*' : ' ';
      const end = c.has('z') ? '\0' : '\n';
      forEachInput(c, c.operands, (fd, file) => {
        const sum = d.fn(readAll(c, fd));
        c.out.write(bin(c.has('T') ? `${d.tag} (${file}) = ${sum}${end}` : `${sum} ${mark}${file}${end}`));
      });
    },
  );
}

function readAll(c: Cmd, fd: number): Uint8Array {
  let data: Uint8Array = new Uint8Array(0);
  for (const b of chunks(c.sys, fd)) data = join(data, b);
  return data;
}

function check(c: Cmd, algo: Algo): number {
  const d = DIGESTS[algo];
  const quiet = c.has('Q');
  const status = c.has('S');
  let failed = false;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const re = new RegExp(`^(?:([0-9a-fA-F]{${d.hexLen}}) [ *](.*)|${d.tag} \\((.*)\\) = ([0-9a-fA-F]{${d.hexLen}}))$`);
  for (const list of c.operands.length ? c.operands : ['-']) {
    const fd = openInput(c, list);
    if (fd === null) continue;
    const text = str(readAll(c, fd));
    closeInput(c, fd);
    let good = 0;
    let bad = 0;
    let unread = 0;
    let malformed = 0;
    const lines = records(text);
    lines.forEach((line, i) => {
      const m = re.exec(line);
      if (!m) {
        malformed++;
        if (c.has('w')) c.warn(`${list === '-' ? 'standard input' : list}: ${i + 1}: improperly formatted ${d.tag} checksum line`);
        return;
      }
      good++;
      const want = (m[1] ?? m[4]).toLowerCase();
      const file = m[2] ?? m[3];
      const f = openInput(c, file);
      if (f === null) {
        c.status = 0;
        unread++;
        if (!status) c.out.write(bin(`${file}: FAILED open or read\n`));
        return;
      }
      const got = d.fn(readAll(c, f));
      closeInput(c, f);
      if (got !== want) {
        bad++;
        if (!status) c.out.write(bin(`${file}: FAILED\n`));
      } else if (!quiet && !status) c.out.write(bin(`${file}: OK\n`));
    });
    if (good === 0) {
      c.warn(`${list === '-' ? 'standard input' : list}: no properly formatted checksum lines found`);
      failed = true;
      continue;
    }
    if (!status) {
      if (malformed) c.warn(`WARNING: ${plural(malformed, 'line is', 'lines are')} improperly formatted`);
      if (unread) c.warn(`WARNING: ${plural(unread, 'listed file', 'listed files')} could not be read`);
      if (bad) c.warn(`WARNING: ${plural(bad, 'computed checksum', 'computed checksums')} did NOT match`);
    }
    if (bad || unread || (c.has('X') && malformed)) failed = true;
  }
  return failed || c.status ? 1 : 0;
}

export const md5sum = make('md5');
export const sha1sum = make('sha1');
export const sha256sum = make('sha256');
export const sha512sum = make('sha512');

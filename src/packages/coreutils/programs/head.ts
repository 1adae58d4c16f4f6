// head [-n [-]N] [-c [-]N] [-qvz] [FILE]...: output the first part of files.

import { chunks, join, lines, type Cmd } from '../../../userland/lib/index.js';
import { countCommand, type Count } from './count.js';

const USAGE = `Usage: head [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last
                             NUM bytes of each file
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last
                             NUM lines of each file
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
`;

export const head = countCommand('head', USAGE, false, headBytes, headLines);

function headLines(c: Cmd, fd: number, count: Count, delim: number): void {
  if (count.sign === '') {
    let left = count.n;
    if (left === 0) return;
    for (const l of lines(c.sys, fd, delim)) {
      c.out.write(l);
      if (--left === 0) return;
    }
    return;
  }
  // All but the last N: hold N lines back.
  const ring: Uint8Array[] = [];
  for (const l of lines(c.sys, fd, delim)) {
    ring.push(l.slice());
    if (ring.length > count.n) c.out.write(ring.shift()!);
  }
}

function headBytes(c: Cmd, fd: number, count: Count): void {
  if (count.sign === '') {
    let left = count.n;
    while (left > 0) {
      const b = c.sys.read(fd, Math.min(left, 65536));
      if (b.byteLength === 0) return;
      c.out.write(b);
      left -= b.byteLength;
    }
    return;
  }
  let held: Uint8Array = new Uint8Array(0);
  for (const b of chunks(c.sys, fd)) {
    held = join(held, b);
    if (held.byteLength > count.n) {
      c.out.write(held.subarray(0, held.byteLength - count.n));
      held = held.slice(held.byteLength - count.n);
    }
  }
}

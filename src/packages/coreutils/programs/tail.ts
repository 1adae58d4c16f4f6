// tail [-n [+]N] [-c [+]N] [-qvz] [FILE]...: output the last part of files.

import { chunks, join, lines, type Cmd } from '../../../userland/lib/index.js';
import { countCommand, type Count } from './count.js';
import { follow } from './tail-follow.js';

const USAGE = `Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -f, --follow[={name|descriptor}]
                           output appended data as the file grows;
                             an absent option argument means 'descriptor'
  -F                       same as --follow=name --retry
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to output starting with line NUM
      --max-unchanged-stats=N
                           accepted for compatibility (files are polled)
      --pid=PID            with -f, terminate after process ID, PID dies
  -q, --quiet, --silent    never output headers giving file names
      --retry              keep trying to open a file if it is inaccessible
  -s, --sleep-interval=N   with -f, sleep for approximately N seconds
                             (default 1.0) between iterations
  -v, --verbose            always output headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
`;

export const tail = countCommand('tail', USAGE, true, tailBytes, tailLines, follow);

function tailLines(c: Cmd, fd: number, count: Count, delim: number): void {
  if (count.sign === '+') {
    let skip = Math.max(count.n - 1, 0);
    for (const l of lines(c.sys, fd, delim)) {
      if (skip > 0) skip--;
      else c.out.write(l);
    }
    return;
  }
  if (count.n === 0) return;
  // Keep only the last N lines in memory.
  const ring: Uint8Array[] = [];
  for (const l of lines(c.sys, fd, delim)) {
    ring.push(l.slice());
    if (ring.length > count.n) ring.shift();
  }
  for (const l of ring) c.out.write(l);
}

function tailBytes(c: Cmd, fd: number, count: Count): void {
  if (count.sign === '+') {
    let skip = Math.max(count.n - 1, 0);
    for (const b of chunks(c.sys, fd)) {
      if (skip >= b.byteLength) skip -= b.byteLength;
      else {
        c.out.write(b.subarray(skip));
        skip = 0;
      }
    }
    return;
  }
  let held: Uint8Array = new Uint8Array(0);
  for (const b of chunks(c.sys, fd)) {
    held = join(held, b);
    if (held.byteLength > count.n) held = held.slice(held.byteLength - count.n);
  }
  c.out.write(held);
}

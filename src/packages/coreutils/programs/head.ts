// head [-n [-]N] [-c [-]N] [-qvz] [FILE]...: output the first part of files.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { chunks, command, forEachInput, join, lines, type Cmd } from '../../../userland/lib/index.js';
import { header, obsolete, parseCount, type Count } from './count.js';

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

const run = command(
  {
    name: 'head',
    usage: USAGE,
    short: 'c:n:qvz',
    long: {
      bytes: ['c', 'required'], lines: ['n', 'required'], quiet: ['q', 'none'], silent: ['q', 'none'],
      verbose: ['v', 'none'], 'zero-terminated': ['z', 'none'],
    },
  },
  (c) => {
    let bytes = false;
    let count: Count = { n: 10, sign: '' };
    let headers: boolean | null = null;
    for (const [k, v] of c.all) {
      if (k === 'c' || k === 'n') {
        const p = parseCount(v!);
        if (!p || p.sign === '+') return c.fail(`invalid number of ${k === 'c' ? 'bytes' : 'lines'}: '${v}'`);
        count = p;
        bytes = k === 'c';
      } else if (k === 'q') headers = false;
      else if (k === 'v') headers = true;
    }
    const files = c.operands.length ? c.operands : ['-'];
    const show = headers ?? files.length > 1;
    const delim = c.has('z') ? 0 : 10;
    let first = true;
    forEachInput(c, files, (fd, name) => {
      if (show) c.out.write(header(name, first));
      first = false;
      if (bytes) headBytes(c, fd, count);
      else headLines(c, fd, count, delim);
    }, 'for-reading');
  },
);

export const head = (os: AgentosApi, args: string[]): number => run(os, obsolete(args));

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

// cut OPTION... [FILE]...: print selected bytes, characters or fields of each line (streams).

import { command, forEachInput, lines, quote, type Cmd } from '../../../userland/lib/index.js';
import { bin, str } from './text.js';

const USAGE = `Usage: cut OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --bytes=LIST        select only these bytes
  -c, --characters=LIST   select only these characters
  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter
  -f, --fields=LIST       select only these fields;  also print any line
                            that contains no delimiter character, unless
                            the -s option is specified
  -n                      (ignored)
      --complement        complement the set of selected bytes, characters
                            or fields
  -s, --only-delimited    do not print lines not containing delimiters
      --output-delimiter=STRING  use STRING as the output delimiter
                            the default is to use the input delimiter
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help     display this help and exit
      --version  output version information and exit

Use one, and only one of -b, -c or -f.  Each LIST is made up of one
range, or many ranges separated by commas.  Selected input is written
in the same order that it is read, and is written exactly once.
`;

type Range = [number, number]; // 1-based inclusive; hi = Infinity for open ranges

export const cut = command(
  {
    name: 'cut',
    usage: USAGE,
    short: 'b:c:d:f:nsz',
    long: {
      bytes: ['b', 'required'], characters: ['c', 'required'], delimiter: ['d', 'required'], fields: ['f', 'required'],
      'only-delimited': ['s', 'none'], complement: ['C', 'none'], 'output-delimiter': ['O', 'required'], 'zero-terminated': ['z', 'none'],
    },
  },
  (c) => {
    const modes = ['b', 'c', 'f'].filter((k) => c.has(k));
    if (modes.length > 1) c.usage('only one list may be specified');
    if (modes.length === 0) c.usage('you must specify a list of bytes, characters, or fields');
    const mode = modes[0];
    const fields = mode === 'f';
    let delim = c.get('d') ?? '\t';
    if (c.has('d') && !fields) c.usage('an input delimiter may be specified only when operating on fields');
    if (c.has('s') && !fields) c.usage('suppressing non-delimited lines makes sense\n\tonly when operating on fields');
    if (delim === '') delim = '\0';
    if (delim.length > 1) c.usage('the delimiter must be a single character');
    let ranges = parseList(c, c.get(mode)!, fields);
    if (c.has('C')) ranges = complement(ranges);
    const od = c.get('O');
    const term = c.has('z') ? 0 : 10;
    const t = String.fromCharCode(term);
    forEachInput(c, c.operands, (fd) => {
      for (const b of lines(c.sys, fd, term)) {
        let l = str(b);
        const hadTerm = l.endsWith(t);
        if (hadTerm) l = l.slice(0, -1);
        const r = fields ? cutFields(l, ranges, delim, od ?? delim, c.has('s')) : cutBytes(l, ranges, od);
        if (r !== null) c.out.write(bin(r + t));
      }
    });
  },
);

function parseList(c: Cmd, list: string, fields: boolean): Range[] {
  const out: Range[] = [];
  for (const part of list.split(/[, ]/)) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (!m || (part === '-') || part === '') {
      if (part === '-' || part === '') c.usage('invalid range with no endpoint: -');
      c.usage(`invalid ${fields ? 'field' : 'byte/character'} position ${quote(part)}`);
    }
    const lo = m[1] === '' ? 1 : Number(m[1]);
    const hi = m[2] ? (m[3] === '' ? Infinity : Number(m[3])) : lo;
    if (lo === 0 || hi === 0) c.usage(fields ? 'fields are numbered from 1' : 'byte/character positions are numbered from 1');
    if (hi < lo) c.usage('invalid decreasing range');
    out.push([lo, hi]);
  }
  out.sort((a, b) => a[0] - b[0]);
  // Merge overlapping and adjacent ranges so output-delimiters go between disjoint runs only.
  const merged: Range[] = [];
  for (const r of out) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

function complement(rs: Range[]): Range[] {
  const out: Range[] = [];
  let next = 1;
  for (const [lo, hi] of rs) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next !== Infinity) out.push([next, Infinity]);
  return out;
}

function cutBytes(l: string, rs: Range[], od: string | undefined): string {
  const parts: string[] = [];
  for (const [lo, hi] of rs) {
    if (lo > l.length) break;
    parts.push(l.slice(lo - 1, hi === Infinity ? undefined : hi));
  }
  return parts.join(od ?? '');
}

function cutFields(l: string, rs: Range[], d: string, od: string, only: boolean): string | null {
  if (!l.includes(d)) return only ? null : l;
  const f = l.split(d);
  const picked: string[] = [];
  for (const [lo, hi] of rs) for (let i = lo; i <= Math.min(hi, f.length); i++) picked.push(f[i - 1]);
  return picked.join(od);
}

// sort [OPTION]... [FILE]...: sort lines of text files (C locale, byte order).

import { O_CREAT, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { command, quote, Writer, type Cmd } from '../../../userland/lib/index.js';
import { bin, readInputs, records } from './text.js';
import { hasOpts, noOpts, parseKey, setOpt, type Key } from './sort-keys.js';
import { comparators, type SortPlan } from './sort-prep.js';

const USAGE = `Usage: sort [OPTION]... [FILE]...
Write sorted concatenation of all FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
Ordering options:

  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -r, --reverse               reverse the result of comparisons
  -V, --version-sort          natural sort of (version) numbers within text

Other options:

  -c, --check               check for sorted input; do not sort
  -C, --check=quiet, --check=silent  like -c, but do not report first bad line
  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type
  -o, --output=FILE         write result to FILE instead of standard output
  -s, --stable              stabilize sort by disabling last-resort comparison
  -t, --field-separator=SEP  use SEP instead of non-blank to blank transition
  -u, --unique              output only the first of an equal run
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help     display this help and exit
      --version  output version information and exit

KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a
field number and C a character position in the field; both are origin 1, and
the stop position defaults to the line's end.
`;

type Plan = SortPlan;

export const sort = command(
  {
    name: 'sort',
    usage: USAGE,
    failStatus: 2,
    short: 'bcCdfghik:MnRo:rsS:t:T:uVz',
    long: {
      'ignore-leading-blanks': ['b', 'none'], 'dictionary-order': ['d', 'none'], 'ignore-case': ['f', 'none'],
      'general-numeric-sort': ['g', 'none'], 'ignore-nonprinting': ['i', 'none'], 'month-sort': ['M', 'none'],
      'human-numeric-sort': ['h', 'none'], 'numeric-sort': ['n', 'none'], reverse: ['r', 'none'], 'version-sort': ['V', 'none'],
      check: ['c', 'optional'], key: ['k', 'required'], output: ['o', 'required'], stable: ['s', 'none'],
      'field-separator': ['t', 'required'], unique: ['u', 'none'], 'zero-terminated': ['z', 'none'],
      'buffer-size': ['S', 'required'], 'temporary-directory': ['T', 'required'], parallel: ['P', 'required'],
    },
  },
  (c) => {
    const plan = makePlan(c);
    const delim = c.has('z') ? '\0' : '\n';
    const check = checkMode(c);
    if (check && c.operands.length > 1) c.usage(`extra operand ${quoteOp(c.operands[1])} not allowed with -${check === 'quiet' ? 'C' : 'c'}`);
    if (check) return checkSorted(c, plan, delim, check === 'quiet');
    const inputs = c.operands.length ? c.operands : ['-'];
    for (const f of inputs) if (f !== '-' && !readable(c, f)) return c.fail(`cannot read: ${f}: No such file or directory`);
    const text = readInputs(c, inputs);
    if (c.status) return c.status;
    const lines = text.length === 1 ? records(text[0], delim) : text.flatMap((t) => records(t, delim));
    const cmp = comparators(lines, plan);
    let idx = Array.from({ length: lines.length }, (_, i) => i);
    idx.sort((a, b) => cmp.full(a, b) || a - b);
    if (plan.unique) idx = idx.filter((l, i) => i === 0 || cmp.keys(idx[i - 1], l) !== 0);
    const body = bin(idx.map((i) => lines[i] + delim).join(''));
    const o = c.get('o');
    if (o === undefined) c.out.write(body);
    else writeTo(c, o, body);
  },
);

const quoteOp = (s: string) => `'${s}'`;

function readable(c: Cmd, f: string): boolean {
  try {
    c.sys.stat(f);
    return true;
  } catch {
    return false;
  }
}

function checkMode(c: Cmd): '' | 'loud' | 'quiet' {
  let mode: '' | 'loud' | 'quiet' = '';
  for (const [k, v] of c.all) {
    if (k === 'C') mode = 'quiet';
    else if (k === 'c') {
      if (v === undefined || v === 'diagnose-first') mode = 'loud';
      else if (v === 'quiet' || v === 'silent') mode = 'quiet';
      else c.usage(`invalid argument ${quote(v)} for ${quote('--check')}\nValid arguments are:\n  - ${quote('quiet')}, ${quote('silent')}\n  - ${quote('diagnose-first')}`);
    }
  }
  return mode;
}

function makePlan(c: Cmd): Plan {
  const global = noOpts();
  const keys: Key[] = [];
  let tab: string | null = null;
  for (const [k, v] of c.all) {
    if (k === 'k') {
      const key = parseKey(v!);
      if (typeof key === 'string') c.fail(key);
      keys.push(key);
    } else if (k === 't') {
      let t = v!;
      if (t === '\\0') t = '\0';
      if (t.length === 0) c.fail('empty tab');
      if (t.length > 1) c.fail(`multi-character tab ${quote(t)}`);
      if (tab !== null && tab !== t) c.fail('incompatible tabs');
      tab = t;
    } else if (k.length === 1 && 'bdfghiMnrV'.includes(k)) setOpt(global, k);
  }
  if (global.b) global.bEnd = true;
  for (const key of keys) if (!hasOpts(key)) Object.assign(key, { ...global, b: global.b, bEnd: global.b });
  const kinds = [global.n, global.g, global.h, global.V, global.M].filter(Boolean).length;
  if (kinds > 1) {
    const letters = (['g', 'h', 'M', 'n', 'V'] as const).filter((l) => global[l]).join('');
    c.fail(`options '-${letters}' are incompatible`);
  }
  return { keys, global, tab, stable: c.has('s'), unique: c.has('u') };
}

function checkSorted(c: Cmd, p: Plan, delim: string, quiet: boolean): number {
  const name = c.operands[0] ?? '-';
  const [text] = readInputs(c, [name]);
  if (text === undefined) return 2;
  const lines = records(text, delim);
  const cmp = comparators(lines, p).full;
  for (let i = 1; i < lines.length; i++) {
    const r = cmp(i - 1, i);
    if (r > 0 || (p.unique && r === 0)) {
      if (!quiet) {
        c.out.flush();
        c.sys.writeAll(2, bin(`sort: ${name}:${i + 1}: disorder: ${lines[i]}\n`));
      }
      return 1;
    }
  }
  return 0;
}

function writeTo(c: Cmd, path: string, body: Uint8Array): void {
  let fd: number;
  try {
    fd = c.sys.open(path, O_WRONLY | O_CREAT | O_TRUNC);
  } catch (e) {
    c.sysError(`open failed: ${path}`, e);
    return;
  }
  const w = new Writer(c.sys, fd);
  w.write(body);
  w.flush();
  c.sys.close(fd);
}

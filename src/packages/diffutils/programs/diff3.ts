// diff3 [OPTION]... MYFILE OLDFILE YOURFILE: compare three files line by
// line (GNU diffutils 3.8 is the specification). Like GNU's, it diffs each
// of two files against a common one (with a horizon of 100 lines) and
// merges the two edit scripts into blocks where one or all files differ;
// prints them, an ed script (-e -E -x -X -3 -A), or the merged file (-m).

import { O_RDONLY } from '../../../abi/fcntl.js';
import { isDir } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, type Cmd } from '../../../userland/lib/index.js';
import { compareTexts, splitLines, WS_NONE, type Text } from './analyze.js';

const USAGE = `Usage: diff3 [OPTION]... MYFILE OLDFILE YOURFILE
Compare three files line by line.

Mandatory arguments to long options are mandatory for short options too.
  -A, --show-all              output all changes, bracketing conflicts

  -e, --ed                    output ed script incorporating changes
                                from OLDFILE to YOURFILE into MYFILE
  -E, --show-overlap          like -e, but bracket conflicts
  -3, --easy-only             like -e, but incorporate only nonoverlapping changes
  -x, --overlap-only          like -e, but incorporate only overlapping changes
  -X                          like -x, but bracket conflicts
  -i                          append 'w' and 'q' commands to ed scripts

  -m, --merge                 output actual merged file, according to
                                -A if no other options are given

  -a, --text                  treat all files as text
      --strip-trailing-cr     strip trailing carriage return on input
  -T, --initial-tab           make tabs line up by prepending a tab
  -L, --label=LABEL           use LABEL instead of file name
                                (can be repeated up to three times)

      --help                  display this help and exit
  -v, --version               output version information and exit

The default output format is a somewhat human-readable representation of
the changes.

The -e, -E, -x, -X (and corresponding long) options cause an ed script
to be output instead of the default.

Finally, the -m (--merge) option causes diff3 to do the merge internally
and output the actual merged file.  For unusual input, this is more
robust than using ed.

If a FILE is '-', read standard input.
Exit status is 0 if successful, 1 if conflicts, 2 if trouble.
`;

/** Internal file numbers: two "other" files and the common one they are diffed against. */
const FILE0 = 0;
const FILE1 = 1;
const FILEC = 2;

type Kind = 'all' | 0 | 1 | 2;

/** A two-way difference: inclusive 1-based ranges in the other file [0] and the common file [1]. */
interface Block2 {
  ranges: [[number, number], [number, number]];
  lines: [string[], string[]];
}

/** A three-way block: ranges and lines for FILE0, FILE1 and FILEC; `kind` says which file differs. */
interface Block3 {
  kind: Kind;
  ranges: [number, number][];
  lines: (string | undefined)[][];
}

export default function main(os: AgentosApi): void {
  os.exit(diff3(os, os.argv.slice(1)));
}

const diff3 = command(
  {
    name: 'diff3',
    usage: USAGE,
    failStatus: 2,
    prefixTry: true,
    short: 'aeimvx3AEL:TX',
    long: {
      'easy-only': ['3', 'none'], ed: ['e', 'none'], 'initial-tab': ['T', 'none'], label: ['L', 'required'], merge: ['m', 'none'],
      'overlap-only': ['x', 'none'], 'show-all': ['A', 'none'], 'show-overlap': ['E', 'none'], 'strip-trailing-cr': ['strip-trailing-cr', 'none'],
      text: ['a', 'none'], 'diff-program': ['diff-program', 'required'],
    },
  },
  (c) => {
    if (c.has('v')) {
      c.out.write('diff3 (agentOS diffutils) 3.8\n');
      return 0;
    }
    let incompat = 0;
    let showSecond = false;
    let flagging = false;
    let overlapOnly = false;
    let simpleOnly = false;
    const labels: string[] = [];
    for (const [k, v] of c.all) {
      if (k === 'A') [showSecond, flagging, incompat] = [true, true, incompat + 1];
      else if (k === 'x') [overlapOnly, incompat] = [true, incompat + 1];
      else if (k === '3') [simpleOnly, incompat] = [true, incompat + 1];
      // GNU diff3 3.8 writes the same script for -X as for -x (no brackets).
      else if (k === 'X') [overlapOnly, incompat] = [true, incompat + 1];
      else if (k === 'E') [flagging, incompat] = [true, incompat + 1];
      else if (k === 'e') incompat++;
      else if (k === 'L') {
        if (labels.length >= 3) c.usage('too many file label options');
        labels.push(v as string);
      }
    }
    const merge = c.has('m');
    const edscript = incompat > 0 && !merge;
    if (!incompat && merge) showSecond = flagging = true;
    if (incompat > 1 || (c.has('i') && merge) || (labels.length && !flagging)) c.usage('incompatible options');
    const files = c.operands;
    if (files.length < 3) c.usage(`missing operand after '${files.length ? files[files.length - 1] : 'diff3'}'`);
    if (files.length > 3) c.usage(`extra operand '${files[3]}'`);
    for (let i = labels.length; i < 3; i++) labels.push(files[i]);
    let common = edscript || merge ? 1 : 2;
    if (files[common] === '-') {
      common = 3 - common;
      if (files[0] === '-' || files[common] === '-') c.fail("'-' specified for more than one input file");
    }
    const mapping = [0, 3 - common, common];
    const rev = [0, 0, 0];
    mapping.forEach((m, i) => (rev[m] = i));
    const texts = files.map((f) => read(c, f, c.has('strip-trailing-cr')));
    // Ed scripts cannot express a missing newline: lines keep one, and GNU passes diff's note on.
    const complete = edscript ? (l: string) => (l.endsWith('\n') ? l : (c.warn('No newline at end of file'), `${l}\n`)) : (l: string) => l;
    const thread1 = twoWay(texts[rev[FILE1]], texts[rev[FILEC]], complete);
    const thread0 = twoWay(texts[rev[FILE0]], texts[rev[FILEC]], complete);
    const blocks = threeWay(thread0, thread1);
    const o = { showSecond, flagging, overlapOnly, simpleOnly, finalWrite: c.has('i'), tab: c.has('T') };
    if (edscript) return edScript(c, blocks, mapping, rev, labels, o) ? 1 : 0;
    if (merge) return mergeOut(c, blocks, mapping, rev, labels, o, texts[0]) ? 1 : 0;
    plain(c, blocks, mapping, rev, o.tab);
    return 0;
  },
);

function read(c: Cmd, name: string, stripCr: boolean): Text {
  const sys = c.sys;
  try {
    let data: Uint8Array;
    if (name === '-') data = sys.readAll(0);
    else {
      if (isDir(sys.stat(name).mode)) return c.fail(`${name}: Is a directory`);
      const fd = sys.open(name, O_RDONLY);
      try {
        data = sys.readAll(fd);
      } finally {
        sys.close(fd);
      }
    }
    if (stripCr) data = Uint8Array.from(data.filter((b, i) => !(b === 13 && (data[i + 1] === 10 || i + 1 === data.length))));
    return splitLines(data);
  } catch (e) {
    c.sysError(name, e, 2);
    return c.exit(2);
  }
}

function lineOf(t: Text, i: number): string {
  let s = '';
  for (let p = t.starts[i]; p < t.starts[i + 1]; p++) s += String.fromCharCode(t.bytes[p]);
  return s;
}

/** GNU's `diff --horizon-lines=100 OTHER COMMON`, as blocks. */
function twoWay(other: Text, commonText: Text, complete: (line: string) => string): Block2[] {
  const changes = compareTexts(other, commonText, { ignoreCase: false, white: WS_NONE, tabsize: 8, minimal: false, speedLargeFiles: false, horizon: 100 });
  return changes.map((ch) => ({
    ranges: [
      [ch.line0 + 1, ch.line0 + ch.deleted],
      [ch.line1 + 1, ch.line1 + ch.inserted],
    ],
    lines: [
      Array.from({ length: ch.deleted }, (_, k) => complete(lineOf(other, ch.line0 + k))),
      Array.from({ length: ch.inserted }, (_, k) => complete(lineOf(commonText, ch.line1 + k))),
    ],
  }));
}

const FO = 0;
const FC = 1;

/** Merge the two threads of differences (both against the common file) into three-way blocks. */
function threeWay(thread0: Block2[], thread1: Block2[]): Block3[] {
  const current = [0, 0];
  const threads = [thread0, thread1];
  const result: Block3[] = [];
  let last: Block3 = { kind: 'all', ranges: [[0, 0], [0, 0], [0, 0]], lines: [[], [], []] };
  const at = (t: number) => threads[t][current[t]] as Block2 | undefined;
  while (at(0) || at(1)) {
    const using: Block2[][] = [[], []];
    const a0 = at(0);
    const a1 = at(1);
    const base = !a0 ? 1 : !a1 ? 0 : a0.ranges[FC][0] > a1.ranges[FC][0] ? 1 : 0;
    let high = base;
    let mark = (at(high) as Block2).ranges[FC][1];
    using[high].push(at(high) as Block2);
    current[high]++;
    let other = high ^ 1;
    for (let od = at(other); od && od.ranges[FC][0] <= mark + 1; od = at(other)) {
      using[other].push(od);
      current[other]++;
      if (mark < od.ranges[FC][1]) {
        high ^= 1;
        mark = od.ranges[FC][1];
      }
      other = high ^ 1;
    }
    last = toBlock3(using, base, high, last);
    result.push(last);
  }
  return result;
}

function toBlock3(using: Block2[][], lowThread: number, highThread: number, last: Block3): Block3 {
  const lowc = using[lowThread][0].ranges[FC][0];
  const highc = using[highThread][using[highThread].length - 1].ranges[FC][1];
  const low = [0, 0];
  const high = [0, 0];
  for (let d = 0; d < 2; d++) {
    const u = using[d];
    if (u.length) {
      low[d] = lowc - u[0].ranges[FC][0] + u[0].ranges[FO][0];
      const lu = u[u.length - 1];
      high[d] = highc - lu.ranges[FC][1] + lu.ranges[FO][1];
    } else {
      low[d] = lowc - last.ranges[FILEC][1] + last.ranges[FILE0 + d][1];
      high[d] = highc - last.ranges[FILEC][1] + last.ranges[FILE0 + d][1];
    }
  }
  const ranges: [number, number][] = [[low[0], high[0]], [low[1], high[1]], [lowc, highc]];
  const lines: (string | undefined)[][] = ranges.map(([a, b]) => new Array<string | undefined>(Math.max(0, b - a + 1)));
  for (let d = 0; d < 2; d++) {
    for (const b of using[d]) {
      const off = b.ranges[FC][0] - lowc;
      b.lines[FC].forEach((l, k) => (lines[FILEC][off + k] ??= l));
    }
  }
  for (let d = 0; d < 2; d++) {
    const u = using[d];
    const lo = low[d];
    const hi = high[d];
    const mine = lines[FILE0 + d];
    for (let i = 0; i + lo < (u.length ? u[0].ranges[FO][0] : hi + 1); i++) mine[i] = lines[FILEC][i];
    u.forEach((b, k) => {
      const off = b.ranges[FO][0] - lo;
      b.lines[FO].forEach((l, j) => (mine[off + j] ??= l));
      let linec = b.ranges[FC][1] + 1 - lowc;
      const next = u[k + 1];
      for (let i = b.ranges[FO][1] + 1 - lo; i < (next ? next.ranges[FO][0] : hi + 1) - lo; i++) mine[i] = lines[FILEC][linec++];
    });
  }
  let kind: Kind;
  if (!using[0].length) kind = FILE1;
  else if (!using[1].length) kind = FILE0;
  else {
    const [l0, l1] = [lines[FILE0], lines[FILE1]];
    kind = l0.length === l1.length && l0.every((l, i) => l !== undefined && l === l1[i]) ? FILEC : 'all';
  }
  return { kind, ranges, lines };
}

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0));

/** The default output: "====N" blocks listing each file's lines. */
function plain(c: Cmd, blocks: Block3[], mapping: number[], rev: number[], tab: boolean): void {
  const put = (s: string) => c.out.write(latin1(s));
  const prefix = tab ? '\t' : '  ';
  for (const b of blocks) {
    let odd: number;
    let dontPrint: number;
    if (b.kind === 'all') {
      odd = 3;
      dontPrint = 3;
      put('====\n');
    } else {
      odd = rev[b.kind];
      dontPrint = odd === 0 ? 1 : 0;
      put(`====${odd + 1}\n`);
    }
    // Files 1 and 3 equal: show 1, 3, then 2.
    const order = odd === 1 ? [0, 2, 1] : [0, 1, 2];
    for (const i of order) {
      const [lo, hi] = b.ranges[mapping[i]];
      put(`${i + 1}:${lo - hi === 1 ? `${lo - 1}a` : lo === hi ? `${lo}c` : `${lo},${hi}c`}\n`);
      if (i === dontPrint || lo > hi) continue;
      const ls = b.lines[mapping[i]];
      for (const l of ls) put(prefix + (l ?? ''));
      if (!(ls[ls.length - 1] ?? '\n').endsWith('\n')) put('\n\\ No newline at end of file\n');
    }
  }
}

interface OutOpts {
  showSecond: boolean;
  flagging: boolean;
  overlapOnly: boolean;
  simpleOnly: boolean;
  finalWrite: boolean;
}

/** Which external kind a block is and whether it is a conflict under the options; null to skip it. */
function classify(b: Block3, rev: number[], o: OutOpts): { type: 'all' | number; conflict: boolean } | null {
  const type = b.kind === 'all' ? 'all' : rev[b.kind];
  if (type === 1) return o.showSecond ? { type, conflict: true } : null;
  if (type === 2) return o.overlapOnly ? null : { type, conflict: false };
  if (type === 'all') return o.simpleOnly ? null : { type, conflict: o.flagging };
  return null;
}

/** Lines with any leading "." doubled for ed; whether there was one. */
function dotLines(ls: (string | undefined)[], put: (s: string) => void): boolean {
  let dot = false;
  for (const l0 of ls) {
    const l = l0 ?? '';
    if (l.startsWith('.')) {
      dot = true;
      put('.');
    }
    put(l);
  }
  return dot;
}

function undotLines(put: (s: string) => void, dot: boolean, start: number, num: number): void {
  put('.\n');
  if (dot) put(num === 1 ? `${start}s/^\\.//\n` : `${start},${start + num - 1}s/^\\.//\n`);
}

function edScript(c: Cmd, blocks: Block3[], mapping: number[], rev: number[], labels: string[], o: OutOpts): boolean {
  const put = (s: string) => c.out.write(latin1(s));
  let conflicts = false;
  for (const b of [...blocks].reverse()) {
    const k = classify(b, rev, o);
    if (!k) continue;
    const [low0, high0] = b.ranges[mapping[0]];
    const n1 = b.lines[mapping[1]].length;
    const n2 = b.lines[mapping[2]].length;
    if (k.conflict) {
      conflicts = true;
      put(`${high0}a\n`);
      let dot = false;
      if (k.type === 'all') {
        if (o.showSecond) {
          put(`||||||| ${labels[1]}\n`);
          dot = dotLines(b.lines[mapping[1]], put);
        }
        put('=======\n');
        dot = dotLines(b.lines[mapping[2]], put) || dot;
      }
      put(`>>>>>>> ${labels[2]}\n`);
      undotLines(put, dot, high0 + 2, n1 + n2 + 1);
      put(`${low0 - 1}a\n<<<<<<< ${k.type === 'all' ? labels[0] : labels[1]}\n`);
      dot = false;
      if (k.type === 1) {
        dot = dotLines(b.lines[mapping[1]], put);
        put('=======\n');
      }
      undotLines(put, dot, low0 + 1, n1);
    } else if (n2 === 0) {
      put(low0 === high0 ? `${low0}d\n` : `${low0},${high0}d\n`);
    } else {
      put(high0 - low0 === -1 ? `${high0}a\n` : high0 === low0 ? `${high0}c\n` : `${low0},${high0}c\n`);
      undotLines(put, dotLines(b.lines[mapping[2]], put), low0, n2);
    }
  }
  if (o.finalWrite) put('w\nq\n');
  return conflicts;
}

function mergeOut(c: Cmd, blocks: Block3[], mapping: number[], rev: number[], labels: string[], o: OutOpts, mine: Text): boolean {
  const put = (s: string) => c.out.write(latin1(s));
  let conflicts = false;
  let read = 0;
  const copy = (n: number) => {
    for (let i = 0; i < n && read < mine.lines; i++) put(lineOf(mine, read++));
  };
  for (const b of blocks) {
    const k = classify(b, rev, o);
    if (!k) continue;
    copy(b.ranges[FILE0][0] - read - 1);
    if (k.conflict) {
      conflicts = true;
      if (k.type === 'all') {
        put(`<<<<<<< ${labels[0]}\n`);
        for (const l of b.lines[mapping[0]]) put(l ?? '');
      }
      if (o.showSecond) {
        put(`${k.type === 'all' ? '|||||||' : '<<<<<<<'} ${labels[1]}\n`);
        for (const l of b.lines[mapping[1]]) put(l ?? '');
      }
      put('=======\n');
    }
    for (const l of b.lines[mapping[2]]) put(l ?? '');
    if (k.conflict) put(`>>>>>>> ${labels[2]}\n`);
    read += b.lines[FILE0].length;
  }
  copy(mine.lines - read);
  return conflicts;
}

// A line diff that makes the same choices as git's xdiff, so hunks match
// git's byte for byte: common ends trimmed, lines with no counterpart set
// aside before the search, Myers' O(ND) search by divide and conquer on the
// middle snake (with git's cost limits), then change groups slid to git's
// positions with its indent heuristic. Lines are byte strings (one char per
// byte) including their newline.

export interface Change {
  /** First changed line in a and in b (0-based). */
  i1: number;
  i2: number;
  /** Lines removed from a, added from b. */
  chg1: number;
  chg2: number;
}

/** Split into lines, each keeping its '\n' (the last may have none). */
export function splitLines(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', start)) {
    out.push(s.slice(start, i + 1));
    start = i + 1;
  }
  if (start < s.length) out.push(s.slice(start));
  return out;
}

const bogosqrt = (n: number): number => {
  let i = 1;
  for (; n > 0; n >>= 2) i <<= 1;
  return i;
};

const MAX_EQLIMIT = 1024;
const SIMSCAN_WINDOW = 100;
const KPDIS_RUN = 4;
const SNAKE_CNT = 20;
const HEUR_MIN_COST = 256;
const MAX_COST_MIN = 256;
const K_HEUR = 4;
const LINE_MAX = 0x7fffffff;

interface File {
  ha: Int32Array; // line ids, all lines
  rchg: Uint8Array; // changed flags, index i+1 for line i (sentinels at both ends)
  nrec: number;
  /** The lines handed to the search (after setting aside the unmatched): their ids and real indexes. */
  rha: Int32Array;
  rindex: Int32Array;
  nreff: number;
}

function mkFile(ha: Int32Array): File {
  return { ha, rchg: new Uint8Array(ha.length + 2), nrec: ha.length, rha: new Int32Array(0), rindex: new Int32Array(0), nreff: 0 };
}

/** Lines with many matches are set aside only inside runs of unmatched lines. */
function cleanMmatch(dis: Uint8Array, i: number, s: number, e: number): boolean {
  if (i - s > SIMSCAN_WINDOW) s = i - SIMSCAN_WINDOW;
  if (e - i > SIMSCAN_WINDOW) e = i + SIMSCAN_WINDOW;
  let r: number;
  let rdis0 = 0;
  let rpdis0 = 1;
  for (r = 1; i - r >= s; r++) {
    if (!dis[i - r]) rdis0++;
    else if (dis[i - r] === 2) rpdis0++;
    else break;
  }
  if (rdis0 === 0) return false;
  let rdis1 = 0;
  let rpdis1 = 1;
  for (r = 1; i + r <= e; r++) {
    if (!dis[i + r]) rdis1++;
    else if (dis[i + r] === 2) rpdis1++;
    else break;
  }
  if (rdis1 === 0) return false;
  rdis1 += rdis0;
  rpdis1 += rpdis0;
  return rpdis1 * KPDIS_RUN < rpdis1 + rdis1;
}

function prepare(f1: File, f2: File): void {
  // trim the common head and tail
  let dstart = 0;
  const lim = Math.min(f1.nrec, f2.nrec);
  while (dstart < lim && f1.ha[dstart] === f2.ha[dstart]) dstart++;
  let t = 0;
  while (t < lim - dstart && f1.ha[f1.nrec - 1 - t] === f2.ha[f2.nrec - 1 - t]) t++;
  const dend1 = f1.nrec - t - 1;
  const dend2 = f2.nrec - t - 1;
  // occurrences of each line in the other file (whole files)
  const count = (ha: Int32Array) => {
    const m = new Map<number, number>();
    for (const h of ha) m.set(h, (m.get(h) ?? 0) + 1);
    return m;
  };
  const c1 = count(f1.ha);
  const c2 = count(f2.ha);
  const classify = (f: File, other: Map<number, number>, dend: number) => {
    const mlim = Math.min(bogosqrt(f.nrec), MAX_EQLIMIT);
    const dis = new Uint8Array(f.nrec);
    for (let i = dstart; i <= dend; i++) {
      const nm = other.get(f.ha[i]) ?? 0;
      dis[i] = nm === 0 ? 0 : nm >= mlim ? 2 : 1;
    }
    const rha: number[] = [];
    const rindex: number[] = [];
    for (let i = dstart; i <= dend; i++) {
      if (dis[i] === 1 || (dis[i] === 2 && !cleanMmatch(dis, i, dstart, dend))) {
        rindex.push(i);
        rha.push(f.ha[i]);
      } else f.rchg[i + 1] = 1;
    }
    f.rha = Int32Array.from(rha);
    f.rindex = Int32Array.from(rindex);
    f.nreff = rha.length;
  };
  classify(f1, c2, dend1);
  classify(f2, c1, dend2);
}

interface Split {
  i1: number;
  i2: number;
  minLo: boolean;
  minHi: boolean;
}

class Search {
  readonly kvdf: Int32Array;
  readonly kvdb: Int32Array;
  readonly off: number;
  readonly mxcost: number;

  constructor(
    readonly a: File,
    readonly b: File,
  ) {
    const ndiags = a.nreff + b.nreff + 3;
    this.kvdf = new Int32Array(ndiags + 2);
    this.kvdb = new Int32Array(ndiags + 2);
    this.off = b.nreff + 1;
    this.mxcost = Math.max(bogosqrt(ndiags), MAX_COST_MIN);
  }

  /** The middle snake of [off1, lim1) × [off2, lim2). */
  split(off1: number, lim1: number, off2: number, lim2: number, needMin: boolean): Split {
    const ha1 = this.a.rha;
    const ha2 = this.b.rha;
    const kf = this.kvdf;
    const kb = this.kvdb;
    const O = this.off;
    const dmin = off1 - lim2;
    const dmax = lim1 - off2;
    const fmid = off1 - off2;
    const bmid = lim1 - lim2;
    const odd = ((fmid - bmid) & 1) !== 0;
    let fmin = fmid;
    let fmax = fmid;
    let bmin = bmid;
    let bmax = bmid;
    kf[O + fmid] = off1;
    kb[O + bmid] = lim1;
    for (let ec = 1; ; ec++) {
      let gotSnake = false;
      if (fmin > dmin) kf[O + --fmin - 1] = -1;
      else ++fmin;
      if (fmax < dmax) kf[O + ++fmax + 1] = -1;
      else --fmax;
      for (let d = fmax; d >= fmin; d -= 2) {
        let i1 = kf[O + d - 1] >= kf[O + d + 1] ? kf[O + d - 1] + 1 : kf[O + d + 1];
        const prev1 = i1;
        let i2 = i1 - d;
        while (i1 < lim1 && i2 < lim2 && ha1[i1] === ha2[i2]) {
          i1++;
          i2++;
        }
        if (i1 - prev1 > SNAKE_CNT) gotSnake = true;
        kf[O + d] = i1;
        if (odd && bmin <= d && d <= bmax && kb[O + d] <= i1) return { i1, i2, minLo: true, minHi: true };
      }
      if (bmin > dmin) kb[O + --bmin - 1] = LINE_MAX;
      else ++bmin;
      if (bmax < dmax) kb[O + ++bmax + 1] = LINE_MAX;
      else --bmax;
      for (let d = bmax; d >= bmin; d -= 2) {
        let i1 = kb[O + d - 1] < kb[O + d + 1] ? kb[O + d - 1] : kb[O + d + 1] - 1;
        const prev1 = i1;
        let i2 = i1 - d;
        while (i1 > off1 && i2 > off2 && ha1[i1 - 1] === ha2[i2 - 1]) {
          i1--;
          i2--;
        }
        if (prev1 - i1 > SNAKE_CNT) gotSnake = true;
        kb[O + d] = i1;
        if (!odd && fmin <= d && d <= fmax && i1 <= kf[O + d]) return { i1, i2, minLo: true, minHi: true };
      }
      if (needMin) continue;
      if (gotSnake && ec > HEUR_MIN_COST) {
        let best = 0;
        let sp: Split | null = null;
        for (let d = fmax; d >= fmin; d -= 2) {
          const dd = d > fmid ? d - fmid : fmid - d;
          const i1 = kf[O + d];
          const i2 = i1 - d;
          const v = i1 - off1 + (i2 - off2) - dd;
          if (v > K_HEUR * ec && v > best && off1 + SNAKE_CNT <= i1 && i1 < lim1 && off2 + SNAKE_CNT <= i2 && i2 < lim2) {
            for (let k = 1; ha1[i1 - k] === ha2[i2 - k]; k++) {
              if (k === SNAKE_CNT) {
                best = v;
                sp = { i1, i2, minLo: true, minHi: false };
                break;
              }
            }
          }
        }
        if (sp) return sp;
        best = 0;
        for (let d = bmax; d >= bmin; d -= 2) {
          const dd = d > bmid ? d - bmid : bmid - d;
          const i1 = kb[O + d];
          const i2 = i1 - d;
          const v = lim1 - i1 + (lim2 - i2) - dd;
          if (v > K_HEUR * ec && v > best && off1 < i1 && i1 <= lim1 - SNAKE_CNT && off2 < i2 && i2 <= lim2 - SNAKE_CNT) {
            for (let k = 0; ha1[i1 + k] === ha2[i2 + k]; k++) {
              if (k === SNAKE_CNT - 1) {
                best = v;
                sp = { i1, i2, minLo: false, minHi: true };
                break;
              }
            }
          }
        }
        if (sp) return sp;
      }
      if (ec >= this.mxcost) {
        let fbest = -1;
        let fbest1 = -1;
        for (let d = fmax; d >= fmin; d -= 2) {
          let i1 = Math.min(kf[O + d], lim1);
          let i2 = i1 - d;
          if (lim2 < i2) {
            i1 = lim2 + d;
            i2 = lim2;
          }
          if (fbest < i1 + i2) {
            fbest = i1 + i2;
            fbest1 = i1;
          }
        }
        let bbest = LINE_MAX;
        let bbest1 = LINE_MAX;
        for (let d = bmax; d >= bmin; d -= 2) {
          let i1 = Math.max(off1, kb[O + d]);
          let i2 = i1 - d;
          if (i2 < off2) {
            i1 = off2 + d;
            i2 = off2;
          }
          if (i1 + i2 < bbest) {
            bbest = i1 + i2;
            bbest1 = i1;
          }
        }
        if (lim1 + lim2 - bbest < fbest - (off1 + off2)) return { i1: fbest1, i2: fbest - fbest1, minLo: true, minHi: false };
        return { i1: bbest1, i2: bbest - bbest1, minLo: false, minHi: true };
      }
    }
  }

  /** Mark the changed lines of [off1, lim1) × [off2, lim2). */
  compare(off1: number, lim1: number, off2: number, lim2: number, needMin: boolean): void {
    const ha1 = this.a.rha;
    const ha2 = this.b.rha;
    // an explicit stack instead of recursion: deep inputs must not overflow
    const stack: [number, number, number, number, boolean][] = [[off1, lim1, off2, lim2, needMin]];
    while (stack.length) {
      const top = stack.pop()!;
      let [o1, l1, o2, l2] = top;
      const nm = top[4];
      while (o1 < l1 && o2 < l2 && ha1[o1] === ha2[o2]) {
        o1++;
        o2++;
      }
      while (o1 < l1 && o2 < l2 && ha1[l1 - 1] === ha2[l2 - 1]) {
        l1--;
        l2--;
      }
      if (o1 === l1) for (; o2 < l2; o2++) this.b.rchg[this.b.rindex[o2] + 1] = 1;
      else if (o2 === l2) for (; o1 < l1; o1++) this.a.rchg[this.a.rindex[o1] + 1] = 1;
      else {
        const sp = this.split(o1, l1, o2, l2, nm);
        stack.push([sp.i1, l1, sp.i2, l2, sp.minHi]);
        stack.push([o1, sp.i1, o2, sp.i2, sp.minLo]);
      }
    }
  }
}

// ---- sliding change groups (xdl_change_compact) ------------------------------------

const MAX_INDENT = 200;
const MAX_BLANKS = 20;
const START_OF_FILE_PENALTY = 1;
const END_OF_FILE_PENALTY = 21;
const TOTAL_BLANK_WEIGHT = -30;
const POST_BLANK_WEIGHT = 6;
const RELATIVE_INDENT_PENALTY = -4;
const RELATIVE_INDENT_WITH_BLANK_PENALTY = 10;
const RELATIVE_OUTDENT_PENALTY = 24;
const RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17;
const RELATIVE_DEDENT_PENALTY = 23;
const RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17;
const INDENT_WEIGHT = 60;
const INDENT_HEURISTIC_MAX_SLIDING = 100;

/** Indentation width of a line (tabs to 8); -1 for a blank line. */
function indentOf(line: string): number {
  let ret = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ') ret += 1;
    else if (c === '\t') ret += 8 - (ret % 8);
    else if (c !== '\n' && c !== '\r' && c !== '\v' && c !== '\f') return ret;
    if (ret >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

interface Score {
  indent: number;
  penalty: number;
}

function scoreSplit(lines: string[], indents: Int32Array, split: number, s: Score): void {
  const nrec = lines.length;
  const eof = split >= nrec;
  const indentHere = eof ? -1 : indents[split];
  let preBlank = 0;
  let preIndent = -1;
  for (let i = split - 1; i >= 0; i--) {
    preIndent = indents[i];
    if (preIndent !== -1) break;
    preBlank++;
    if (preBlank === MAX_BLANKS) {
      preIndent = 0;
      break;
    }
  }
  let postBlank = 0;
  let postIndent = -1;
  for (let i = split + 1; i < nrec; i++) {
    postIndent = indents[i];
    if (postIndent !== -1) break;
    postBlank++;
    if (postBlank === MAX_BLANKS) {
      postIndent = 0;
      break;
    }
  }
  if (preIndent === -1 && preBlank === 0) s.penalty += START_OF_FILE_PENALTY;
  if (eof) s.penalty += END_OF_FILE_PENALTY;
  const post = indentHere === -1 ? 1 + postBlank : 0;
  const total = preBlank + post;
  s.penalty += TOTAL_BLANK_WEIGHT * total + POST_BLANK_WEIGHT * post;
  const indent = indentHere !== -1 ? indentHere : postIndent;
  const anyBlanks = total !== 0;
  s.indent += indent;
  if (indent === -1 || preIndent === -1) return;
  if (indent > preIndent) s.penalty += anyBlanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
  else if (indent < preIndent) {
    if (postIndent !== -1 && postIndent > indent) s.penalty += anyBlanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
    else s.penalty += anyBlanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
  }
}

const scoreCmp = (a: Score, b: Score): number => INDENT_WEIGHT * (Math.sign(a.indent - b.indent)) + (a.penalty - b.penalty);

/** A group of changed lines [start, end) in one file; rchg is indexed +1. */
class Group {
  start = 0;
  end = 0;
  constructor(readonly f: File) {
    while (f.rchg[this.end + 1]) this.end++;
  }
  next(): boolean {
    if (this.end === this.f.nrec) return false;
    this.start = this.end + 1;
    for (this.end = this.start; this.f.rchg[this.end + 1]; this.end++);
    return true;
  }
  previous(): boolean {
    if (this.start === 0) return false;
    this.end = this.start - 1;
    for (this.start = this.end; this.f.rchg[this.start]; this.start--);
    return true;
  }
  slideDown(): boolean {
    const f = this.f;
    if (this.end < f.nrec && f.ha[this.start] === f.ha[this.end]) {
      f.rchg[this.start++ + 1] = 0;
      f.rchg[this.end++ + 1] = 1;
      while (f.rchg[this.end + 1]) this.end++;
      return true;
    }
    return false;
  }
  slideUp(): boolean {
    const f = this.f;
    if (this.start > 0 && f.ha[this.start - 1] === f.ha[this.end - 1]) {
      f.rchg[--this.start + 1] = 1;
      f.rchg[--this.end + 1] = 0;
      while (f.rchg[this.start]) this.start--;
      return true;
    }
    return false;
  }
}

function compact(f: File, fo: File, lines: string[]): void {
  const g = new Group(f);
  const go = new Group(fo);
  let indents: Int32Array | null = null;
  for (;;) {
    if (g.end !== g.start) {
      let groupsize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupsize = g.end - g.start;
        endMatchingOther = -1;
        while (g.slideUp()) go.previous();
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        for (;;) {
          if (!g.slideDown()) break;
          go.next();
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupsize !== g.end - g.start);
      if (g.end === earliestEnd) {
        // no freedom
      } else if (endMatchingOther !== -1) {
        while (go.end === go.start) {
          g.slideUp();
          go.previous();
        }
      } else {
        indents ??= Int32Array.from(lines, indentOf);
        let shift = earliestEnd;
        if (g.end - groupsize - 1 > shift) shift = g.end - groupsize - 1;
        if (g.end - INDENT_HEURISTIC_MAX_SLIDING > shift) shift = g.end - INDENT_HEURISTIC_MAX_SLIDING;
        let bestShift = -1;
        let best: Score = { indent: 0, penalty: 0 };
        for (; shift <= g.end; shift++) {
          const s: Score = { indent: 0, penalty: 0 };
          scoreSplit(lines, indents, shift, s);
          scoreSplit(lines, indents, shift - groupsize, s);
          if (bestShift === -1 || scoreCmp(s, best) <= 0) {
            best = s;
            bestShift = shift;
          }
        }
        while (g.end > bestShift) {
          g.slideUp();
          go.previous();
        }
      }
    }
    if (!g.next()) break;
    go.next();
  }
}

/** The changes turning `a` into `b`, as git's xdiff finds them (default algorithm, indent heuristic on). */
export function diffLines(a: string[], b: string[]): Change[] {
  const ids = new Map<string, number>();
  const id = (l: string) => {
    let v = ids.get(l);
    if (v === undefined) ids.set(l, (v = ids.size));
    return v;
  };
  const f1 = mkFile(Int32Array.from(a, id));
  const f2 = mkFile(Int32Array.from(b, id));
  prepare(f1, f2);
  new Search(f1, f2).compare(0, f1.nreff, 0, f2.nreff, false);
  compact(f1, f2, a);
  compact(f2, f1, b);
  // the script, front to back
  const out: Change[] = [];
  let i1 = 0;
  let i2 = 0;
  while (i1 < f1.nrec || i2 < f2.nrec) {
    if (f1.rchg[i1 + 1] || f2.rchg[i2 + 1]) {
      const s1 = i1;
      const s2 = i2;
      while (f1.rchg[i1 + 1]) i1++;
      while (f2.rchg[i2 + 1]) i2++;
      out.push({ i1: s1, i2: s2, chg1: i1 - s1, chg2: i2 - s2 });
    } else {
      i1++;
      i2++;
    }
  }
  return out;
}

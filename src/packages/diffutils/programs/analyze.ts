// Line comparison the way GNU diff 3.x chooses its edit script, so that hunks
// come out the same: the identical prefix and suffix are set aside (keeping
// `horizon` lines of each), the remaining lines are put in equivalence classes
// (honouring -i/-b/-w/-Z/-E), lines that match nothing in the other file are
// discarded before the search, Myers' algorithm runs on the rest, and runs of
// changes are then slid to merge with neighbours and to end as late as they
// can.

import { Myers } from './myers.js';

/** Whitespace handling, weakest to strongest (the order matters: GNU compares them). */
export const WS_NONE = 0;
export const WS_TAB_EXPANSION = 1;
export const WS_TRAILING = 2;
export const WS_TAB_AND_TRAILING = 3;
export const WS_SPACE_CHANGE = 4;
export const WS_ALL = 5;

export interface Text {
  bytes: Uint8Array;
  /** starts[i] is line i's first byte; starts[lines] is bytes.length. */
  starts: number[];
  lines: number;
  /** The last line has no newline. */
  missingNewline: boolean;
}

export interface Change {
  line0: number;
  line1: number;
  deleted: number;
  inserted: number;
  /** Only blank or -I-matching lines (set by the printers for -B/-I). */
  ignore?: boolean;
}

export interface CompareOptions {
  ignoreCase: boolean;
  white: number;
  tabsize: number;
  minimal: boolean;
  speedLargeFiles: boolean;
  /** Lines of the identical prefix/suffix kept for the search (GNU: the context size). */
  horizon: number;
}

export function splitLines(bytes: Uint8Array): Text {
  const starts = [0];
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) starts.push(i + 1);
  const missingNewline = bytes.length > 0 && bytes[bytes.length - 1] !== 10;
  if (missingNewline) starts.push(bytes.length);
  return { bytes, starts, lines: starts.length - 1, missingNewline };
}

/** Line i of a and line j of b are byte-identical (newline included). */
function sameLine(a: Text, i: number, b: Text, j: number): boolean {
  const s0 = a.starts[i];
  const s1 = b.starts[j];
  const n = a.starts[i + 1] - s0;
  if (n !== b.starts[j + 1] - s1) return false;
  for (let k = 0; k < n; k++) if (a.bytes[s0 + k] !== b.bytes[s1 + k]) return false;
  return true;
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);
const lower = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

// Any one-char-per-byte decoding makes usable keys; this one is native and fast.
const raw = new TextDecoder('windows-1252');

/** The canonical form of a line under the options: equal keys ⇔ GNU's lines_differ says equal. */
function lineKey(t: Text, i: number, o: CompareOptions, whole: string): string {
  const start = t.starts[i];
  const incomplete = i === t.lines - 1 && t.missingNewline;
  const end = t.starts[i + 1] - (incomplete ? 0 : 1);
  const b = t.bytes;
  if (o.white === WS_NONE && !o.ignoreCase) {
    const key = whole.slice(start, end);
    return incomplete ? `\u0100${key}` : key;
  }
  const out: number[] = [];
  let column = 0;
  for (let p = start; p < end; p++) {
    let c = b[p];
    if (o.white === WS_ALL) {
      if (isSpace(c)) continue;
    } else if (o.white === WS_SPACE_CHANGE) {
      if (isSpace(c)) {
        while (p + 1 < end && isSpace(b[p + 1])) p++;
        if (p + 1 < end) out.push(32);
        continue;
      }
    } else if (o.white !== WS_NONE) {
      if (o.white & WS_TRAILING && isSpace(c)) {
        let q = p + 1;
        while (q < end && isSpace(b[q])) q++;
        if (q === end) break;
      }
      if (o.white & WS_TAB_EXPANSION) {
        if (c === 9) {
          const n = o.tabsize - (column % o.tabsize);
          column += n;
          for (let k = 0; k < n; k++) out.push(32);
          continue;
        }
        if (c === 8) column -= column > 0 ? 1 : 0;
        else if (c === 13) column = 0;
        else column++;
      }
    }
    if (o.ignoreCase) c = lower(c);
    out.push(c);
  }
  let key = '';
  for (let k = 0; k < out.length; k += 4096) key += String.fromCharCode(...out.slice(k, k + 4096));
  // An incomplete last line equals only the other incomplete line, unless
  // trailing white space is being ignored.
  return incomplete && o.white < WS_TRAILING ? `\u0100${key}` : key;
}

/** The region GNU's find_identical_ends leaves for the search, as line counts. */
function identicalEnds(a: Text, b: Text, horizon: number): { prefix: number; end0: number; end1: number } {
  const min = Math.min(a.lines, b.lines);
  let k = 0;
  while (k < min && sameLine(a, k, b, k)) k++;
  const prefix = Math.max(0, k - horizon);
  let s = 0;
  while (s < min - prefix && sameLine(a, a.lines - 1 - s, b, b.lines - 1 - s)) s++;
  const cut = Math.max(0, s - horizon);
  return { prefix, end0: a.lines - cut, end1: b.lines - cut };
}

/** Compare two texts; the changes are in file order, with absolute 0-based line numbers. */
export function compareTexts(a: Text, b: Text, o: CompareOptions): Change[] {
  const { prefix, end0, end1 } = identicalEnds(a, b, o.horizon);
  const n0 = end0 - prefix;
  const n1 = end1 - prefix;
  const classes = new Map<string, number>();
  const equivs = [new Int32Array(n0), new Int32Array(n1)];
  const texts = [a, b];
  for (let f = 0; f < 2; f++) {
    const whole = o.white === WS_NONE && !o.ignoreCase ? raw.decode(texts[f].bytes) : '';
    for (let i = 0; i < equivs[f].length; i++) {
      const key = lineKey(texts[f], prefix + i, o, whole);
      let id = classes.get(key);
      if (id === undefined) {
        id = classes.size + 1;
        classes.set(key, id);
      }
      equivs[f][i] = id;
    }
  }
  // changed[f] has a zero sentinel at each end: index i of line i is i + 1.
  const changed = [new Uint8Array(n0 + 2), new Uint8Array(n1 + 2)];
  const kept = discardConfusing(equivs, changed, classes.size + 1, o.minimal);
  const [xv, yv] = [0, 1].map((f) => {
    const v = new Int32Array(kept[f].length);
    for (let k = 0; k < v.length; k++) v[k] = equivs[f][kept[f][k]];
    return v;
  });
  const m = new Myers(xv, yv, new Uint8Array(xv.length), new Uint8Array(yv.length), o.speedLargeFiles);
  m.run(o.minimal);
  for (let x = 0; x < xv.length; x++) if (m.deleted[x]) changed[0][kept[0][x] + 1] = 1;
  for (let y = 0; y < yv.length; y++) if (m.inserted[y]) changed[1][kept[1][y] + 1] = 1;
  shiftBoundaries(equivs, changed);
  return buildScript(changed, n0, n1, prefix);
}

/**
 * Lines with no match in the other file are changes for certain: take them
 * out of the search (GNU's discard_confusing_lines, including its rules for
 * lines matching very many others). Returns, per file, the indexes kept.
 */
function discardConfusing(equivs: Int32Array[], changed: Uint8Array[], nclasses: number, minimal: boolean): number[][] {
  const counts = [new Int32Array(nclasses), new Int32Array(nclasses)];
  for (let f = 0; f < 2; f++) for (const e of equivs[f]) counts[f][e]++;
  const discards = [new Uint8Array(equivs[0].length), new Uint8Array(equivs[1].length)];
  for (let f = 0; f < 2; f++) {
    const end = equivs[f].length;
    const other = counts[1 - f];
    let many = 5;
    for (let tem = Math.floor(end / 64); (tem = Math.floor(tem / 4)) > 0; ) many *= 2;
    for (let i = 0; i < end; i++) {
      const n = other[equivs[f][i]];
      if (n === 0) discards[f][i] = 1;
      else if (n > many) discards[f][i] = 2;
    }
  }
  for (let f = 0; f < 2; f++) refineDiscards(discards[f]);
  const kept: number[][] = [[], []];
  for (let f = 0; f < 2; f++) {
    for (let i = 0; i < discards[f].length; i++) {
      if (minimal || discards[f][i] === 0) kept[f].push(i);
      else changed[f][i + 1] = 1;
    }
  }
  return kept;
}

/** Provisional discards (2) stand only inside runs of real ones, and not at their edges. */
function refineDiscards(d: Uint8Array): void {
  const end = d.length;
  for (let i = 0; i < end; i++) {
    if (d[i] === 2) {
      d[i] = 0;
      continue;
    }
    if (d[i] === 0) continue;
    let j = i;
    let provisional = 0;
    for (; j < end && d[j] !== 0; j++) if (d[j] === 2) provisional++;
    while (j > i && d[j - 1] === 2) {
      d[--j] = 0;
      provisional--;
    }
    const length = j - i;
    if (provisional * 4 > length) {
      while (j > i) if (d[--j] === 2) d[j] = 0;
      continue;
    }
    let minimum = 1;
    for (let tem = length >> 2; (tem >>= 2) > 0; ) minimum <<= 1;
    minimum++;
    let consec = 0;
    for (j = 0; j < length; j++) {
      if (d[i + j] !== 2) consec = 0;
      else if (minimum === ++consec) j -= consec;
      else if (minimum < consec) d[i + j] = 0;
    }
    consec = 0;
    for (j = 0; j < length; j++) {
      if (j >= 8 && d[i + j] === 1) break;
      if (d[i + j] === 2) {
        consec = 0;
        d[i + j] = 0;
      } else if (d[i + j] === 0) consec = 0;
      else consec++;
      if (consec === 3) break;
    }
    i += length - 1;
    consec = 0;
    for (j = 0; j < length; j++) {
      if (j >= 8 && d[i - j] === 1) break;
      if (d[i - j] === 2) {
        consec = 0;
        d[i - j] = 0;
      } else if (d[i - j] === 0) consec = 0;
      else consec++;
      if (consec === 3) break;
    }
  }
}

/**
 * Slide each run of changes over equal lines: back to merge with earlier
 * runs, forward as far as possible, then back again to line up with a run of
 * changes in the other file when one was passed.
 */
function shiftBoundaries(equivs: Int32Array[], changed: Uint8Array[]): void {
  for (let f = 0; f < 2; f++) {
    const ch = changed[f];
    const other = changed[1 - f];
    const eq = equivs[f];
    // ch[i + 1] is line i's flag; other[j + 1] likewise; the sentinels read 0.
    const c = (i: number) => ch[i + 1];
    const oc = (j: number) => other[j + 1];
    const iEnd = eq.length;
    let i = 0;
    let j = 0;
    for (;;) {
      while (i < iEnd && !c(i)) {
        while (oc(j++));
        i++;
      }
      if (i === iEnd) break;
      let start = i;
      while (c(++i));
      while (oc(j)) j++;
      let runlength: number;
      let corresponding: number;
      do {
        runlength = i - start;
        while (start && eq[start - 1] === eq[i - 1]) {
          ch[--start + 1] = 1;
          ch[--i + 1] = 0;
          while (c(start - 1)) start--;
          while (oc(--j));
        }
        corresponding = oc(j - 1) ? i : iEnd;
        while (i !== iEnd && eq[start] === eq[i]) {
          ch[start++ + 1] = 0;
          ch[i++ + 1] = 1;
          while (c(i)) i++;
          while (oc(++j)) corresponding = i;
        }
      } while (runlength !== i - start);
      while (corresponding < i) {
        ch[--start + 1] = 1;
        ch[--i + 1] = 0;
        while (oc(--j));
      }
    }
  }
}

function buildScript(changed: Uint8Array[], n0: number, n1: number, prefix: number): Change[] {
  const [c0, c1] = changed;
  const out: Change[] = [];
  let i0 = 0;
  let i1 = 0;
  while (i0 < n0 || i1 < n1) {
    if (c0[i0 + 1] | c1[i1 + 1]) {
      const line0 = i0;
      const line1 = i1;
      while (c0[i0 + 1]) i0++;
      while (c1[i1 + 1]) i1++;
      out.push({ line0: line0 + prefix, line1: line1 + prefix, deleted: i0 - line0, inserted: i1 - line1 });
    }
    i0++;
    i1++;
  }
  return out;
}

// Three-way merge of file contents the way git's xdiff merges them (level
// "zealous"): both sides diffed against the base, changes that do not
// touch taken from their side, overlapping ones a conflict, and conflicts
// narrowed to the lines that really differ (and merged again when only a
// few lines apart). Text is byte strings.

import { diffLines, splitLines, type Change } from './xdiff.js';

interface Region {
  /** 0 conflict, 1 ours, 2 theirs, 4 resolved (identical). */
  mode: number;
  i0: number;
  chg0: number;
  i1: number;
  chg1: number;
  i2: number;
  chg2: number;
}

export interface MergeResult {
  text: string;
  conflicts: number;
}

function append(list: Region[], mode: number, i0: number, chg0: number, i1: number, chg1: number, i2: number, chg2: number): void {
  const m = list[list.length - 1];
  if (m && (i1 <= m.i1 + m.chg1 || i2 <= m.i2 + m.chg2)) {
    if (mode !== m.mode) m.mode = 0;
    m.chg0 = i0 + chg0 - m.i0;
    m.chg1 = i1 + chg1 - m.i1;
    m.chg2 = i2 + chg2 - m.i2;
  } else list.push({ mode, i0, chg0, i1, chg1, i2, chg2 });
}

const sameLines = (a: string[], ai: number, b: string[], bi: number, n: number) => {
  for (let k = 0; k < n; k++) if (a[ai + k] !== b[bi + k]) return false;
  return true;
};

/** Merge `ours` and `theirs`, both descended from `base`; conflicts get git's markers. */
export function merge3(base: string, ours: string, theirs: string, oursName: string, theirsName: string): MergeResult {
  const b = splitLines(base);
  const o = splitLines(ours);
  const t = splitLines(theirs);
  const x1: Change[] = diffLines(b, o);
  const x2: Change[] = diffLines(b, t);
  if (x1.length === 0) return { text: theirs, conflicts: 0 };
  if (x2.length === 0) return { text: ours, conflicts: 0 };
  const regions: Region[] = [];
  let p = 0;
  let q = 0;
  while (p < x1.length && q < x2.length) {
    const c1 = x1[p];
    const c2 = x2[q];
    if (c1.i1 + c1.chg1 < c2.i1) {
      append(regions, 1, c1.i1, c1.chg1, c1.i2, c1.chg2, c2.i2 - c2.i1 + c1.i1, c1.chg1);
      p++;
      continue;
    }
    if (c2.i1 + c2.chg1 < c1.i1) {
      append(regions, 2, c2.i1, c2.chg1, c1.i2 - c1.i1 + c2.i1, c2.chg1, c2.i2, c2.chg2);
      q++;
      continue;
    }
    if (c1.i1 !== c2.i1 || c1.chg1 !== c2.chg1 || c1.chg2 !== c2.chg2 || !sameLines(o, c1.i2, t, c2.i2, c1.chg2)) {
      const off = c1.i1 - c2.i1;
      const ffo = off + c1.chg1 - c2.chg1;
      let i0 = c1.i1;
      let i1 = c1.i2;
      let i2 = c2.i2;
      if (off > 0) {
        i0 -= off;
        i1 -= off;
      } else i2 += off;
      let chg0 = c1.i1 + c1.chg1 - i0;
      let chg1 = c1.i2 + c1.chg2 - i1;
      let chg2 = c2.i2 + c2.chg2 - i2;
      if (ffo < 0) {
        chg0 -= ffo;
        chg1 -= ffo;
      } else chg2 += ffo;
      append(regions, 0, i0, chg0, i1, chg1, i2, chg2);
    }
    const e1 = c1.i1 + c1.chg1;
    const e2 = c2.i1 + c2.chg1;
    if (e1 >= e2) q++;
    if (e2 >= e1) p++;
  }
  // past the other side's last change its offset from the base is constant
  for (; p < x1.length; p++) {
    const c1 = x1[p];
    append(regions, 1, c1.i1, c1.chg1, c1.i2, c1.chg2, c1.i1 + t.length - b.length, c1.chg1);
  }
  for (; q < x2.length; q++) {
    const c2 = x2[q];
    append(regions, 2, c2.i1, c2.chg1, c2.i1 + o.length - b.length, c2.chg1, c2.i2, c2.chg2);
  }
  // narrow each conflict to the lines where the two sides differ
  const refined: Region[] = [];
  for (const m of regions) {
    if (m.mode !== 0 || m.chg1 === 0 || m.chg2 === 0) {
      refined.push(m);
      continue;
    }
    const sub = diffLines(o.slice(m.i1, m.i1 + m.chg1), t.slice(m.i2, m.i2 + m.chg2));
    if (sub.length === 0) {
      refined.push({ ...m, mode: 4 });
      continue;
    }
    for (const s of sub) refined.push({ mode: 0, i0: m.i0, chg0: m.chg0, i1: m.i1 + s.i1, chg1: s.chg1, i2: m.i2 + s.i2, chg2: s.chg2 });
  }
  // conflicts fewer than four lines apart become one (git's "simplify non-conflicts")
  for (let k = 0; k + 1 < refined.length; ) {
    const m = refined[k];
    const n = refined[k + 1];
    if (m.mode !== 0 || n.mode !== 0 || n.i1 - (m.i1 + m.chg1) > 3) {
      k++;
      continue;
    }
    m.chg1 = n.i1 + n.chg1 - m.i1;
    m.chg2 = n.i2 + n.chg2 - m.i2;
    refined.splice(k + 1, 1);
  }
  let out = '';
  let conflicts = 0;
  let i = 0;
  const copy = (lines: string[], from: number, n: number, nl: boolean) => {
    let s = lines.slice(from, from + n).join('');
    if (nl && s !== '' && !s.endsWith('\n')) s += '\n';
    return s;
  };
  for (const m of refined) {
    if (m.mode === 4) continue;
    out += copy(o, i, m.i1 - i, false);
    if (m.mode === 0) {
      conflicts++;
      out += `<<<<<<< ${oursName}\n${copy(o, m.i1, m.chg1, true)}=======\n${copy(t, m.i2, m.chg2, true)}>>>>>>> ${theirsName}\n`;
    } else {
      if (m.mode & 1) out += copy(o, m.i1, m.chg1, true);
      if (m.mode & 2) out += copy(t, m.i2, m.chg2, true);
    }
    i = m.i1 + m.chg1;
  }
  out += copy(o, i, o.length - i, false);
  return { text: out, conflicts };
}

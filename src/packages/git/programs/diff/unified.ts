// Unified diff hunks the way git emits them: changes closer than twice the
// context merge into one hunk, `@@ -a,b +c,d @@` headers with the nearest
// "function" line above (a line starting with a letter, '_' or '$', cut at
// 80 bytes), and "\ No newline at end of file" markers. Text is byte strings.

import { diffLines, type Change } from './xdiff.js';

export interface HunkOptions {
  context: number;
  interhunk?: number;
}

const isAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';

function funcName(line: string): string | null {
  const c = line.charCodeAt(0);
  if (!(isAlpha(c) || line[0] === '_' || line[0] === '$')) return null;
  let s = line.slice(0, 80);
  let n = s.length;
  while (n > 0 && isSpace(s[n - 1])) n--;
  s = s.slice(0, n);
  return s;
}

function range(start: number, count: number): string {
  const s = count === 0 ? start - 1 : start;
  return count === 1 ? `${s}` : `${s},${count}`;
}

/** Emit the hunks of a → b (arrays of lines with their newlines); returns '' when equal. */
export function unifiedHunks(a: string[], b: string[], opts: HunkOptions, changes: Change[] = diffLines(a, b)): string {
  if (changes.length === 0) return '';
  const ctx = opts.context;
  const maxCommon = 2 * ctx + (opts.interhunk ?? 0);
  let out = '';
  const emit = (prefix: string, line: string) => {
    out += prefix + line;
    if (!line.endsWith('\n')) out += '\n\\ No newline at end of file\n';
  };
  let func = '';
  let funcPrev = -1;
  for (let h = 0; h < changes.length; ) {
    // the changes of this hunk: h .. last
    let last = h;
    while (last + 1 < changes.length && changes[last + 1].i1 - (changes[last].i1 + changes[last].chg1) <= maxCommon) last++;
    const first = changes[h];
    const lc = changes[last];
    const s1 = Math.max(first.i1 - ctx, 0);
    let s2 = Math.max(first.i2 - ctx, 0);
    const e1 = Math.min(lc.i1 + lc.chg1 + ctx, a.length);
    const e2 = Math.min(lc.i2 + lc.chg2 + ctx, b.length);
    for (let l = s1 - 1; l !== funcPrev && l >= 0 && l < a.length; l--) {
      const f = funcName(a[l]);
      if (f !== null) {
        func = f;
        break;
      }
    }
    funcPrev = s1 - 1;
    out += `@@ -${range(s1 + 1, e1 - s1)} +${range(s2 + 1, e2 - s2)} @@${func ? ' ' + func : ''}\n`;
    for (; s2 < first.i2; s2++) emit(' ', b[s2]);
    for (let k = h; k <= last; k++) {
      const c = changes[k];
      if (k > h) {
        const prev = changes[k - 1];
        for (let x1 = prev.i1 + prev.chg1, x2 = prev.i2 + prev.chg2; x1 < c.i1 && x2 < c.i2; x1++, x2++) emit(' ', b[x2]);
      }
      for (let x = c.i1; x < c.i1 + c.chg1; x++) emit('-', a[x]);
      for (let x = c.i2; x < c.i2 + c.chg2; x++) emit('+', b[x]);
    }
    for (s2 = lc.i2 + lc.chg2; s2 < e2; s2++) emit(' ', b[s2]);
    h = last + 1;
  }
  return out;
}

// Rejected hunks, written as GNU patch writes them to FILE.rej: unified when
// the patch was unified, context otherwise, the line numbers moved by what
// the applied hunks added or removed.

import type { HeaderName } from './names.js';
import type { DiffType, Hunk, SectionLine } from './pch.js';

export type RejectFormat = 'unified' | 'context';

function header(tag: string, h: HeaderName | null): string {
  return `${tag}${h?.name ?? '/dev/null'}${h?.name ? h.timestr ?? '' : ''}\n`;
}

/** A patch line as written back: its bytes as they are (GNU adds no marker for a missing newline). */
const body = (text: string): string => text;

function unifiedRange(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  if (count === 1) return `${start}`;
  return `${start},${count}`;
}

export function rejectHeader(format: RejectFormat, headers: [HeaderName | null, HeaderName | null]): string {
  return format === 'unified' ? header('--- ', headers[0]) + header('+++ ', headers[1]) : header('*** ', headers[0]) + header('--- ', headers[1]);
}

export function rejectHunk(format: RejectFormat, type: DiffType, h: Hunk, outOffset: number): string {
  const ptrn = h.lines.filter((l) => l.mark !== '+');
  const repl = h.lines.filter((l) => l.mark !== '-');
  if (format === 'unified') {
    let s = `@@ -${unifiedRange(h.first + outOffset, ptrn.length)} +${unifiedRange(h.newFirst + outOffset, repl.length)} @@${h.fn}\n`;
    // Each run of changes: its removed lines, then its added ones.
    for (let i = 0; i < h.lines.length; ) {
      if (h.lines[i].mark === ' ') {
        s += ` ${body(h.lines[i++].text)}`;
        continue;
      }
      let j = i;
      while (j < h.lines.length && h.lines[j].mark !== ' ') j++;
      const run = h.lines.slice(i, j);
      for (const l of run) if (l.mark === '-') s += `-${body(l.text)}`;
      for (const l of run) if (l.mark === '+') s += `+${body(l.text)}`;
      i = j;
    }
    return s;
  }
  const oldFirst = h.first + outOffset;
  const newFirst = h.newFirst + outOffset;
  const oldLast = oldFirst + ptrn.length - 1;
  const newLast = newFirst + repl.length - 1;
  const stars = type === 'new-context' || type === 'unified' ? ' ****' : '';
  const minuses = type === 'new-context' || type === 'unified' ? ' ----' : ' -----';
  const range = (a: number, b: number) => (b < a ? '0' : b === a ? `${a}` : `${a},${b}`);
  const [old, neu] = h.old && h.new ? [h.old, h.new] : sections(h);
  let s = `***************${h.fn}\n*** ${range(oldFirst, oldLast)}${stars}\n`;
  for (const l of old) s += `${l.mark} ${body(l.text)}`;
  s += `--- ${range(newFirst, newLast)}${minuses}\n`;
  for (const l of neu) s += `${l.mark} ${body(l.text)}`;
  return s;
}

/** A hunk without sections (normal diffs): removed lines marked '-', added ones '+'. */
function sections(h: Hunk): [SectionLine[], SectionLine[]] {
  const old: SectionLine[] = [];
  const neu: SectionLine[] = [];
  for (let i = 0; i < h.lines.length; ) {
    if (h.lines[i].mark === ' ') {
      old.push({ mark: ' ', text: h.lines[i].text });
      neu.push({ mark: ' ', text: h.lines[i].text });
      i++;
      continue;
    }
    let j = i;
    while (j < h.lines.length && h.lines[j].mark !== ' ') j++;
    for (const l of h.lines.slice(i, j)) (l.mark === '-' ? old : neu).push({ mark: l.mark, text: l.text });
    i = j;
  }
  return [old, neu];
}

// Reading a patch file the way GNU patch does: find the next file's headers
// and the kind of diff (unified, context, normal), then its hunks one by one.
// Lines are byte strings (one char per byte) that keep their newline.

import { EPOCH, fetchName, type HeaderName } from './names.js';

export type DiffType = 'unified' | 'context' | 'new-context' | 'normal';

/** Raised for input patch may not go on with: "patch: **** MSG", status 2. */
export class Fatal extends Error {}

export interface HunkLine {
  mark: ' ' | '-' | '+';
  text: string;
}

/** A line of a context-diff section as written: ' ', '-', '+' or '!'. */
export interface SectionLine {
  mark: string;
  text: string;
}

export interface Hunk {
  /** First old line (1-based); one past the insertion point when the old side is empty. */
  first: number;
  newFirst: number;
  /** Old and new lines merged in order. */
  lines: HunkLine[];
  /** Text after the header ("@@ ... @@ TEXT" / "*************** TEXT"). */
  fn: string;
  /** Context diffs: the two sections as written (both filled in), for context rejects. */
  old?: SectionLine[];
  new?: SectionLine[];
}

export const pattern = (h: Hunk): HunkLine[] => h.lines.filter((l) => l.mark !== '+');
export const replacement = (h: Hunk): HunkLine[] => h.lines.filter((l) => l.mark !== '-');

export function prefixContext(h: Hunk): number {
  let n = 0;
  while (n < h.lines.length && h.lines[n].mark === ' ') n++;
  return n;
}

export function suffixContext(h: Hunk): number {
  let n = 0;
  while (n < h.lines.length && h.lines[h.lines.length - 1 - n].mark === ' ') n++;
  return n;
}

/** The hunk as if the files had been given the other way round (-R, or a reversed patch). */
export function swapHunk(h: Hunk): Hunk {
  const flip = { ' ': ' ', '-': '+', '+': '-' } as const;
  const swapSection = (s: SectionLine[] | undefined) => s?.map((l) => ({ mark: l.mark === '-' ? '+' : l.mark === '+' ? '-' : l.mark, text: l.text }));
  return {
    first: h.newFirst,
    newFirst: h.first,
    lines: h.lines.map((l) => ({ mark: flip[l.mark], text: l.text })),
    fn: h.fn,
    old: swapSection(h.new),
    new: swapSection(h.old),
  };
}

export interface FilePatch {
  type: DiffType;
  /** OLD, NEW and Index: names, already stripped by -p (null: absent or /dev/null). */
  names: [string | null, string | null, string | null];
  headers: [HeaderName | null, HeaderName | null];
  /** Per side: 0 exists, 1 exists but probably empty, 2 does not exist. */
  nonexistent: [number, number];
  /** Patch line number (1-based) where the hunks start. */
  line: number;
  /** The lines between the previous patch and this one (for "can't find file"). */
  leading: string[];
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

export class PatchReader {
  /** Index of the next unread line. */
  private pos = 0;
  /** Where the last patch ended (the next intuit starts there). */
  private base = 0;
  private type: DiffType = 'unified';

  constructor(
    private readonly lines: string[],
    private readonly strip: number,
  ) {}

  get atEnd(): boolean {
    return this.base >= this.lines.length;
  }

  /** The next file's headers, or null when only trailing text is left (`garbage`: there was never a patch). */
  next(needHeader: boolean, forced: DiffType | null): FilePatch | null {
    const first = this.base === 0;
    const r = this.intuit(needHeader, forced);
    if (r === null && first && this.lines.length > 0) throw new Fatal('Only garbage was found in the patch input.');
    return r;
  }

  private intuit(needHeaderIn: boolean, forced: DiffType | null): FilePatch | null {
    let needHeader = forced === 'normal' ? false : needHeaderIn;
    const names: (HeaderName | null)[] = [null, null, null];
    const nonexistent: [number, number] = [0, 0];
    let gitDiff = false;
    let starsLast = false;
    let commandLast = false;
    for (let i = this.base; i < this.lines.length; i++) {
      const s = this.lines[i];
      const prevCommand = commandLast;
      const prevStars = starsLast;
      commandLast = /^\d+(,\d+)?[acd]\d+(,\d+)?[ \t]*\r?\n?$/.test(s);
      starsLast = s.startsWith('********');
      if (!prevStars && s.startsWith('***') && isBlank(s[3])) {
        names[0] = fetchName(s.slice(4), this.strip, true) ?? names[0];
        needHeader = false;
      } else if (s.startsWith('+++') && isBlank(s[3])) {
        names[0] = fetchName(s.slice(4), this.strip, true) ?? names[0];
        needHeader = false;
      } else if (s.startsWith('Index:')) {
        names[2] = fetchName(s.slice(6), this.strip, false) ?? names[2];
        needHeader = false;
      } else if (s.startsWith('diff --git ')) {
        gitDiff = true;
        needHeader = false;
      } else if (gitDiff && s.startsWith('new file mode ')) {
        nonexistent[0] = 2;
      } else if (gitDiff && s.startsWith('deleted file mode ')) {
        nonexistent[1] = 2;
      } else {
        let t = 0;
        while (s[t] === '-' && s[t + 1] === ' ') t += 2;
        if (s.startsWith('---', t) && isBlank(s[t + 3])) {
          names[1] = fetchName(s.slice(t + 4), this.strip, true) ?? names[1];
          needHeader = false;
        }
      }
      if (needHeader) continue;
      if ((forced === null || forced === 'unified') && s.startsWith('@@ -')) {
        // "---" went to slot 1 and "+++" to slot 0: put them in order.
        const [oldName, newName] = [names[1], names[0]];
        let p = 4;
        if (s[p] === '0' && !isDigit(s[p + 1])) nonexistent[0] = Math.max(nonexistent[0], oldName?.stamp === EPOCH ? 2 : 1);
        while (p < s.length && s[p] !== ' ' && s[p] !== '\n') p++;
        while (s[p] === ' ') p++;
        if (s[p] === '+' && s[p + 1] === '0' && !isDigit(s[p + 2])) nonexistent[1] = Math.max(nonexistent[1], newName?.stamp === EPOCH ? 2 : 1);
        return this.found('unified', i, [oldName, newName, names[2]], nonexistent);
      }
      if ((forced === null || forced === 'context') && prevStars && s.startsWith('***') && isBlank(s[3])) {
        let p = 4;
        while (isBlank(s[p])) p++;
        if (s[p] === '0' && !isDigit(s[p + 1])) nonexistent[0] = names[0]?.stamp === EPOCH ? 2 : 1;
        const type: DiffType = s.replace(/\r?\n$/, '').endsWith('*') ? 'new-context' : 'context';
        const fp = this.found(type, i - 1, [names[0], names[1], names[2]], nonexistent);
        // A first hunk whose new side is empty and starts at 1 deletes the file.
        const save = this.pos;
        const h = this.hunk();
        this.pos = save;
        if (h && replacement(h).length === 0 && h.newFirst <= 1) fp.nonexistent[1] = names[1]?.stamp === EPOCH ? 2 : 1;
        return fp;
      }
      if ((forced === null || forced === 'normal') && prevCommand && (s.startsWith('< ') || s.startsWith('> '))) {
        return this.found('normal', i - 1, [names[0], names[1], names[2]], nonexistent);
      }
    }
    this.base = this.lines.length;
    return null;
  }

  private found(type: DiffType, start: number, hn: (HeaderName | null)[], nonexistent: [number, number]): FilePatch {
    this.type = type;
    const leading = this.lines.slice(this.base, start);
    this.pos = start;
    this.base = start;
    const name = (h: HeaderName | null) => h?.name ?? null;
    return {
      type,
      names: [name(hn[0]), name(hn[1]), name(hn[2])],
      headers: [hn[0], hn[1]],
      nonexistent,
      line: start + 1,
      leading,
    };
  }

  /** The next hunk of the current file, or null when this file's hunks are done. */
  hunk(): Hunk | null {
    const h = this.type === 'unified' ? this.unified() : this.type === 'normal' ? this.normal() : this.context();
    this.base = this.pos;
    return h;
  }

  private peek(): string | undefined {
    return this.lines[this.pos];
  }

  private malformed(): never {
    const line = this.lines[this.pos - 1] ?? '';
    throw new Fatal(`malformed patch at line ${this.pos}: ${line}`);
  }

  /** A "\ No newline at end of file" line after `l` takes its newline away. */
  private incomplete(l: { text: string } | undefined): void {
    if (this.peek()?.startsWith('\\')) {
      this.pos++;
      if (l) l.text = l.text.replace(/\r?\n$/, '');
    }
  }

  private unified(): Hunk | null {
    const s = this.peek();
    const m = s === undefined ? null : /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/s.exec(s);
    if (!m) {
      if (s !== undefined && s.startsWith('@@ -')) {
        this.pos++;
        this.malformed();
      }
      return null;
    }
    this.pos++;
    let first = Number(m[1]);
    const ptrn = m[2] === undefined ? 1 : Number(m[2]);
    let newFirst = Number(m[3]);
    const repl = m[4] === undefined ? 1 : Number(m[4]);
    if (ptrn === 0) first++;
    if (repl === 0) newFirst++;
    const lines: HunkLine[] = [];
    let nold = 0;
    let nnew = 0;
    while (nold < ptrn || nnew < repl) {
      let t = this.lines[this.pos++];
      if (t === undefined) {
        // Trailing blank context lines are often lost in mail: assume them.
        if (ptrn - nold === repl - nnew && ptrn - nold < 3) t = ' \n';
        else throw new Fatal('unexpected end of file in patch');
      }
      let c = t[0];
      if (c === '\n' || (c === '\r' && t[1] === '\n')) {
        c = ' ';
        t = ` ${t}`;
      }
      let line: HunkLine;
      if (c === ' ' || c === '=') {
        if (nold >= ptrn || nnew >= repl) this.malformed();
        line = { mark: ' ', text: t.slice(1) };
        nold++;
        nnew++;
      } else if (c === '-') {
        if (nold >= ptrn) this.malformed();
        line = { mark: '-', text: t.slice(1) };
        nold++;
      } else if (c === '+') {
        if (nnew >= repl) this.malformed();
        line = { mark: '+', text: t.slice(1) };
        nnew++;
      } else this.malformed();
      lines.push(line);
      this.incomplete(line);
    }
    return { first, newFirst, lines, fn: m[5].replace(/\r?\n$/, '') };
  }

  /** "3a4,5", "2,3d1", "5c5": old lines "< ", "---", new lines "> ". */
  private normal(): Hunk | null {
    const s = this.peek();
    const m = s === undefined ? null : /^(\d+)(?:,(\d+))?([acd])(\d+)(?:,(\d+))?[ \t]*\r?\n?$/.exec(s);
    if (!m) return null;
    this.pos++;
    const [a1, a2, cmd, b1, b2] = [Number(m[1]), m[2] === undefined ? Number(m[1]) : Number(m[2]), m[3], Number(m[4]), m[5] === undefined ? Number(m[4]) : Number(m[5])];
    const ptrn = cmd === 'a' ? 0 : a2 - a1 + 1;
    const repl = cmd === 'd' ? 0 : b2 - b1 + 1;
    const lines: HunkLine[] = [];
    for (let k = 0; k < ptrn; k++) {
      const t = this.lines[this.pos++];
      if (t === undefined) throw new Fatal('unexpected end of file in patch');
      if (!t.startsWith('< ')) this.malformed();
      const line: HunkLine = { mark: '-', text: t.slice(2) };
      lines.push(line);
      this.incomplete(line);
    }
    if (cmd === 'c') {
      const t = this.lines[this.pos++];
      if (t === undefined) throw new Fatal('unexpected end of file in patch');
      if (!t.startsWith('---')) this.malformed();
    }
    for (let k = 0; k < repl; k++) {
      const t = this.lines[this.pos++];
      if (t === undefined) throw new Fatal('unexpected end of file in patch');
      if (!t.startsWith('> ')) this.malformed();
      const line: HunkLine = { mark: '+', text: t.slice(2) };
      lines.push(line);
      this.incomplete(line);
    }
    return { first: cmd === 'a' ? a1 + 1 : a1, newFirst: cmd === 'd' ? b1 + 1 : b1, lines, fn: '' };
  }

  /** "***************", "*** a,b ****" old section, "--- c,d ----" new section; either may be omitted. */
  private context(): Hunk | null {
    const s = this.peek();
    if (s === undefined || !s.startsWith('***************')) return null;
    this.pos++;
    const fn = s.slice(15).replace(/\r?\n$/, '');
    const oldHead = /^\*\*\* (\d+)(?:,(\d+))?(?: \*\*\*\*)?\s*$/.exec(this.lines[this.pos] ?? '');
    if (!oldHead) {
      this.pos++;
      this.malformed();
    }
    this.pos++;
    const [o1, o2] = range(oldHead);
    const old = this.section(o2 >= o1 && o1 > 0 ? o2 - o1 + 1 : 0, /^--- /);
    const newHead = /^--- (\d+)(?:,(\d+))?(?: ----)?\s*$/.exec(this.lines[this.pos] ?? '');
    if (!newHead) {
      this.pos++;
      this.malformed();
    }
    this.pos++;
    const [n1, n2] = range(newHead);
    const neu = this.section(n2 >= n1 && n1 > 0 ? n2 - n1 + 1 : 0, /^\*\*\*\*\*\*\*\*|^\*\*\* |^--- |^diff |^Index:/);
    // An omitted section is the other one's context lines.
    const oldFull = old.length ? old : neu.filter((l) => l.mark === ' ');
    const newFull = neu.length ? neu : old.filter((l) => l.mark === ' ');
    const lines = merge(oldFull, newFull);
    const ptrn = oldFull.length;
    const repl = newFull.length;
    return { first: ptrn === 0 ? o1 + 1 : o1, newFirst: repl === 0 ? n1 + 1 : n1, lines, fn, old: oldFull, new: newFull };
  }

  /** Up to `count` marked lines ("  x", "- x", "+ x", "! x"), stopping early at `stop`. */
  private section(count: number, stop: RegExp): SectionLine[] {
    const out: SectionLine[] = [];
    while (out.length < count) {
      const t = this.peek();
      if (t === undefined || stop.test(t)) break;
      this.pos++;
      if (t === '\n') {
        out.push({ mark: ' ', text: '\n' });
        continue;
      }
      if (!/^[ +!-][ \t]/.test(t)) this.malformed();
      const line = { mark: t[0], text: t.slice(2) };
      out.push(line);
      this.incomplete(line);
    }
    return out;
  }
}

function range(m: RegExpExecArray | null): [number, number] {
  if (!m) return [0, 0];
  const a = Number(m[1]);
  return [a, m[2] === undefined ? a : Number(m[2])];
}

/** Interleave a context hunk's two sections into one sequence of ' ', '-', '+'. */
function merge(old: SectionLine[], neu: SectionLine[]): HunkLine[] {
  const out: HunkLine[] = [];
  let i = 0;
  let j = 0;
  while (i < old.length || j < neu.length) {
    if (i < old.length && (old[i].mark === '-' || old[i].mark === '!')) {
      while (i < old.length && (old[i].mark === '-' || old[i].mark === '!')) out.push({ mark: '-', text: old[i++].text });
      continue;
    }
    if (j < neu.length && (neu[j].mark === '+' || neu[j].mark === '!')) {
      while (j < neu.length && (neu[j].mark === '+' || neu[j].mark === '!')) out.push({ mark: '+', text: neu[j++].text });
      continue;
    }
    if (i < old.length && j < neu.length) {
      out.push({ mark: ' ', text: old[i].text });
      i++;
      j++;
    } else if (i < old.length) out.push({ mark: '-', text: old[i++].text });
    else out.push({ mark: '+', text: neu[j++].text });
  }
  return out;
}

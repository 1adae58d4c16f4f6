// Diff output in git's formats: the patch (`diff --git` headers, mode and
// rename lines, `index` line, hunks or "Binary files ... differ"), --stat
// with git's width arithmetic, --shortstat, --numstat, --name-only,
// --name-status and --summary.

import type { FileChange } from '../core/changes.js';
import { ZERO_OID } from '../core/objects.js';
import { quotePath, quotePrefixed } from '../core/quote.js';
import { MODE_LINK } from '../core/worktree.js';
import { unifiedHunks } from './unified.js';
import { diffLines, splitLines, type Change } from './xdiff.js';

/** Reads one side of a change. */
export type Loader = (c: FileChange, side: 'old' | 'new') => Promise<Uint8Array>;

export interface FileDiff {
  change: FileChange;
  binary: boolean;
  a: string[];
  b: string[];
  edits: Change[];
  added: number;
  deleted: number;
}

export interface FormatOptions {
  context: number;
  abbrev: number;
  quotePath: boolean;
  srcPrefix: string;
  dstPrefix: string;
  /** --full-index */
  fullIndex?: boolean;
  /** --stat width (80). */
  statWidth?: number;
}

const latin1 = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return s;
};

/** git's test: a NUL in the first 8000 bytes. */
const isBinary = (b: Uint8Array) => b.subarray(0, 8000).includes(0);

/** Load both sides and diff them (what --stat and the patch both need). */
export async function diffFile(c: FileChange, load: Loader): Promise<FileDiff> {
  const oldBytes = c.old ? await load(c, 'old') : new Uint8Array(0);
  const newBytes = c.new ? await load(c, 'new') : new Uint8Array(0);
  const sameContent = c.old && c.new && c.old.oid === c.new.oid && c.old.oid !== ZERO_OID;
  if (isBinary(oldBytes) || isBinary(newBytes)) {
    return { change: c, binary: !sameContent, a: [], b: [], edits: [], added: sameContent ? 0 : newBytes.length, deleted: sameContent ? 0 : oldBytes.length };
  }
  const a = splitLines(latin1(oldBytes));
  const b = splitLines(latin1(newBytes));
  const edits = sameContent ? [] : diffLines(a, b);
  let added = 0;
  let deleted = 0;
  for (const e of edits) {
    added += e.chg2;
    deleted += e.chg1;
  }
  return { change: c, binary: false, a, b, edits, added, deleted };
}

const octal = (m: number) => m.toString(8).padStart(6, '0');
const abbrevOid = (oid: string, o: FormatOptions) => (o.fullIndex ? oid : oid.slice(0, o.abbrev));

/** Split a type change into the deletion and the creation git shows for it. */
export function splitTypeChanges(changes: FileChange[]): FileChange[] {
  return changes.flatMap((c) =>
    c.status === 'T'
      ? [
          { status: 'D' as const, oldPath: c.oldPath, newPath: c.oldPath, old: c.old, new: null },
          { status: 'A' as const, oldPath: c.newPath, newPath: c.newPath, old: null, new: c.new },
        ]
      : [c],
  );
}

/** The patch of one file: header lines (text) and body (byte string). */
export function patchOf(fd: FileDiff, o: FormatOptions): { header: string; body: string } {
  const c = fd.change;
  const q = (prefix: string, p: string) => quotePrefixed(prefix, p, o.quotePath);
  let h = `diff --git ${q(o.srcPrefix, c.oldPath)} ${q(o.dstPrefix, c.newPath)}\n`;
  const oldMode = c.old?.mode;
  const newMode = c.new?.mode;
  if (!c.old) h += `new file mode ${octal(newMode!)}\n`;
  else if (!c.new) h += `deleted file mode ${octal(oldMode!)}\n`;
  else if (oldMode !== newMode) h += `old mode ${octal(oldMode!)}\nnew mode ${octal(newMode!)}\n`;
  if (c.status === 'R') h += `similarity index ${c.score ?? 100}%\nrename from ${quotePath(c.oldPath, o.quotePath)}\nrename to ${quotePath(c.newPath, o.quotePath)}\n`;
  const oldOid = c.old?.oid ?? ZERO_OID;
  const newOid = c.new?.oid ?? ZERO_OID;
  if (oldOid === newOid && c.old && c.new) return { header: h, body: '' };
  h += `index ${abbrevOid(oldOid, o)}..${abbrevOid(newOid, o)}${c.old && c.new && oldMode === newMode ? ` ${octal(oldMode!)}` : ''}\n`;
  const aName = c.old ? q(o.srcPrefix, c.oldPath) : '/dev/null';
  const bName = c.new ? q(o.dstPrefix, c.newPath) : '/dev/null';
  if (fd.binary) return { header: h + `Binary files ${aName} and ${bName} differ\n`, body: '' };
  if (fd.edits.length === 0) return { header: h, body: '' };
  const tab = (name: string, p: string) => (name !== '/dev/null' && p.includes(' ') ? '\t' : '');
  h += `--- ${aName}${tab(aName, c.oldPath)}\n+++ ${bName}${tab(bName, c.newPath)}\n`;
  return { header: h, body: unifiedHunks(fd.a, fd.b, { context: o.context }, fd.edits) };
}

/** `a => b` with the common directory prefix and suffix factored out (`dir/{a => b}`). */
export function renameName(a: string, b: string, quote: boolean): string {
  if (quotePath(a, quote) !== a || quotePath(b, quote) !== b) return `${quotePath(a, quote)} => ${quotePath(b, quote)}`;
  let pfx = 0;
  for (let i = 0; i < a.length && i < b.length && a[i] === b[i]; i++) if (a[i] === '/') pfx = i + 1;
  let sfx = 0;
  const adj = pfx ? 1 : 0;
  // compare from the ends (the terminating NULs first, as git does)
  for (let i = a.length, j = b.length; i >= pfx - adj && j >= pfx - adj; i--, j--) {
    const ca = i === a.length ? '\0' : a[i];
    const cb = j === b.length ? '\0' : b[j];
    if (ca !== cb) break;
    if (ca === '/') sfx = a.length - i;
  }
  const amid = Math.max(a.length - pfx - sfx, 0);
  const bmid = Math.max(b.length - pfx - sfx, 0);
  const mid = `${a.slice(pfx, pfx + amid)} => ${b.slice(pfx, pfx + bmid)}`;
  return pfx + sfx ? `${a.slice(0, pfx)}{${mid}}${a.slice(a.length - sfx)}` : mid;
}

const displayName = (c: FileChange, quote: boolean) => (c.status === 'R' ? renameName(c.oldPath, c.newPath, quote) : quotePath(c.newPath, quote));
const width = (s: string) => [...s].length;
const decimalWidth = (n: number) => String(n).length;

/** The --stat block (file lines and the summary line). */
export function statOf(fds: FileDiff[], o: FormatOptions): string {
  if (fds.length === 0) return '';
  let maxLen = 0;
  let maxChange = 0;
  let numberWidth = 0;
  let binWidth = 0;
  const names = fds.map((f) => displayName(f.change, o.quotePath));
  fds.forEach((f, i) => {
    maxLen = Math.max(maxLen, width(names[i]));
    if (f.binary) {
      binWidth = Math.max(binWidth, 14 + decimalWidth(f.added) + decimalWidth(f.deleted));
      numberWidth = 3;
      return;
    }
    maxChange = Math.max(maxChange, f.added + f.deleted);
  });
  let total = o.statWidth ?? 80;
  numberWidth = Math.max(decimalWidth(maxChange), numberWidth);
  if (total < 16 + 6 + numberWidth) total = 16 + 6 + numberWidth;
  let graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4;
  let nameWidth = maxLen;
  if (nameWidth + numberWidth + 6 + graphWidth > total) {
    if (graphWidth > Math.floor((total * 3) / 8) - numberWidth - 6) {
      graphWidth = Math.floor((total * 3) / 8) - numberWidth - 6;
      if (graphWidth < 6) graphWidth = 6;
    }
    if (nameWidth > total - numberWidth - 6 - graphWidth) nameWidth = total - numberWidth - 6 - graphWidth;
    else graphWidth = total - numberWidth - 6 - nameWidth;
  }
  const scale = (it: number) => (it === 0 ? 0 : 1 + Math.floor((it * (graphWidth - 1)) / maxChange));
  let out = '';
  let adds = 0;
  let dels = 0;
  fds.forEach((f, i) => {
    let name = names[i];
    let prefix = '';
    let len = nameWidth;
    if (nameWidth < width(name)) {
      prefix = '...';
      len = Math.max(len - 3, 0);
      const chars = [...name];
      name = chars.slice(chars.length - len).join('');
      const slash = name.indexOf('/');
      if (slash >= 0) name = name.slice(slash);
    }
    const pad = ' '.repeat(Math.max(len - width(name), 0));
    if (f.binary) {
      out += ` ${prefix}${name}${pad} | ${'Bin'.padStart(numberWidth)}`;
      out += f.added || f.deleted ? ` ${f.deleted} -> ${f.added} bytes\n` : '\n';
      return;
    }
    adds += f.added;
    dels += f.deleted;
    let add = f.added;
    let del = f.deleted;
    if (graphWidth <= maxChange) {
      let t = scale(add + del);
      if (t < 2 && add && del) t = 2;
      if (add < del) {
        add = scale(add);
        del = t - add;
      } else {
        del = scale(del);
        add = t - del;
      }
    }
    const n = f.added + f.deleted;
    out += ` ${prefix}${name}${pad} | ${String(n).padStart(numberWidth)}${n ? ' ' : ''}${'+'.repeat(add)}${'-'.repeat(del)}\n`;
  });
  return out + summaryLine(fds.length, adds, dels);
}

/** ` N files changed, N insertions(+), N deletions(-)` */
export function summaryLine(files: number, ins: number, del: number): string {
  if (files === 0) return ' 0 files changed\n';
  let s = files === 1 ? ` ${files} file changed` : ` ${files} files changed`;
  if (ins || del === 0) s += ins === 1 ? `, ${ins} insertion(+)` : `, ${ins} insertions(+)`;
  if (del || ins === 0) s += del === 1 ? `, ${del} deletion(-)` : `, ${del} deletions(-)`;
  return s + '\n';
}

export function shortstatOf(fds: FileDiff[]): string {
  if (fds.length === 0) return '';
  let ins = 0;
  let del = 0;
  for (const f of fds) {
    if (f.binary) continue;
    ins += f.added;
    del += f.deleted;
  }
  return summaryLine(fds.length, ins, del);
}

export function numstatOf(fds: FileDiff[], o: FormatOptions): string {
  return fds
    .map((f) => (f.binary ? '-\t-\t' : `${f.added}\t${f.deleted}\t`) + displayName(f.change, o.quotePath) + '\n')
    .join('');
}

export function nameOnlyOf(changes: FileChange[], o: FormatOptions): string {
  return changes.map((c) => quotePath(c.newPath, o.quotePath) + '\n').join('');
}

export function nameStatusOf(changes: FileChange[], o: FormatOptions): string {
  return changes
    .map((c) => (c.status === 'R' ? `R${String(c.score ?? 100).padStart(3, '0')}\t${quotePath(c.oldPath, o.quotePath)}\t` : `${c.status}\t`) + quotePath(c.newPath, o.quotePath) + '\n')
    .join('');
}

/** --summary lines: creations, deletions, renames and mode changes. */
export function summaryOf(changes: FileChange[], o: FormatOptions): string {
  let out = '';
  for (const c of changes) {
    const name = quotePath(c.newPath, o.quotePath);
    if (c.status === 'A') out += ` create mode ${octal(c.new!.mode)} ${name}\n`;
    else if (c.status === 'D') out += ` delete mode ${octal(c.old!.mode)} ${quotePath(c.oldPath, o.quotePath)}\n`;
    else if (c.status === 'R') {
      out += ` rename ${renameName(c.oldPath, c.newPath, o.quotePath)} (${c.score ?? 100}%)\n`;
      if (c.old!.mode !== c.new!.mode) out += ` mode change ${octal(c.old!.mode)} => ${octal(c.new!.mode)}\n`;
    } else if (c.old && c.new && c.old.mode !== c.new.mode) {
      if (c.status === 'T' || c.new.mode === MODE_LINK || c.old.mode === MODE_LINK) continue;
      out += ` mode change ${octal(c.old.mode)} => ${octal(c.new.mode)} ${name}\n`;
    }
  }
  return out;
}

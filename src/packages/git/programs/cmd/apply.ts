// git apply [--stat] [--numstat] [--summary] [--check] [--index | --cached] [--3way]
//           [-R] [-p<n>] [-v] [-q] [--allow-empty] [--apply] [<patch>...]
//
// Apply a patch (git's diff format or a plain unified diff) to the work
// tree and/or the index: all of it or nothing, hunks found where they
// belong or by searching outward as git's find_pos does; with --3way, a
// three-way merge from the blobs the patch names, leaving conflicts as a
// merge does.

import type { Ctx } from '../core/ctx.js';
import { SysError, strerror } from '../../../../abi/errno.js';
import { S_IFLNK, S_IFMT } from '../../../../abi/stat.js';
import { deleteWorkFile, setEntry, writeWorkFile } from '../core/checkout.js';
import { GitExit } from '../core/errors.js';
import { makeEntry, reindex } from '../core/index-file.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { quotePath } from '../core/quote.js';
import * as git from 'isomorphic-git';
import { merge3 } from '../diff/merge3.js';
import { summaryLine } from '../diff/format.js';

const USAGE = `usage: git apply [<options>] [<patch>...]

    --exclude <path>      don't apply changes matching the given path
    --include <path>      apply changes matching the given path
    -p <num>              remove <num> leading slashes from traditional diff paths
    --no-add              ignore additions made by the patch
    --stat                instead of applying the patch, output diffstat for the input
    --numstat             show number of added and deleted lines in decimal notation
    --summary             instead of applying the patch, output a summary for the input
    --check               instead of applying the patch, see if the patch is applicable
    --index               make sure the patch is applicable to the current index
    -N, --intent-to-add   mark new files with \`git add --intent-to-add\`
    --cached              apply a patch without touching the working tree
    --unsafe-paths        accept a patch that touches outside the working area
    --apply               also apply the patch (use with --stat/--summary/--check)
    -3, --3way            attempt three-way merge, fall back on normal patch if that fails
    --build-fake-ancestor <file>
                          build a temporary index based on embedded index information
    -z                    paths are separated with NUL character
    -C <n>                ensure at least <n> lines of context match
    --whitespace <action>
                          detect new or modified lines that have whitespace errors
    --ignore-space-change
                          ignore changes in whitespace when finding context
    --ignore-whitespace   ignore changes in whitespace when finding context
    -R, --reverse         apply the patch in reverse
    --unidiff-zero        don't expect at least one line of context
    --reject              leave the rejected hunks in corresponding *.rej files
    --allow-overlap       allow overlapping hunks
    -v, --verbose         be more verbose
    -q, --quiet           be more quiet
    --inaccurate-eof      tolerate incorrectly detected missing new-line at the end of file
    --recount             do not trust the line counts in the hunk headers
    --directory <root>    prepend <root> to all filenames
    --allow-empty         don't return error for empty patches

`;

interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** ' ', '-' or '+' and the line with its newline (none for a line marked "\\ No newline at end of file"). */
  lines: [string, string][];
}

interface FilePatch {
  oldPath: string | null;
  newPath: string | null;
  oldMode: number | null;
  newMode: number | null;
  isNew: boolean;
  isDelete: boolean;
  isRename: boolean;
  isCopy: boolean;
  oldOid: string | null;
  newOid: string | null;
  binary: boolean;
  hunks: Hunk[];
}

const latin1 = (b: Uint8Array) => {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return s;
};
const toBytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** A C-quoted name ("a/\303\251") as bytes in a latin1 string. */
function unquote(s: string): string {
  if (!s.startsWith('"')) return s;
  let out = '';
  for (let i = 1; i < s.length - 1; i++) {
    const c = s[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = s[++i];
    const esc: Record<string, string> = { a: '\x07', b: '\b', t: '\t', n: '\n', v: '\v', f: '\f', r: '\r', '"': '"', '\\': '\\' };
    if (n in esc) out += esc[n];
    else if (/[0-7]/.test(n)) {
      out += String.fromCharCode(parseInt(s.slice(i, i + 3), 8));
      i += 2;
    } else out += n;
  }
  return out;
}

const fromBytes = (s: string) => new TextDecoder().decode(toBytes(s));

/** Strip `p` leading components (-p1 turns a/x into x). */
function strip(name: string, p: number): string {
  let s = name;
  for (let i = 0; i < p; i++) {
    const k = s.indexOf('/');
    if (k < 0) return s;
    s = s.slice(k + 1).replace(/^\/+/, '');
  }
  return s;
}

/** Parse a patch (latin1 text) into per-file patches. */
function parsePatch(ctx: Ctx, text: string, p: number): FilePatch[] {
  const lines = text.split('\n');
  const out: FilePatch[] = [];
  let i = 0;
  const fresh = (): FilePatch => ({ oldPath: null, newPath: null, oldMode: null, newMode: null, isNew: false, isDelete: false, isRename: false, isCopy: false, oldOid: null, newOid: null, binary: false, hunks: [] });
  const name = (raw: string) => {
    const t = raw.replace(/\t.*$/, '');
    if (t === '/dev/null') return null;
    return fromBytes(strip(unquote(t), p));
  };
  while (i < lines.length) {
    const line = lines[i];
    let fp: FilePatch | null = null;
    if (line.startsWith('diff --git ')) {
      fp = fresh();
      const m = /^diff --git ("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(line);
      if (m) {
        fp.oldPath = name(m[1]);
        fp.newPath = name(m[2]);
      }
      i++;
      for (; i < lines.length; i++) {
        const l = lines[i];
        let mm: RegExpExecArray | null;
        if ((mm = /^old mode (\d+)$/.exec(l))) fp.oldMode = parseInt(mm[1], 8);
        else if ((mm = /^new mode (\d+)$/.exec(l))) fp.newMode = parseInt(mm[1], 8);
        else if ((mm = /^deleted file mode (\d+)$/.exec(l))) [fp.isDelete, fp.oldMode] = [true, parseInt(mm[1], 8)];
        else if ((mm = /^new file mode (\d+)$/.exec(l))) [fp.isNew, fp.newMode] = [true, parseInt(mm[1], 8)];
        else if ((mm = /^rename from (.*)$/.exec(l))) [fp.isRename, fp.oldPath] = [true, fromBytes(unquote(mm[1]))];
        else if ((mm = /^rename to (.*)$/.exec(l))) [fp.isRename, fp.newPath] = [true, fromBytes(unquote(mm[1]))];
        else if ((mm = /^copy from (.*)$/.exec(l))) [fp.isCopy, fp.oldPath] = [true, fromBytes(unquote(mm[1]))];
        else if ((mm = /^copy to (.*)$/.exec(l))) [fp.isCopy, fp.newPath] = [true, fromBytes(unquote(mm[1]))];
        else if (/^(dis)?similarity index /.test(l)) continue;
        else if ((mm = /^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: (\d+))?$/.exec(l))) {
          fp.oldOid = mm[1];
          fp.newOid = mm[2];
          if (mm[3]) fp.oldMode = fp.newMode = parseInt(mm[3], 8);
        } else if (l.startsWith('Binary files ') || l === 'GIT binary patch') {
          fp.binary = true;
        } else break;
      }
      if (fp.isNew) fp.oldPath = null;
      if (fp.isDelete) fp.newPath = null;
    }
    if (lines[i]?.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      fp ??= fresh();
      const a = name(lines[i].slice(4));
      const b = name(lines[i + 1].slice(4));
      if (!fp.isRename && !fp.isCopy) {
        if (line.startsWith('diff --git ')) {
          if (a === null) fp.isNew = true;
          if (b === null) fp.isDelete = true;
        } else {
          fp.oldPath = a;
          fp.newPath = b;
          fp.isNew = a === null;
          fp.isDelete = b === null;
        }
      }
      i += 2;
      // hunks
      while (i < lines.length && lines[i].startsWith('@@ ')) {
        const hm = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(lines[i]);
        if (!hm) ctx.fatal(`corrupt patch at line ${i + 1}`);
        const h: Hunk = { oldStart: Number(hm[1]), oldCount: hm[2] === undefined ? 1 : Number(hm[2]), newStart: Number(hm[3]), newCount: hm[4] === undefined ? 1 : Number(hm[4]), lines: [] };
        i++;
        let o = h.oldCount;
        let n = h.newCount;
        while (i < lines.length && (o > 0 || n > 0 || lines[i].startsWith('\\'))) {
          const l = lines[i];
          if (l.startsWith('\\')) {
            // the previous line has no newline
            const last = h.lines[h.lines.length - 1];
            if (last) last[1] = last[1].replace(/\n$/, '');
            i++;
            continue;
          }
          const c = l[0] ?? ' ';
          if (c !== ' ' && c !== '-' && c !== '+') break;
          h.lines.push([c, `${l.slice(1)}\n`]);
          if (c !== '+') o--;
          if (c !== '-') n--;
          i++;
        }
        if (o > 0 || n > 0) ctx.fatal(`corrupt patch at line ${i + 1}`);
        while (i < lines.length && lines[i].startsWith('\\')) {
          const last = h.lines[h.lines.length - 1];
          if (last) last[1] = last[1].replace(/\n$/, '');
          i++;
        }
        fp.hunks.push(h);
      }
      out.push(fp);
      continue;
    }
    if (fp) {
      if (fp.oldPath === null && fp.newPath === null) ctx.fatal(`git diff header lacks filename information (line ${i})`);
      out.push(fp);
      continue;
    }
    i++;
  }
  return out;
}

function reverse(fp: FilePatch): FilePatch {
  return {
    ...fp,
    oldPath: fp.newPath,
    newPath: fp.oldPath,
    oldMode: fp.newMode,
    newMode: fp.oldMode,
    isNew: fp.isDelete,
    isDelete: fp.isNew,
    oldOid: fp.newOid,
    newOid: fp.oldOid,
    hunks: fp.hunks.map((h) => ({ oldStart: h.newStart, oldCount: h.newCount, newStart: h.oldStart, newCount: h.oldCount, lines: h.lines.map(([c, t]) => [c === '+' ? '-' : c === '-' ? '+' : ' ', t] as [string, string]) })),
  };
}

/** Apply the hunks to the lines of a file (apply_fragments); null and git's complaint when one does not fit. */
function applyHunks(lines: string[], fp: FilePatch, verbose: (s: string) => void, path: string): { lines: string[] } | { error: string } {
  const img = [...lines];
  let nth = 0;
  for (const h of fp.hunks) {
    nth++;
    const pre = h.lines.filter(([c]) => c !== '+').map(([, t]) => t);
    const post = h.lines.filter(([c]) => c !== '-').map(([, t]) => t);
    let trailing = 0;
    for (let k = h.lines.length - 1; k >= 0 && h.lines[k][0] === ' '; k--) trailing++;
    const matchBeginning = h.oldStart <= 1;
    const matchEnd = trailing === 0;
    const fits = (at: number) => {
      if (at < 0 || at + pre.length > img.length) return false;
      if (matchBeginning && at !== 0) return false;
      if (matchEnd && at + pre.length !== img.length) return false;
      for (let k = 0; k < pre.length; k++) if (img[at + k] !== pre[k]) return false;
      return true;
    };
    let line = h.newStart ? h.newStart - 1 : 0;
    if (matchBeginning) line = 0;
    else if (matchEnd) line = img.length - pre.length;
    if (line > img.length) line = img.length;
    // try where it belongs, then alternately further forwards and backwards
    let found = -1;
    let back = line;
    let fwd = line;
    let cur = line;
    for (let i = 0; ; i++) {
      if (fits(cur)) {
        found = cur;
        break;
      }
      if (back <= 0 && fwd >= img.length) break;
      if (i & 1) {
        if (back <= 0) continue;
        cur = --back;
      } else {
        if (fwd >= img.length) continue;
        cur = ++fwd;
      }
    }
    if (found < 0) {
      verbose(`error: while searching for:\n${pre.join('')}\n`);
      return { error: `patch failed: ${path}:${h.oldStart}` };
    }
    if (found !== line) verbose(`Hunk #${nth} succeeded at ${found + 1} (offset ${found - line} line${Math.abs(found - line) === 1 ? '' : 's'}).\n`);
    img.splice(found, pre.length, ...post);
  }
  return { lines: img };
}

function splitKeep(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', start)) {
    out.push(s.slice(start, i + 1));
    start = i + 1;
  }
  if (start < s.length) out.push(s.slice(start));
  return out;
}

interface Result {
  fp: FilePatch;
  /** What goes in place of newPath (null: nothing, the file goes). */
  data: string | null;
  mode: number;
  conflict?: { base: string | null; ours: string; theirs: string };
}

export async function apply(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      '|exclude': 'str', '|include': 'str', p: 'str', '|no-add': 'bool', '|stat': 'bool', '|numstat': 'bool', '|summary': 'bool', '|check': 'bool', '|index': 'bool',
      'N|intent-to-add': 'bool', '|cached': 'bool', '|unsafe-paths': 'bool', '|apply': 'bool', '3|3way': 'bool', '|build-fake-ancestor': 'str', z: 'bool', C: 'str',
      '|whitespace': 'str', '|ignore-space-change': 'bool', '|ignore-whitespace': 'bool', 'R|reverse': 'bool', '|unidiff-zero': 'bool', '|reject': 'bool',
      '|allow-overlap': 'bool', 'v|verbose': 'bool', 'q|quiet': 'bool', '|inaccurate-eof': 'bool', '|recount': 'bool', '|directory': 'str', '|allow-empty': 'bool',
    },
    USAGE,
  );
  for (const k of ['reject', 'build-fake-ancestor', 'recount', 'unidiff-zero', 'ignore-whitespace', 'ignore-space-change', 'intent-to-add']) if (o.has(k) || (o.given(k) && k === 'build-fake-ancestor')) ctx.fatal(`--${k} is not supported by agentOS git`);
  const threeway = o.has('3way');
  if (threeway && o.has('reject')) ctx.fatal("options '--reject' and '--3way' cannot be used together");
  const cached = o.has('cached');
  const index = o.has('index') || threeway || cached;
  const repo = ctx.findRepo();
  if ((index || threeway) && !repo) ctx.fatal(`'${threeway ? '--3way' : cached ? '--cached' : '--index'}' outside a repository`);
  const store = repo ? new Store(ctx) : null;
  const p = Number(o.get('p') ?? 1);
  const quiet = o.has('quiet');
  const verboseOn = o.has('verbose');
  const verbose = (s: string) => {
    if (verboseOn) ctx.err(s);
  };
  const infoOnly = (o.has('stat') || o.has('numstat') || o.has('summary') || o.has('check')) && !o.has('apply');

  // the patches: files given, or stdin
  const inputs = o.operands.length ? o.operands : ['-'];
  let patches: FilePatch[] = [];
  for (const f of inputs) {
    let data: Uint8Array;
    try {
      data = f === '-' ? ctx.sys.readAll(0) : ctx.sys.readFile(ctx.abs(f));
    } catch (e) {
      if (e instanceof SysError) {
        ctx.error(`can't open patch '${f}': ${strerror(e.errno)}`);
        return 128;
      }
      throw e;
    }
    patches.push(...parsePatch(ctx, latin1(data), p));
  }
  // reversed, the patches also apply in reverse order
  if (o.has('reverse')) patches = patches.map(reverse).reverse();
  const dir = o.get('directory');
  if (dir) patches = patches.map((fp) => ({ ...fp, oldPath: fp.oldPath && `${dir.replace(/\/$/, '')}/${fp.oldPath}`, newPath: fp.newPath && `${dir.replace(/\/$/, '')}/${fp.newPath}` }));
  if (!patches.length) {
    if (o.has('allow-empty')) return 0;
    ctx.error('No valid patches in input (allow with "--allow-empty")');
    return 128;
  }

  // --stat / --numstat / --summary
  const counts = (fp: FilePatch) => {
    let add = 0;
    let del = 0;
    for (const h of fp.hunks) {
      for (const [c] of h.lines) {
        if (c === '+') add++;
        else if (c === '-') del++;
      }
    }
    return { add, del };
  };
  const display = (fp: FilePatch) => (fp.newPath ?? fp.oldPath)!;
  if (o.has('stat')) {
    const names = patches.map((fp) => quotePath(display(fp)));
    const maxLen = Math.min(50, Math.max(...names.map((n) => n.length)));
    const maxChange = Math.max(...patches.map((fp) => counts(fp).add + counts(fp).del));
    let adds = 0;
    let dels = 0;
    patches.forEach((fp, k) => {
      let nm = names[k];
      if (nm.length > maxLen) {
        const slash = nm.indexOf('/', nm.length + 3 - maxLen);
        nm = `...${nm.slice(slash >= 0 ? slash : nm.length + 3 - maxLen)}`;
      }
      if (fp.binary) {
        ctx.print(` ${nm.padEnd(maxLen)} |  Bin\n`);
        return;
      }
      const { add, del } = counts(fp);
      adds += add;
      dels += del;
      const max = maxLen + maxChange > 70 ? 70 - maxLen : maxChange;
      let a = add;
      let d = del;
      if (maxChange > 0) {
        const total = Math.floor(((add + del) * max + Math.floor(maxChange / 2)) / maxChange);
        a = Math.floor((add * max + Math.floor(maxChange / 2)) / maxChange);
        d = total - a;
      }
      ctx.print(` ${nm.padEnd(maxLen)} |${String(add + del).padStart(5)} ${'+'.repeat(a)}${'-'.repeat(d)}\n`);
    });
    ctx.print(summaryLine(patches.length, adds, dels));
  }
  if (o.has('numstat')) for (const fp of patches) ctx.print(`${fp.binary ? '-\t-' : `${counts(fp).add}\t${counts(fp).del}`}\t${quotePath(display(fp))}\n`);
  if (o.has('summary')) {
    for (const fp of patches) {
      const mode = (m: number | null) => (m ?? 0o100644).toString(8).padStart(6, '0');
      if (fp.isNew) ctx.print(` create mode ${mode(fp.newMode)} ${quotePath(fp.newPath!)}\n`);
      else if (fp.isDelete) ctx.print(` delete mode ${mode(fp.oldMode)} ${quotePath(fp.oldPath!)}\n`);
      else if (fp.isRename || fp.isCopy) ctx.print(` ${fp.isRename ? 'rename' : 'copy'} ${fp.oldPath} => ${fp.newPath} (100%)\n`);
      else if (fp.oldMode !== null && fp.newMode !== null && fp.oldMode !== fp.newMode) ctx.print(` mode change ${mode(fp.oldMode)} => ${mode(fp.newMode)} ${quotePath(fp.newPath!)}\n`);
    }
  }
  if (infoOnly && !o.has('check')) return 0;

  // check every patch against what it applies to (the work tree, the index, or both)
  const top = repo?.dir ?? ctx.cwd;
  const prefix = repo?.prefix ?? '';
  const idx = repo ? ctx.readIndex() : null;
  let failed = false;
  const errors = {
    push: (...msgs: string[]) => {
      for (const m of msgs) ctx.error(m);
      failed = true;
    },
  };
  const results: Result[] = [];
  const readWork = (path: string): { data: string; mode: number } | null => {
    const abs = `${top}/${path}`;
    try {
      const st = ctx.sys.lstat(abs);
      if ((st.mode & S_IFMT) === S_IFLNK) return { data: ctx.sys.readlink(abs), mode: 0o120000 };
      return { data: latin1(ctx.sys.readFile(abs)), mode: st.mode & 0o100 ? 0o100755 : 0o100644 };
    } catch (e) {
      if (e instanceof SysError) return null;
      throw e;
    }
  };
  const readIndexed = async (path: string): Promise<{ data: string; mode: number } | null> => {
    const e = idx?.byPath.get(path);
    return e ? { data: latin1(await store!.blob(e.oid)), mode: e.mode } : null;
  };
  const conflicted: string[] = [];
  for (const fp0 of patches) {
    const fp = { ...fp0, oldPath: fp0.oldPath && prefix + fp0.oldPath, newPath: fp0.newPath && prefix + fp0.newPath };
    const path = fp.oldPath ?? fp.newPath!;
    verbose(`Checking patch ${fp.oldPath && fp.newPath && fp.oldPath !== fp.newPath ? `${fp.oldPath} => ${fp.newPath}` : path}...\n`);
    if (fp.binary) {
      errors.push(`cannot apply binary patch to '${path}' without full index line`, `${path}: patch does not apply`);
      continue;
    }
    let current: { data: string; mode: number } | null;
    if (fp.isNew) {
      if (index && idx!.byPath.has(fp.newPath!)) {
        errors.push(`${fp.newPath}: already exists in index`);
        continue;
      }
      if (!cached && readWork(fp.newPath!)) {
        errors.push(`${fp.newPath}: already exists in working directory`);
        continue;
      }
      current = { data: '', mode: fp.newMode ?? 0o100644 };
    } else {
      current = cached ? await readIndexed(path) : readWork(path);
      if (!current) {
        errors.push(index && !idx!.byPath.has(path) ? `${path}: does not exist in index` : `${path}: No such file or directory`);
        continue;
      }
      if (index && !cached) {
        const ie = await readIndexed(path);
        if (!ie) {
          errors.push(`${path}: does not exist in index`);
          continue;
        }
        if (ie.data !== current.data || ie.mode !== current.mode) {
          errors.push(`${path}: does not match index`);
          continue;
        }
      }
    }
    const newMode = fp.newMode ?? fp.oldMode ?? current.mode;
    // --3way: merge the patch's preimage, what we have, and the patched preimage
    if (threeway && !fp.isNew && !fp.isDelete && fp.oldOid) {
      let base: string | null = null;
      try {
        const full = await git.expandOid({ ...ctx.iso(), oid: fp.oldOid });
        base = latin1(await store!.blob(full));
      } catch {
        base = null;
      }
      if (base === null) ctx.error('repository lacks the necessary blob to perform 3-way merge.');
      else {
        const post = applyHunks(splitKeep(base), fp, () => {}, path);
        if ('lines' in post) {
          const theirs = post.lines.join('');
          const m = merge3(base, current.data, theirs, 'ours', 'theirs');
          if (!quiet) ctx.err(`Applied patch to '${fp.newPath}' ${m.conflicts ? 'with conflicts' : 'cleanly'}.\n`);
          if (m.conflicts) conflicted.push(fp.newPath!);
          results.push({ fp, data: m.text, mode: newMode, conflict: m.conflicts ? { base, ours: current.data, theirs } : undefined });
          continue;
        }
      }
    }
    if (threeway && !quiet) ctx.err('Falling back to direct application...\n');
    const r = applyHunks(splitKeep(current.data), fp, verbose, path);
    if ('error' in r) {
      errors.push(r.error, `${path}: patch does not apply`);
      continue;
    }
    const data = r.lines.join('');
    if (fp.isDelete && data !== '') {
      errors.push('removal patch leaves file contents', `${path}: patch does not apply`);
      continue;
    }
    results.push({ fp, data: fp.isDelete ? null : data, mode: newMode });
  }
  if (failed) throw new GitExit(1);
  if (o.has('check') && !o.has('apply')) return 0;

  // all of them fit: write them out
  for (const r of results) {
    const { fp } = r;
    if (fp.oldPath && (fp.isDelete || (fp.isRename && fp.oldPath !== fp.newPath))) {
      if (!cached) deleteWorkFile(ctx, top, fp.oldPath);
      if (index) idx!.entries = idx!.entries.filter((e) => e.path !== fp.oldPath);
    }
    if (r.data === null || !fp.newPath) continue;
    const bytes = r.mode === 0o120000 ? new TextEncoder().encode(r.data) : toBytes(r.data);
    const oid = store ? await store.write('blob', bytes) : '';
    if (!cached) {
      if (store) await writeWorkFile(ctx, store, top, fp.newPath, { mode: r.mode, oid });
      else {
        ctx.sys.writeFile(`${top}/${fp.newPath}`, bytes, r.mode === 0o100755 ? 0o777 : 0o666);
      }
    }
    if (!index) continue;
    idx!.entries = idx!.entries.filter((e) => e.path !== fp.newPath);
    if (r.conflict) {
      const stage = async (data: string | null, n: number) => {
        if (data === null) return;
        idx!.entries.push(makeEntry(fp.newPath!, r.mode, await store!.write('blob', toBytes(data)), null, n));
      };
      await stage(r.conflict.base, 1);
      await stage(r.conflict.ours, 2);
      await stage(r.conflict.theirs, 3);
    } else if (cached) idx!.entries.push(makeEntry(fp.newPath, r.mode, oid, null));
    else setEntry(ctx, idx!, top, fp.newPath, { mode: r.mode, oid });
  }
  if (index) {
    reindex(idx!);
    await ctx.writeIndex(idx!);
  }
  for (const r of results) verbose(`Applied patch ${r.fp.newPath ?? r.fp.oldPath} cleanly.\n`);
  if (conflicted.length) {
    for (const c of conflicted.sort()) ctx.err(`U ${c}\n`);
    return 1;
  }
  return 0;
}

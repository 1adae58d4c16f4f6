// patch [OPTION]... [ORIGFILE [PATCHFILE]]: apply a diff to files (GNU
// patch 2.7 is the specification: its choice of file, offsets and fuzz,
// messages, .rej files, backups and statuses).

import { strerror } from '../../../abi/errno.js';
import { O_RDONLY } from '../../../abi/fcntl.js';
import { isDir, isReg } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, dirName, errnoOf, quotef, type Cmd } from '../../../userland/lib/index.js';
import { Applier, splitLines } from './apply.js';
import { bestName, prefixComponents } from './names.js';
import { Fatal, PatchReader, swapHunk, prefixContext, suffixContext, type DiffType, type FilePatch, type Hunk } from './pch.js';
import { rejectHeader, rejectHunk, type RejectFormat } from './reject.js';

const USAGE = `Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]

Input options:

  -p NUM  --strip=NUM  Strip NUM leading components from file names.
  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching.
  -l  --ignore-whitespace  Ignore white space changes between patch and input.

  -c  --context  Interpret the patch as a context difference.
  -n  --normal  Interpret the patch as a normal difference.
  -u  --unified  Interpret the patch as a unified difference.

  -N  --forward  Ignore patches that appear to be reversed or already applied.
  -R  --reverse  Assume patches were created with old and new files swapped.

  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.

Output options:

  -o FILE  --output=FILE  Output patched files to FILE.
  -r FILE  --reject-file=FILE  Output rejects to FILE.

  -E  --remove-empty-files  Remove output files that are empty after patching.

Backup and version control options:

  -b  --backup  Back up the original contents of each file.
  --backup-if-mismatch  Back up if the patch does not match exactly.
  --no-backup-if-mismatch  Back up mismatches only if otherwise requested.

  -z SUFFIX  --suffix=SUFFIX  Append SUFFIX to backup file names.

Miscellaneous options:

  -t  --batch  Ask no questions; skip bad-Prereq patches; assume reversed.
  -f  --force  Like -t, but ignore bad-Prereq patches, and assume unreversed.
  -s  --quiet  --silent  Work silently unless an error occurs.
  --dry-run  Do not actually change any files; just print what would happen.

  -d DIR  --directory=DIR  Change the working directory to DIR first.
  --reject-format=FORMAT  Create 'context' or 'unified' rejects.
  --binary  Read and write data in binary mode.

  -v  --version  Output version info.
  --help  Output this help.
`;

export default function main(os: AgentosApi): void {
  os.exit(patch(os, os.argv.slice(1)));
}

interface Options {
  strip: number;
  fuzz: number;
  ignoreWhite: boolean;
  forced: DiffType | null;
  forward: boolean;
  reverse: boolean;
  input: string | undefined;
  output: string | undefined;
  rejectFile: string | undefined;
  removeEmpty: boolean;
  backup: boolean;
  backupIfMismatch: boolean;
  suffix: string;
  batch: boolean;
  force: boolean;
  silent: boolean;
  dryRun: boolean;
  rejectFormat: RejectFormat | null;
}

const patch = command(
  {
    name: 'patch',
    usage: USAGE,
    failStatus: 2,
    prefixTry: true,
    short: 'bB:cd:D:eEfF:g:i:lnNo:p:r:RstTuvV:x:Y:z:Z',
    long: {
      backup: ['b', 'none'], context: ['c', 'none'], directory: ['d', 'required'], 'remove-empty-files': ['E', 'none'],
      force: ['f', 'none'], fuzz: ['F', 'required'], input: ['i', 'required'], 'ignore-whitespace': ['l', 'none'],
      normal: ['n', 'none'], forward: ['N', 'none'], output: ['o', 'required'], strip: ['p', 'required'],
      'reject-file': ['r', 'required'], reverse: ['R', 'none'], quiet: ['s', 'none'], silent: ['s', 'none'],
      batch: ['t', 'none'], unified: ['u', 'none'], suffix: ['z', 'required'], 'dry-run': ['dry-run', 'none'],
      verbose: ['verbose', 'none'], binary: ['binary', 'none'], 'backup-if-mismatch': ['backup-if-mismatch', 'none'],
      'no-backup-if-mismatch': ['no-backup-if-mismatch', 'none'], posix: ['posix', 'none'],
      'reject-format': ['reject-format', 'required'], ed: ['e', 'none'],
    },
  },
  (c) => {
    if (c.has('v')) {
      c.out.write('GNU patch 2.7.6 (agentOS)\n');
      return 0;
    }
    if (c.operands.length > 2) {
      c.warn(`${quotef(c.operands[2])}: extra operand`);
      return c.tryHelp();
    }
    try {
      const o = options(c);
      return new Patcher(c, o, c.operands[0]).run(c.operands[1] ?? o.input);
    } catch (e) {
      if (!(e instanceof Fatal)) throw e;
      c.out.flush();
      c.sys.writeAll(2, `patch: **** ${e.message}\n`);
      return 2;
    }
  },
);

function options(c: Cmd): Options {
  const num = (v: string | undefined, what: string): number => {
    if (v === undefined || !/^[+-]?\d+$/.test(v)) throw new Fatal(`${what} ${quotef(v ?? '')} is not a number`);
    const n = Number(v);
    if (n < 0) throw new Fatal(`${what} ${quotef(v)} is negative`);
    return n;
  };
  let forced: DiffType | null = null;
  let backupIfMismatch = !('POSIXLY_CORRECT' in c.os.env);
  let strip = -1;
  let fuzz = 2;
  let rejectFormat: RejectFormat | null = null;
  for (const [k, v] of c.all) {
    if (k === 'c') forced = 'context';
    else if (k === 'n') forced = 'normal';
    else if (k === 'u') forced = 'unified';
    else if (k === 'e') throw new Fatal('ed scripts are not supported');
    else if (k === 'p') strip = num(v, 'strip count');
    else if (k === 'F') fuzz = num(v, 'fuzz factor');
    else if (k === 'backup-if-mismatch') backupIfMismatch = true;
    else if (k === 'no-backup-if-mismatch') backupIfMismatch = false;
    else if (k === 'reject-format') {
      if (v !== 'context' && v !== 'unified') c.tryHelp();
      rejectFormat = v;
    } else if (k === 'd') {
      try {
        c.sys.chdir(v as string);
      } catch (e) {
        throw new Fatal(`Can't change to directory ${quotef(v as string)} : ${strerrorOf(e)}`);
      }
    }
  }
  return {
    strip,
    fuzz,
    ignoreWhite: c.has('l'),
    forced,
    forward: c.has('N'),
    reverse: c.has('R'),
    input: c.get('i'),
    output: c.get('o'),
    rejectFile: c.get('r'),
    removeEmpty: c.has('E'),
    backup: c.has('b'),
    backupIfMismatch,
    suffix: c.get('z') ?? (c.os.env.SIMPLE_BACKUP_SUFFIX || '.orig'),
    batch: c.has('t'),
    force: c.has('f'),
    silent: c.has('s'),
    dryRun: c.has('dry-run'),
    rejectFormat,
  };
}

const strerrorOf = (e: unknown): string => strerror(errnoOf(e));


const latin1 = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
};

const bytes = (s: string): Uint8Array => {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
};

/** One run of patch over a patch file. */
class Patcher {
  private somefailed = false;
  private readonly backedUp = new Set<string>();
  private readonly rejectsWritten = new Set<string>();
  private outputText: string[] = [];

  constructor(
    private readonly c: Cmd,
    private readonly o: Options,
    private readonly explicitName: string | undefined,
  ) {}

  private say(s: string): void {
    this.c.out.write(bytes(s));
  }

  /** A question with no terminal to answer it: the prompt, a newline, and the default. */
  private ask(prompt: string): string {
    this.say(prompt);
    if (this.c.sys.isatty(1)) {
      try {
        const fd = this.c.sys.open('/dev/tty', O_RDONLY);
        try {
          this.c.out.flush();
          const line = latin1(this.c.sys.read(fd, 1024));
          return line;
        } finally {
          this.c.sys.close(fd);
        }
      } catch {
        // No terminal after all: fall through to the default.
      }
    }
    this.say('\n');
    return '\n';
  }

  run(patchName: string | undefined): number {
    const text = this.readPatch(patchName);
    const reader = new PatchReader(splitLines(text), this.o.strip);
    for (;;) {
      const fp = reader.next(this.explicitName === undefined, this.o.forced);
      if (!fp) break;
      this.file(reader, fp);
    }
    if (this.o.output !== undefined && !this.o.dryRun) this.writeFile(this.o.output, this.outputText.join(''));
    return this.somefailed ? 1 : 0;
  }

  private readPatch(name: string | undefined): string {
    const sys = this.c.sys;
    if (name === undefined || name === '' || name === '-') return latin1(sys.readAll(0));
    try {
      const fd = sys.open(name, O_RDONLY);
      try {
        return latin1(sys.readAll(fd));
      } finally {
        sys.close(fd);
      }
    } catch (e) {
      throw new Fatal(`Can't open patch file ${quotef(name)} : ${strerrorOf(e)}`);
    }
  }

  private statFile(name: string): { exists: boolean; size: number; reg: boolean } {
    try {
      const st = this.c.sys.stat(name);
      return { exists: true, size: st.size, reg: isReg(st.mode) };
    } catch {
      return { exists: false, size: 0, reg: false };
    }
  }

  /** Ask whether to reverse (GNU's ok_to_reverse); true to swap old and new. */
  private okToReverse(msg: string, reverse: boolean, skip: { value: boolean }): boolean {
    const o = this.o;
    if (o.forward || !(o.force && o.silent)) this.say(msg);
    if (o.forward) {
      this.say('  Skipping patch.\n');
      skip.value = true;
      return false;
    }
    if (o.force) {
      if (!o.silent) this.say('  Applying it anyway.\n');
      return false;
    }
    if (o.batch) {
      this.say(reverse ? '  Ignoring -R.\n' : '  Assuming -R.\n');
      return true;
    }
    if (this.ask(reverse ? '  Ignore -R? [n] ' : '  Assume -R? [n] ')[0] === 'y') return true;
    if (this.ask('Apply anyway? [n] ')[0] !== 'y') {
      if (!o.silent) this.say('Skipping patch.\n');
      skip.value = true;
    }
    return false;
  }

  /** Which file the patch is for (GNU's intuit_diff_type, non-POSIX rules); may flip `state.reverse`. */
  private chooseFile(fp: FilePatch, state: { reverse: boolean }, skip: { value: boolean }): string | null {
    const says = fp.nonexistent;
    const maybeReverse = (name: string, nonexistent: boolean, empty: boolean): boolean => {
      const r = state.reverse ? 1 : 0;
      const looks = (empty ? 0 : 1) < says[r ^ (empty ? 1 : 0)];
      if (empty && says[r ^ (nonexistent ? 1 : 0)] === 1 && says[(1 - r) ^ (nonexistent ? 1 : 0)] === 2) return false;
      if (looks) {
        const msg = `The next patch${state.reverse ? ', when reversed,' : ''} would ${nonexistent ? 'delete' : empty ? 'empty out' : 'create'} the file ${quotef(name)},\nwhich ${nonexistent ? 'does not exist' : empty ? 'is already empty' : 'already exists'}!`;
        if (this.okToReverse(msg, state.reverse, skip)) state.reverse = !state.reverse;
      }
      return looks;
    };
    if (this.explicitName !== undefined) {
      const st = this.statFile(this.explicitName);
      if (!st.exists || st.reg) maybeReverse(this.explicitName, !st.exists, !st.exists || st.size === 0);
      return this.explicitName;
    }
    const names = [...fp.names];
    if ((names[0] || names[1]) && names[2]) names[2] = null;
    const stats = names.map((n) => (n === null ? null : this.statFile(n)));
    let i = bestName(names, stats.map((s) => !s?.exists));
    let i0 = -1;
    names.forEach((n, k) => {
      if (n !== null) i0 = k;
    });
    if (i0 >= 0 && (i < 0 || stats[i]?.reg) && maybeReverse(names[i < 0 ? i0 : i] as string, i < 0, i < 0 || stats[i]?.size === 0) && i < 0) i = i0;
    if (i < 0 && says[state.reverse ? 1 : 0]) {
      const newDirs = names.map((n) => (n === null ? Infinity : prefixComponents(n) - this.existingDirs(n)));
      const min = Math.min(...newDirs);
      i = bestName(names, newDirs.map((d) => min < d));
    }
    return i < 0 ? null : names[i];
  }

  /** How many leading directories of `name` exist. */
  private existingDirs(name: string): number {
    const parts = name.split('/').filter((p, k) => p !== '' || k === 0);
    let n = 0;
    for (let k = 1; k < parts.length; k++) {
      try {
        if (!isDir(this.c.sys.stat(parts.slice(0, k).join('/') || '/').mode)) break;
      } catch {
        break;
      }
      n++;
    }
    return n;
  }

  private file(reader: PatchReader, fp: FilePatch): void {
    const o = this.o;
    const state = { reverse: o.reverse };
    const skip = { value: false };
    let inname = this.chooseFile(fp, state, skip);
    if (!inname && !skip.value) {
      if (!o.silent) {
        this.say(`can't find file to patch at input line ${fp.line}\n`);
        if (fp.type !== 'normal') this.say(o.strip < 0 ? 'Perhaps you should have used the -p or --strip option?\n' : 'Perhaps you used the wrong -p or --strip option?\n');
      }
      if (fp.leading.length) this.say(`The text leading up to this was:\n--------------------------\n${fp.leading.map((l) => `|${l}`).join('')}--------------------------\n`);
      if (o.force || o.batch) this.say('No file to patch.  Skipping patch.\n');
      else {
        this.ask('File to patch: ');
        if (this.ask('Skip this patch? [y] ')[0] !== 'n' && !o.silent) this.say('Skipping patch.\n');
      }
      skip.value = true;
      inname = null;
    }
    if (skip.value) this.somefailed = true;
    const outname = skip.value ? null : (o.output ?? inname);
    let input: string[] = [];
    let inputSize = 0;
    if (!skip.value && inname) {
      const data = this.readInput(inname);
      inputSize = data.length;
      input = splitLines(data);
      if (!o.silent) this.say(`${o.dryRun ? 'checking' : 'patching'} file ${quotef(outname as string)}${outname !== inname ? ` (read from ${quotef(inname)})` : ''}\n`);
    }
    const ap = new Applier(input, o.ignoreWhite);
    const format: RejectFormat = o.rejectFormat ?? (fp.type === 'unified' ? 'unified' : 'context');
    let rej = '';
    let hunkNo = 0;
    let failed = 0;
    let mismatch = false;
    for (let raw = reader.hunk(); raw; raw = reader.hunk()) {
      let h: Hunk = state.reverse ? swapHunk(raw) : raw;
      hunkNo++;
      let where = 0;
      let fuzz = 0;
      if (!skip.value) {
        const maxFuzz = Math.min(o.fuzz, Math.max(prefixContext(h), suffixContext(h)));
        let applyAnyway = false;
        for (;;) {
          let incr = 1;
          where = ap.locate(h, fuzz);
          if (!where || fuzz || ap.inOffset) mismatch = true;
          if (hunkNo === 1 && !where && !(o.force || applyAnyway) && state.reverse === o.reverse) {
            const swapped = swapHunk(h);
            where = ap.locate(swapped, fuzz);
            const what = state.reverse ? 'Unreversed' : 'Reversed (or previously applied)';
            if (where && this.okToReverse(`${what} patch detected!`, state.reverse, skip)) {
              state.reverse = !state.reverse;
              h = swapped;
            } else if (where) {
              applyAnyway = true;
              incr = 0;
              where = 0;
            }
          }
          if (skip.value || where) break;
          fuzz += incr;
          if (fuzz > maxFuzz) break;
        }
      }
      const newwhere = (where || h.first) + ap.outOffset;
      const creatingOverText = where === 1 && fp.nonexistent[state.reverse ? 1 : 0] === 2 && inputSize > 0;
      if (skip.value || creatingOverText || !where || !ap.apply(h, where)) {
        if (rej === '') rej = rejectHeader(format, state.reverse ? [fp.headers[1], fp.headers[0]] : fp.headers);
        rej += rejectHunk(format, fp.type, h, ap.outOffset);
        failed++;
        if (!skip.value && !o.silent) this.say(`Hunk #${hunkNo} FAILED at ${newwhere}.\n`);
      } else if (!o.silent && (fuzz || ap.inOffset)) {
        const offset = ap.inOffset ? ` (offset ${ap.inOffset} line${ap.inOffset === 1 ? '' : 's'})` : '';
        this.say(`Hunk #${hunkNo} succeeded at ${newwhere}${fuzz ? ` with fuzz ${fuzz}` : ''}${offset}.\n`);
      }
    }
    if (!skip.value && inname && outname) this.place(fp, state.reverse, outname, ap, { hunks: hunkNo, failed, mismatch });
    if (failed) {
      this.somefailed = true;
      this.say(`${failed} out of ${hunkNo} hunk${hunkNo === 1 ? '' : 's'} ${skip.value ? 'ignored' : 'FAILED'}`);
      if (outname) {
        const rejName = o.rejectFile ?? `${outname}.rej`;
        if (!o.dryRun) {
          this.say(` -- saving rejects to file ${quotef(rejName)}\n`);
          this.writeReject(rejName, rej);
        } else this.say('\n');
      } else this.say('\n');
    }
  }

  private readInput(name: string): string {
    const sys = this.c.sys;
    try {
      const fd = sys.open(name, O_RDONLY);
      try {
        return latin1(sys.readAll(fd));
      } finally {
        sys.close(fd);
      }
    } catch {
      return '';
    }
  }

  /** Put the result where it belongs: the file (with a backup), -o's file, or nowhere (deleted). */
  private place(fp: FilePatch, reverse: boolean, outname: string, ap: Applier, r: { hunks: number; failed: number; mismatch: boolean }): void {
    const o = this.o;
    const text = ap.finish();
    if (o.output !== undefined) {
      this.outputText.push(text);
      return;
    }
    const backup = o.backup || (o.backupIfMismatch && (r.mismatch || r.failed > 0));
    const saysGone = fp.nonexistent[reverse ? 0 : 1] === 2;
    if (ap.zeroOutput && (o.removeEmpty || saysGone)) {
      if (!o.dryRun) {
        if (backup) this.makeBackup(outname);
        this.remove(outname);
      }
      return;
    }
    if (!ap.zeroOutput && saysGone) {
      this.somefailed = true;
      if (!o.silent) this.say(`Not deleting file ${quotef(outname)} as content differs from patch\n`);
    }
    if (o.dryRun) return;
    if (r.failed < r.hunks) {
      if (backup) this.makeBackup(outname);
      this.writeFile(outname, text);
    } else if (backup) this.makeBackup(outname);
  }

  private makeBackup(name: string): void {
    if (this.backedUp.has(name)) return;
    this.backedUp.add(name);
    const target = `${name}${this.o.suffix}`;
    let data: Uint8Array = new Uint8Array(0);
    try {
      data = this.c.sys.readFile(name);
    } catch {
      // A file being created backs up as an empty file.
    }
    this.writeBytes(target, data);
  }

  private writeFile(name: string, text: string): void {
    this.writeBytes(name, bytes(text));
  }

  private writeBytes(name: string, data: Uint8Array): void {
    const sys = this.c.sys;
    try {
      this.mkdirs(dirName(name));
      sys.writeFile(name, data);
    } catch (e) {
      throw new Fatal(`Can't create file ${quotef(name)} : ${strerrorOf(e)}`);
    }
  }

  private mkdirs(dir: string): void {
    if (dir === '.' || dir === '/' || dir === '') return;
    try {
      if (isDir(this.c.sys.stat(dir).mode)) return;
    } catch (e) {
      if (errnoOf(e) === 0) throw e;
    }
    this.mkdirs(dirName(dir));
    this.c.sys.mkdir(dir);
  }

  /** Delete a file and the directories it leaves empty. */
  private remove(name: string): void {
    try {
      this.c.sys.unlink(name);
    } catch (e) {
      throw new Fatal(`Can't remove file ${quotef(name)} : ${strerrorOf(e)}`);
    }
    for (let d = dirName(name); d !== '.' && d !== '/'; d = dirName(d)) {
      try {
        this.c.sys.rmdir(d);
      } catch {
        break;
      }
    }
  }

  private writeReject(name: string, text: string): void {
    if (this.rejectsWritten.has(name)) {
      const old = latin1(this.c.sys.readFile(name));
      this.writeFile(name, old + text);
    } else {
      this.rejectsWritten.add(name);
      this.writeFile(name, text);
    }
  }
}

// zip [-options] zipfile list   Package and compress files (Info-ZIP zip 3.0).
// Adds or replaces entries (-u: only newer files; -d deletes), recursing with
// -r; files are streamed through deflate (-0 stores, -1..-9 levels); an
// existing archive is rewritten through a temporary file and renamed over.

import { encodeBytes } from '../../../abi/bytestr.js';
import { Errno, SysError } from '../../../abi/errno.js';
import { O_CREAT, O_EXCL, O_RDONLY, O_WRONLY, SEEK_SET } from '../../../abi/fcntl.js';
import { S_IFMT, S_IFDIR, S_IFLNK, S_IFREG, type Stat } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import type { Sys } from '../../../libc/sys.js';
import { baseName, dirName, joinPath, tryStat } from '../../../userland/lib/fs.js';
import { Writer } from '../../../userland/lib/writer.js';
import { DEFLATED, STORED, type Entry, type NewEntry } from './format.js';
import { readDirectory } from './io.js';
import { globMatch } from './match.js';
import { ZipOut, type Data } from './zipout.js';

const HELP = `Copyright (c) 1990-2008 Info-ZIP - Type 'zip "-L"' for software license.
Zip 3.0 (agentOS). Usage:
zip [-options] [-b path] [-t mmddyyyy] [-n suffixes] [zipfile list] [-xi list]
  The default action is to add or replace zipfile entries from list, which
  can include the special name - to compress standard input.
  If zipfile and list are omitted, zip compresses stdin to stdout.
  -u   update: only changed or new files
  -d   delete entries in zipfile    -m   move into zipfile (delete OS files)
  -r   recurse into directories     -j   junk (don't record) directory names
  -0   store only
  -1   compress faster              -9   compress better
  -q   quiet operation              -v   verbose operation/print version info
  -@   read names from stdin
  -x   exclude the following names  -D   do not add directory entries
  -X   eXclude eXtra file attributes
  -y   store symbolic links as the link instead of the referenced file
`;

const VERSION = `Copyright (c) 1990-2008 Info-ZIP - Type 'zip "-L"' for software license.
This is Zip 3.0 (agentOS), compatible with Info-ZIP zip 3.0; deflate by fflate.
`;

interface Options {
  recurse: boolean;
  quiet: boolean;
  junk: boolean;
  level: number;
  del: boolean;
  update: boolean;
  symlinks: boolean;
  extras: boolean;
  dirEntries: boolean;
  move: boolean;
  namesFromStdin: boolean;
  excludes: string[];
}

/** Raised to end the program with zip's status (after its "zip error:" line, if any). */
class ZipExit {
  constructor(readonly status: number) {}
}

const LONG: Record<string, string> = {
  'recurse-paths': 'r', quiet: 'q', 'junk-paths': 'j', delete: 'd', update: 'u', symlinks: 'y', 'no-extra': 'X',
  'no-dir-entries': 'D', move: 'm', exclude: 'x', help: 'h', 'names-stdin': '@', verbose: 'v',
};

interface Item {
  name: string;
  /** The file to read; '-' for standard input. */
  path: string;
  st: Stat | null;
}

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const sys = os.sys;
  const out = new Writer(sys, 1);
  // Info-ZIP's messages share stdout with the "adding:" lines, unless the archive itself goes there.
  let mesgToStderr = false;
  const mesg = (text: string) => {
    out.flush();
    sys.writeAll(mesgToStderr ? 2 : 1, text);
  };
  const warn = (msg: string) => mesg(`\tzip warning: ${msg}\n`);
  const fail = (msg: string, status: number): never => {
    mesg(`\nzip error: ${msg}\n`);
    throw new ZipExit(status);
  };
  try {
    const o: Options = {
      recurse: false, quiet: false, junk: false, level: 6, del: false, update: false, symlinks: false, extras: true,
      dirEntries: true, move: false, namesFromStdin: false, excludes: [],
    };
    const operands: string[] = [];
    let verbose = false;
    let inExcludes = false;
    const args = os.argv.slice(1);
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      let letters: string[];
      if (a.startsWith('--') && a.length > 2) {
        const l = LONG[a.slice(2)];
        if (!l) fail(`Invalid command arguments (long option '${a.slice(2)}' not supported)`, 16);
        letters = [l];
      } else if (a.startsWith('-') && a.length > 1) letters = [...a.slice(1)];
      else {
        if (inExcludes) o.excludes.push(a);
        else operands.push(a);
        continue;
      }
      inExcludes = false;
      for (const l of letters) {
        if (/\d/.test(l)) o.level = Number(l);
        else if (l === 'r') o.recurse = true;
        else if (l === 'q') o.quiet = true;
        else if (l === 'j') o.junk = true;
        else if (l === 'd') o.del = true;
        else if (l === 'u') o.update = true;
        else if (l === 'y') o.symlinks = true;
        else if (l === 'X') o.extras = false;
        else if (l === 'D') o.dirEntries = false;
        else if (l === 'm') o.move = true;
        else if (l === '@') o.namesFromStdin = true;
        else if (l === 'v') verbose = true;
        else if (l === 'h') {
          out.write(HELP);
          out.flush();
          return 0;
        } else if (l === 'x') {
          if (i + 1 >= args.length || args[i + 1].startsWith('-')) {
            fail(`Invalid command arguments (option 'x' (exclude files matching patterns) requires a value)`, 16);
          }
          inExcludes = true;
        } else fail(`Invalid command arguments (short option '${l}' not supported)`, 16);
      }
    }
    if (verbose && operands.length === 0) {
      out.write(VERSION);
      out.flush();
      return 0;
    }
    let zipName = operands.shift() ?? '-';
    mesgToStderr = zipName === '-';
    if (zipName !== '-' && !baseName(zipName).includes('.')) zipName += '.zip';
    const names = operands.length ? operands : zipName === '-' ? ['-'] : [];
    if (o.namesFromStdin) {
      for (const line of new TextDecoder().decode(sys.readAll(0)).split('\n')) if (line) names.push(line);
    }
    if (zipName === '-' && (o.del || o.update)) fail("Invalid command arguments (can't use -d, -f, -u, -U, or -g on stdout\n)", 16);
    return new Zipper(sys, o, out, warn, fail).run(zipName, names);
  } catch (e) {
    if (e instanceof ZipExit) return e.status;
    throw e;
  }
}

class Zipper {
  constructor(
    private readonly sys: Sys,
    private readonly o: Options,
    private readonly out: Writer,
    private readonly warn: (msg: string) => void,
    private readonly fail: (msg: string, status: number) => never,
  ) {}

  run(zipName: string, names: string[]): number {
    const { sys, o } = this;
    const archiveSt = zipName === '-' ? null : tryStat(sys, zipName);
    let oldFd = -1;
    let old: Entry[] = [];
    if (archiveSt) {
      oldFd = sys.open(zipName, O_RDONLY);
      const dir = readDirectory(sys, oldFd, archiveSt.size);
      if (dir === 'no-end' || dir === 'bad') {
        if (archiveSt.size > 0) {
          this.warn('missing end signature--probably not a zip file (did you');
          this.warn('remember to use binary mode when you transferred it?)');
          this.warn('(if you are trying to read a damaged archive try -F)');
          this.fail(`Zip file structure invalid (${zipName})`, 3);
        }
      } else old = dir.entries;
    }
    if (o.del) return this.remove(zipName, oldFd, old, names);
    const items: Item[] = [];
    const self = archiveSt ? `${archiveSt.dev}:${archiveSt.ino}` : null;
    for (const n of names) this.collect(n, items, self, true);
    const oldNames = new Map(old.map((e) => [e.name, e]));
    const seen = new Set<string>();
    const work = items.filter((it) => {
      if (seen.has(it.name)) return false;
      seen.add(it.name);
      const prev = oldNames.get(it.name);
      if (!prev || !o.update || !it.st) return true;
      return Math.floor(it.st.mtimeMs / 1000) > prev.mtime + 1;
    });
    if (work.length === 0) {
      if (o.update && items.length > 0) throw new ZipExit(12);
      this.fail(`Nothing to do! (${zipName})`, 12);
    }
    const replaced = new Map(work.filter((it) => oldNames.has(it.name)).map((it) => [it.name, it]));
    return this.write(zipName, archiveSt, oldFd, (z) => {
      for (const e of old) {
        const it = replaced.get(e.name);
        if (it) this.addItem(z, it, true);
        else z.copy(this.sys, oldFd, e);
      }
      for (const it of work) if (!oldNames.has(it.name)) this.addItem(z, it, false);
    }, work);
  }

  /** zip -d: drop the entries that match the patterns. */
  private remove(zipName: string, oldFd: number, old: Entry[], patterns: string[]): number {
    if (oldFd < 0) {
      this.warn(`${zipName} not found or empty`);
      this.fail(`Nothing to do! (${zipName})`, 12);
    }
    const gone = new Set<Entry>();
    for (const p of patterns) {
      const hits = old.filter((e) => globMatch(p, e.name));
      if (hits.length === 0) this.warn(`name not matched: ${p}`);
      for (const e of hits) gone.add(e);
    }
    if (gone.size === 0) this.fail(`Nothing to do! (${zipName})`, 12);
    return this.write(zipName, this.sys.fstat(oldFd), oldFd, (z) => {
      for (const e of old) {
        if (!gone.has(e)) z.copy(this.sys, oldFd, e);
        else if (!this.o.quiet) this.out.write(`deleting: ${e.name}\n`);
      }
    }, []);
  }

  /** Write the new archive (to a temporary file renamed over the old one, or to stdout). */
  private write(zipName: string, oldSt: Stat | null, oldFd: number, fill: (z: ZipOut) => void, moved: Item[]): number {
    const { sys } = this;
    if (zipName === '-') {
      const z = new ZipOut(sys, 1, false);
      fill(z);
      z.finish();
      return 0;
    }
    const dir = dirName(zipName);
    let tmp = '';
    let fd = -1;
    for (let k = 0; fd < 0; k++) {
      tmp = joinPath(dir, `zi${Math.random().toString(36).slice(2, 8)}`);
      try {
        fd = sys.open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0o600);
      } catch (e) {
        if (!(e instanceof SysError) || e.errno !== Errno.EEXIST || k > 20) {
          this.fail(`Could not create output file (${zipName})`, 15);
        }
      }
    }
    try {
      const z = new ZipOut(sys, fd, true);
      fill(z);
      z.finish();
    } catch (e) {
      sys.close(fd);
      sys.unlink(tmp);
      throw e;
    }
    sys.close(fd);
    if (oldFd >= 0) sys.close(oldFd);
    const umask = sys.umask(0);
    sys.umask(umask);
    sys.chmod(tmp, oldSt ? oldSt.mode & 0o7777 : 0o666 & ~umask);
    sys.rename(tmp, zipName);
    this.out.flush();
    if (this.o.move) this.removeSources(moved);
    return 0;
  }

  private collect(path: string, items: Item[], self: string | null, top: boolean): void {
    const { sys, o } = this;
    if (path === '-') {
      items.push({ name: '-', path: '-', st: null });
      return;
    }
    let st: Stat;
    try {
      st = o.symlinks ? sys.lstat(path) : sys.stat(path);
    } catch {
      if (top) this.warn(`name not matched: ${path}`);
      return;
    }
    if (self === `${st.dev}:${st.ino}`) return;
    const isDir = (st.mode & S_IFMT) === S_IFDIR;
    let name = path.replace(/^(\.\/|\/)+/, '');
    if (o.junk) name = baseName(name);
    if (isDir) {
      if (name !== '' && name !== '.' && o.dirEntries && !o.junk) this.push(items, { name: `${name.replace(/\/+$/, '')}/`, path, st });
      if (!o.recurse) return;
      let kids: string[];
      try {
        kids = sys.readdir(path).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
      } catch {
        this.warn(`could not open for reading: ${path}`);
        return;
      }
      for (const k of kids) this.collect(path === '.' ? k : joinPath(path, k), items, self, false);
      return;
    }
    this.push(items, { name, path, st });
  }

  private push(items: Item[], it: Item): void {
    if (this.o.excludes.some((p) => globMatch(p, it.name) || globMatch(p, it.path))) return;
    items.push(it);
  }

  private addItem(z: ZipOut, it: Item, updating: boolean): void {
    const { sys, o } = this;
    const st = it.st;
    const type = st ? st.mode & S_IFMT : S_IFREG;
    const now = Math.floor(Date.now() / 1000);
    const e: NewEntry = {
      name: it.name,
      method: type === S_IFREG && o.level > 0 ? DEFLATED : STORED,
      level: o.level,
      mode: st ? st.mode : S_IFREG | 0o600,
      mtime: st ? Math.floor(st.mtimeMs / 1000) : now,
      atime: st ? Math.floor(st.atimeMs / 1000) : now,
      uid: st?.uid ?? sys.getuid(),
      gid: st?.gid ?? sys.getgid(),
      extras: o.extras,
      descriptor: false,
    };
    let data: Data | null = null;
    let fd = -1;
    if (type === S_IFLNK) {
      const target = encodeBytes(sys.readlink(it.path));
      let done = false;
      data = { read: () => (done ? null : ((done = true), target)), rewind: () => (done = false) };
    } else if (type === S_IFREG) {
      try {
        fd = it.path === '-' ? 0 : sys.open(it.path, O_RDONLY);
      } catch {
        this.warn(`could not open for reading: ${it.path}`);
        return;
      }
      const f = fd;
      data = {
        read: () => {
          const b = sys.read(f, 128 * 1024);
          return b.byteLength ? b : null;
        },
        rewind: f === 0 ? null : () => void sys.lseek(f, 0, SEEK_SET),
      };
      if (st && st.size === 0) e.method = STORED;
    }
    const r = z.add(e, data);
    if (fd > 0) sys.close(fd);
    if (!o.quiet) {
      const how = r.method === STORED ? 'stored 0%' : `deflated ${percent(r.usize, r.csize)}%`;
      this.out.write(`${updating ? 'updating: ' : '  adding: '}${it.name} (${how})\n`);
    }
  }

  /** -m: the files, then the directories (deepest first), once safely in the archive. */
  private removeSources(items: Item[]): void {
    const { sys } = this;
    for (const it of items) if (it.st && (it.st.mode & S_IFMT) !== S_IFDIR && it.path !== '-') sys.unlink(it.path);
    for (const it of [...items].reverse()) {
      if (it.st && (it.st.mode & S_IFMT) === S_IFDIR) {
        try {
          sys.rmdir(it.path);
        } catch {
          // not empty: something in it was not archived
        }
      }
    }
  }
}

/** Info-ZIP's percent(): the saving, rounded, with integer arithmetic (scaled down past 16 MB). */
function percent(n: number, m: number): number {
  if (n > 0xffffff) {
    n = Math.floor((n + 0x80) / 256);
    m = Math.floor((m + 0x80) / 256);
  }
  return n > m ? Math.floor((1 + Math.floor((200 * (n - m)) / n)) / 2) : 0;
}

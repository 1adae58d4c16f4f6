// install [-CDdpTv] [-m MODE] [-o OWNER] [-g GROUP] [-t DIR] SOURCE... DEST:
// copy files and set their attributes, or create directories (-d).

import { Errno, SysError } from '../../../abi/errno.js';
import { O_CREAT, O_EXCL, O_WRONLY } from '../../../abi/fcntl.js';
import { isDir, isReg, type Stat } from '../../../abi/stat.js';
import { applyMode, baseName, chunks, command, dirName, errnoOf, groups, joinPath, quote, quoteaf, tryLstat, tryStat, users, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: install [OPTION]... [-T] SOURCE DEST
  or:  install [OPTION]... SOURCE... DIRECTORY
  or:  install [OPTION]... -t DIRECTORY SOURCE...
  or:  install [OPTION]... -d DIRECTORY...

In the first three forms, copy SOURCE to DEST or multiple SOURCE(s) to
the existing DIRECTORY, while setting permission modes and owner/group.
In the 4th form, create all components of the given DIRECTORY(ies).

Mandatory arguments to long options are mandatory for short options too.
  -c                  (ignored)
  -C, --compare       compare content of source and destination files, and
                        if no change to content, ownership, and permissions,
                        do not modify the destination at all
  -d, --directory     treat all arguments as directory names; create all
                        components of the specified directories
  -D                  create all leading components of DEST except the last,
                        or all components of --target-directory,
                        then copy SOURCE to DEST
  -g, --group=GROUP   set group ownership, instead of process' current group
  -m, --mode=MODE     set permission mode (as in chmod), instead of rwxr-xr-x
  -o, --owner=OWNER   set ownership (super-user only)
  -p, --preserve-timestamps   apply access/modification times of SOURCE files
                        to corresponding destination files
  -s, --strip         strip symbol tables (nothing to strip here: ignored)
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory  treat DEST as a normal file
  -v, --verbose       print the name of each directory as it is created
      --help     display this help and exit
      --version  output version information and exit
`;

interface Opts {
  mode: number;
  uid: number;
  gid: number;
  compare: boolean;
  verbose: boolean;
  preserveTimes: boolean;
}

export const install = command(
  {
    name: 'install',
    usage: USAGE,
    short: 'cCdDg:m:o:pst:TvZ',
    long: {
      compare: ['C', 'none'], directory: ['d', 'none'], group: ['g', 'required'], mode: ['m', 'required'],
      owner: ['o', 'required'], 'preserve-timestamps': ['p', 'none'], strip: ['s', 'none'],
      'target-directory': ['t', 'required'], 'no-target-directory': ['T', 'none'], verbose: ['v', 'none'],
    },
  },
  (c) => {
    const o = options(c);
    const ops = c.operands;
    if (c.has('d')) {
      if (ops.length === 0) c.usage('missing file operand');
      for (const d of ops) makeDirs(c, d, o.mode, o, true);
      return;
    }
    const target = c.get('t');
    if (target !== undefined) {
      if (c.has('D')) makeDirs(c, target, 0o755, o, false);
      const st = tryStat(c.sys, target);
      if (!st || !isDir(st.mode)) return c.fail(`failed to access ${quoteaf(target)}: ${st ? 'Not a directory' : 'No such file or directory'}`);
      if (ops.length === 0) c.usage('missing file operand');
      for (const s of ops) installFile(c, s, joinPath(target, baseName(s)), o);
      return;
    }
    if (ops.length === 0) c.usage('missing file operand');
    if (ops.length === 1) c.usage(`missing destination file operand after ${quoteaf(ops[0])}`);
    const dest = ops[ops.length - 1];
    const sources = ops.slice(0, -1);
    if (c.has('T') && sources.length > 1) c.usage(`extra operand ${quoteaf(ops[2])}`);
    if (c.has('D') && sources.length === 1) makeDirs(c, dirName(dest), 0o755, o, false);
    const st = tryStat(c.sys, dest);
    const intoDir = !c.has('T') && st !== null && isDir(st.mode);
    if (sources.length > 1 && !intoDir) return c.fail(`target ${quoteaf(dest)}: ${st ? 'Not a directory' : 'No such file or directory'}`);
    for (const s of sources) installFile(c, s, intoDir ? joinPath(dest, baseName(s)) : dest, o);
  },
);

function options(c: Cmd): Opts {
  let mode = 0o755;
  const m = c.get('m');
  if (m !== undefined) {
    const v = applyMode(m, 0, false, 0);
    if (v === null) c.fail(`invalid mode ${quote(m)}`);
    mode = v;
  }
  const idOf = (v: string | undefined, list: { name: string; id: number }[], what: string): number => {
    if (v === undefined) return -1;
    const hit = list.find((e) => e.name === v);
    if (hit) return hit.id;
    if (/^\d+$/.test(v)) return Number(v);
    return c.fail(`invalid ${what} ${quote(v)}`);
  };
  return {
    mode,
    uid: idOf(c.get('o'), users(c.sys), 'user'),
    gid: idOf(c.get('g'), groups(c.sys), 'group'),
    compare: c.has('C'),
    verbose: c.has('v'),
    preserveTimes: c.has('p'),
  };
}

/** mkdir -p, announcing each directory made; the last gets `mode` (and owner) when `final`. */
function makeDirs(c: Cmd, path: string, mode: number, o: Opts, final: boolean): void {
  const parts = path.split('/');
  let cur = path.startsWith('/') ? '/' : '';
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === '') continue;
    cur = cur === '' || cur.endsWith('/') ? cur + parts[i] : `${cur}/${parts[i]}`;
    const last = parts.slice(i + 1).every((p) => p === '');
    const st = tryStat(c.sys, cur);
    if (st && isDir(st.mode)) {
      if (last && final) setAttrs(c, cur, mode, o);
      continue;
    }
    try {
      if (st) throw new SysError(Errno.EEXIST);
      c.sys.mkdir(cur, 0o755);
    } catch (e) {
      c.sysError(`cannot create directory ${quote(cur)}`, e);
      return c.exit(1);
    }
    if (o.verbose) c.out.write(`${c.name}: creating directory ${quoteaf(cur)}\n`);
    if (last && final) setAttrs(c, cur, mode, o);
  }
}

function setAttrs(c: Cmd, path: string, mode: number, o: Opts): boolean {
  try {
    if (o.uid !== -1 || o.gid !== -1) c.sys.chown(path, o.uid, o.gid);
  } catch (e) {
    c.sysError(`cannot change ownership of ${quoteaf(path)}`, e);
    return false;
  }
  try {
    c.sys.chmod(path, mode);
  } catch (e) {
    c.sysError(`cannot change permissions of ${quoteaf(path)}`, e);
    return false;
  }
  return true;
}

function installFile(c: Cmd, src: string, dest: string, o: Opts): void {
  let sst: Stat;
  try {
    sst = c.sys.stat(src);
  } catch (e) {
    return c.cannot('stat', src, e);
  }
  if (isDir(sst.mode)) return c.error(`omitting directory ${quoteaf(src)}`);
  const dst = tryLstat(c.sys, dest);
  if (dst && dst.ino === sst.ino && dst.dev === sst.dev) return c.error(`${quoteaf(src)} and ${quoteaf(dest)} are the same file`);
  if (dst && isDir(dst.mode)) return c.error(`cannot overwrite directory ${quoteaf(dest)} with non-directory`);
  if (o.compare && dst && !needsCopy(c, src, sst, dest, dst, o)) return;
  if (dst) {
    try {
      c.sys.unlink(dest);
      if (o.verbose) c.out.write(`removed ${quoteaf(dest)}\n`);
    } catch (e) {
      return c.cannot('remove', dest, e);
    }
  }
  if (!copyData(c, src, dest)) return;
  if (o.verbose) c.out.write(`${quoteaf(src)} -> ${quoteaf(dest)}\n`);
  if (o.preserveTimes) c.sys.utimes(dest, sst.atimeMs, sst.mtimeMs);
  setAttrs(c, dest, o.mode, o);
}

function copyData(c: Cmd, src: string, dest: string): boolean {
  let from: number;
  try {
    from = c.sys.open(src);
  } catch (e) {
    c.cannot('open', src, e);
    return false;
  }
  try {
    let to: number;
    try {
      // A name with a trailing slash can only be a directory.
      if (dest.endsWith('/')) throw new SysError(Errno.ENOTDIR);
      to = c.sys.open(dest, O_WRONLY | O_CREAT | O_EXCL, 0o600);
    } catch (e) {
      c.cannot('create regular file', dest, e);
      return false;
    }
    try {
      for (const b of chunks(c.sys, from)) c.sys.writeAll(to, b);
    } catch (e) {
      c.sysError(`error copying ${quoteaf(src)} to ${quoteaf(dest)}`, e);
      return false;
    } finally {
      c.sys.close(to);
    }
  } finally {
    c.sys.close(from);
  }
  return true;
}

/** -C: copy only if contents, mode or ownership would change. */
function needsCopy(c: Cmd, src: string, sst: Stat, dest: string, dst: Stat, o: Opts): boolean {
  if (o.mode & ~0o777) return true;
  if (!isReg(sst.mode) || !isReg(dst.mode) || sst.size !== dst.size || (dst.mode & 0o7777) !== o.mode) return true;
  if (dst.uid !== (o.uid === -1 ? c.sys.getuid() : o.uid)) return true;
  if (dst.gid !== (o.gid === -1 ? c.sys.getgid() : o.gid)) return true;
  return !sameContents(c, src, dest);
}

/** Compare two files chunk by chunk; unreadable means different. */
function sameContents(c: Cmd, a: string, b: string): boolean {
  let fa = -1;
  let fb = -1;
  try {
    fa = c.sys.open(a);
    fb = c.sys.open(b);
    for (let pos = 0; ; ) {
      const x = c.sys.pread(fa, 65536, pos);
      const y = c.sys.pread(fb, 65536, pos);
      if (!sameBytes(x, y)) return false;
      if (x.byteLength === 0) return true;
      pos += x.byteLength;
    }
  } catch (e) {
    if (errnoOf(e)) return false;
    throw e;
  } finally {
    if (fa >= 0) c.sys.close(fa);
    if (fb >= 0) c.sys.close(fb);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

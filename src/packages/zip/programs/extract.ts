// unzip's extraction and -p: members written under -d EXDIR (or junked to
// their base names with -j), existing files replaced only with -o or a "y"
// at UnZip's prompt, modes and times restored; symlinks are made last
// ("finishing deferred symbolic links"), directory times after everything.

import { decodeBytes } from '../../../abi/bytestr.js';
import { concatBytes } from '../../../abi/bytes.js';
import { O_CREAT, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { isLnk } from '../../../abi/stat.js';
import { baseName, dirName, joinPath, tryLstat, tryStat } from '../../../userland/lib/fs.js';
import { Writer } from '../../../userland/lib/writer.js';
import { readEntry } from './data.js';
import { isDirEntry, isSymlinkEntry, type Entry } from './format.js';
import type { Unzip } from './unzip.js';


export function pipeEntries(u: Unzip, entries: Entry[]): void {
  for (const e of entries) {
    if (isDirEntry(e)) continue;
    const r = readEntry(u, e, (b) => u.out.write(b));
    if (!r.ok) u.status = Math.max(u.status, 2);
  }
}

/** The path an entry extracts to: no leading '/', no '..' components (with UnZip's warnings), under -d. */
function target(u: Unzip, e: Entry): string | null {
  let name = e.name;
  if (name.startsWith('/')) {
    u.out.write(`warning:  stripped absolute path spec from ${name}\n`);
    name = name.replace(/^\/+/, '');
  }
  const parts = name.split('/');
  if (parts.includes('..')) {
    u.out.write(`warning:  skipped "../" path component(s) in ${name}\n`);
    name = parts.filter((p) => p !== '..').join('/');
  }
  if (u.o.junk) {
    if (isDirEntry(e)) return null;
    name = baseName(name);
  }
  if (name === '') return null;
  return u.o.exdir ? joinPath(u.o.exdir, name) : name;
}

export function extractAll(u: Unzip, entries: Entry[]): void {
  const sys = u.os.sys;
  const dirs: { path: string; e: Entry }[] = [];
  const links: { path: string; to: string }[] = [];
  const forced = u.o.overwrite === 'always';
  if (u.o.exdir) makeDirs(u, u.o.exdir);
  for (const e of entries) {
    const path = target(u, e);
    if (path === null) continue;
    if (isDirEntry(e)) {
      const bare = path.replace(/\/+$/, '');
      if (!tryLstat(sys, bare)) {
        makeDirs(u, bare);
        if (u.o.quiet === 0) u.out.write(`   creating: ${path}\n`);
      }
      dirs.push({ path: bare, e });
      continue;
    }
    makeDirs(u, dirName(path));
    const old = tryLstat(sys, path);
    if (old) {
      if (isLnk(old.mode) && !forced) {
        u.out.write(`${path} exists and is a symbolic link${tryStat(sys, path) ? '' : ' with no real file'}.\n`);
      }
      if (!mayReplace(u, path)) continue;
    }
    if (isSymlinkEntry(e)) {
      const parts: Uint8Array[] = [];
      readEntry(u, e, (b) => parts.push(b.slice()));
      const to = decodeBytes(concatBytes(parts));
      if (u.o.quiet === 0) u.out.write(`    linking: ${path.padEnd(22)}  -> ${to} \n`);
      links.push({ path, to });
      continue;
    }
    extractFile(u, e, path, !!old);
  }
  if (links.length) {
    if (u.o.quiet === 0) u.out.write('finishing deferred symbolic links:\n');
    for (const l of links) {
      if (u.o.quiet === 0) u.out.write(`  ${l.path.padEnd(22)} -> ${l.to}\n`);
      try {
        if (tryLstat(sys, l.path)) sys.unlink(l.path);
        sys.symlink(l.to, l.path);
      } catch {
        u.status = Math.max(u.status, 1);
      }
    }
  }
  for (const d of dirs.reverse()) setAttrs(u, d.path, d.e);
}

function extractFile(u: Unzip, e: Entry, path: string, exists: boolean): void {
  const sys = u.os.sys;
  if (exists) {
    try {
      sys.unlink(path);
    } catch {
      // a directory in the way: the open below reports it
    }
  }
  let fd: number;
  try {
    fd = sys.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666);
  } catch {
    u.out.flush();
    sys.writeAll(2, `error:  cannot create ${path}\n`);
    u.status = Math.max(u.status, 1);
    return;
  }
  if (u.o.quiet === 0) u.out.write(`${e.method === 0 ? ' extracting' : '  inflating'}: ${path.padEnd(22)}  `);
  const w = new Writer(sys, fd);
  const r = readEntry(u, e, (b) => w.write(b));
  w.flush();
  sys.close(fd);
  if (r.ok) {
    if (u.o.quiet === 0) u.out.write('\n');
  } else {
    u.out.flush();
    if ('crc' in r) sys.writeAll(2, ` bad CRC ${hex(r.crc)}  (should be ${hex(e.crc)})\n`);
    else sys.writeAll(2, `\n  error:  ${r.error}\n`);
    u.status = 2;
  }
  setAttrs(u, path, e);
}

/** UnZip's prompt when a file exists and neither -o nor -n was given. */
function mayReplace(u: Unzip, path: string): boolean {
  const o = u.o;
  if (o.overwrite === 'always') return true;
  if (o.overwrite === 'never') return false;
  const sys = u.os.sys;
  u.out.flush();
  sys.writeAll(2, `replace ${path}? [y]es, [n]o, [A]ll, [N]one, [r]ename: `);
  const answer = readLine(u);
  if (answer === null) {
    sys.writeAll(2, ' NULL\n(EOF or read error, treating as "[N]one" ...)\n');
    o.overwrite = 'never';
    u.status = Math.max(u.status, 1);
    return false;
  }
  const a = answer.trim()[0] ?? '';
  if (a === 'A') o.overwrite = 'always';
  if (a === 'N') o.overwrite = 'never';
  return a === 'y' || a === 'Y' || a === 'A';
}

function readLine(u: Unzip): string | null {
  let s = '';
  for (;;) {
    const b = u.os.sys.read(0, 1);
    if (!b.byteLength) return s === '' ? null : s;
    if (b[0] === 10) return s;
    s += String.fromCharCode(b[0]);
  }
}

function makeDirs(u: Unzip, dir: string): void {
  const sys = u.os.sys;
  if (dir === '' || dir === '.' || dir === '/' || tryLstat(sys, dir)) return;
  makeDirs(u, dirName(dir));
  try {
    sys.mkdir(dir, 0o777);
  } catch {
    // reported when the file inside cannot be created
  }
}

/** Mode (Unix archives only; set-id and sticky bits need -K) and modification time. */
function setAttrs(u: Unzip, path: string, e: Entry): void {
  const sys = u.os.sys;
  try {
    if (e.mode) sys.chmod(path, e.mode & (u.o.keepSpecial ? 0o7777 : 0o777));
    sys.utimes(path, e.mtime * 1000, e.mtime * 1000);
  } catch {
    // not ours to change: UnZip carries on too
  }
}

const hex = (n: number): string => n.toString(16).padStart(8, '0');

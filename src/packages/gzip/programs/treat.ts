// One operand of gzip: open it (trying suffixes for gunzip), refuse what GNU
// refuses (directories without -r, links, special files), name the output,
// stream it through the encoder or decoder, then carry the mode, owner and
// times over and remove the input — or list or test it.

import { Errno, SysError } from '../../../abi/errno.js';
import { O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY, O_WRONLY } from '../../../abi/fcntl.js';
import { isDir, isReg, type Stat } from '../../../abi/stat.js';
import { baseName, joinPath, tryLstat } from '../../../userland/lib/fs.js';
import { Writer } from '../../../userland/lib/writer.js';
import { ratio, type Gz } from './context.js';
import { compress, decompress, readHeader, type Input } from './codec.js';
import type { GzHeader } from './header.js';
import { listFile } from './list.js';
import { candidates, getSuffix, joinDir, stripSuffix } from './names.js';

export function treatStdin(g: Gz): void {
  const o = g.opts;
  if (!o.force && !o.list && g.sys.isatty(o.decompress ? 0 : 1)) {
    const [verb, what] = o.decompress ? ['read from', 'decompression'] : ['written to', 'compression'];
    g.eprint(`gzip: compressed data not ${verb} a terminal. Use -f to force ${what}.\nFor help, type: gzip -h\n`);
    g.status = 1;
    return;
  }
  const st = g.sys.fstat(0);
  const input: Input = { fd: 0, name: 'stdin', st };
  if (!o.decompress) {
    const mtime = o.noName !== true && isReg(st.mode) ? Math.floor(st.mtimeMs / 1000) : 0;
    const enc = compress(g, input, (b) => g.out.write(b), null, mtime);
    if (enc && o.verbose) g.eprint(`${ratio(enc.bytesIn - (enc.bytesOut - enc.overhead), enc.bytesIn)}\n`);
    return;
  }
  const first = readHeader(g, input);
  if (!first) return;
  if (o.list) return listFile(g, input, first.bytes, 'stdout');
  const dec = decompress(g, input, first.bytes, o.test ? null : (b) => g.out.write(b));
  if (dec && o.test && o.verbose) g.eprint(' OK\n');
}

export function treatFile(g: Gz, name: string): void {
  const input = openInput(g, name);
  if (!input) return;
  try {
    treatOpen(g, input);
  } finally {
    g.sys.close(input.fd);
  }
}

function treatOpen(g: Gz, input: Input): void {
  const o = g.opts;
  const { name, st } = input;
  if (isDir(st.mode)) {
    if (o.recursive) return treatDir(g, name);
    return g.warn(`${name} is a directory -- ignored`);
  }
  if (!isReg(st.mode)) return g.warn(`${name} is not a directory or a regular file - ignored`);
  if (st.nlink > 1 && !o.stdout && !o.force) {
    const n = st.nlink - 1;
    return g.warn(`${name} has ${n} other link${n > 1 ? 's' : ''} -- file ignored`);
  }
  let ofname = 'stdout';
  if (!o.stdout || o.list || o.test) {
    const made = outputName(g, name);
    if (made === null) return;
    ofname = made;
  }
  let first: { header: GzHeader; bytes: Uint8Array } | null = null;
  if (o.decompress) {
    first = readHeader(g, input);
    if (!first) return;
    if (o.noName === false && first.header.name && !o.stdout) ofname = joinDir(name, baseName(first.header.name));
  }
  if (o.list) return listFile(g, input, first!.bytes, ofname);
  let outFd = -1;
  if (!o.stdout) {
    if (tryLstat(g.sys, ofname)) {
      if (!o.force) return g.warn(`${ofname} already exists;\tnot overwritten`);
      g.sys.unlink(ofname);
    }
    try {
      outFd = g.sys.open(ofname, O_WRONLY | O_CREAT | O_EXCL, 0o600);
    } catch (e) {
      return g.sysError(ofname, e);
    }
  }
  if (o.verbose) g.eprint(`${name}:\t`);
  const w = outFd >= 0 ? new Writer(g.sys, outFd) : null;
  const sink = o.test ? null : w ? (b: Uint8Array) => w.write(b) : (b: Uint8Array) => g.out.write(b);
  let ok: boolean;
  let shown = '';
  if (o.decompress) {
    const dec = decompress(g, input, first!.bytes, sink);
    ok = dec !== null;
    if (dec) shown = ratio(dec.lastSize - (dec.bytesIn - dec.overhead), dec.lastSize);
  } else {
    const keepName = o.noName !== true;
    const enc = compress(g, input, sink!, keepName ? baseName(name) : null, keepName ? Math.floor(st.mtimeMs / 1000) : 0);
    ok = enc !== null;
    if (enc) shown = ratio(enc.bytesIn - (enc.bytesOut - enc.overhead), enc.bytesIn);
  }
  if (w) {
    try {
      if (ok) w.flush();
    } catch (e) {
      ok = false;
      g.sysError(ofname, e);
    }
    g.sys.close(outFd);
    if (!ok) {
      g.sys.unlink(ofname);
      return;
    }
    copyStat(g, st, ofname, first?.header ?? null);
    if (!o.keep) g.sys.unlink(name);
  }
  if (!ok || !o.verbose) return;
  if (o.test) g.eprint(' OK\n');
  else g.eprint(`${shown} -- ${o.keep ? 'created' : 'replaced with'} ${ofname}\n`);
}

function treatDir(g: Gz, dir: string): void {
  let names: string[];
  try {
    names = g.sys.readdir(dir).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
  } catch (e) {
    return g.sysError(dir, e);
  }
  for (const n of names) treatFile(g, joinPath(dir, n));
}

/** open_input_file: symlinks are refused unless -f or -c; `gunzip x` tries x.gz, x.z, ... */
function openInput(g: Gz, name: string): Input | null {
  const o = g.opts;
  const flags = O_RDONLY | (o.force || o.stdout ? 0 : O_NOFOLLOW);
  const open = (n: string): Input => {
    const fd = g.sys.open(n, flags);
    return { fd, name: n, st: g.sys.fstat(fd) };
  };
  try {
    return open(name);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    if (!o.decompress || e.errno !== Errno.ENOENT || getSuffix(name, o.suffix)) {
      g.sysError(name, e);
      return null;
    }
  }
  for (const n of candidates(name, o.suffix)) {
    try {
      return open(n);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      if (e.errno !== Errno.ENOENT) {
        g.sysError(n, e);
        return null;
      }
    }
  }
  g.sysError(name + o.suffix, new SysError(Errno.ENOENT));
  return null;
}

/** make_ofname: null when the file is to be skipped (after saying why, if GNU says so). */
function outputName(g: Gz, name: string): string | null {
  const o = g.opts;
  const suffix = getSuffix(name, o.suffix);
  if (o.decompress) {
    if (suffix === null) {
      if (!o.recursive && (o.test || o.list)) return name;
      if (o.verbose || (!o.recursive && !o.quiet)) g.warn(`${name}: unknown suffix -- ignored`);
      return null;
    }
    return stripSuffix(name, suffix);
  }
  if (suffix !== null && !o.force) {
    // Not a warning: GNU leaves the exit status alone here.
    if (o.verbose || (!o.recursive && !o.quiet)) g.eprint(`gzip: ${name} already has ${suffix} suffix -- unchanged\n`);
    return null;
  }
  return name + o.suffix;
}

/** copy_stat: the input's mode, owner and times on the output (-N: the stored mtime when decompressing). */
function copyStat(g: Gz, st: Stat, ofname: string, header: GzHeader | null): void {
  const o = g.opts;
  let mtime = st.mtimeMs;
  if (o.decompress && o.noName === false && header && header.mtime) mtime = header.mtime * 1000;
  try {
    g.sys.utimes(ofname, st.atimeMs, mtime);
    g.sys.chown(ofname, st.uid, st.gid);
  } catch {
    // Not the owner: GNU ignores this too.
  }
  g.sys.chmod(ofname, st.mode & 0o7777);
}

// file [-bhiLNE] [--mime-type] [--mime-encoding] [-F SEP] [-f NAMEFILE] FILE...:
// determine file types from their contents, worded like file(1) 5.x with its
// default magic: binary formats by magic number (binary.ts, elf.ts), else the
// text encoding and kind of text (text.ts), else "data".

import { concatBytes } from '../../../abi/bytes.js';
import { Errno, SysError, strerror } from '../../../abi/errno.js';
import { major, minor, S_IFMT, type Stat } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, parseArgs, UsageError, type Cmd, type OptSpec } from '../../../userland/lib/index.js';
import { binaryKind } from './binary.js';
import { charsetOf, textKind } from './text.js';

const USAGE_SHORT = `Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]
            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]
            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]
            <file> ...
       file -C [-m <magicfiles>]
       file [--help]
`;

const USAGE = `Usage: file [OPTION...] [FILE...]
Determine type of FILEs.

      --help                 display this help and exit
  -v, --version              output version information and exit
  -b, --brief                do not prepend filenames to output lines
  -E                         on filesystem errors (file not found etc), instead
                               of handling the error as regular output as POSIX
                               mandates and keep going, issue an error message
                               and exit
  -f, --files-from FILE      read the filenames to be examined from FILE
  -F, --separator STRING     use string as separator instead of \`:'
  -i, --mime                 output MIME type strings (--mime-type and
                               --mime-encoding)
      --mime-type            output the MIME type
      --mime-encoding        output the MIME encoding
  -L, --dereference          follow symlinks
  -h, --no-dereference       don't follow symlinks (default)
  -N, --no-pad               do not pad output
`;

const READ_MAX = 1 << 20;
const SPEC: OptSpec = {
  short: 'bEf:F:ihLNv',
  long: {
    brief: ['b', 'none'], 'files-from': ['f', 'required'], separator: ['F', 'required'], mime: ['i', 'none'],
    'mime-type': ['T', 'none'], 'mime-encoding': ['M', 'none'], dereference: ['L', 'none'], 'no-dereference': ['h', 'none'],
    'no-pad': ['N', 'none'], version: ['v', 'none'], help: ['H', 'none'],
  },
};

/** What one file is: the description, MIME type and charset (null: not reported, as for a broken link). */
interface Result {
  desc: string;
  mime: string;
  charset: string | null;
  error?: boolean;
  plain?: boolean;
}

const file = command({ name: 'file', usage: USAGE, rawArgs: true }, (c) => {
  let p;
  try {
    p = parseArgs(c.operands, SPEC);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    c.warn(e.message);
    c.sys.writeAll(2, USAGE_SHORT);
    return 1;
  }
  const has = (k: string) => p.list.some(([key]) => key === k);
  const get = (k: string) => p.list.filter(([key]) => key === k).pop()?.[1];
  if (has('H')) return void c.out.write(USAGE);
  if (has('v')) return void c.out.write('file-5.44 (agentOS)\nmagic file from (built in)\n');
  const names = [...p.operands];
  const from = get('f');
  if (from !== undefined) {
    try {
      names.push(...new TextDecoder().decode(c.sys.readFile(from)).split('\n').filter(Boolean));
    } catch (e) {
      c.sysError(`Cannot open \`${from}'`, e);
      return 1;
    }
  }
  if (names.length === 0 && from === undefined) {
    c.sys.writeAll(2, USAGE_SHORT);
    return 1;
  }
  const mime = has('i') ? 'both' : has('T') ? 'type' : has('M') ? 'encoding' : null;
  const sep = get('F') ?? ':';
  const shown = names.map((n) => (n === '-' ? '/dev/stdin' : n));
  const width = Math.max(...shown.map((n) => n.length));
  for (const [i, name] of names.entries()) {
    const r = describe(c, name, has('L'));
    if (r.error && has('E')) {
      c.out.write(`${shown[i]}${sep} ERROR: ${r.desc.replace('cannot open', 'cannot stat')}\n`);
      return 1;
    }
    if (mime === 'encoding' && r.charset === null) c.status = 1;
    const text =
      r.error || !mime ? r.desc
      : mime === 'type' ? r.mime
      : mime === 'encoding' ? (r.charset ?? 'ERROR: (null)')
      : r.charset === null ? r.mime : `${r.mime}; charset=${r.charset}`;
    const label = has('N') ? `${shown[i]}${sep}` : `${shown[i]}${sep}`.padEnd(width + sep.length);
    c.out.write(has('b') ? `${text}\n` : `${label} ${text}\n`);
  }
});

function describe(c: Cmd, name: string, follow: boolean): Result {
  if (name === '-') return describeBytes(c, readAll(c, 0), null);
  let st: Stat;
  try {
    st = follow ? c.sys.stat(name) : c.sys.lstat(name);
  } catch (e) {
    const errno = e instanceof SysError ? e.errno : Errno.EIO;
    return { desc: `cannot open \`${name}' (${strerror(errno)})`, mime: '', charset: null, error: true };
  }
  switch (st.mode & S_IFMT) {
    case 0o120000: {
      const target = c.sys.readlink(name);
      let broken = false;
      try {
        c.sys.stat(name);
      } catch {
        broken = true;
      }
      return broken
        ? { desc: `broken symbolic link to ${target}`, mime: 'inode/symlink', charset: null }
        : { desc: `symbolic link to ${target}`, mime: 'inode/symlink', charset: 'binary' };
    }
    case 0o040000:
      return { desc: 'directory', mime: 'inode/directory', charset: 'binary' };
    case 0o020000:
      return { desc: `character special (${major(st.rdev)}/${minor(st.rdev)})`, mime: 'inode/chardevice', charset: 'binary' };
    case 0o060000:
      return { desc: `block special (${major(st.rdev)}/${minor(st.rdev)})`, mime: 'inode/blockdevice', charset: 'binary' };
    case 0o010000:
      return { desc: 'fifo (named pipe)', mime: 'inode/fifo', charset: 'binary' };
    case 0o140000:
      return { desc: 'socket', mime: 'inode/socket', charset: 'binary' };
  }
  if (st.size === 0) return { desc: 'empty', mime: 'inode/x-empty', charset: 'binary' };
  let fd: number;
  try {
    fd = c.sys.open(name);
  } catch (e) {
    const errno = e instanceof SysError ? e.errno : Errno.EIO;
    return { desc: `cannot open \`${name}' (${strerror(errno)})`, mime: '', charset: null, error: true };
  }
  try {
    const r = describeBytes(c, readAll(c, fd), { fd, size: st.size });
    // The mode bits come first ("setuid ELF 64-bit ..."); before bare text file(1) leaves a stray ", ".
    const special = [st.mode & 0o4000 && 'setuid', st.mode & 0o2000 && 'setgid', st.mode & 0o1000 && 'sticky'].filter(Boolean);
    if (special.length) r.desc = `${special.join(' ')} ${r.plain ? ', ' : ''}${r.desc}`;
    return r;
  } finally {
    c.sys.close(fd);
  }
}

function readAll(c: Cmd, fd: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let n = 0;
  while (n < READ_MAX) {
    const b = c.sys.read(fd, READ_MAX - n);
    if (b.byteLength === 0) break;
    parts.push(b);
    n += b.byteLength;
  }
  return concatBytes(parts);
}

function describeBytes(c: Cmd, b: Uint8Array, src: { fd: number; size: number } | null): Result {
  if (b.length === 0) return { desc: 'empty', mime: 'inode/x-empty', charset: 'binary' };
  if (b.length === 1) return { desc: 'very short file (no magic)', mime: 'application/octet-stream', charset: 'binary' };
  const size = src?.size ?? b.length;
  const read = (off: number, len: number): Uint8Array => {
    if (off < 0) return new Uint8Array(0);
    if (off + len <= b.length) return b.subarray(off, off + len);
    return src ? c.sys.pread(src.fd, len, off) : b.subarray(off, off + len);
  };
  const bin = binaryKind(b, size, read);
  if (bin) return { ...bin, charset: charsetOf(b) };
  const text = textKind(b);
  if (text) return text;
  return { desc: 'data', mime: 'application/octet-stream', charset: 'binary' };
}

export default function main(os: AgentosApi): void {
  os.exit(file(os, os.argv.slice(1)));
}

// stat [-L] [-c FORMAT] FILE...: display file status (the default form, or a -c format).

import { major, minor, type Stat } from '../../../abi/stat.js';
import { command, fileTypeName, groupName, modeString, quoteaf, userName, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: stat [OPTION]... FILE...
Display file or file system status.

Mandatory arguments to long options are mandatory for short options too.
  -L, --dereference     follow links
  -c  --format=FORMAT   use the specified FORMAT instead of the default;
                          output a newline after each use of FORMAT
      --printf=FORMAT   like --format, but interpret backslash escapes,
                          and do not output a mandatory trailing newline
  -t, --terse           print the information in terse form
      --help     display this help and exit
      --version  output version information and exit

The valid format sequences for files:

  %a   permission bits in octal
  %A   permission bits and file type in human readable form
  %b   number of blocks allocated
  %d   device number in decimal
  %f   raw mode in hex
  %F   file type
  %g   group ID of owner
  %G   group name of owner
  %h   number of hard links
  %i   inode number
  %n   file name
  %N   quoted file name with dereference if symbolic link
  %s   total size, in bytes
  %u   user ID of owner
  %U   user name of owner
  %X   time of last access, seconds since Epoch
  %Y   time of last data modification, seconds since Epoch
  %Z   time of last status change, seconds since Epoch
`;

export const stat = command(
  {
    name: 'stat',
    usage: USAGE,
    short: 'Lc:t',
    long: { dereference: ['L', 'none'], format: ['c', 'required'], printf: ['P', 'required'], terse: ['t', 'none'] },
  },
  (c) => {
    if (c.operands.length === 0) c.usage('missing operand');
    for (const f of c.operands) {
      let st: Stat;
      try {
        st = c.has('L') ? c.sys.stat(f) : c.sys.lstat(f);
      } catch (e) {
        c.cannot('statx', f, e); // GNU 9 names the syscall it uses
        continue;
      }
      if (c.has('P')) c.out.write(format(c, c.get('P')!, f, st, true));
      else if (c.has('c')) c.out.write(format(c, c.get('c')!, f, st, false) + '\n');
      else c.out.write(defaultForm(c, f, st));
    }
  },
);

const secs = (ms: number) => String(Math.floor(ms / 1000));

function field(c: Cmd, ch: string, name: string, st: Stat): string | null {
  switch (ch) {
    case 'a': return (st.mode & 0o7777).toString(8);
    case 'A': return modeString(st.mode);
    case 'b': return String(st.blocks);
    case 'B': return '512';
    case 'd': return String(st.dev);
    case 'f': return st.mode.toString(16);
    case 'F': return fileTypeName(st.mode, st.size);
    case 'g': return String(st.gid);
    case 'G': return groupName(c.sys, st.gid) ?? 'UNKNOWN';
    case 'h': return String(st.nlink);
    case 'i': return String(st.ino);
    case 'n': return name;
    case 'N': return (st.mode & 0o170000) === 0o120000 ? `${quoteaf(name)} -> ${quoteaf(c.sys.readlink(name))}` : quoteaf(name);
    case 's': return String(st.size);
    case 't': return major(st.rdev).toString(16);
    case 'T': return minor(st.rdev).toString(16);
    case 'u': return String(st.uid);
    case 'U': return userName(c.sys, st.uid) ?? 'UNKNOWN';
    case 'X': return secs(st.atimeMs);
    case 'Y': return secs(st.mtimeMs);
    case 'Z': return secs(st.ctimeMs);
    case '%': return '%';
    default: return null;
  }
}

const ESC: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', a: '\x07', b: '\b', f: '\f', r: '\r', v: '\v', '"': '"' };

function format(c: Cmd, fmt: string, name: string, st: Stat, escapes: boolean): string {
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i];
    if (escapes && ch === '\\' && i + 1 < fmt.length && fmt[i + 1] in ESC) {
      out += ESC[fmt[++i]];
      continue;
    }
    if (ch !== '%' || i + 1 >= fmt.length) {
      out += ch;
      continue;
    }
    // Width/flags like %-10s or %5a.
    const m = /^(-?)(0?)(\d*)([a-zA-Z%])/.exec(fmt.slice(i + 1));
    if (!m) {
      out += ch;
      continue;
    }
    i += m[0].length;
    const v = field(c, m[4], name, st);
    if (v === null) {
      out += `?`;
      continue;
    }
    const w = Number(m[3] || 0);
    out += m[1] ? v.padEnd(w) : v.padStart(w, m[2] ? '0' : ' ');
  }
  return out;
}

const date = (ms: number) => {
  const d = new Date(ms);
  const frac = String(Math.round((ms % 1000) * 1e6)).padStart(9, '0');
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 19)}.${frac} +0000`;
};

function defaultForm(c: Cmd, name: string, st: Stat): string {
  const link = (st.mode & 0o170000) === 0o120000 ? ` -> ${c.sys.readlink(name)}` : '';
  return (
    `  File: ${name}${link}\n` +
    `  Size: ${String(st.size).padEnd(15)}\tBlocks: ${String(st.blocks).padEnd(10)} IO Block: ${String(st.blksize).padEnd(6)} ${fileTypeName(st.mode, st.size)}\n` +
    `Device: ${st.dev.toString(16)}h/${st.dev}d\tInode: ${String(st.ino).padEnd(11)} Links: ${st.nlink}\n` +
    `Access: (${(st.mode & 0o7777).toString(8).padStart(4, '0')}/${modeString(st.mode)})  Uid: (${String(st.uid).padStart(5)}/${(userName(c.sys, st.uid) ?? 'UNKNOWN').padStart(8)})   Gid: (${String(st.gid).padStart(5)}/${(groupName(c.sys, st.gid) ?? 'UNKNOWN').padStart(8)})\n` +
    `Access: ${date(st.atimeMs)}\nModify: ${date(st.mtimeMs)}\nChange: ${date(st.ctimeMs)}\n Birth: -\n`
  );
}

// rm [-dfirRv] FILE...: remove files and (with -r) directory trees.

import { Errno } from '../../../abi/errno.js';
import { isDir } from '../../../abi/stat.js';
import { baseName, command, errnoOf, joinPath, quoteaf, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: rm [OPTION]... [FILE]...
Remove (unlink) the FILE(s).

  -f, --force           ignore nonexistent files and arguments, never prompt
  -i                    prompt before every removal
  -r, -R, --recursive   remove directories and their contents recursively
  -d, --dir             remove empty directories
  -v, --verbose         explain what is being done
      --no-preserve-root  do not treat '/' specially
      --preserve-root   do not remove '/' (default)
      --help     display this help and exit
      --version  output version information and exit
`;

export const rm = command(
  {
    name: 'rm',
    usage: USAGE,
    short: 'dfirRv',
    long: {
      force: ['f', 'none'], recursive: ['r', 'none'], dir: ['d', 'none'], verbose: ['v', 'none'],
      'no-preserve-root': ['N', 'none'], 'preserve-root': ['P', 'none'], interactive: ['i', 'optional'],
    },
  },
  (c) => {
    // The last of -f and -i wins.
    let force = false;
    let prompt = false;
    for (const [k] of c.all) {
      if (k === 'f') [force, prompt] = [true, false];
      else if (k === 'i') [force, prompt] = [false, true];
    }
    const recursive = c.has('r') || c.has('R');
    if (c.operands.length === 0) {
      if (force) return 0;
      c.usage('missing operand');
    }
    const o: Opts = { force, prompt, recursive };
    for (const f of c.operands) {
      const base = baseName(f);
      if (base === '.' || base === '..') {
        c.error(`refusing to remove '.' or '..' directory: skipping ${quoteaf(f)}`);
        continue;
      }
      if (recursive && !c.has('N') && /^\/+$/.test(f)) {
        c.error(`it is dangerous to operate recursively on '/'`);
        c.warn('use --no-preserve-root to override this failsafe');
        continue;
      }
      remove(c, f, o);
    }
  },
);

interface Opts {
  force: boolean;
  prompt: boolean;
  recursive: boolean;
}

/** Ask on stderr (no newline), read a line from stdin: yes when it starts with y/Y. */
function ask(c: Cmd, q: string): boolean {
  c.out.flush();
  c.sys.writeAll(2, q);
  let first = -1;
  for (;;) {
    const b = c.sys.read(0, 1);
    if (b.byteLength === 0 || b[0] === 10) break;
    if (first < 0) first = b[0];
  }
  return first === 0x79 || first === 0x59;
}

function remove(c: Cmd, path: string, o: Opts): void {
  let st;
  try {
    st = c.sys.lstat(path);
  } catch (e) {
    if (!(o.force && errnoOf(e) === Errno.ENOENT)) c.cannot('remove', path, e);
    return;
  }
  if (isDir(st.mode)) {
    if (!o.recursive) {
      if (c.has('d')) return rmEmptyDir(c, path, o);
      c.error(`cannot remove ${quoteaf(path)}: Is a directory`);
      return;
    }
    if (o.prompt && !ask(c, `rm: descend into directory ${quoteaf(path)}? `)) return;
    let names: string[];
    try {
      names = c.sys.readdir(path).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
    } catch (e) {
      c.cannot('remove', path, e);
      return;
    }
    for (const n of names) remove(c, joinPath(path, n), o);
    return rmEmptyDir(c, path, o);
  }
  const kind = st.size === 0 && (st.mode & 0o170000) === 0o100000 ? 'regular empty file' : 'regular file';
  if (o.prompt && !ask(c, `rm: remove ${(st.mode & 0o170000) === 0o120000 ? 'symbolic link' : kind} ${quoteaf(path)}? `)) return;
  try {
    c.sys.unlink(path);
    if (c.has('v')) c.out.write(`removed ${quoteaf(path)}\n`);
  } catch (e) {
    c.cannot('remove', path, e);
  }
}

function rmEmptyDir(c: Cmd, path: string, o: Opts): void {
  if (o.prompt && !ask(c, `rm: remove directory ${quoteaf(path)}? `)) return;
  try {
    c.sys.rmdir(path);
    if (c.has('v')) c.out.write(`removed directory ${quoteaf(path)}\n`);
  } catch (e) {
    c.cannot('remove', path, e);
  }
}

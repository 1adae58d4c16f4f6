// mv [-finTv] [-t DIR] SOURCE... DEST: move (rename) files.

import { Errno } from '../../../abi/errno.js';
import { isDir } from '../../../abi/stat.js';
import { command, dirName, errnoOf, joinPath, quoteaf, tryLstat, type Cmd } from '../../../userland/lib/index.js';
import { copy } from './copy.js';
import { plan } from './targets.js';

const USAGE = `Usage: mv [OPTION]... [-T] SOURCE DEST
  or:  mv [OPTION]... SOURCE... DIRECTORY
  or:  mv [OPTION]... -t DIRECTORY SOURCE...
Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.

  -f, --force                  do not prompt before overwriting
  -i, --interactive            prompt before overwrite
  -n, --no-clobber             do not overwrite an existing file
  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -v, --verbose                explain what is being done
      --help     display this help and exit
      --version  output version information and exit
`;

export const mv = command(
  {
    name: 'mv',
    usage: USAGE,
    short: 'finTt:v',
    long: {
      force: ['f', 'none'], interactive: ['i', 'none'], 'no-clobber': ['n', 'none'],
      'target-directory': ['t', 'required'], 'no-target-directory': ['T', 'none'], verbose: ['v', 'none'],
    },
  },
  (c) => {
    for (const [src, dst] of plan(c)) move(c, src, dst);
  },
);

function move(c: Cmd, src: string, dst: string): void {
  const st = tryLstat(c.sys, src);
  if (!st) {
    c.cannot('stat', src, new c.os.SysError(Errno.ENOENT));
    return;
  }
  const d = tryLstat(c.sys, dst);
  if (d && d.ino === st.ino && d.dev === st.dev) {
    c.error(`${quoteaf(src)} and ${quoteaf(dst)} are the same file`);
    return;
  }
  if (d && c.has('n')) return;
  if (isDir(st.mode)) {
    const rs = c.sys.realpath(src);
    const parent = c.sys.realpath(dirName(dst));
    if (parent === rs || parent.startsWith(rs + '/')) {
      c.error(`cannot move ${quoteaf(src)} to a subdirectory of itself, ${quoteaf(dst)}`);
      return;
    }
  }
  if (d && isDir(d.mode) && !isDir(st.mode)) {
    c.error(`cannot overwrite directory ${quoteaf(dst)} with non-directory`);
    return;
  }
  try {
    c.sys.rename(src, dst);
  } catch (e) {
    if (errnoOf(e) !== Errno.EXDEV) {
      c.sysError(`cannot move ${quoteaf(src)} to ${quoteaf(dst)}`, e);
      return;
    }
    // Across filesystems: copy everything, then remove the source tree.
    const o = { recursive: true, noDeref: true, preserveMode: true, preserveTimes: true, preserveOwner: true };
    if (!copy(c, src, dst, { ...o, force: true, noClobber: false, verbose: false, verb: 'mv' })) return;
    removeTree(c, src);
  }
  if (c.has('v')) c.out.write(`renamed ${quoteaf(src)} -> ${quoteaf(dst)}\n`);
}

function removeTree(c: Cmd, p: string): void {
  if (isDir(c.sys.lstat(p).mode)) {
    for (const e of c.sys.readdir(p)) if (e.name !== '.' && e.name !== '..') removeTree(c, joinPath(p, e.name));
    c.sys.rmdir(p);
  } else c.sys.unlink(p);
}

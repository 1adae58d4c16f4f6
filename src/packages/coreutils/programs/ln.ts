// ln [-fnsTv] [-t DIR] TARGET... [LINK_NAME]: make hard or symbolic links.

import { Errno } from '../../../abi/errno.js';
import { isDir } from '../../../abi/stat.js';
import { baseName, command, errnoOf, joinPath, quoteaf, tryLstat, tryStat } from '../../../userland/lib/index.js';

const USAGE = `Usage: ln [OPTION]... [-T] TARGET LINK_NAME
  or:  ln [OPTION]... TARGET
  or:  ln [OPTION]... TARGET... DIRECTORY
  or:  ln [OPTION]... -t DIRECTORY TARGET...
Create hard links by default, symbolic links with --symbolic.

  -f, --force                 remove existing destination files
  -n, --no-dereference        treat LINK_NAME as a normal file if
                                it is a symbolic link to a directory
  -s, --symbolic              make symbolic links instead of hard links
  -t, --target-directory=DIRECTORY  specify the DIRECTORY in which to create
                                the links
  -T, --no-target-directory   treat LINK_NAME as a normal file always
  -v, --verbose               print name of each linked file
      --help     display this help and exit
      --version  output version information and exit
`;

export const ln = command(
  {
    name: 'ln',
    usage: USAGE,
    short: 'fnst:Tv',
    long: {
      force: ['f', 'none'], 'no-dereference': ['n', 'none'], symbolic: ['s', 'none'],
      'target-directory': ['t', 'required'], 'no-target-directory': ['T', 'none'], verbose: ['v', 'none'],
    },
  },
  (c) => {
    const ops = c.operands;
    if (ops.length === 0) c.usage('missing file operand');
    let pairs: [string, string][];
    const t = c.get('t');
    const intoDir = (dir: string, srcs: string[]) => srcs.map((s): [string, string] => [s, joinPath(dir, baseName(s))]);
    if (t !== undefined) pairs = intoDir(t, ops);
    else if (ops.length === 1) pairs = [[ops[0], baseName(ops[0])]];
    else {
      const last = ops[ops.length - 1];
      // -n: a symlink to a directory is a plain destination, not a directory to link into.
      const l = tryLstat(c.sys, last);
      const st = c.has('n') && l && (l.mode & 0o170000) === 0o120000 ? l : tryStat(c.sys, last);
      const dir = !c.has('T') && st && isDir(st.mode);
      if (!dir && ops.length > 2) {
        c.error(`target ${quoteaf(last)} is not a directory`);
        c.exit(1);
      }
      pairs = dir ? intoDir(last, ops.slice(0, -1)) : [[ops[0], last]];
    }
    const kind = c.has('s') ? 'symbolic link' : 'hard link';
    for (const [target, name] of pairs) {
      try {
        if (c.has('f') && tryLstat(c.sys, name)) {
          const d = tryLstat(c.sys, name)!;
          if (isDir(d.mode)) throw new c.os.SysError(Errno.EISDIR);
          c.sys.unlink(name);
        }
        if (c.has('s')) c.sys.symlink(target, name);
        else c.sys.link(target, name);
        if (c.has('v')) c.out.write(`${quoteaf(name)} -> ${quoteaf(target)}\n`);
      } catch (e) {
        if (!c.has('s') && errnoOf(e) === Errno.ENOENT && !tryLstat(c.sys, target)) {
          c.sysError(`failed to access ${quoteaf(target)}`, e);
        } else c.sysError(failure(kind, name, target, errnoOf(e)), e);
      }
    }
  },
);

/** GNU's wording: a hard link names its target too, unless the error is about the destination. */
function failure(kind: string, name: string, target: string, errno: number | undefined): string {
  if (kind === 'symbolic link') return `failed to create symbolic link ${quoteaf(name)}`;
  if (errno === Errno.EMLINK) return `failed to create hard link to ${quoteaf(target)}`;
  if (errno === Errno.EEXIST || errno === Errno.ENOSPC || errno === Errno.EROFS) return `failed to create hard link ${quoteaf(name)}`;
  return `failed to create hard link ${quoteaf(name)} => ${quoteaf(target)}`;
}

// mkdir [-pv] [-m MODE] DIRECTORY...: make directories.

import { Errno } from '../../../abi/errno.js';
import { applyMode, command, errnoOf, quote, quoteaf, tryStat, type Cmd } from '../../../userland/lib/index.js';
import { isDir } from '../../../abi/stat.js';

const USAGE = `Usage: mkdir [OPTION]... DIRECTORY...
Create the DIRECTORY(ies), if they do not already exist.

Mandatory arguments to long options are mandatory for short options too.
  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask
  -p, --parents     no error if existing, make parent directories as needed,
                    with their file modes unaffected by any -m option.
  -v, --verbose     print a message for each created directory
      --help     display this help and exit
      --version  output version information and exit
`;

export const mkdir = command(
  {
    name: 'mkdir',
    usage: USAGE,
    short: 'm:pv',
    long: { mode: ['m', 'required'], parents: ['p', 'none'], verbose: ['v', 'none'] },
  },
  (c) => {
    if (c.operands.length === 0) c.usage('missing operand');
    const umask = c.sys.umask(0);
    c.sys.umask(umask);
    let mode: number | null = null;
    if (c.has('m')) {
      mode = applyMode(c.get('m')!, 0o777, true, umask);
      if (mode === null) c.fail(`invalid mode ${quote(c.get('m')!)}`);
    }
    for (const dir of c.operands) {
      if (c.has('p')) makeParents(c, dir, umask);
      make(c, dir, mode, c.has('p'));
    }
  },
);

function make(c: Cmd, dir: string, mode: number | null, existOk: boolean): boolean {
  try {
    c.sys.mkdir(dir, 0o777);
    // An explicit -m also sets bits the umask would clear (and set-id bits), as GNU does.
    if (mode !== null) c.sys.chmod(dir, mode);
    if (c.has('v')) c.out.write(`mkdir: created directory ${quoteaf(dir)}\n`);
    return true;
  } catch (e) {
    if (existOk && errnoOf(e) === Errno.EEXIST && isDir(tryStat(c.sys, dir)?.mode ?? 0)) return true;
    c.sysError(`cannot create directory ${quote(dir)}`, e);
    return false;
  }
}

/** Create each missing ancestor of DIR with mode u+wx over the umask default. */
function makeParents(c: Cmd, dir: string, umask: number): void {
  const parts = dir.split('/');
  for (let i = 1; i < parts.length; i++) {
    const p = parts.slice(0, i).join('/');
    if (p === '' || parts[i - 1] === '' || parts[i - 1] === '.' || parts[i - 1] === '..') continue;
    if (tryStat(c.sys, p)) continue;
    if (!make(c, p, (0o777 & ~umask) | 0o300, true)) return;
  }
}

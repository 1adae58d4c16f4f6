// cp [-adfinprRPTv] SOURCE... DEST: copy files and directories.

import { command } from '../../../userland/lib/index.js';
import { copy, type CopyOpts } from './copy.js';
import { plan } from './targets.js';

const USAGE = `Usage: cp [OPTION]... [-T] SOURCE DEST
  or:  cp [OPTION]... SOURCE... DIRECTORY
  or:  cp [OPTION]... -t DIRECTORY SOURCE...
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.

  -a, --archive                same as -dR --preserve=all
  -d                           same as --no-dereference --preserve=links
  -f, --force                  if an existing destination file cannot be
                                 opened, remove it and try again
  -i, --interactive            prompt before overwrite
  -n, --no-clobber             do not overwrite an existing file
  -P, --no-dereference         never follow symbolic links in SOURCE
  -p                           same as --preserve=mode,ownership,timestamps
  -R, -r, --recursive          copy directories recursively
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -v, --verbose                explain what is being done
      --help     display this help and exit
      --version  output version information and exit
`;

export const cp = command(
  {
    name: 'cp',
    usage: USAGE,
    short: 'adfinPprRt:Tv',
    long: {
      archive: ['a', 'none'], force: ['f', 'none'], interactive: ['i', 'none'], 'no-clobber': ['n', 'none'],
      'no-dereference': ['P', 'none'], recursive: ['r', 'none'], 'target-directory': ['t', 'required'],
      'no-target-directory': ['T', 'none'], verbose: ['v', 'none'],
    },
  },
  (c) => {
    const h = (k: string) => c.has(k);
    const o: CopyOpts = {
      recursive: h('r') || h('R') || h('a'),
      noDeref: h('a') || h('d') || h('P'),
      preserveMode: h('a') || h('p'),
      preserveTimes: h('a') || h('p'),
      preserveOwner: h('a') || h('p'),
      force: h('f'),
      noClobber: h('n'),
      verbose: h('v'),
      verb: 'cp',
    };
    for (const [src, dst] of plan(c)) copy(c, src, dst, o);
  },
);

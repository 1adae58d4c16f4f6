// readlink [-efmnqsvz] FILE...: print symlink targets or canonical file names.

import { command } from '../../../userland/lib/index.js';
import { canonicalize } from './canon.js';

const USAGE = `Usage: readlink [OPTION]... FILE...
Print value of a symbolic link or canonical file name

  -f, --canonicalize            canonicalize by following every symlink in
                                every component of the given name recursively;
                                all but the last component must exist
  -e, --canonicalize-existing   canonicalize by following every symlink in
                                every component of the given name recursively,
                                all components must exist
  -m, --canonicalize-missing    canonicalize by following every symlink in
                                every component of the given name recursively,
                                without requirements on components existence
  -n, --no-newline              do not output the trailing delimiter
  -q, --quiet
  -s, --silent                  suppress most error messages (on by default)
  -v, --verbose                 report error messages
  -z, --zero                    end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
`;

export const readlink = command(
  {
    name: 'readlink',
    usage: USAGE,
    short: 'efmnqsvz',
    long: {
      canonicalize: ['f', 'none'], 'canonicalize-existing': ['e', 'none'], 'canonicalize-missing': ['m', 'none'],
      'no-newline': ['n', 'none'], quiet: ['q', 'none'], silent: ['s', 'none'], verbose: ['v', 'none'], zero: ['z', 'none'],
    },
  },
  (c) => {
    if (c.operands.length === 0) c.usage('missing operand');
    const mode = c.has('e') ? 'e' : c.has('m') ? 'm' : c.has('f') ? 'f' : null;
    const end = c.has('z') ? '\0' : c.has('n') && c.operands.length === 1 ? '' : '\n';
    let status = 0;
    for (const f of c.operands) {
      try {
        const r = mode ? canonicalize(c.sys, f, mode) : c.sys.readlink(f);
        c.out.write(r + end);
      } catch (e) {
        if (c.has('v')) c.sysError(f, e);
        status = 1;
      }
    }
    return status;
  },
);

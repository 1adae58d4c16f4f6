// mktemp [OPTION]... [TEMPLATE]: create a unique temporary file or directory and print its name.

import { O_CREAT, O_EXCL, O_RDWR } from '../../../abi/fcntl.js';
import { command, quote } from '../../../userland/lib/index.js';

const USAGE = `Usage: mktemp [OPTION]... [TEMPLATE]
Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx, minus umask restrictions.

  -d, --directory     create a directory, not a file
  -u, --dry-run       do not create anything; merely print a name (unsafe)
  -q, --quiet         suppress diagnostics about file/dir-creation failure
      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.
                        This option is implied if TEMPLATE does not end in X
  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR; if DIR is not
                        specified, use $TMPDIR if set, else /tmp.  With
                        this option, TEMPLATE must not be an absolute name;
                        unlike with -t, TEMPLATE may contain slashes, but
                        mktemp creates only the final component
  -t                  interpret TEMPLATE as a single file name component,
                        relative to a directory: $TMPDIR, if set; else the
                        directory specified via -p; else /tmp [deprecated]
      --help     display this help and exit
      --version  output version information and exit
`;

const CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export const mktemp = command(
  {
    name: 'mktemp',
    usage: USAGE,
    short: 'dup:qt',
    long: { directory: ['d', 'none'], 'dry-run': ['u', 'none'], quiet: ['q', 'none'], suffix: ['S', 'required'], tmpdir: ['p', 'optional'] },
  },
  (c) => {
    if (c.operands.length > 1) c.usage(`too many templates`);
    const given = c.operands[0];
    let template = given ?? 'tmp.XXXXXXXXXX';
    let suffix = c.get('S') ?? '';
    if (suffix.includes('/')) c.fail(`invalid suffix ${quote(suffix)}, contains directory separator`);
    if (c.has('S') && !/X$/.test(template)) c.fail(`with --suffix, template ${quote(template)} must end in X`);
    if (!c.has('S')) {
      const m = /X*$/.exec(template.slice(template.lastIndexOf('/') + 1))!;
      const tail = template.slice(template.lastIndexOf('/') + 1);
      const lastX = tail.lastIndexOf('X');
      if (m[0].length === 0 && lastX >= 0) {
        suffix = tail.slice(lastX + 1);
        template = template.slice(0, template.length - suffix.length);
      }
    }
    const xs = /X*$/.exec(template)![0].length;
    if (xs < 3) c.fail(`too few X's in template ${quote(template + suffix)}`);
    const useDir = c.has('p') || c.has('t') || given === undefined;
    if (useDir) {
      if (template.startsWith('/') && given !== undefined) c.fail(`invalid template, ${quote(given)}; with --tmpdir, it may not be absolute`);
      const dir = c.get('p') || c.os.env.TMPDIR || '/tmp';
      template = `${dir.replace(/\/+$/, '')}/${template}`;
    }
    const base = template.slice(0, template.length - xs);
    for (let attempt = 0; attempt < 100; attempt++) {
      let r = '';
      for (let i = 0; i < xs; i++) r += CHARS[Math.floor(Math.random() * CHARS.length)];
      const path = base + r + suffix;
      try {
        if (c.has('u')) c.sys.lstat(path);
        else if (c.has('d')) c.sys.mkdir(path, 0o700);
        else c.sys.close(c.sys.open(path, O_RDWR | O_CREAT | O_EXCL, 0o600));
        if (c.has('u')) continue;
      } catch (e) {
        const errno = (e as { errno?: number }).errno;
        if (errno === 17) continue;
        if (!c.has('u') || errno !== 2) {
          if (c.has('q')) return 1;
          c.sysError(`failed to create ${c.has('d') ? 'directory' : 'file'} via template ${quote(template + suffix)}`, e);
          return 1;
        }
      }
      c.out.write(`${path}\n`);
      return 0;
    }
    return c.fail(`failed to create file via template ${quote(template + suffix)}: File exists`);
  },
);

// tar [OPTION...] [FILE]...   An archiving utility (GNU tar 1.34 is the reference).
// Creates (-c), appends to (-r, -u), lists (-t) and extracts (-x) ustar/GNU/pax
// archives, gzip-compressed with -z (or detected when reading a file).
// Diagnostics and exit statuses are GNU's: 2 after errors, with
// "Exiting with failure status due to previous errors".

import { strerror } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { Exit } from '../../../userland/lib/cmd.js';
import { WriteError } from '../../../userland/lib/writer.js';
import { Tar } from './context.js';
import { append, create, extract, list } from './modes.js';
import { parseOptions, TarUsage } from './options.js';
import { quoteColon, setLocale } from './quote.js';

const USAGE = `Usage: tar [OPTION...] [FILE]...
GNU 'tar' saves many files together into a single tape or disk archive, and can
restore individual files from the archive.

Examples:
  tar -cf archive.tar foo bar  # Create archive.tar from files foo and bar.
  tar -tvf archive.tar         # List all files in archive.tar verbosely.
  tar -xf archive.tar          # Extract all files from archive.tar.

 Main operation mode:
  -c, --create               create a new archive
  -r, --append               append files to the end of an archive
  -t, --list                 list the contents of an archive
  -u, --update               only append files newer than copy in archive
  -x, --extract, --get       extract files from an archive

 Local file name selection:
  -C, --directory=DIR        change to directory DIR
      --exclude=PATTERN      exclude files, given as a PATTERN
      --no-null              disable the effect of the previous --null option
      --null                 -T reads null-terminated names
      --strip-components=NUMBER   strip NUMBER leading components from file
                             names on extraction
  -T, --files-from=FILE      get names to extract or create from FILE
  -X, --exclude-from=FILE    exclude patterns listed in FILE
      --no-wildcards         verbatim string matching
      --wildcards            use wildcards (default for exclusion)

 Overwrite control:
  -k, --keep-old-files       don't replace existing files when extracting,
                             treat them as errors
      --overwrite            overwrite existing files when extracting
      --remove-files         remove files after adding them to the archive
      --skip-old-files       don't replace existing files when extracting,
                             silently skip over them

 Select output stream:
  -O, --to-stdout            extract files to standard output

 Handling of file attributes:
      --group=NAME           force NAME as group for added files
  -m, --touch                don't extract file modified time
      --no-same-owner        extract files as yourself (default for ordinary
                             users)
      --no-same-permissions  apply the user's umask when extracting permissions
                             from the archive (default for ordinary users)
      --numeric-owner        always use numbers for user/group names
      --owner=NAME           force NAME as owner for added files
  -p, --preserve-permissions, --same-permissions
                             extract information about file permissions
                             (default for superuser)
      --same-owner           try extracting files with the same ownership as
                             exists in the archive (default for superuser)
      --sort=ORDER           directory sorting order: none (default) or name

 Device selection and switching:
  -f, --file=ARCHIVE         use archive file or device ARCHIVE

 Device blocking:
  -b, --blocking-factor=BLOCKS   BLOCKS x 512 bytes per record
  -i, --ignore-zeros         ignore zeroed blocks in archive (means EOF)

 Archive format selection:
  -H, --format=FORMAT        create archive of the given format

 FORMAT is one of the following:
    gnu                      GNU tar 1.13.x format
    oldgnu                   GNU format as per tar <= 1.12
    pax                      POSIX 1003.1-2001 (pax) format
    posix                    same as pax
    ustar                    POSIX 1003.1-1988 (ustar) format
    v7                       old V7 tar format

 Compression options:
  -a, --auto-compress        use archive suffix to determine the compression
                             program
  -z, --gzip, --gunzip, --ungzip   filter the archive through gzip

 Local file selection:
  -h, --dereference          follow symlinks; archive and dump the files they
                             point to
  -P, --absolute-names       don't strip leading '/'s from file names

 Informative output:
      --full-time            print file time to its full resolution
      --totals               print total bytes after processing the archive
  -v, --verbose              verbosely list files processed

 Other options:
  -?, --help                 give this help list
      --usage                give a short usage message
      --version              print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.

This tar runs in agentOS; gzip is built in (fflate). bzip2, xz, zstd and
compress are not available.
`;

const SHORT_USAGE = `Usage: tar [-crtuxzavpkOmhPi] [-C DIR] [-T FILE] [-X FILE] [-f ARCHIVE]
            [-b BLOCKS] [-H FORMAT] [--create] [--append] [--list] [--update]
            [--extract] [--get] [--directory=DIR] [--exclude=PATTERN]
            [--files-from=FILE] [--exclude-from=FILE] [--strip-components=NUMBER]
            [--keep-old-files] [--skip-old-files] [--overwrite] [--to-stdout]
            [--gzip] [--auto-compress] [--verbose] [--file=ARCHIVE] [--help]
            [--usage] [--version] [FILE]...
`;

const VERSION = `tar (agentOS) 0.1.0, compatible with GNU tar 1.34
gzip compression by fflate.
`;

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  setLocale(os.env);
  const t = new Tar(os);
  let fatal = false;
  try {
    const o = parseOptions(os.argv.slice(1), os.env);
    if (o === 'help' || o === 'usage' || o === 'version') {
      t.out.write(o === 'help' ? USAGE : o === 'usage' ? SHORT_USAGE : VERSION);
    } else {
      t.opts = o;
      if (o.mode === 'c') create(t);
      else if (o.mode === 'x') extract(t);
      else if (o.mode === 't') list(t);
      else append(t, o.mode === 'u');
    }
    t.flush();
  } catch (e) {
    if (e instanceof TarUsage) {
      t.say(e.message);
      if (e.tryLine) os.eprint("Try 'tar --help' or 'tar --usage' for more information.\n");
      return e.status;
    }
    if (e instanceof WriteError) {
      const name = t.opts?.archive === '-' || !t.opts ? 'stdout' : quoteColon(t.opts.archive);
      try {
        t.say(`${name}: Cannot write: ${strerror(e.errno)}`);
        t.say('Error is not recoverable: exiting now');
      } catch {
        // stderr is gone as well
      }
      return 2;
    }
    if (!(e instanceof Exit)) throw e;
    fatal = true;
    t.status = e.status;
  }
  if (!fatal && t.status === 2) t.say('Exiting with failure status due to previous errors');
  return t.status;
}

// gzip [OPTION]... [FILE]...   Compress or uncompress FILEs (GNU gzip 1.12).
// One program for gzip, gunzip (gzip -d) and zcat (gzip -dc), chosen by
// basename(argv[0]). Diagnostics say "gzip:" whichever name ran, as GNU's
// gunzip and zcat scripts exec gzip.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { parseArgs, UsageError, type OptSpec } from '../../../userland/lib/args.js';
import { baseName } from '../../../userland/lib/fs.js';
import { Gz, type GzOptions } from './context.js';
import { listTotals } from './list.js';
import { treatFile, treatStdin } from './treat.js';

const OPTIONS = `Mandatory arguments to long options are mandatory for short options too.

  -c, --stdout      write on standard output, keep original files unchanged
  -d, --decompress  decompress
  -f, --force       force overwrite of output file and compress links
  -h, --help        give this help
  -k, --keep        keep (don't delete) input files
  -l, --list        list compressed file contents
  -L, --license     display software license
  -n, --no-name     do not save or restore the original name and timestamp
  -N, --name        save or restore the original name and timestamp
  -q, --quiet       suppress all warnings
  -r, --recursive   operate recursively on directories
      --rsyncable   make rsync-friendly archive
  -S, --suffix=SUF  use suffix SUF on compressed files
      --synchronous synchronous output (safer if system crashes, but slower)
  -t, --test        test compressed file integrity
  -v, --verbose     verbose mode
  -V, --version     display version number
  -1, --fast        compress faster
  -9, --best        compress better

With no FILE, or when FILE is -, read standard input.

Report bugs to <bug-gzip@gnu.org>.
`;

const USAGE: Record<string, string> = {
  gzip: `Usage: gzip [OPTION]... [FILE]...\nCompress or uncompress FILEs (by default, compress FILES in-place).\n\n${OPTIONS}`,
  gunzip: `Usage: gunzip [OPTION]... [FILE]...\nUncompress FILEs (by default, in-place).\n\n${OPTIONS}`,
  zcat: `Usage: zcat [OPTION]... [FILE]...\nUncompress FILEs to standard output.\n\n${OPTIONS}`,
};

const VERSION = `gzip 1.12 (agentOS)
Compression by fflate; this program follows GNU gzip's behaviour.
`;

const LICENSE = `gzip 1.12 (agentOS)
This is free software.  You may redistribute copies of it under the terms of
the GNU General Public License <https://www.gnu.org/licenses/gpl.html>.
There is NO WARRANTY, to the extent permitted by law.
`;

const SPEC: OptSpec = {
  short: 'acdfhklLnNqrS:tvV123456789',
  long: {
    ascii: ['a', 'none'],
    stdout: ['c', 'none'],
    'to-stdout': ['c', 'none'],
    decompress: ['d', 'none'],
    uncompress: ['d', 'none'],
    force: ['f', 'none'],
    help: ['h', 'none'],
    keep: ['k', 'none'],
    list: ['l', 'none'],
    license: ['L', 'none'],
    'no-name': ['n', 'none'],
    name: ['N', 'none'],
    quiet: ['q', 'none'],
    silent: ['q', 'none'],
    recursive: ['r', 'none'],
    rsyncable: ['rsyncable', 'none'],
    suffix: ['S', 'required'],
    synchronous: ['synchronous', 'none'],
    test: ['t', 'none'],
    verbose: ['v', 'none'],
    version: ['V', 'none'],
    fast: ['1', 'none'],
    best: ['9', 'none'],
  },
};

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const prog = baseName(os.argv[0] ?? 'gzip');
  const g = new Gz(os);
  let parsed;
  try {
    parsed = parseArgs(os.argv.slice(1), SPEC, 'POSIXLY_CORRECT' in os.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    os.eprint(`gzip: ${e.message}\nTry \`gzip --help' for more information.\n`);
    return 1;
  }
  const o: GzOptions = {
    decompress: prog === 'gunzip' || prog === 'zcat',
    stdout: prog === 'zcat',
    force: false, keep: false, list: false, test: false, recursive: false,
    quiet: false, verbose: 0, level: 6, suffix: '.gz', noName: null,
  };
  for (const [k, v] of parsed.list) {
    switch (k) {
      case 'c': o.stdout = true; break;
      case 'd': o.decompress = true; break;
      case 'f': o.force = true; break;
      case 'k': o.keep = true; break;
      case 'l': o.list = o.decompress = o.stdout = true; break;
      case 'n': o.noName = true; break;
      case 'N': o.noName = false; break;
      case 'q': o.quiet = true; o.verbose = 0; break;
      case 'r': o.recursive = true; break;
      case 'S': o.suffix = v!; break;
      case 't': o.test = o.decompress = o.stdout = true; break;
      case 'v': o.verbose++; o.quiet = false; break;
      case 'h': g.out.write(USAGE[prog] ?? USAGE.gzip); return g.finish();
      case 'V': g.out.write(VERSION); return g.finish();
      case 'L': g.out.write(LICENSE); return g.finish();
      default: if (/^[1-9]$/.test(k)) o.level = Number(k);
    }
  }
  if (o.suffix === '' && !o.decompress) {
    os.eprint(`gzip: invalid suffix ''\n`);
    return 1;
  }
  if (o.suffix.length > 30) {
    os.eprint(`gzip: suffix too long\n`);
    return 1;
  }
  g.opts = o;
  const files = parsed.operands.length ? parsed.operands : ['-'];
  for (const f of files) {
    if (f === '-') treatStdin(g);
    else treatFile(g, f);
  }
  if (o.list && !o.quiet && files.length > 1) listTotals(g);
  return g.finish();
}

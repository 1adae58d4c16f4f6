// python3's command line, as CPython parses it: options up to the first of
// -c CMD, -m MOD, a script path or `-`; everything after belongs to the program.

export const USAGE = `usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...
Options (and corresponding environment variables):
-c cmd : program passed in as string (terminates option list)
-i     : inspect interactively after running script
-m mod : run library module as a script (terminates option list)
-q     : don't print version and copyright messages on interactive startup
-u     : force the stdout and stderr streams to be unbuffered
-V     : print the Python version number and exit (also --version)
-h     : print this help message and exit (also -? or --help)
file   : program read from script file
-      : program read from stdin (default; interactive mode if a tty)
arg ...: arguments passed to program in sys.argv[1:]
-B     : don't write .pyc files on import; also PYTHONDONTWRITEBYTECODE=x
Accepted and ignored: -b -d -E -I -O -OO -P -s -S -v -x -W arg -X opt
`;

export interface PyArgs {
  mode: 'c' | 'm' | 'file' | 'stdin' | 'repl';
  /** The command, module or file. */
  target: string;
  /** sys.argv as the program starts with it. */
  argv: string[];
  inspect: boolean;
  quiet: boolean;
  unbuffered: boolean;
  /** -B: no bytecode caches written on import. */
  noBytecode: boolean;
  /** -V/--version or -h/--help: answered without running anything. */
  info?: 'version' | 'help';
}

export class UsageError extends Error {}

const IGNORED = new Set('bdEIOPsSvx');

/** Parse `args` (argv without argv[0]); `stdinIsTty` picks the REPL when there is no program. */
export function parseArgs(args: string[], stdinIsTty: boolean): PyArgs {
  const o: PyArgs = { mode: 'stdin', target: '', argv: [''], inspect: false, quiet: false, unbuffered: false, noBytecode: false };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (a === '--version') return { ...o, info: 'version' };
    if (a === '--help') return { ...o, info: 'help' };
    if (!a.startsWith('-') || a === '-') break;
    if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      if (c === 'c' || c === 'm') {
        const value = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (value === undefined) throw new UsageError(`Argument expected for the -${c} option`);
        const rest = args.slice(i + 1);
        return c === 'c'
          ? { ...o, mode: 'c', target: value, argv: ['-c', ...rest] }
          : { ...o, mode: 'm', target: value, argv: ['-m', ...rest] };
      }
      if (c === 'W' || c === 'X') {
        if (j + 1 === a.length && args[++i] === undefined) throw new UsageError(`Argument expected for the -${c} option`);
        break;
      }
      if (c === 'i') o.inspect = true;
      else if (c === 'q') o.quiet = true;
      else if (c === 'u') o.unbuffered = true;
      else if (c === 'B') o.noBytecode = true;
      else if (c === 'V') return { ...o, info: 'version' };
      else if (c === 'h' || c === '?') return { ...o, info: 'help' };
      else if (!IGNORED.has(c)) throw new UsageError(`Unknown option: -${c}`);
    }
  }
  const rest = args.slice(i);
  if (rest.length === 0) return { ...o, mode: stdinIsTty || o.inspect ? 'repl' : 'stdin', argv: [''] };
  if (rest[0] === '-') return { ...o, mode: 'stdin', argv: ['-', ...rest.slice(1)] };
  return { ...o, mode: 'file', target: rest[0], argv: rest };
}

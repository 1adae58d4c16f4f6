// jq's command line, parsed the way jq's main.c does it (not getopt): the
// first non-option is the filter, short options combine (-nr), long options
// match exactly, `--args`/`--jsonargs` turn later operands into $ARGS.

import { parseJsonText, ParseError } from '../engine/json-parse.js';
import type { Json } from '../engine/value.js';

export const USAGE_HEAD = `Usage:\tjq [OPTIONS] FILTER [FILES...]
\tjq [OPTIONS] --args FILTER [ARGUMENTS...]
\tjq [OPTIONS] --jsonargs FILTER [JSON_VALUES...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output.

The simplest filter is ., which copies jq's input to its output
unmodified except for formatting. For more advanced filters see
the jq(1) manpage ("man jq") and/or https://jqlang.github.io/jq/.

Example:

\t$ echo '{"foo": 0}' | jq .
\t{
\t  "foo": 0
\t}

`;

export const SHORT_USAGE = USAGE_HEAD + 'For listing the command options, use jq --help.\n';

export const USAGE =
  USAGE_HEAD +
  `Command options:
  -n, --null-input          use \`null\` as the single input value;
  -R, --raw-input           read each line as string instead of JSON;
  -s, --slurp               read all inputs into an array and use it as
                            the single input value;
  -c, --compact-output      compact instead of pretty-printed output;
  -r, --raw-output          output strings without escapes and quotes;
      --raw-output0         implies -r and output NUL after each output;
  -j, --join-output         implies -r and output without newline after
                            each output;
  -a, --ascii-output        output strings by only ASCII characters
                            using escape sequences;
  -S, --sort-keys           sort keys of each object on output;
  -C, --color-output        colorize JSON output;
  -M, --monochrome-output   disable colored output;
      --tab                 use tabs for indentation;
      --indent n            use n spaces for indentation (max 7 spaces);
      --unbuffered          flush output stream after each output;
      --stream              parse the input value in streaming fashion;
      --stream-errors       implies --stream and report parse error as
                            an array;
      --seq                 parse input/output as application/json-seq;
  -f, --from-file file      load filter from the file;
  -L directory              search modules from the directory;
      --arg name value      set $name to the string value;
      --argjson name value  set $name to the JSON value;
      --slurpfile name file set $name to an array of JSON values read
                            from the file;
      --rawfile name file   set $name to string contents of file;
      --args                consume remaining arguments as positional
                            string values;
      --jsonargs            consume remaining arguments as positional
                            JSON values;
  -e, --exit-status         set exit status code based on the output;
  -V, --version             show the version;
  --build-configuration     show jq's build configuration;
  -h, --help                show the help;
  --                        terminates argument processing;

Named arguments are also available as $ARGS.named[], while
positional arguments are available as $ARGS.positional[].
`;

const DIE = 'Use jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n';

export interface NamedArg {
  kind: 'arg' | 'argjson' | 'slurpfile' | 'rawfile';
  name: string;
  value: string;
  json?: Json;
}

export interface JqOptions {
  program: string | null;
  files: string[];
  positional: Json[];
  named: NamedArg[];
  nullInput: boolean;
  rawInput: boolean;
  slurp: boolean;
  rawOutput: boolean;
  rawOutput0: boolean;
  joinOutput: boolean;
  ascii: boolean;
  sortKeys: boolean;
  color: boolean;
  /** -C given: colour even when NO_COLOR is set. */
  colorForced: boolean;
  tab: boolean;
  indent: number;
  unbuffered: boolean;
  stream: boolean;
  seq: boolean;
  fromFile: boolean;
  exitStatus: boolean;
  libraryPaths: string[];
  help: boolean;
  version: boolean;
  buildConfiguration: boolean;
}

/** Ends option parsing with output and a status (usage errors, --help). */
export class UsageExit {
  constructor(
    readonly status: number,
    readonly stderr: string,
    readonly stdout = '',
  ) {}
}

const die = (msg: string): never => {
  throw new UsageExit(2, msg + DIE);
};

/** jq's isoptish: `-x...` with a letter, or `--...`. */
const optish = (a: string): boolean => a[0] === '-' && (a[1] === '-' || /[A-Za-z]/.test(a[1] ?? ''));

export function parseArgv(argv: string[], isatty: (fd: number) => boolean): JqOptions {
  const o: JqOptions = {
    program: null, files: [], positional: [], named: [], nullInput: false, rawInput: false, slurp: false,
    rawOutput: false, rawOutput0: false, joinOutput: false, ascii: false, sortKeys: false, color: false, colorForced: false,
    tab: false, indent: 2, unbuffered: false, stream: false, seq: false, fromFile: false, exitStatus: false,
    libraryPaths: [], help: false, version: false, buildConfiguration: false,
  };
  let colorFlag: boolean | null = null;
  let argsMode: 'files' | 'strings' | 'json' = 'files';
  let done = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (done || !optish(a)) {
      if (o.program === null) o.program = a;
      else if (argsMode === 'strings') o.positional.push(a);
      else if (argsMode === 'json') {
        try {
          o.positional.push(parseJsonText(a));
        } catch (e) {
          if (!(e instanceof ParseError)) throw e;
          die('jq: invalid JSON text passed to --jsonargs\n');
        }
      } else o.files.push(a);
      continue;
    }
    if (a === '--') {
      done = true;
      continue;
    }
    const long = a.startsWith('--') ? a.slice(2) : null;
    const shorts = long === null ? a.slice(1) : '';
    const take = (n: number, what: string): string[] => {
      if (i + n >= argv.length) die(`jq: --${what} takes ${n === 1 ? 'one parameter' : 'two parameters'} (e.g. --${what} ${n === 1 ? '' : 'varname '}${what.endsWith('file') ? 'filename' : what === 'argjson' ? 'text' : 'value'})\n`);
      const r = argv.slice(i + 1, i + 1 + n);
      i += n;
      return r;
    };
    if (long !== null) {
      switch (long) {
        case 'slurp': o.slurp = true; break;
        case 'raw-output': o.rawOutput = true; break;
        case 'raw-output0': o.rawOutput = o.joinOutput = o.rawOutput0 = true; break;
        case 'join-output': o.rawOutput = o.joinOutput = true; break;
        case 'compact-output': o.indent = 0; o.tab = false; break;
        case 'color-output': colorFlag = true; break;
        case 'monochrome-output': colorFlag = false; break;
        case 'ascii-output': o.ascii = true; break;
        case 'unbuffered': o.unbuffered = true; break;
        case 'sort-keys': o.sortKeys = true; break;
        case 'raw-input': o.rawInput = true; break;
        case 'null-input': o.nullInput = true; break;
        case 'from-file': o.fromFile = true; break;
        case 'tab': o.tab = true; o.indent = 1; break;
        case 'indent': {
          if (i + 1 >= argv.length) die('jq: --indent takes one parameter\n');
          const n = parseInt(argv[++i], 10) || 0;
          if (n < -1 || n > 7) die('jq: --indent takes a number between -1 and 7\n');
          o.tab = false;
          o.indent = n;
          break;
        }
        case 'seq': o.seq = true; break;
        case 'stream': o.stream = true; break;
        case 'stream-errors': o.stream = true; break;
        case 'exit-status': o.exitStatus = true; break;
        case 'args': argsMode = 'strings'; break;
        case 'jsonargs': argsMode = 'json'; break;
        case 'arg': {
          const [name, value] = take(2, 'arg');
          o.named.push({ kind: 'arg', name, value });
          break;
        }
        case 'argjson': {
          const [name, value] = take(2, 'argjson');
          let json: Json = null;
          try {
            json = parseJsonText(value);
          } catch (e) {
            if (!(e instanceof ParseError)) throw e;
            die('jq: invalid JSON text passed to --argjson\n');
          }
          o.named.push({ kind: 'argjson', name, value, json });
          break;
        }
        case 'slurpfile':
        case 'rawfile': {
          const [name, value] = take(2, long);
          o.named.push({ kind: long, name, value });
          break;
        }
        case 'library-path': {
          if (i + 1 >= argv.length) die('-L takes a parameter: (e.g. -L /search/path or -L/search/path)\n');
          o.libraryPaths.push(argv[++i]);
          break;
        }
        case 'help': o.help = true; return o;
        case 'version': o.version = true; return o;
        case 'build-configuration': o.buildConfiguration = true; return o;
        default: die(`jq: Unknown option --${long}\n`);
      }
      continue;
    }
    for (let j = 0; j < shorts.length; j++) {
      const c = shorts[j];
      switch (c) {
        case 's': o.slurp = true; break;
        case 'r': o.rawOutput = true; break;
        case 'j': o.rawOutput = o.joinOutput = true; break;
        case 'c': o.indent = 0; o.tab = false; break;
        case 'C': colorFlag = true; break;
        case 'M': colorFlag = false; break;
        case 'a': o.ascii = true; break;
        case 'S': o.sortKeys = true; break;
        case 'R': o.rawInput = true; break;
        case 'n': o.nullInput = true; break;
        case 'f': o.fromFile = true; break;
        case 'e': o.exitStatus = true; break;
        case 'h': o.help = true; return o;
        case 'V': o.version = true; return o;
        case 'L': {
          const rest = shorts.slice(j + 1);
          if (rest) o.libraryPaths.push(rest);
          else if (i + 1 >= argv.length) die('-L takes a parameter: (e.g. -L /search/path or -L/search/path)\n');
          else o.libraryPaths.push(argv[++i]);
          j = shorts.length;
          break;
        }
        default: die(`jq: Unknown option -${c}\n`);
      }
    }
  }
  o.color = colorFlag ?? isatty(1);
  o.colorForced = colorFlag === true;
  if (o.program === null && !o.fromFile && !(isatty(0) && isatty(1))) o.program = '.';
  return o;
}

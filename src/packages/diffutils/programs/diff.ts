// diff [OPTION]... FILES: compare files line by line (GNU diffutils 3.8 is
// the specification: its edit scripts, formats, messages and statuses).

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, type Cmd } from '../../../userland/lib/index.js';
import { encode as utf8Bytes } from '../../../userland/lib/utf8.js';
import { RegexError, translate } from '../../../userland/lib/regex/regex.js';
import { WS_ALL, WS_NONE, WS_SPACE_CHANGE, WS_TAB_EXPANSION, WS_TRAILING } from './analyze.js';
import { Differ, type DiffOptions, type Format } from './compare.js';
import { optionWords } from './switches.js';

const USAGE = `Usage: diff [OPTION]... FILES
Compare FILES line by line.

Mandatory arguments to long options are mandatory for short options too.
      --normal                  output a normal diff (the default)
  -q, --brief                   report only when files differ
  -s, --report-identical-files  report when two files are the same
  -c, -C NUM, --context[=NUM]   output NUM (default 3) lines of copied context
  -u, -U NUM, --unified[=NUM]   output NUM (default 3) lines of unified context
  -e, --ed                      output an ed script
  -n, --rcs                     output an RCS format diff

  -p, --show-c-function         show which C function each change is in
  -F, --show-function-line=RE   show the most recent line matching RE
      --label LABEL             use LABEL instead of file name and timestamp
                                  (can be repeated)

  -t, --expand-tabs             expand tabs to spaces in output
  -T, --initial-tab             make tabs line up by prepending a tab
      --tabsize=NUM             tab stops every NUM (default 8) print columns
      --suppress-blank-empty    suppress space or tab before empty output lines

  -r, --recursive                 recursively compare any subdirectories found
      --no-dereference            don't follow symbolic links
  -N, --new-file                  treat absent files as empty
      --unidirectional-new-file   treat absent first files as empty
  -x, --exclude=PAT               exclude files that match PAT
  -X, --exclude-from=FILE         exclude files that match any pattern in FILE
  -S, --starting-file=FILE        start with FILE when comparing directories
      --from-file=FILE1           compare FILE1 to all operands;
                                    FILE1 can be a directory
      --to-file=FILE2             compare all operands to FILE2;
                                    FILE2 can be a directory

  -i, --ignore-case               ignore case differences in file contents
  -E, --ignore-tab-expansion      ignore changes due to tab expansion
  -Z, --ignore-trailing-space     ignore white space at line end
  -b, --ignore-space-change       ignore changes in the amount of white space
  -w, --ignore-all-space          ignore all white space
  -B, --ignore-blank-lines        ignore changes where lines are all blank
  -I, --ignore-matching-lines=RE  ignore changes where all lines match RE

  -a, --text                      treat all files as text
      --strip-trailing-cr         strip trailing carriage return on input

  -d, --minimal            try hard to find a smaller set of changes
      --horizon-lines=NUM  keep NUM lines of the common prefix and suffix
      --speed-large-files  assume large files and many scattered small changes

      --help               display this help and exit
  -v, --version            output version information and exit

FILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE' or 'FILE DIR'.
If --from-file or --to-file is given, there are no restrictions on FILE(s).
If a FILE is '-', read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
`;

const SHORT = 'abBcC:deEF:HiI:L:nNpqrsS:tTuU:vwx:X:Z';
const LONG: Record<string, [string, 'none' | 'required' | 'optional']> = {
  normal: ['normal', 'none'], brief: ['q', 'none'], 'report-identical-files': ['s', 'none'],
  context: ['C', 'optional'], unified: ['U', 'optional'], ed: ['e', 'none'], rcs: ['n', 'none'],
  'show-c-function': ['p', 'none'], 'show-function-line': ['F', 'required'], label: ['L', 'required'],
  'expand-tabs': ['t', 'none'], 'initial-tab': ['T', 'none'], tabsize: ['tabsize', 'required'],
  'suppress-blank-empty': ['suppress-blank-empty', 'none'], recursive: ['r', 'none'],
  'no-dereference': ['no-dereference', 'none'], 'new-file': ['N', 'none'],
  'unidirectional-new-file': ['unidirectional-new-file', 'none'], exclude: ['x', 'required'],
  'exclude-from': ['X', 'required'], 'starting-file': ['S', 'required'], 'from-file': ['from-file', 'required'],
  'to-file': ['to-file', 'required'], 'ignore-case': ['i', 'none'], 'ignore-tab-expansion': ['E', 'none'],
  'ignore-trailing-space': ['Z', 'none'], 'ignore-space-change': ['b', 'none'], 'ignore-all-space': ['w', 'none'],
  'ignore-blank-lines': ['B', 'none'], 'ignore-matching-lines': ['I', 'required'], text: ['a', 'none'],
  'strip-trailing-cr': ['strip-trailing-cr', 'none'], minimal: ['d', 'none'], 'horizon-lines': ['horizon-lines', 'required'],
  'speed-large-files': ['H', 'none'],
};

export default function main(os: AgentosApi): void {
  os.exit(diff(os, os.argv.slice(1)));
}

const diff = command({ name: 'diff', usage: USAGE, failStatus: 2, prefixTry: true, short: SHORT, long: LONG }, (c) => {
  if (c.has('v')) {
    c.out.write('diff (agentOS diffutils) 3.8\n');
    return 0;
  }
  const o = options(c);
  const d = new Differ(c, o);
  const from = c.get('from-file');
  const to = c.get('to-file');
  if (from !== undefined && to !== undefined) return c.fail('--from-file and --to-file both specified');
  let status = 0;
  if (from !== undefined) for (const f of c.operands) status = Math.max(status, d.compare(null, from, f));
  else if (to !== undefined) for (const f of c.operands) status = Math.max(status, d.compare(null, f, to));
  else {
    if (c.operands.length < 2) {
      // GNU names the last argument of the command line (the program's name when there is none).
      const last = c.os.argv.length > 1 ? c.os.argv[c.os.argv.length - 1] : 'diff';
      c.usage(`missing operand after '${last}'`);
    }
    if (c.operands.length > 2) c.usage(`extra operand '${c.operands[2]}'`);
    status = d.compare(null, c.operands[0], c.operands[1]);
  }
  return Math.max(status, c.status);
});

function options(c: Cmd): DiffOptions {
  let format: Format | undefined;
  const style = (f: Format) => {
    if (format !== undefined && format !== f) c.usage('conflicting output style options');
    format = f;
  };
  let context = -1;
  let ocontext = -1;
  let explicit = false;
  let white = WS_NONE;
  const labels: (string | undefined)[] = [];
  const exclude: string[] = [];
  const ignore: string[] = [];
  let fnRe: string | undefined;
  let horizon = 0;
  let tabsize = 8;
  for (const [k, v] of c.all) {
    switch (k) {
      case 'normal': style('normal'); break;
      case 'e': style('ed'); break;
      case 'n': style('rcs'); break;
      case 'c': case 'u':
        style(k === 'c' ? 'context' : 'unified');
        ocontext = Math.max(ocontext, 3);
        break;
      case 'C': case 'U': {
        const n = v === undefined ? 3 : number(v);
        if (n === null) c.usage(`invalid context length '${v}'`);
        style(k === 'C' ? 'context' : 'unified');
        context = Math.max(context, n);
        explicit = true;
        break;
      }
      case 'L':
        if (labels.length >= 2) c.usage('too many file label options');
        labels.push(v);
        break;
      case 'i': break;
      // -E and -Z combine; -b and -w override them (GNU's order of strength).
      case 'E': if (white < WS_SPACE_CHANGE) white |= WS_TAB_EXPANSION; break;
      case 'Z': if (white < WS_SPACE_CHANGE) white |= WS_TRAILING; break;
      case 'b': if (white < WS_SPACE_CHANGE) white = WS_SPACE_CHANGE; break;
      case 'w': white = WS_ALL; break;
      case 'x': exclude.push(v as string); break;
      case 'X': exclude.push(...excludeFrom(c, v as string)); break;
      case 'I': ignore.push(v as string); break;
      case 'F': fnRe = fnRe === undefined ? (v as string) : `${fnRe}\\|${v as string}`; break;
      case 'p': fnRe = fnRe === undefined ? '^[[:alpha:]$_]' : `${fnRe}\\|^[[:alpha:]$_]`; break;
      case 'tabsize': {
        const n = number(v as string);
        if (n === null || n === 0) c.usage(`invalid tabsize '${v}'`);
        tabsize = n;
        break;
      }
      case 'horizon-lines': {
        const n = number(v as string);
        if (n === null) c.usage(`invalid horizon length '${v}'`);
        horizon = n;
        break;
      }
    }
  }
  const fmt: Format = format ?? 'normal';
  if (ocontext >= 0 && (fmt === 'context' || fmt === 'unified') && (context < ocontext || (ocontext < context && !explicit))) context = ocontext;
  context = Math.max(context, 0);
  return {
    format: fmt,
    context,
    horizon: Math.max(horizon, fmt === 'context' || fmt === 'unified' ? context : 0),
    ignoreCase: c.has('i'),
    white,
    tabsize,
    minimal: c.has('d'),
    speedLargeFiles: c.has('H'),
    initialTab: c.has('T'),
    expandTabs: c.has('t'),
    suppressBlankEmpty: c.has('suppress-blank-empty'),
    ignoreBlank: c.has('B'),
    ignoreRe: ignore.length ? regex(c, ignore.join('\\|')) : null,
    functionRe: fnRe !== undefined ? regex(c, fnRe) : null,
    brief: c.has('q'),
    reportIdentical: c.has('s'),
    recursive: c.has('r'),
    newFile: c.has('N'),
    unidirectionalNewFile: c.has('unidirectional-new-file'),
    text: c.has('a'),
    stripTrailingCr: c.has('strip-trailing-cr'),
    noDereference: c.has('no-dereference'),
    labels: [labels[0], labels[1]],
    exclude,
    startingFile: c.get('S'),
    switches: optionWords(c.os.argv.slice(1), SHORT, LONG),
  };
}

const number = (s: string): number | null => (/^\d+$/.test(s) ? Number(s) : null);

/** A GNU basic regular expression as a JS RegExp over byte strings. */
function regex(c: Cmd, pattern: string): RegExp {
  try {
    return new RegExp(translate(utf8Bytes(pattern), 'bre').source);
  } catch (e) {
    if (e instanceof RegexError) return c.fail(`${pattern}: ${e.message}`);
    throw e;
  }
}

function excludeFrom(c: Cmd, file: string): string[] {
  try {
    const text = new TextDecoder().decode(file === '-' ? c.sys.readAll(0) : c.sys.readFile(file));
    return text.split('\n').filter((l) => l !== '');
  } catch (e) {
    c.sysError(file, e, 2);
    return c.exit(2);
  }
}

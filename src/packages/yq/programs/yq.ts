// yq [eval|e|eval-all|ea] [flags] EXPRESSION [FILES...]
// A YAML processor in the style of mikefarah yq v4, built on the agentOS jq
// engine (the expression language is jq's, plus yq's env/strenv, tag,
// sort_keys, to_yaml, load, ...). Documents are read with the yaml library;
// results that keep parts of the input are written through the original
// nodes, so comments and styles survive (also with -i). Errors: "Error: ...",
// status 1.

import { SysError, strerror } from '../../../abi/errno.js';
import { isReg } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { parseArgs, UsageError, type OptSpec } from '../../../userland/lib/args.js';
import { Writer } from '../../../userland/lib/writer.js';
import { Document, parseAllDocuments, type Node as YNode } from 'yaml';
import { CompileError, compileErrorText, Halt, JqProgram, type Runtime } from '../../jq/programs/engine/engine.js';
import { parseJsonAll, ParseError } from '../../jq/programs/engine/json-parse.js';
import { Printer, toJson } from '../../jq/programs/engine/json-print.js';
import { JqError, truthy, type JObject, type Json } from '../../jq/programs/engine/value.js';
import { Converter } from './lib/convert.js';
import { rewriteExpression, yqNatives, YQ_PRELUDE } from './lib/functions.js';
import { propsText } from './lib/props.js';

const USAGE = `Usage:
  yq [flags]
  yq [command]

Examples:

# yq tries to auto-detect the file format based off the extension, and defaults to YAML if it's unknown (or piping through STDIN)
# Use the '-p/--input-format' flag to specify a format type.
cat file.xml | yq -p xml

# read the "stuff" node from "myfile.yml"
yq '.stuff' < myfile.yml

# update myfile.yml in place
yq -i '.stuff = "foo"' myfile.yml

# print contents of sample.json as idiomatic YAML
yq -P -oy sample.json

Available Commands:
  eval        (default) Apply the expression to each document in each yaml file in sequence
  eval-all    Loads _all_ yaml documents of _all_ yaml files and runs expression once

Flags:
  -e, --exit-status            set exit status if there are no matches or null or false is returned
  -h, --help                   help for yq
  -I, --indent int             sets indent level for output (default 2)
  -i, --inplace                update the file in place of first file given.
  -p, --input-format string    [auto|a|yaml|y|json|j] parse format for input. (default "auto")
  -M, --no-colors              force print with no colors
  -N, --no-doc                 Don't print document separators (---)
  -0, --nul-output             Use NUL char to separate values.
  -n, --null-input             Don't read input, simply evaluate the expression given.
  -o, --output-format string   [auto|a|yaml|y|json|j|props|p] output format type. (default "auto")
  -P, --prettyPrint            pretty print, shorthand for '... style = ""'
  -r, --unwrapScalar           unwrap scalar, print the value with no quotes, colors or comments. Defaults to true for yaml (default true)
  -V, --version                Print version information and quit
      --expression string      forcibly set the expression argument
      --from-file string       Load expression from specified file.

Use "yq [command] --help" for more information about a command.
`;

const SPEC: OptSpec = {
  short: 'ehI:ip:MN0no:Pr::VCvj',
  long: {
    'exit-status': ['e', 'none'],
    help: ['h', 'none'],
    indent: ['I', 'required'],
    inplace: ['i', 'none'],
    'input-format': ['p', 'required'],
    'no-colors': ['M', 'none'],
    colors: ['C', 'none'],
    'no-doc': ['N', 'none'],
    'nul-output': ['0', 'none'],
    'null-input': ['n', 'none'],
    'output-format': ['o', 'required'],
    prettyPrint: ['P', 'none'],
    unwrapScalar: ['r', 'optional'],
    version: ['V', 'none'],
    verbose: ['v', 'none'],
    tojson: ['j', 'none'],
    expression: ['expression', 'required'],
    'from-file': ['from-file', 'required'],
  },
};

class Fail {
  constructor(readonly message: string) {}
}

type Format = 'yaml' | 'json' | 'props';

const FORMATS: Record<string, Format> = { yaml: 'yaml', y: 'yaml', yml: 'yaml', json: 'json', j: 'json', props: 'props', p: 'props', properties: 'props' };

export default function main(os: AgentosApi): void {
  const out = new Writer(os.sys, 1);
  let status: number;
  try {
    status = run(os, out);
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    status = 1;
    out.flush();
    os.eprint(`Error: ${e.message}\n`);
  }
  out.flush();
  os.exit(status);
}

function run(os: AgentosApi, out: Writer): number {
  const sys = os.sys;
  let args = os.argv.slice(1);
  let all = false;
  if (args[0] === 'eval' || args[0] === 'e') args = args.slice(1);
  else if (args[0] === 'eval-all' || args[0] === 'ea') {
    all = true;
    args = args.slice(1);
  }
  let parsed;
  try {
    parsed = parseArgs(args, SPEC);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    throw new Fail(e.message);
  }
  const opt = new Map<string, string | undefined>();
  for (const [k, v] of parsed.list) opt.set(k, v?.replace(/^=/, ''));
  if (opt.has('h')) {
    out.write(USAGE);
    return 0;
  }
  if (opt.has('V')) {
    out.write('yq (agentOS yq, mikefarah yq v4 compatible) version v4.44.3\n');
    return 0;
  }
  const operands = parsed.operands;
  let expr: string;
  if (opt.has('expression')) expr = opt.get('expression')!;
  else if (opt.has('from-file')) expr = readText(sys, opt.get('from-file')!);
  else if (operands.length && (opt.has('n') || !isFile(sys, operands[0]) || operands.length > 1)) expr = operands.shift()!;
  else expr = '.';
  const files = operands;
  const indent = opt.has('I') ? Number(opt.get('I')) : 2;
  if (!Number.isInteger(indent) || indent < 0) throw new Fail(`invalid argument "${opt.get('I')}" for "-I, --indent" flag`);
  const outFmt = format(opt.has('j') ? 'json' : (opt.get('o') ?? 'auto'), 'output');
  const inFmtFlag = format(opt.get('p') ?? 'auto', 'input');
  const pretty = opt.has('P');
  const unwrap = opt.has('r') ? opt.get('r') !== 'false' : true;
  const noDoc = opt.has('N');
  const nul = opt.has('0');
  const inplace = opt.has('i');
  if (inplace && files.length === 0) throw new Fail('write in place flag only applicable when giving an expression and at least one file');

  const env = os.env;
  let pending: Json[] = [];
  const rt: Runtime = {
    nextInput: () => pending.shift(),
    debug: (v) => os.eprint(`${toJson(['DEBUG:', v])}\n`),
    stderr: (v) => os.eprint(typeof v === 'string' ? v : toJson(v)),
    env: () => new Map(Object.entries(env)) as JObject,
    filename: () => null,
    lineNumber: () => 0,
    builtins: () => [],
    searchList: () => [],
    progOrigin: () => null,
    jqOrigin: () => null,
  };
  // eval-all's `. as $x ireduce (init; update)` folds over every document.
  let text = rewriteExpression(expr);
  const folds = all && /^\s*\.\s+as\s+\$\w+\s+ireduce\s*\(/.test(text);
  if (folds) text = text.replace(/^\s*\.\s+as\s+(\$\w+)\s+ireduce\s*\(/, 'reduce inputs as $1 (');
  let prog: JqProgram;
  try {
    prog = new JqProgram(text, { globals: [], rt, natives: yqNatives(sys, env), prelude: YQ_PRELUDE });
  } catch (e) {
    if (e instanceof CompileError) throw new Fail(compileErrorText(expr, e).replace(/^jq: error: /, '').trimEnd());
    throw e;
  }

  interface Doc {
    value: Json;
    doc: Document | null;
    conv: Converter;
  }
  const docs: { file: string; docs: Doc[] }[] = [];
  if (opt.has('n')) docs.push({ file: '', docs: [{ value: null, doc: null, conv: new Converter() }] });
  else
    for (const file of files.length ? files : ['-']) {
      const text = file === '-' ? new TextDecoder().decode(sys.readAll(0)) : readText(sys, file);
      const fmt = inFmtFlag === 'auto' ? (/\.json$/i.test(file) ? 'json' : 'yaml') : inFmtFlag;
      docs.push({ file, docs: readDocs(text, fmt) });
    }

  let anyTruthy = false;
  let anyOutput = false;
  const results: { value: Json; from: Doc | null }[][] = [];
  const evaluate = (input: Json, from: Doc | null): { value: Json; from: Doc | null }[] => {
    const res: { value: Json; from: Doc | null }[] = [];
    try {
      prog.run(input, (x) => {
        res.push({ value: x, from });
        anyOutput = true;
        if (truthy(x)) anyTruthy = true;
      });
    } catch (e) {
      if (e instanceof JqError) throw new Fail(typeof e.value === 'string' ? e.value : toJson(e.value));
      if (e instanceof Halt) throw new Fail(`halted (${e.status})`);
      throw e;
    }
    return res;
  };
  if (folds) {
    pending = docs.flatMap((f) => f.docs.map((d) => d.value));
    results.push(evaluate(null, null));
  } else for (const f of docs) for (const d of f.docs) results.push(evaluate(d.value, d));

  if (inplace) {
    // The first file gets the results of its own documents.
    const f = docs[0];
    const text = f.docs
      .map((_d, i) => results[i].map((r) => render(r.value, r.from, 'yaml', { indent, pretty, unwrap: false })).join(''))
      .join('---\n');
    sys.writeFile(f.file, text);
    return 0;
  }

  let first = true;
  for (const group of results) {
    for (const r of group) {
      let text = render(r.value, r.from, outFmt === 'auto' ? 'yaml' : outFmt, { indent, pretty, unwrap });
      if (!first && !noDoc && (outFmt === 'auto' || outFmt === 'yaml') && group.indexOf(r) === 0 && results.length > 1 && r.from) text = '---\n' + text;
      if (nul) text = text.replace(/\n$/, '') + '\0';
      out.write(text);
      first = false;
    }
  }
  if (opt.has('e') && (!anyOutput || !anyTruthy)) return 1;
  return 0;
}

function format(name: string, what: string): Format | 'auto' {
  if (name === 'auto' || name === 'a') return 'auto';
  const f = FORMATS[name];
  if (!f) throw new Fail(`unknown ${what} format: ${name}`);
  return f;
}

function isFile(sys: AgentosApi['sys'], name: string): boolean {
  try {
    return isReg(sys.stat(name).mode);
  } catch {
    return false;
  }
}

function readText(sys: AgentosApi['sys'], file: string): string {
  try {
    return new TextDecoder().decode(sys.readFile(file));
  } catch (e) {
    if (e instanceof SysError) throw new Fail(`open ${file}: ${strerror(e.errno).toLowerCase()}`);
    throw e;
  }
}

function readDocs(text: string, fmt: Format | 'auto'): { value: Json; doc: Document | null; conv: Converter }[] {
  if (fmt === 'json') {
    try {
      return parseJsonAll(text).map((value) => ({ value, doc: null, conv: new Converter() }));
    } catch (e) {
      if (e instanceof ParseError) throw new Fail(`bad file: ${e.msg}`);
      throw e;
    }
  }
  const out: { value: Json; doc: Document | null; conv: Converter }[] = [];
  for (const doc of parseAllDocuments(text) as Document[]) {
    if (doc.errors.length) throw new Fail(`bad file: ${doc.errors[0].message.split('\n')[0]}`);
    const conv = new Converter();
    out.push({ value: conv.fromDoc(doc), doc, conv });
  }
  return out;
}

interface RenderOptions {
  indent: number;
  pretty: boolean;
  unwrap: boolean;
}

function render(v: Json, from: { doc: Document | null; conv: Converter } | null, fmt: Format, o: RenderOptions): string {
  if (fmt === 'json') {
    const p = new Printer({ indent: o.indent, tab: false, sortKeys: false, ascii: false, colors: null });
    return p.format(v) + '\n';
  }
  if (fmt === 'props') return propsText(v);
  if (o.unwrap && typeof v === 'string') return v + '\n';
  const conv = from?.conv ?? new Converter();
  const src = from?.doc ?? null;
  const doc = new Document();
  const root = src?.contents as YNode | null | undefined;
  doc.contents = conv.toNode(v, root, o.pretty) as typeof doc.contents;
  if (src && doc.contents === src.contents) {
    doc.commentBefore = src.commentBefore;
    doc.comment = src.comment;
  }
  return doc.toString({ indent: o.indent || 2, lineWidth: 0, flowCollectionPadding: false });
}

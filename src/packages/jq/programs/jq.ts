// jq [OPTIONS] FILTER [FILES...]
// jq [OPTIONS] --args FILTER [ARGUMENTS...]
// jq [OPTIONS] --jsonargs FILTER [JSON_VALUES...]
// Command-line JSON processor: the jq language (jq 1.7.1 is the reference)
// over a stream of JSON texts read as they arrive. Exit status: 0, 1/4 with
// -e (last output false/null / no output), 2 usage and system errors, 3
// compile errors, 5 runtime and parse errors, or halt_error's status.

import { SysError, strerror } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { isBrokenPipe, WriteError } from '../../../userland/lib/writer.js';
import { parseArgv, UsageExit, USAGE, SHORT_USAGE, type JqOptions } from './cli/options.js';
import { Inputs } from './cli/inputs.js';
import { loadModuleFrom } from './cli/modules.js';
import { Output } from './cli/output.js';
import { CompileError, compileErrorsText, Halt, JqProgram, type Runtime } from './engine/engine.js';
import { parseJsonAll, ParseError } from './engine/json-parse.js';
import { toJson } from './engine/json-print.js';
import { JqError, type JObject, type Json } from './engine/value.js';

/** Exit statuses as jq's main.c names them. */
const OK_NULL_KIND = -1;
const ERROR_SYSTEM = 2;
const ERROR_COMPILE = 3;
const OK_NO_OUTPUT = -4;
const ERROR_UNKNOWN = 5;

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const sys = os.sys;
  let opts: JqOptions;
  try {
    opts = parseArgv(os.argv.slice(1), (s) => isTty(os, s));
  } catch (e) {
    if (!(e instanceof UsageExit)) throw e;
    if (e.stdout) os.print(e.stdout);
    if (e.stderr) os.eprint(e.stderr);
    return e.status;
  }
  if (opts.help) {
    os.print(USAGE);
    return 0;
  }
  if (opts.version) {
    os.print('jq-1.7.1\n');
    return 0;
  }
  if (opts.buildConfiguration) {
    os.print('agentOS jq (TypeScript; jq 1.7.1 compatible)\n');
    return 0;
  }
  if (opts.program === null) {
    os.eprint(SHORT_USAGE);
    return 2;
  }

  const out = new Output(sys, opts, os.env, isTty(os, 1));
  const err = (msg: string): void => {
    out.flush();
    os.eprint(msg);
  };

  // Program text (-f reads it from a file) and the named arguments.
  let src = opts.program;
  if (opts.fromFile) {
    try {
      src = new TextDecoder().decode(sys.readFile(opts.program));
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      err(`jq: Could not open ${opts.program}: ${strerror(e.errno)}\n`);
      return ERROR_SYSTEM;
    }
  }
  const named: JObject = new Map();
  for (const a of opts.named) {
    if (named.has(a.name)) continue;
    if (a.kind === 'arg') named.set(a.name, a.value);
    else if (a.kind === 'argjson') named.set(a.name, a.json!);
    else {
      let text: string;
      try {
        text = new TextDecoder().decode(sys.readFile(a.value));
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
        err(`jq: Bad JSON in --${a.kind} ${a.name} ${a.value}: Could not open ${a.value}: ${strerror(e.errno)}\n`);
        return ERROR_SYSTEM;
      }
      if (a.kind === 'rawfile') named.set(a.name, text);
      else {
        try {
          named.set(a.name, parseJsonAll(text));
        } catch (e) {
          if (!(e instanceof ParseError)) throw e;
          err(`jq: Bad JSON in --slurpfile ${a.name} ${a.value}: ${e.msg}\n`);
          return ERROR_SYSTEM;
        }
      }
    }
  }
  const args: JObject = new Map<string, Json>([
    ['positional', opts.positional],
    ['named', named],
  ]);
  const globals: [string, Json][] = [...named, ['ARGS', args]];

  const inputs = new Inputs(sys, opts.files, {
    raw: opts.rawInput,
    stream: opts.stream,
    seq: opts.seq,
    warn: (m) => err(`jq: ${m}\n`),
    beforeRead: () => out.flush(),
  });
  const env: JObject = new Map(Object.entries(os.env));
  const rt: Runtime = {
    nextInput: () => nextInput(inputs, opts),
    debug: (v) => err(`${toJson(['DEBUG:', v])}\n`),
    stderr: (v) => err(typeof v === 'string' ? v : toJson(v)),
    env: () => env,
    filename: () => inputs.filename(),
    lineNumber: () => inputs.lineNumber(),
    builtins: () => [],
    searchList: () => opts.libraryPaths,
    progOrigin: () => (opts.fromFile ? dirname(sys.realpath(opts.program!)) : sys.getcwd()),
    jqOrigin: () => '/opt/agentos/jq/current/libexec',
  };

  let prog: JqProgram;
  try {
    prog = new JqProgram(src, {
      globals,
      rt,
      loadModule: (path, data) => loadModuleFrom(sys, os.env, opts.libraryPaths, path, data),
    });
  } catch (e) {
    if (e instanceof CompileError) {
      err(compileErrorsText(src, e));
      return ERROR_COMPILE;
    }
    throw e;
  }

  let ret = OK_NO_OUTPUT;
  let last = -1;
  let halted = false;

  const process = (value: Json): number => {
    let r = OK_NO_OUTPUT;
    try {
      prog.run(value, (x) => {
        r = out.result(x);
      });
    } catch (e) {
      if (e instanceof Halt) {
        halted = true;
        out.flush();
        if (e.message !== undefined && e.message !== null) os.eprint(typeof e.message === 'string' ? e.message : toJson(e.message) + '\n');
        return e.status;
      }
      if (e instanceof JqError) {
        if (e.value === null) return r;
        const pos = inputs.position();
        err(typeof e.value === 'string' ? `jq: error (at ${pos}): ${e.value}\n` : `jq: error (at ${pos}) (not a string): ${toJson(e.value)}\n`);
        return ERROR_UNKNOWN;
      }
      if (e instanceof RangeError && /call stack/.test(e.message)) {
        err(`jq: error (at ${inputs.position()}): stack overflow (recursion too deep)\n`);
        return ERROR_UNKNOWN;
      }
      throw e;
    }
    return r;
  };

  try {
    if (opts.nullInput) ret = process(null);
    else if (opts.slurp) {
      const all = slurp(inputs, opts);
      if (all instanceof ParseError) {
        err(`jq: parse error: ${all.msg}\n`);
        ret = ERROR_UNKNOWN;
      } else ret = process(all);
    } else {
      for (;;) {
        let v: Json | undefined;
        try {
          v = inputs.next();
        } catch (e) {
          if (!(e instanceof ParseError)) throw e;
          err(`jq: parse error: ${e.msg}\n`);
          ret = ERROR_UNKNOWN;
          break;
        }
        if (v === undefined) break;
        ret = process(v);
        if (ret <= 0 && ret !== OK_NO_OUTPUT) last = ret !== OK_NULL_KIND ? 1 : 0;
        if (halted) break;
      }
    }
    out.flush();
  } catch (e) {
    if (e instanceof WriteError) {
      if (!isBrokenPipe(e)) os.eprint(`jq: error: writing output failed: ${strerror(e.errno)}\n`);
      return ERROR_SYSTEM;
    }
    throw e;
  }
  if (halted) return ret < 0 ? 0 : ret;
  if (inputs.failed) ret = ERROR_SYSTEM;
  if (opts.exitStatus) {
    if (ret !== OK_NO_OUTPUT) return Math.abs(ret);
    return last === -1 ? 4 : last === 0 ? 1 : 0;
  }
  return ret > 0 ? ret : 0;
}

function nextInput(inputs: Inputs, opts: JqOptions): Json | undefined {
  if (opts.rawInput && opts.slurp) {
    if (inputs.started) return undefined;
    return inputs.rest();
  }
  return inputs.next();
}

/** -s: every input in one array (or, with -R, the whole text as one string). */
function slurp(inputs: Inputs, opts: JqOptions): Json | ParseError {
  if (opts.rawInput) return inputs.rest();
  const all: Json[] = [];
  try {
    for (let v = inputs.next(); v !== undefined; v = inputs.next()) all.push(v);
  } catch (e) {
    if (e instanceof ParseError) return e;
    throw e;
  }
  return all;
}

function isTty(os: AgentosApi, fd: number): boolean {
  try {
    return os.sys.isatty(fd);
  } catch {
    return false;
  }
}

const dirname = (p: string): string => p.replace(/\/[^/]*$/, '') || '/';

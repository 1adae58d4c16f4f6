// The `node` runtime: `node [options] [script.js | -e code | -p code | -] [args...]`,
// and a REPL when stdin is a terminal. /usr/bin/node is its runtime image.

import type { ProcessContext } from '../context.js';
import { compileCjs, compileFunction, WRAP_PARAMS } from './modules.js';
import { rewriteDynamicImports, transformEsm } from './esm-transform.js';
import { inspect } from './inspect.js';
import { startRepl } from './repl.js';
import { NodeRuntime } from './runtime.js';
import { NODE_VERSION } from './rt.js';

const USAGE = `Usage: node [options] [ script.js ] [arguments]
       node inspect [options] [ script.js | host:port ] [arguments]

Options:
  -                           script read from stdin (default if no file name is provided, interactive mode if a tty)
  --                          indicate the end of node options
  -e, --eval=...              evaluate script
  -h, --help                  print node command line options
  -c, --check                 syntax check script without executing
  -i, --interactive           always enter the REPL even if stdin does not appear to be a terminal
  --input-type=...            set module type for string input (commonjs, module)
  -p, --print [...]           evaluate script and print result
  -r, --require=...           CommonJS module to preload (option can be repeated)
  -v, --version               print Node.js version

agentOS's node runtime: a Node.js-compatible subset (see docs/decisions/0016-node-runtime.md).
`;

/** Options accepted and ignored: they tune a V8/libuv this runtime does not have. */
const IGNORED = /^--(no-warnings|no-deprecation|trace-warnings|trace-uncaught|trace-deprecation|enable-source-maps|preserve-symlinks|preserve-symlinks-main|experimental-[\w-]+|no-experimental-[\w-]+|harmony[\w-]*|max-old-space-size=\d+|stack-size=\d+|unhandled-rejections=[\w-]+|title=.*|expose-gc|abort-on-uncaught-exception)$/;

interface Parsed {
  code?: string;
  print: boolean;
  interactive: boolean;
  check: boolean;
  module: boolean;
  preload: string[];
  script?: string;
  rest: string[];
  execArgv: string[];
}

function parse(ctx: ProcessContext, args: string[]): Parsed {
  const p: Parsed = { print: false, interactive: false, check: false, module: false, preload: [], rest: [], execArgv: [] };
  const bad = (msg: string): never => {
    ctx.sys.writeAll(2, `${ctx.argv[0] ?? 'node'}: ${msg}\n`);
    return ctx.exit(9);
  };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    const [name, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = () => inline ?? (i + 1 < args.length ? (p.execArgv.push(args[i + 1]), args[++i]) : bad(`${name} requires an argument`));
    if (a === '--') { i++; break; }
    if (a === '-' || !a.startsWith('-')) break;
    p.execArgv.push(a);
    if (name === '-e' || name === '--eval') p.code = value();
    else if (name === '-p' || name === '--print' || name === '-pe') {
      p.print = true;
      if (inline !== undefined || (i + 1 < args.length)) p.code = value();
    } else if (name === '-i' || name === '--interactive') p.interactive = true;
    else if (name === '-c' || name === '--check') p.check = true;
    else if (name === '-v' || name === '--version') {
      ctx.sys.writeAll(1, `${NODE_VERSION}-agentos\n`);
      ctx.exit(0);
    } else if (name === '-h' || name === '--help') {
      ctx.sys.writeAll(1, USAGE);
      ctx.exit(0);
    } else if (name === '-r' || name === '--require') p.preload.push(value());
    else if (name === '--input-type') p.module = value() === 'module';
    else if (!IGNORED.test(a)) bad(`bad option: ${a}`);
  }
  if (p.code === undefined && i < args.length) {
    p.script = args[i];
    p.rest = args.slice(i + 1);
  } else p.rest = args.slice(i);
  return p;
}

export async function runNode(ctx: ProcessContext): Promise<void> {
  const p = parse(ctx, ctx.argv.slice(1));
  const cwd = ctx.sys.getcwd();
  const stdinTty = (() => { try { return ctx.sys.isatty(0); } catch { return false; } })();
  const fromStdin = p.code === undefined && (p.script === '-' || (p.script === undefined && !stdinTty && !p.interactive));
  let main: string | undefined;
  if (p.script !== undefined && p.script !== '-') main = p.script.startsWith('/') ? p.script : `${cwd === '/' ? '' : cwd}/${p.script}`;
  const argv = ['/usr/bin/node', ...(main !== undefined ? [main] : p.script === '-' ? ['-'] : []), ...p.rest];
  const rt = new NodeRuntime(ctx, argv, p.execArgv);
  let result: Promise<unknown> | undefined;
  try {
    for (const r of p.preload) rt.cjs.makeRequire(null, cwd)(r);
    if (p.code !== undefined || fromStdin) {
      const code = p.code ?? new TextDecoder().decode(ctx.sys.readAll(0));
      if (p.code !== undefined) rt.process._eval = code; // as Node: util.parseArgs then starts at argv[1]
      result = evalMain(rt, code, p.code !== undefined ? '[eval]' : '[stdin]', p.print, p.module);
    } else if (main !== undefined && p.check) {
      checkSyntax(rt, main);
    } else if (main !== undefined) {
      result = runMain(rt, main);
    } else startRepl(rt);
  } catch (e) {
    rt.uncaught(e);
  }
  try {
    await rt.finish(result);
  } finally {
    rt.dispose();
  }
}

/** The main script: resolved like require() (extensions, index files), run as CommonJS or ESM. */
function runMain(rt: NodeRuntime, path: string): Promise<unknown> | undefined {
  let file: string;
  try {
    file = rt.cjs.resolve(path, '/', ['require', 'module-sync', 'node']);
  } catch (e) {
    if (e instanceof Error && (e as { code?: string }).code === 'MODULE_NOT_FOUND') {
      e.message = `Cannot find module '${path}'`;
      Object.assign(e, { requireStack: [] });
    }
    throw e;
  }
  if (rt.esm.isEsm(file)) return rt.esm.importFile(file);
  const m = rt.cjs.newModule(file, null);
  m.id = '.';
  rt.cjs.main = m;
  rt.cjs.cache[file] = m;
  try {
    rt.cjs.runCjs(m, file);
  } catch (e) {
    delete rt.cjs.cache[file];
    throw e;
  }
  m.loaded = true;
  return undefined;
}

/** node --check: compile the script (as its module kind) without running it. */
function checkSyntax(rt: NodeRuntime, path: string): void {
  const file = rt.cjs.resolve(path, '/', ['require', 'module-sync', 'node']);
  const src = new TextDecoder().decode(rt.sys.readFile(file));
  rt.cjs.sources.set(file, src);
  if (rt.esm.isEsm(file)) compileFunction(transformEsm(src).code, [], file, true);
  else compileCjs(src, file);
}

/** -e / -p / stdin code: a sloppy script with require & co. in scope, its completion value for -p. */
function evalMain(rt: NodeRuntime, code: string, name: string, print: boolean, asModule: boolean): Promise<unknown> | undefined {
  const looksEsm = /^\s*(import\s*[\w{*'"]|export\s)/m.test(code);
  if (asModule || (!print && looksEsm)) return rt.esm.evalModule(code, name);
  const dir = rt.sys.getcwd();
  const m = rt.cjs.newModule(`${dir === '/' ? '' : dir}/${name}`, null);
  m.id = name;
  m.filename = name;
  rt.cjs.sources.set(name, code);
  const fn = compileFunction('return eval(__code);', [...WRAP_PARAMS, '__import', '__code'], `agentos:${name}-wrapper`);
  const value = fn.call(globalThis, m.exports, m.require, m, name, '.', ...rt.cjs.globals, rt.cjs.dynamicImport(dir, true),
    `${rewriteDynamicImports(code)}\n//# sourceURL=${name}`);
  if (print) rt.process.stdout.write(`${typeof value === 'string' ? value : inspect(value)}\n`);
  return undefined;
}

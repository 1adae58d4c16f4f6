// A basic REPL (`node` on a TTY, or `node -i`): one line at a time on
// readline, multi-line input while the code is unfinished, results inspected.
// A generator keeps one scope alive, so declarations persist between lines.

import { SIG_DFL, SIGINT } from '../../abi/signal.js';
import { formatError, inspect } from './inspect.js';
import { Interface } from './readline.js';
import type { NodeRuntime } from './runtime.js';
import { NODE_VERSION } from './rt.js';
import { WRAP_PARAMS } from './modules.js';
import { rewriteDynamicImports } from './esm-transform.js';
import { evaluateGuest } from '../js/compile.js';

type Session = Generator<unknown, void, string>;

// The session's generator evaluates guest lines: compiled as guest code, so the host's import() refusal applies.
const indirectEval = (code: string): unknown => evaluateGuest(code, 'REPL');

export function startRepl(rt: NodeRuntime): void {
  const proc = rt.process;
  const out = proc.stdout;
  out.write(`Welcome to Node.js ${NODE_VERSION}.\nType ".help" for more information.\n`);
  // eval inside a generator: `var`s and functions land in its scope and survive each yield.
  const make = indirectEval(`(function* (${[...WRAP_PARAMS, '__import'].join(', ')}) { let __r; for (;;) { const __c = yield __r; try { __r = { v: eval(__c) }; } catch (__e) { __r = { e: __e }; } } })`) as (
    ...a: unknown[]
  ) => Session;
  const dir = rt.sys.getcwd();
  const mod = rt.cjs.newModule(`${dir === '/' ? '' : dir}/<repl>`, null);
  const session = make(mod.exports, mod.require, mod, '<repl>', dir, ...rt.cjs.globals, rt.cjs.dynamicImport(dir, true));
  session.next();
  // A worker cannot break into running JavaScript, so while a line runs
  // synchronously Ctrl-C keeps its default action and ends node (status 130)
  // rather than wait for ever behind a busy loop; Node's REPL would abort only
  // the statement. Between lines, and while an await is pending, the handler
  // below runs.
  const evaluate = (code: string) => {
    const old = rt.sys.sigaction(SIGINT, SIG_DFL);
    try {
      return session.next(code).value as { v?: unknown; e?: unknown };
    } finally {
      rt.sys.sigaction(SIGINT, old);
    }
  };
  const rl = new Interface({ input: proc.stdin, output: out, prompt: '> ' });
  let pending = '';
  // Lines wait while a top-level await is pending; so does the end of input.
  let busy = false;
  let closed = false;
  const queue: string[] = [];
  const drain = () => {
    while (!busy && queue.length) handle(queue.shift()!);
    if (!busy && closed) {
      out.write('\n');
      proc.exit();
    }
  };
  rl.on('line', (line: unknown) => {
    queue.push(String(line));
    drain();
  });
  const handle = (text: string): void => {
    if (!pending && text.trim() === '.exit') {
      closed = true;
      return rl.close();
    }
    if (!pending && text.trim() === '.help') {
      out.write('.exit     Exit the REPL\n.help     Print this help message\n\nPress Ctrl+C to abort current expression, Ctrl+D to exit the REPL\n');
      return rl.prompt();
    }
    const code = pending ? `${pending}\n${text}` : text;
    if (!code.trim()) return rl.prompt();
    // Declarations become `var`s so they outlive this line.
    const src = rewriteDynamicImports(/^\s*\{/.test(code) && !/;\s*$/.test(code) ? `(${code})` : code.replace(/^(\s*)(?:const|let)\s/gm, '$1var '));
    let r = evaluate(src);
    if (r.e instanceof SyntaxError && /await is only valid/.test(r.e.message)) {
      // Top-level await: run the line in an async function in the same scope, print when settled.
      const decl = /^\s*var\s+([A-Za-z_$][\w$]*)\s*=\s*([^]*?);?\s*$/.exec(src);
      const wrapped = decl ? `var ${decl[1]}; (async () => { ${decl[1]} = ${decl[2]}; })()` : `(async () => (${src.replace(/;\s*$/, '')}))()`;
      r = evaluate(wrapped);
      if (!('e' in r)) {
        pending = '';
        busy = true;
        (r.v as Promise<unknown>).then(
          (v) => out.write(`${inspect(v)}\n`),
          (err) => out.write(`Uncaught ${err instanceof Error ? formatError(err).split('\n')[0] : inspect(err)}\n`),
        ).finally(() => {
          busy = false;
          rl.prompt();
          drain();
        });
        return;
      }
    }
    const e = r.e;
    if (e instanceof SyntaxError && /Unexpected end of input|Unterminated template/.test(e.message)) {
      pending = code;
      rl.setPrompt('... ');
      rl.prompt();
      rl.setPrompt('> ');
      return;
    }
    pending = '';
    if ('e' in r) out.write(`Uncaught ${e instanceof Error ? formatError(e).split('\n')[0] : inspect(e)}\n`);
    else out.write(`${inspect(r.v)}\n`);
    rl.prompt();
  };
  (proc.on as (n: string, f: () => void) => void)('SIGINT', () => {
    pending = '';
    out.write('\n(To exit, press Ctrl+D or type .exit)\n');
    rl.prompt();
  });
  rl.on('close', () => {
    closed = true;
    drain();
  });
  rl.prompt();
}

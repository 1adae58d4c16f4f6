// How the JavaScript runtime turns a program's source into a function. The
// default is the AsyncFunction constructor; a host's worker entry may install
// its own, e.g. the Node host compiles with node:vm so that `import()` from
// program code is refused (src/host/node/worker/confine.ts).

/** A compiled program: called with the `agentos` object. */
export type Program = (agentos: unknown) => Promise<unknown>;

export type Compiler = (source: string, filename: string) => Program;

/** Scripts may use top-level await. */
const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => Program;

let compiler: Compiler = (source, filename) =>
  new AsyncFunction('agentos', `'use strict';\n${source}\n//# sourceURL=${filename}`);

export function setCompiler(c: Compiler): void {
  compiler = c;
}

export function compile(source: string, filename: string): Program {
  return compiler(source, filename);
}

/** Guest code that is not a program body (the node runtime's module wrappers): a function expression's source. */
export type ExpressionCompiler = (source: string, filename: string) => unknown;

const indirectEval = eval;
let expressionCompiler: ExpressionCompiler = (source) => indirectEval(source);

export function setExpressionCompiler(c: ExpressionCompiler): void {
  expressionCompiler = c;
}

/** Evaluate a function expression written by a guest, with the host's import() refusal if it installed one. */
export function evaluateGuest(source: string, filename: string): unknown {
  return expressionCompiler(source, filename);
}

// The `vm` module, as far as one realm allows: code runs in the process's own
// global scope (runInThisContext); contexts are plain objects whose properties
// the code sees through a `with` scope. Not a security boundary, as in Node.

import { evaluateGuest } from '../js/compile.js';

// Guest code, so evaluated as guest code: the host's import() refusal applies.
const indirectEval = (code: string): unknown => evaluateGuest(code, 'evalmachine.<anonymous>');

function inContext(code: string, ctx: object): unknown {
  const fn = indirectEval('(function (__ctx, __code) { with (__ctx) { return eval(__code); } })') as (c: object, s: string) => unknown;
  return fn(ctx, code);
}

export function makeVm(): Record<string, unknown> {
  class Script {
    constructor(private code: string) {}
    runInThisContext(): unknown { return indirectEval(this.code); }
    runInContext(ctx: object): unknown { return inContext(this.code, ctx); }
    runInNewContext(ctx: object = {}): unknown { return inContext(this.code, ctx); }
  }
  return {
    Script,
    createContext: (o: object = {}) => o,
    isContext: (o: unknown) => typeof o === 'object' && o !== null,
    runInThisContext: (code: string) => indirectEval(code),
    runInContext: (code: string, ctx: object) => inContext(code, ctx),
    runInNewContext: (code: string, ctx: object = {}) => inContext(code, ctx),
    compileFunction: (code: string, params: string[] = []) => indirectEval(`(function (${params.join(', ')}) {\n${code}\n})`) as unknown,
  };
}

// The jq engine's public face: compile a program (with its named arguments
// and modules) and run it on inputs. Used by the jq and yq commands.

import type { FuncDef } from './ast.js';
import { Compiler } from './compile.js';
import { Frame, type K, type Node } from './interp.js';
import { CompileError } from './lexer.js';
import { CORE } from './lib-core.js';
import { MATH } from './lib-math.js';
import { STRINGS } from './lib-str.js';
import { TIME } from './lib-time.js';
import type { Native, Runtime, Table } from './natives.js';
import { parseProgram } from './parser.js';
import { PRELUDE } from './prelude.js';
import type { Json } from './value.js';

export { CompileError } from './lexer.js';
export { Halt, collect, type Runtime, type Table } from './natives.js';

let preludeDefs: FuncDef[] | null = null;
let nativeTable: Map<string, Native> | null = null;

function natives(): Map<string, Native> {
  nativeTable ??= new Map(Object.entries({ ...CORE, ...STRINGS, ...MATH, ...TIME }));
  return nativeTable;
}

/** A module's source as the host found it (import/include). */
export interface ModuleSource {
  /** jq text for code modules, or the parsed values of a data module. */
  text?: string;
  data?: Json[];
}

export interface ProgramOptions {
  /** Global variables ($name → value), e.g. --arg and $ARGS. */
  globals: [string, Json][];
  /** Extra builtins (yq's): natives, and jq definitions that may override the standard ones. */
  natives?: Table;
  prelude?: string;
  rt: Runtime;
  /** Resolve `import`/`include` (null: not found). */
  loadModule?: (path: string, data: boolean) => ModuleSource | null;
}

export class JqProgram {
  private readonly node: Node;
  private readonly frame: Frame;

  constructor(src: string, opts: ProgramOptions) {
    preludeDefs ??= parseProgram(PRELUDE).defs;
    const prog = parseProgram(src);
    const globals = opts.globals.slice();
    const defs: FuncDef[] = [];
    for (const imp of prog.imports) {
      const mod = opts.loadModule?.(imp.path, imp.data) ?? null;
      if (!mod) throw new CompileError(`module not found: ${imp.path}`, -1);
      if (imp.data) {
        const name = imp.as!;
        globals.push([name, mod.data ?? []], [`${name}::${name}`, mod.data ?? []]);
        continue;
      }
      const lib = parseProgram(mod.text ?? '');
      if (lib.body) throw new CompileError('library should only have function definitions, not a main expression', -1);
      for (const d of lib.defs) defs.push(imp.as ? { ...d, name: `${imp.as}::${d.name}` } : d);
    }
    const rt: Runtime = { ...opts.rt, builtins: () => compiler.builtinNames() };
    let table = natives();
    if (opts.natives) table = new Map([...table, ...Object.entries(opts.natives)]);
    const defs0 = opts.prelude ? [...preludeDefs, ...parseProgram(opts.prelude).defs] : preludeDefs;
    const compiler: Compiler = new Compiler(table, defs0, globals.map((g) => g[0]), rt);
    this.node = compiler.program([...defs, ...prog.defs], prog.body);
    this.frame = new Frame(null, null, compiler.root.n);
    globals.forEach((g, i) => (this.frame.l[i] = g[1]));
  }

  /** Run on one input; k receives each output. Throws JqError, Halt. */
  run(input: Json, k: K): void {
    this.node.ev(input, this.frame, k);
  }
}

/** Compile errors as jq prints them, with the closing count line. */
export function compileErrorsText(src: string, e: CompileError): string {
  const all = [e, ...e.more];
  return all.map((x) => compileErrorText(src, x)).join('') + `jq: ${all.length} compile error${all.length > 1 ? 's' : ''}\n`;
}

/** A compile error as jq prints it: the message, where, the program line. */
export function compileErrorText(src: string, e: CompileError): string {
  const msg = e.msg.includes('unexpected') ? `${e.msg} (Unix shell quoting issues?)` : e.msg;
  if (e.pos < 0) return `jq: error: ${msg}\n\n`;
  const start = src.lastIndexOf('\n', e.pos - 1) + 1;
  let end = src.indexOf('\n', e.pos);
  if (end < 0) end = src.length;
  const line = src.slice(0, start).split('\n').length;
  return `jq: error: ${msg} at <top-level>, line ${line}:\n${src.slice(start, end)}${' '.repeat(e.pos - start)}\n`;
}

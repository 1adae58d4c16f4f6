// The jq syntax tree, as the parser builds it and the compiler reads it.
// `pos` is the program offset used to place compile errors.

import type { Json } from './value.js';

export type BinOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=';
export type AssignOp = '=' | '|=' | '+=' | '-=' | '*=' | '/=' | '%=' | '//=';

export type Pattern =
  | { k: 'pvar'; name: string; pos: number }
  | { k: 'parray'; elems: Pattern[] }
  | { k: 'pobject'; entries: ObjPatEntry[] };

/** `{$a}`, `{$a: pat}`, `{key: pat}`, `{"k\(x)": pat}`, `{(expr): pat}`. */
export interface ObjPatEntry {
  key: Ast | null;
  /** `$name` form: binds the whole field value to $name. */
  bind: string | null;
  pat: Pattern | null;
  pos: number;
}

export interface FuncDef {
  name: string;
  /** Parameter names; `$x` value parameters keep their `$`. */
  params: string[];
  body: Ast;
  pos: number;
}

export type Ast =
  | { k: 'identity' }
  | { k: 'recurse_default' }
  | { k: 'index'; target: Ast; key: Ast; opt: boolean }
  | { k: 'slice'; target: Ast; from: Ast | null; to: Ast | null; opt: boolean }
  | { k: 'iterate'; target: Ast; opt: boolean }
  | { k: 'literal'; value: Json }
  | { k: 'string'; parts: (string | Ast)[]; format: string | null }
  | { k: 'format'; name: string; pos: number }
  | { k: 'array'; body: Ast | null }
  | { k: 'object'; entries: { key: Ast; value: Ast }[] }
  | { k: 'neg'; body: Ast }
  | { k: 'pipe'; left: Ast; right: Ast }
  | { k: 'comma'; left: Ast; right: Ast }
  | { k: 'binop'; op: BinOp; left: Ast; right: Ast }
  | { k: 'and'; left: Ast; right: Ast }
  | { k: 'or'; left: Ast; right: Ast }
  | { k: 'alt'; left: Ast; right: Ast }
  | { k: 'assign'; op: AssignOp; left: Ast; right: Ast }
  | { k: 'if'; cond: Ast; then: Ast; else: Ast | null }
  | { k: 'try'; body: Ast; catch: Ast | null }
  | { k: 'reduce'; source: Ast; patterns: Pattern[]; init: Ast; update: Ast }
  | { k: 'foreach'; source: Ast; patterns: Pattern[]; init: Ast; update: Ast; extract: Ast | null }
  | { k: 'def'; def: FuncDef; rest: Ast }
  | { k: 'call'; name: string; args: Ast[]; pos: number }
  | { k: 'var'; name: string; pos: number }
  | { k: 'loc'; line: number }
  | { k: 'as'; source: Ast; patterns: Pattern[]; body: Ast }
  | { k: 'label'; name: string; body: Ast }
  | { k: 'break'; name: string; pos: number };

/** A parsed program: module-level definitions (imports resolved by the caller) and the main expression. */
export interface Program {
  imports: { path: string; as: string | null; data: boolean; meta: Json; pos: number }[];
  meta: Json;
  defs: FuncDef[];
  body: Ast | null;
}

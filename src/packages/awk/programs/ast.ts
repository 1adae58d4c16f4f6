// The syntax tree. Variables are resolved while parsing: globals and function
// locals are slots, so the interpreter never looks names up.

export type Ref = { scope: 'g' | 'l'; slot: number; name: string };

export type Expr =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 're'; src: string }
  | { k: 'var'; ref: Ref }
  | { k: 'idx'; ref: Ref; subs: Expr[] }
  | { k: 'field'; e: Expr }
  | { k: 'assign'; op: string; lv: LValue; e: Expr }
  | { k: 'cond'; c: Expr; a: Expr; b: Expr }
  | { k: 'and' | 'or'; a: Expr; b: Expr }
  | { k: 'in'; subs: Expr[]; ref: Ref }
  | { k: 'match'; neg: boolean; a: Expr; re: Expr }
  | { k: 'cmp'; op: string; a: Expr; b: Expr }
  | { k: 'cat'; a: Expr; b: Expr }
  | { k: 'bin'; op: string; a: Expr; b: Expr }
  | { k: 'not' | 'neg' | 'plus'; e: Expr }
  | { k: 'incr'; pre: boolean; d: number; lv: LValue }
  | { k: 'call'; name: string; args: Expr[]; line: number }
  /** gawk's indirect call `@v(args)`: the function named by v's value. */
  | { k: 'icall'; ref: Ref; args: Expr[] }
  | { k: 'builtin'; name: string; args: Expr[] }
  | { k: 'getline'; lv: LValue | null; src: 'main' | 'file' | 'cmd'; e: Expr | null }
  | { k: 'group'; items: Expr[] };

export type LValue = Extract<Expr, { k: 'var' | 'idx' | 'field' }>;

export interface Redirect {
  op: '>' | '>>' | '|';
  e: Expr;
}

export type Stmt =
  | { k: 'expr'; e: Expr; line: number }
  | { k: 'print' | 'printf'; args: Expr[]; out: Redirect | null; line: number }
  | { k: 'if'; c: Expr; a: Stmt; b: Stmt | null; line: number }
  | { k: 'while'; c: Expr; body: Stmt; line: number }
  | { k: 'do'; c: Expr; body: Stmt; line: number }
  | { k: 'for'; init: Stmt | null; c: Expr | null; step: Stmt | null; body: Stmt; line: number }
  | { k: 'forin'; v: LValue; ref: Ref; body: Stmt; line: number }
  | { k: 'block'; body: Stmt[]; line: number }
  | { k: 'next' | 'nextfile' | 'break' | 'continue'; line: number }
  | { k: 'exit' | 'return'; e: Expr | null; line: number }
  | { k: 'delete'; ref: Ref; subs: Expr[] | null; line: number }
  | { k: 'switch'; e: Expr; cases: Case[]; line: number };

/** One `case` (or `default`: v null) of a switch and the statements up to the next label. */
export interface Case {
  v: Expr | null;
  body: Stmt[];
}

export interface Rule {
  kind: 'begin' | 'end' | 'main' | 'beginfile' | 'endfile';
  pattern: Expr | null;
  /** Second pattern of a range `p1, p2`. */
  pattern2: Expr | null;
  /** null: the default action `{ print }`. */
  body: Stmt[] | null;
}

export interface Func {
  name: string;
  params: string[];
  body: Stmt[];
  /** Slots a call frame needs (params only: awk has no other locals). */
  nlocals: number;
  /** Which params are used as arrays in the body (so callers can pass untyped variables by reference). */
  defined: boolean;
}

export interface Program {
  rules: Rule[];
  funcs: Map<string, Func>;
  globals: string[];
}

// bc's syntax tree.

export type Special = 'ibase' | 'obase' | 'scale' | 'last';

export type LValue =
  | { k: 'var'; name: string }
  | { k: 'elem'; name: string; index: Expr }
  | { k: 'special'; name: Special };

export type Arg = { k: 'value'; e: Expr } | { k: 'array'; name: string };

export type Expr =
  | LValue
  | { k: 'num'; text: string }
  | { k: 'assign'; op: string; target: LValue; value: Expr }
  | { k: 'incdec'; op: '++' | '--'; prefix: boolean; target: LValue }
  | { k: 'neg'; e: Expr }
  | { k: 'not'; e: Expr }
  | { k: 'bin'; op: string; l: Expr; r: Expr }
  | { k: 'call'; name: string; args: Arg[] }
  | { k: 'builtin'; name: 'length' | 'sqrt' | 'scale'; e: Expr }
  | { k: 'read' };

export type PrintItem = { k: 'expr'; e: Expr } | { k: 'str'; v: string };

export type Stmt =
  | { k: 'expr'; e: Expr }
  | { k: 'str'; v: string }
  | { k: 'print'; items: PrintItem[] }
  | { k: 'block'; body: Stmt[] }
  | { k: 'if'; cond: Expr; then: Stmt; else: Stmt | null }
  | { k: 'while'; cond: Expr; body: Stmt }
  | { k: 'for'; init: Expr | null; cond: Expr | null; step: Expr | null; body: Stmt }
  | { k: 'break' }
  | { k: 'continue' }
  | { k: 'halt' }
  | { k: 'return'; e: Expr | null };

export interface Param {
  name: string;
  array: boolean;
  /** `*name[]`: the caller's array itself, not a copy (GNU). */
  ref: boolean;
}

export interface Func {
  name: string;
  isVoid: boolean;
  params: Param[];
  autos: { name: string; array: boolean }[];
  body: Stmt[];
}

/** One unit of input: statements to run now, or a function to define. */
export type Item = { k: 'run'; body: Stmt[] } | { k: 'define'; f: Func };

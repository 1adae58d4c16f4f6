// The shell AST. Plain JSON-able objects with a `type` tag, so the expander and
// the interpreter can switch on `type`, and tests can deep-compare trees.
// Every node carries the 1-based `line` and `col` where it starts.

export interface Node {
  line: number;
  col: number;
}

// ------------------------------------------------------------------ words

/** Unquoted literal text: glob (`*?[`), brace (`{a,b}`) and tilde characters in it are active. */
export interface Lit extends Node {
  type: 'Lit';
  value: string;
}

/** A backslash-escaped character outside quotes: `\*` is a quoted `*`. */
export interface Escaped extends Node {
  type: 'Escaped';
  value: string;
}

/** `'...'`: the value is taken literally. */
export interface SglQuoted extends Node {
  type: 'SglQuoted';
  value: string;
}

/** `$'...'`: `value` is decoded at parse time; `raw` is the text between the quotes. */
export interface AnsiQuoted extends Node {
  type: 'AnsiQuoted';
  value: string;
  raw: string;
}

/** `"..."` (or `$"..."` when `locale`). Its `Lit` parts are quoted text. */
export interface DblQuoted extends Node {
  type: 'DblQuoted';
  parts: WordPart[];
  locale: boolean;
}

/** `~` or `~user` at the start of a word or of an assignment value segment. */
export interface Tilde extends Node {
  type: 'Tilde';
  user: string;
}

export type ParamOp =
  /** `${x:-w}` `${x-w}` `${x:=w}` `${x=w}` `${x:?w}` `${x?w}` `${x:+w}` `${x+w}` */
  | { kind: 'default'; op: '-' | '=' | '?' | '+'; colon: boolean; word: Word }
  /** `${x#p}` `${x##p}` `${x%p}` `${x%%p}` */
  | { kind: 'trim'; op: '#' | '##' | '%' | '%%'; pattern: Word }
  /** `${x/p/r}` `${x//p/r}` `${x/#p/r}` `${x/%p/r}`; `with` is null when there is no second `/`. */
  | { kind: 'replace'; op: '/' | '//' | '/#' | '/%'; pattern: Word; with: Word | null }
  /** `${x:off}` `${x:off:len}`: arithmetic text, evaluated by the interpreter. */
  | { kind: 'slice'; offset: Word; length: Word | null }
  /** `${x^p}` `${x^^p}` `${x,p}` `${x,,p}`, and bash's undocumented toggles `${x~p}` `${x~~p}` */
  | { kind: 'case'; op: '^' | '^^' | ',' | ',,' | '~' | '~~'; pattern: Word | null }
  /** `${x@Q}` and the other `@` transformations. */
  | { kind: 'transform'; op: string };

/** A parameter expansion: `$x`, `${x}`, `${#x}`, `${!x}`, `${arr[i]}`, `${x:-w}`... */
export interface ParamExp extends Node {
  type: 'ParamExp';
  /** `$x` rather than `${x}`. */
  short: boolean;
  /** A name, a positional number (`1`, `10`) or one of `@ * # ? $ ! - 0`. */
  name: string;
  /** `${arr[i]}`: the subscript as written (arithmetic for indexed, a key for associative arrays); `@`/`*` are the Lit words `@`/`*`. */
  index: Word | null;
  /** `${#x}` */
  length: boolean;
  /** `${!x}` (indirection), `${!arr[@]}` (keys) */
  indirect: boolean;
  /** `${!prefix*}` / `${!prefix@}`: the names starting with `name`. */
  names: '*' | '@' | null;
  op: ParamOp | null;
}

/**
 * `${...}` that bash accepts while parsing but rejects when expanding
 * (`${x y}`): the interpreter reports `${x y}: bad substitution`.
 */
export interface BadSubst extends Node {
  type: 'BadSubst';
  text: string;
}

/** `$(...)` or `` `...` ``. */
export interface CmdSubst extends Node {
  type: 'CmdSubst';
  stmts: Stmt[];
  backquote: boolean;
  /**
   * Backquote bodies that failed to parse (bash only parses them when run):
   * the de-escaped text, for the interpreter to parse and report at run time.
   */
  unparsed?: string;
}

/** `$((...))` or `$[...]`. */
export interface ArithExp extends Node {
  type: 'ArithExp';
  /** The expression text as a word: bash expands it first, then parses the result. */
  word: Word;
  /** The statically parsed expression, or null when it only parses after expansion (or not at all). */
  expr: Arith | null;
  bracket: boolean;
}

/** `<(...)` / `>(...)` */
export interface ProcSubst extends Node {
  type: 'ProcSubst';
  op: '<' | '>';
  stmts: Stmt[];
}

/** An extended glob `@(a|b)` `!(x)` `*(x)` `+(x)` `?(x)` (only with the `extglob` option); the pattern text is kept raw. */
export interface ExtGlob extends Node {
  type: 'ExtGlob';
  op: '@' | '!' | '*' | '+' | '?';
  pattern: string;
}

export type WordPart =
  | Lit
  | Escaped
  | SglQuoted
  | AnsiQuoted
  | DblQuoted
  | Tilde
  | ParamExp
  | BadSubst
  | CmdSubst
  | ArithExp
  | ProcSubst
  | ExtGlob;

export interface Word extends Node {
  type: 'Word';
  parts: WordPart[];
}

// ------------------------------------------------------------------ arithmetic

export type ArithBinaryOp =
  | ',' | '||' | '&&' | '|' | '^' | '&' | '==' | '!=' | '<' | '<=' | '>' | '>='
  | '<<' | '>>' | '+' | '-' | '*' | '/' | '%' | '**';
export type ArithAssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '<<=' | '>>=' | '&=' | '^=' | '|=';

/** A number as written (`10`, `0x1f`, `017`, `2#101`); bash converts it when evaluating. */
export interface ArithNum extends Node { type: 'ArithNum'; value: string }
/** A variable, with or without a subscript (`a`, `a[i+1]`). */
export interface ArithVar extends Node { type: 'ArithVar'; name: string; index: Arith | null }
/** An expansion used as an operand (`$x`, `${x}`, `$(cmd)`, `"3"`): its value is evaluated as an expression. */
export interface ArithWord extends Node { type: 'ArithWord'; word: Word }
export interface ArithUnary extends Node {
  type: 'ArithUnary';
  op: '!' | '~' | '-' | '+' | '++' | '--';
  postfix: boolean;
  arg: Arith;
}
export interface ArithBinary extends Node { type: 'ArithBinary'; op: ArithBinaryOp; left: Arith; right: Arith }
export interface ArithAssign extends Node { type: 'ArithAssign'; op: ArithAssignOp; target: ArithVar | ArithWord; value: Arith }
export interface ArithCond extends Node { type: 'ArithCond'; test: Arith; then: Arith; else: Arith }

export type Arith = ArithNum | ArithVar | ArithWord | ArithUnary | ArithBinary | ArithAssign | ArithCond;

// ------------------------------------------------------------------ [[ ]]

export interface CondWord extends Node { type: 'CondWord'; word: Word }
export interface CondUnary extends Node { type: 'CondUnary'; op: string; arg: Word }
/** `==`/`=`/`!=` right sides are patterns; the `=~` right side is a regex (quoted parts match literally). */
export interface CondBinary extends Node { type: 'CondBinary'; op: string; left: Word; right: Word }
export interface CondNot extends Node { type: 'CondNot'; arg: Cond }
export interface CondAndOr extends Node { type: 'CondAndOr'; op: '&&' | '||'; left: Cond; right: Cond }
export interface CondParen extends Node { type: 'CondParen'; arg: Cond }

export type Cond = CondWord | CondUnary | CondBinary | CondNot | CondAndOr | CondParen;

// ------------------------------------------------------------------ commands

export type RedirOp = '<' | '>' | '>|' | '>>' | '<>' | '<&' | '>&' | '&>' | '&>>' | '<<' | '<<-' | '<<<';

export interface Redirect extends Node {
  type: 'Redirect';
  op: RedirOp;
  /** The explicit fd (`2>`), or null for the default. */
  fd: number | null;
  /** `{var}>file`: the shell allocates an fd and stores it in `var`. */
  fdVar: string | null;
  /** The file, fd (`&2`, `-`), here-string, or here-doc delimiter (as written). */
  target: Word;
  /** Here-doc body; null for other redirections. */
  heredoc: Word | null;
  /** Here-doc with a quoted delimiter: the body is literal (one `Lit`). */
  quoted: boolean;
  /**
   * An unquoted here-doc body that does not parse (`$(` left open): bash only finds
   * out when it expands the body, so the text is kept for the interpreter.
   */
  unparsed?: string;
}

export interface ArrayElem extends Node {
  type: 'ArrayElem';
  /** `[k]=v`: the subscript text; null for positional elements. */
  index: Word | null;
  /** `[k]+=v` */
  append: boolean;
  value: Word;
}

/** `name=v`, `name+=v`, `name[i]=v`, `name=(a b)`, `name+=([k]=v)`. */
export interface Assign extends Node {
  type: 'Assign';
  name: string;
  index: Word | null;
  append: boolean;
  /** The scalar value (empty word for `a=`), or null when `array` is set. */
  value: Word | null;
  array: ArrayElem[] | null;
}

export interface SimpleCommand extends Node {
  type: 'SimpleCommand';
  assigns: Assign[];
  words: Word[];
  redirs: Redirect[];
}

/**
 * `declare`/`typeset`/`local`/`export`/`readonly` with their arguments:
 * assignment-shaped arguments are `Assign` nodes (no field splitting, arrays allowed).
 */
export interface DeclCommand extends Node {
  type: 'DeclCommand';
  variant: 'declare' | 'typeset' | 'local' | 'export' | 'readonly';
  assigns: Assign[];
  args: (Word | Assign)[];
  redirs: Redirect[];
}

export interface Pipeline extends Node {
  type: 'Pipeline';
  cmds: Command[];
  /** pipeAll[i]: `|&` between cmds[i] and cmds[i+1]. */
  pipeAll: boolean[];
  negated: boolean;
  /** `time` / `time -p` */
  time: null | 'time' | 'time -p';
}

export interface AndOr extends Node {
  type: 'AndOr';
  op: '&&' | '||';
  left: Command;
  right: Command;
}

export interface Group extends Node { type: 'Group'; stmts: Stmt[]; redirs: Redirect[] }
export interface Subshell extends Node { type: 'Subshell'; stmts: Stmt[]; redirs: Redirect[] }

export interface IfClause extends Node { type: 'IfClause'; cond: Stmt[]; body: Stmt[] }
export interface If extends Node {
  type: 'If';
  /** `if` then each `elif`. */
  clauses: IfClause[];
  elseBody: Stmt[] | null;
  redirs: Redirect[];
}

export interface While extends Node { type: 'While'; until: boolean; cond: Stmt[]; body: Stmt[]; redirs: Redirect[] }

/** `for name [in words]; do ...; done` and `select`. `words` is null without `in` ("$@"). */
export interface For extends Node {
  type: 'For';
  select: boolean;
  name: string;
  words: Word[] | null;
  body: Stmt[];
  redirs: Redirect[];
}

/** `for (( init; cond; step ))` */
export interface ArithFor extends Node {
  type: 'ArithFor';
  init: ArithExp | null;
  cond: ArithExp | null;
  step: ArithExp | null;
  body: Stmt[];
  redirs: Redirect[];
}

export interface CaseItem extends Node {
  type: 'CaseItem';
  patterns: Word[];
  body: Stmt[];
  term: ';;' | ';&' | ';;&';
}

export interface Case extends Node { type: 'Case'; word: Word; items: CaseItem[]; redirs: Redirect[] }

/** `(( expr ))` */
export interface ArithCmd extends Node { type: 'ArithCmd'; expr: ArithExp; redirs: Redirect[] }

/** `[[ expr ]]` */
export interface TestCmd extends Node { type: 'TestCmd'; expr: Cond; redirs: Redirect[] }

/** `name() body` or `function name [()] body`; the body's own redirections apply at each call. */
export interface FunctionDef extends Node {
  type: 'FunctionDef';
  name: string;
  keyword: boolean;
  body: Command;
}

export type CompoundCommand = Group | Subshell | If | While | For | ArithFor | Case | ArithCmd | TestCmd;

export type Command = SimpleCommand | DeclCommand | Pipeline | AndOr | FunctionDef | CompoundCommand;

/** One element of a list: a command terminated by `;`, newline or `&`. */
export interface Stmt extends Node {
  type: 'Stmt';
  cmd: Command;
  background: boolean;
}

export interface Warning {
  line: number;
  message: string;
}

export interface Script extends Node {
  type: 'Script';
  stmts: Stmt[];
  /** Non-fatal diagnostics bash prints while parsing (here-document delimited by end-of-file). */
  warnings: Warning[];
}

export type AnyNode = Script | Stmt | Command | Word | WordPart | Redirect | Assign | ArrayElem | CaseItem | IfClause | Arith | Cond;

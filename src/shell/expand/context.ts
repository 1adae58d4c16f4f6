// What the expander needs from the running shell. The interpreter implements
// it; tests use a fake. Everything with side effects (running commands,
// reading directories) goes through here, so the expander stays pure logic.
import type { Stmt } from '../syntax/ast.js';
import type { Var } from '../variable.js';

export interface ExpandOpts {
  /** set -u */
  nounset: boolean;
  /** set -f */
  noglob: boolean;
  nullglob: boolean;
  failglob: boolean;
  dotglob: boolean;
  /** shopt globskipdots (on by default): `.*` never matches `.` and `..`. */
  globskipdots?: boolean;
  extglob: boolean;
  globstar: boolean;
  nocaseglob: boolean;
  nocasematch: boolean;
}

/**
 * The variables as the expander sees them: reads, `${x:=v}` and `(( x = 1 ))`
 * assignments. The interpreter's store (interp/vars.ts Vars) implements it.
 */
export interface ExpandVars {
  /** $name: a scalar, or element 0 of an array. */
  get(name: string): string | undefined;
  getIndex(name: string, index: string): string | undefined;
  /** ${name[@]}: values in index order. */
  values(name: string): string[];
  /** ${!name[@]}: indices or keys. */
  keys(name: string): string[];
  isSet(name: string): boolean;
  isArray(name: string): boolean;
  isAssoc(name: string): boolean;
  /** The visible record (namerefs followed), for ${x@a}. */
  lookup(name: string): Var | undefined;
  /** Every visible name, sorted (${!prefix*}). */
  names(): string[];
  set(name: string, value: string): void;
  setIndex(name: string, index: string, value: string): void;
}

export interface ExpandContext {
  vars: ExpandVars;
  /** $? $$ $! $# $- $0 and positional $1..; also RANDOM, SECONDS, LINENO, BASHPID... when the interpreter says so */
  special(name: string): string | undefined;
  /** $1..$n */
  positional(): string[];
  opts: ExpandOpts;
  /** Run a command substitution; returns its stdout (the expander strips trailing newlines). */
  commandSubst(stmts: Stmt[], source: string | undefined): string;
  /** <(...) / >(...): start it and return the /dev/fd/N path to use. */
  procSubst(op: '<' | '>', stmts: Stmt[]): string;
  /** Directory listing for globbing: names (without . and ..) or null if not a readable directory. */
  readdir(dir: string): string[] | null;
  isDir(path: string): boolean;
  cwd(): string;
  /** ~ and ~user */
  home(user: string): string | undefined;
}

/** Default option values (bash's, non-interactive). */
export const defaultOpts = (): ExpandOpts => ({
  nounset: false, noglob: false, nullglob: false, failglob: false, dotglob: false,
  extglob: false, globstar: false, nocaseglob: false, nocasematch: false,
});

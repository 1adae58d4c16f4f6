// Public API of the shell syntax layer: pure functions, no I/O.
//
// Aliases are not expanded here: the interpreter substitutes aliases and
// re-parses (use Parser.nextCommand to parse one complete command at a time,
// as bash does, so alias definitions and `shopt -s extglob` take effect for
// the following lines).
import type { Script, Word } from './ast.js';
import { ParseError } from './errors.js';
import type { ParseOptions } from './lexer.js';
import { Parser } from './parser.js';

export type * from './ast.js';
export { ParseError } from './errors.js';
export { ArithSyntaxError, parseArithmetic } from './arith.js';
export { Parser } from './parser.js';
export type { ParseOptions } from './lexer.js';
export { print, heredocDelim } from './printer.js';
export { printFunction, printFunctionEnv } from './bash-printer.js';
export { decodeAnsi } from './ansi.js';

/** Parses a whole script; throws ParseError (with `incomplete` for input that more lines could finish). */
export function parse(src: string, opts: ParseOptions = {}): Script {
  return new Parser(src, opts).parseScript();
}

/**
 * For an interactive prompt: 'complete', 'incomplete' (ask for more with PS2),
 * or the ParseError of input that is wrong whatever follows.
 */
export function checkComplete(src: string, opts: ParseOptions = {}): 'complete' | 'incomplete' | ParseError {
  try {
    parse(src, { ...opts, interactive: true });
    return 'complete';
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    return e.incomplete ? 'incomplete' : e;
  }
}

/**
 * Parses here-doc body text as bash expands it (for bodies kept `unparsed`, at
 * run time, when bash reports their errors). `line` is the body's first line.
 */
export function parseHeredocBody(text: string, line = 1): Word {
  const p = new Parser(text, {}, line);
  return { type: 'Word', parts: p.readParts('heredoc', true, true), line, col: 1 };
}

/**
 * A subscript written inside a string (`${!ref}` with ref='a["k"]', `unset 'a[$i]'`):
 * the text between the brackets as a word, which bash expands (quotes removed) before
 * using it as a key or evaluating it. Text that does not parse stays literal.
 */
export function parseSubscript(text: string): Word {
  try {
    const p = new Parser(text);
    const parts = p.readParts('index', false, false);
    if (p.i >= text.length) return { type: 'Word', parts, line: 1, col: 1 };
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
  }
  return { type: 'Word', parts: [{ type: 'SglQuoted', value: text, line: 1, col: 1 }], line: 1, col: 1 };
}

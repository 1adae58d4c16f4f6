// Public API of the shell's word-expansion layer. The interpreter supplies an
// ExpandContext (variables, options, command substitution, directory listings).
export type { ExpandContext, ExpandOpts, ExpandVars } from './context.js';
export { defaultOpts } from './context.js';
export {
  expandWords, expandWord, expandAssignValue, expandPattern, expandRegex, expandHeredoc, expandRedirectTarget,
} from './word.js';
export { ArithShellError, evalArith, evalArithText, evalArithValue, evalArithExp, evalArithNode, expandArithSource, parseNumber } from './arith.js';
export type { Int } from './int64.js';
export { intString } from './int64.js';
export type { Pattern, PatSeg, PatternOpts } from './pattern.js';
export {
  matchPattern, trimPattern, replacePattern, patternSource, literalPattern, quotePattern, hasGlob, compile,
} from './pattern.js';
export { expandBraces } from './brace.js';
export { glob } from './glob.js';
export { shellQuote } from './transform.js';

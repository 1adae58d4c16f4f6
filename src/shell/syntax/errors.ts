// Parse errors worded exactly like bash 5.2, so the interpreter can print
// `agentos-shell: line N: <message>` and match what scripts and agents expect.

export class ParseError extends Error {
  /** 1-based line bash reports for this error. */
  readonly line: number;
  readonly col: number;
  /**
   * True when more input could complete the script (open quote, `if` without `fi`,
   * unterminated here-doc in interactive mode): an interactive shell prompts with PS2.
   */
  readonly incomplete: boolean;
  /**
   * For `near unexpected token` errors, the source line bash echoes on a second line
   * (`bash: -c: line 1: \`fi'`); null otherwise.
   */
  readonly context: string | null;
  /** An earlier error bash reports first, on its own line (`=~ (` at EOF: the unclosed paren, then the operand). */
  readonly preceding: { message: string; line: number } | null;

  constructor(
    message: string, line: number, col: number, incomplete: boolean, context: string | null = null,
    preceding: { message: string; line: number } | null = null,
  ) {
    super(message);
    this.preceding = preceding;
    this.name = 'ParseError';
    this.line = line;
    this.col = col;
    this.incomplete = incomplete;
    this.context = context;
  }
}

export const msg = {
  unexpectedToken: (tok: string): string => `syntax error near unexpected token \`${tok}'`,
  unexpectedEOF: (): string => 'syntax error: unexpected end of file',
  matching: (close: string): string => `unexpected EOF while looking for matching \`${close}'`,
  heredocEOF: (line: number, delim: string): string =>
    `here-document at line ${line} delimited by end-of-file (wanted \`${delim}')`,
  condBinaryExpected: (): string => 'conditional binary operator expected',
  condUnexpectedTokenBinary: (tok: string): string => `unexpected token \`${tok}', conditional binary operator expected`,
  condArgBinary: (tok: string): string => `unexpected argument \`${tok}' to conditional binary operator`,
  condArgBinaryEOF: (): string => 'unexpected argument to conditional binary operator',
  condArgUnary: (tok: string): string => `unexpected argument \`${tok}' to conditional unary operator`,
  condExpectedParen: (tok: string): string => `unexpected token \`${tok}', expected \`)'`,
  condUnexpected: (tok: string): string => `unexpected token \`${tok}' in conditional command`,
  condSyntax: (): string => 'syntax error in conditional expression',
};

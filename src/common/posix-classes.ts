// The POSIX character classes of the C locale, as the text of a RegExp class
// (what goes inside `[...]`): the one table for globs, the shell's patterns and
// `=~`, and the ASCII regular expressions of grep, sed, awk and jq. Pure code
// every layer may use (docs/architecture.md).

export const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
  xdigit: '0-9A-Fa-f',
};

/** The table with bash's and Oniguruma's extra `[:word:]`. */
export const POSIX_CLASSES_WORD: Readonly<Record<string, string>> = { ...POSIX_CLASSES, word: '\\w' };

/** Whether `name` is a class of `table` (own names only: `[:constructor:]` is not one). */
export const isPosixClass = (table: Readonly<Record<string, string>>, name: string): boolean => Object.hasOwn(table, name);

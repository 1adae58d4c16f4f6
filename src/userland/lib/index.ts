// The shared userland library: import everything a command needs from here.

export { parseArgs, UsageError, type OptSpec, type ArgKind } from './args.js';
export { Cmd, command, Exit, VERSION, type Applet, type CommandDef } from './cmd.js';
export { Writer, WriteError } from './writer.js';
export { chunks, lines, join } from './reader.js';
export { countByte, isAscii, latin1, latin1Bytes } from './bytes.js';
export { quote, quoteaf, quotef, setQuoteLocale } from './quote.js';
export * from './fs.js';
export { openInput, closeInput, forEachInput, type OpenStyle } from './input.js';
export { applyMode } from './mode.js';
export { users, groups, userName, groupName } from './users.js';
export { tcgetattr, tcsetattr, winsize, setWinsize } from './tty.js';

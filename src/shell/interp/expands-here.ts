// Which commands the shell may expand before it starts them as a pipeline
// stage or a background job. bash forks first and expands in the child, so an
// expansion with an effect must run only there: expanded here as well, it ran
// twice and left its effect in the parent (`echo $((x++)) &` printed 2 and
// set x to 2; bash prints 1 and leaves x at 1). Any other word expands the
// same on either side, and expanding it here lets a program be spawned
// straight onto the pipe instead of through a child shell.

import type { Command, ParamExp, SimpleCommand } from '../syntax/index.js';

/** Parameters whose value depends on which process reads them, or on how often. */
const VOLATILE = new Set(['BASHPID', 'RANDOM', 'SRANDOM']);

/** A simple command whose words, assignments and redirection targets have no effect when expanded. */
export function expandsHere(cmd: Command): cmd is SimpleCommand {
  if (cmd.type !== 'SimpleCommand' || cmd.words.length === 0) return false;
  let pure = verdicts.get(cmd);
  if (pure === undefined) verdicts.set(cmd, (pure = !effectful([cmd.words, cmd.assigns, cmd.redirs])));
  return pure;
}
const verdicts = new WeakMap<SimpleCommand, boolean>();

/** Whether any node under `node` (an AST value: nodes, arrays, scalars) passes `test`. */
function anyNode(node: unknown, test: (n: { type?: unknown }) => boolean): boolean {
  if (Array.isArray(node)) return node.some((n) => anyNode(n, test));
  if (node === null || typeof node !== 'object') return false;
  return test(node as { type?: unknown }) || Object.values(node).some((n) => anyNode(n, test));
}

const isSubst = (n: { type?: unknown }): boolean => n.type === 'CmdSubst' || n.type === 'ProcSubst';

// Substitutions run commands; arithmetic can assign (also through a variable's text: x='y++').
const effectful = (node: unknown): boolean =>
  anyNode(node, (n) => isSubst(n) || n.type === 'ArithExp' || (n.type === 'ParamExp' && paramEffectful(n as ParamExp)));

/** Command or process substitutions anywhere in the command's words and assignments. */
export function substitutes(cmd: SimpleCommand): boolean {
  let found = substitutions.get(cmd);
  if (found === undefined) substitutions.set(cmd, (found = anyNode([cmd.words, cmd.assigns], isSubst)));
  return found;
}
const substitutions = new WeakMap<SimpleCommand, boolean>();

function paramEffectful(p: ParamExp): boolean {
  if (VOLATILE.has(p.name) || p.indirect) return true;
  // A subscript other than @, * or a number is arithmetic; so is a slice's offset.
  const index = p.index?.parts;
  if (index && !(index.length === 1 && index[0].type === 'Lit' && /^([@*]|\d+)$/.test(index[0].value))) return true;
  const op = p.op;
  return op !== null && (op.kind === 'slice' || (op.kind === 'default' && (op.op === '=' || op.op === '?')));
}

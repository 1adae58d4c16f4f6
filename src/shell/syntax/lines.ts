// Original line numbers for source that crosses as printed text. A child
// shell (subshell.ts) and a function carried to one (state.ts) get their code
// as printer output, whose layout differs from what was written (a group's
// body on lines of its own). The lines of the original tree go along and are
// put back on the re-parsed tree, node for node, so $LINENO, error messages,
// BASH_LINENO and `set -x` in the child name the lines of the script.
//
// The printer round-trips (print then parse gives the same tree), so walking
// both trees in the same order pairs their nodes. Keys are walked in their
// own order: nodes built outside the parser (alias expansion) list their
// child nodes in the parser's order, and sorting the keys of every node made
// the walk ten times slower. A tree whose node count differs keeps the lines
// it parsed with.
import type { Command, Stmt } from './ast.js';

/** Visit every node (object with a numeric `line`) under `node`, parents first. */
function walk(node: unknown, visit: (n: { line: number }) => void): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const x of node) walk(x, visit);
    return;
  }
  const rec = node as Record<string, unknown>;
  if (typeof rec.line === 'number') visit(rec as { line: number });
  for (const k in rec) {
    const v = rec[k];
    if (v !== null && typeof v === 'object') walk(v, visit);
  }
}

/** A command as the statement the child will parse it into (same line as the command). */
function asStmt(code: Stmt | Command): Stmt {
  return code.type === 'Stmt' ? code : { type: 'Stmt', cmd: code, background: false, line: code.line, col: code.col };
}

/** The lines of one statement's nodes, as differences from the previous one ('' for none). */
function encodeOne(st: Stmt): string {
  const out: string[] = [];
  let prev = 0;
  walk(st, (n) => {
    out.push(n.line === prev ? '' : String(n.line - prev));
    prev = n.line;
  });
  return out.join(',');
}

/** The lines of each statement the child will parse, in order (`;`-separated). */
export function encodeLines(code: Stmt[] | Command): string {
  return (Array.isArray(code) ? code : [code]).map((s) => encodeOne(asStmt(s))).join(';');
}

/** Puts encoded lines back on the statements parsed from the printed text, one statement after another. */
export class LineRestorer {
  private readonly groups: string[];
  private next = 0;

  constructor(encoded: string) {
    this.groups = encoded === '' ? [] : encoded.split(';');
  }

  /** Give `stmts` (the next statements parsed) their original lines. */
  restore(stmts: Stmt[]): void {
    for (const st of stmts) {
      const group = this.groups[this.next++];
      if (group === undefined) return;
      restoreOne(st, group);
    }
  }
}

/** Give one re-parsed statement the lines in `group` (from encodeOne); a tree of another shape is left alone. */
export function restoreOne(st: Stmt, group: string): void {
  const deltas = group.split(',');
  const nodes: { line: number }[] = [];
  walk(st, (n) => nodes.push(n));
  if (nodes.length !== deltas.length) return;
  let line = 0;
  nodes.forEach((n, k) => {
    line += deltas[k] === '' ? 0 : Number(deltas[k]);
    n.line = line;
  });
}

/** Encode one statement (for a function definition carried as text). */
export function encodeStmtLines(code: Stmt | Command): string {
  return encodeOne(asStmt(code));
}

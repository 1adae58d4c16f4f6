// find's expression language: primaries, ! / -not, -a / -and (or nothing),
// -o / -or, the comma, and parentheses; global options (-maxdepth, -depth...)
// are accepted anywhere. The result is a closure tree.

import { quote } from '../../../userland/lib/index.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { compilePrintf } from './find-printf.js';
import { deleteNode, execMany, execOne, printNode } from './find-actions.js';
import { ageTest, emptyTest, nameTest, newerTest, ownerTest, pathTest, permTest, sizeTest, typeTest } from './find-tests.js';
import { FindError, Quit, type FindState, type Node } from './find-types.js';

const TRUE: Node = () => true;

/** A stray word naming an existing file was probably a glob the shell expanded. */
function exists(s: FindState, p: string): boolean {
  try {
    s.cmd.sys.lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Actions that turn off the implicit -print. */
const ACTIONS = new Set(['-print', '-print0', '-printf', '-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-ls']);

/** Tokens that start an expression rather than name a starting point. */
export const isExprStart = (a: string): boolean => (a[0] === '-' && a.length > 1) || a === '!' || a === '(' || a === ')' || a === ',';

export interface Parsed {
  root: Node;
  hasAction: boolean;
  usesPrune: boolean;
  usesDelete: boolean;
}

export class Parser {
  private i = 0;
  private lastPred = '';
  hasAction = false;
  usesPrune = false;
  usesDelete = false;
  explicitDepth = false;

  /** A UTF-8 locale: -name and -path globs match characters, not bytes. */
  private readonly utf8: boolean;

  constructor(
    private readonly toks: string[],
    private readonly s: FindState,
  ) {
    this.utf8 = isUtf8Locale(s.cmd.os.env);
  }

  parse(): Parsed {
    const root = this.toks.length === 0 ? TRUE : this.comma();
    if (this.i < this.toks.length) {
      if (this.toks[this.i] === ')') throw new FindError("you have too many ')'");
      throw new FindError(`unexpected extra predicate '${this.toks[this.i]}'`);
    }
    return { root, hasAction: this.hasAction, usesPrune: this.usesPrune, usesDelete: this.usesDelete };
  }

  private peek(): string | undefined {
    return this.toks[this.i];
  }

  private comma(): Node {
    let left = this.or();
    while (this.peek() === ',') {
      this.i++;
      const l = left;
      const r = this.operand(',', () => this.or());
      left = (e) => (l(e), r(e));
    }
    return left;
  }

  private or(): Node {
    let left = this.and();
    while (this.peek() === '-o' || this.peek() === '-or') {
      const op = this.toks[this.i++];
      const l = left;
      const r = this.operand(op, () => this.and());
      left = (e) => l(e) || r(e);
    }
    return left;
  }

  private and(): Node {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t === undefined || t === ')' || t === '-o' || t === '-or' || t === ',') return left;
      if (t === '-a' || t === '-and') this.i++;
      const l = left;
      const r = this.operand(t, () => this.unary());
      left = (e) => l(e) && r(e);
    }
  }

  /** The right side of a binary operator: something must follow. */
  private operand(op: string, f: () => Node): Node {
    const t = this.peek();
    if (t === undefined) throw new FindError(`invalid expression; you have used a binary operator '${op}' with nothing after it.`);
    if (t === ')' ) throw new FindError(`invalid expression; you have used a binary operator '${op}' with nothing after it.`);
    return f();
  }

  private unary(): Node {
    const t = this.toks[this.i];
    if (t === '!' || t === '-not') {
      this.i++;
      if (this.peek() === undefined) throw new FindError(`expected an expression after '${t}'`);
      const n = this.unary();
      return (e) => !n(e);
    }
    if (t === '(') {
      this.i++;
      if (this.peek() === ')') throw new FindError("invalid expression; empty parentheses are not allowed.");
      const n = this.comma();
      if (this.peek() !== ')') throw new FindError("invalid expression; I was expecting to find a ')' somewhere but did not see one.");
      this.i++;
      return n;
    }
    if (t === ')') throw new FindError("invalid expression; you have too many ')'");
    if (t === '-o' || t === '-or' || t === '-a' || t === '-and' || t === ',') {
      throw new FindError(`invalid expression; you have used a binary operator '${t}' with nothing before it.`);
    }
    this.i++;
    return this.primary(t);
  }

  private arg(pred: string): string {
    if (this.i >= this.toks.length) throw new FindError(`missing argument to \`${pred}'`);
    return this.toks[this.i++];
  }

  private depthArg(pred: string): number {
    const a = this.arg(pred);
    if (!/^\d+$/.test(a)) throw new FindError(`Expected a positive decimal integer argument to ${pred}, but got ${quote(a)}`);
    return Number(a);
  }

  private primary(t: string): Node {
    const s = this.s;
    if (t[0] !== '-') {
      const hint = this.lastPred && exists(s, t) ? `\nfind: possible unquoted pattern after predicate \`${this.lastPred}'?` : '';
      throw new FindError(`paths must precede expression: \`${t}'${hint}`);
    }
    this.lastPred = t;
    if (ACTIONS.has(t)) this.hasAction = true;
    switch (t) {
      case '-name': return nameTest(this.arg(t), false, this.utf8);
      case '-iname': return nameTest(this.arg(t), true, this.utf8);
      case '-path': case '-wholename': return pathTest(this.arg(t), false, this.utf8);
      case '-ipath': case '-iwholename': return pathTest(this.arg(t), true, this.utf8);
      case '-type': return typeTest(this.arg(t));
      case '-size': return sizeTest(this.arg(t));
      case '-mtime': return ageTest(s, this.arg(t), t, 'mtimeMs', 86_400_000);
      case '-atime': return ageTest(s, this.arg(t), t, 'atimeMs', 86_400_000);
      case '-ctime': return ageTest(s, this.arg(t), t, 'ctimeMs', 86_400_000);
      case '-mmin': return ageTest(s, this.arg(t), t, 'mtimeMs', 60_000);
      case '-amin': return ageTest(s, this.arg(t), t, 'atimeMs', 60_000);
      case '-cmin': return ageTest(s, this.arg(t), t, 'ctimeMs', 60_000);
      case '-newer': return newerTest(s, this.arg(t));
      case '-perm': return permTest(this.arg(t), (m) => s.cmd.warn(m));
      case '-user': return ownerTest(s, this.arg(t), 'user');
      case '-group': return ownerTest(s, this.arg(t), 'group');
      case '-uid': return ownerTest(s, String(this.depthArg(t)), 'user');
      case '-gid': return ownerTest(s, String(this.depthArg(t)), 'group');
      case '-empty': return emptyTest;
      case '-true': return TRUE;
      case '-false': return () => false;
      case '-print': return printNode(s, '\n');
      case '-print0': return printNode(s, '\0');
      case '-printf': {
        const f = compilePrintf(this.arg(t), (m) => s.cmd.warn(m));
        return (e) => {
          s.cmd.out.write(f(e).text);
          return true;
        };
      }
      case '-prune':
        this.usesPrune = true;
        return (e) => {
          e.prune = true;
          return true;
        };
      case '-quit':
        return () => {
          s.quit = true;
          throw new Quit();
        };
      case '-delete':
        this.usesDelete = true;
        s.depthFirst = true;
        return deleteNode(s);
      case '-exec': case '-execdir': return this.exec(t);
      // Global options: they act wherever they appear and are always true.
      case '-maxdepth': s.maxdepth = this.depthArg(t); return TRUE;
      case '-mindepth': s.mindepth = this.depthArg(t); return TRUE;
      case '-depth': case '-d': s.depthFirst = true; this.explicitDepth = true; return TRUE;
      case '-xdev': case '-mount': s.xdev = true; return TRUE;
      case '-follow': s.follow = 'L'; return TRUE;
      case '-noleaf': case '-ignore_readdir_race': case '-noignore_readdir_race': return TRUE;
      default: throw new FindError(`unknown predicate \`${t}'`);
    }
  }

  /** -exec CMD [ARG]... ; or -exec CMD [ARG]... {} + */
  private exec(t: string): Node {
    const start = this.i;
    for (let j = start; j < this.toks.length; j++) {
      const a = this.toks[j];
      if (a === ';' && j > start) {
        this.i = j + 1;
        return execOne(this.s, this.toks.slice(start, j), t === '-execdir');
      }
      if (a === '+' && j > start + 1 && this.toks[j - 1] === '{}') {
        this.i = j + 1;
        return execMany(this.s, this.toks.slice(start, j - 1), t === '-execdir');
      }
    }
    throw new FindError(`missing argument to \`${t}'`);
  }
}

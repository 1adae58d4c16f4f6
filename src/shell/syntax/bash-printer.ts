// Function definitions in bash's own layout, for `type f` and `declare -f`:
// `f () \n{ \n    cmd;\n    ...\n}`, with bash's spacing of redirections, its
// `;` placement and its quirks around here-documents. Unlike print() (which must
// re-parse to the same tree), this output only has to look like bash's.
import type { Command, FunctionDef, Redirect, Stmt, WordPart } from './ast.js';
import { Printer, heredocDelim, type Ctx } from './printer.js';

const INDENT = '    ';

class BashPrinter extends Printer {
  /** One level of indentation: none for the environment form of exported functions. */
  constructor(private unit = INDENT) {
    super();
  }

  /** Inside a function definition bash puts each `;`-separated command on its own line. */
  private fnDepth = 0;
  private docs: Redirect[] = [];
  /** Here-doc bodies were just printed: bash leaves out the next `;` separator. */
  private wasHeredoc = false;

  /** The pending here-doc bodies, each starting on a new line. */
  private flush(): string {
    if (this.docs.length === 0) return '';
    let s = '\n';
    for (const r of this.docs) s += this.heredocBody(r);
    this.docs = [];
    this.wasHeredoc = true;
    return s;
  }

  /** bash adds `;` before `then`, `do`, `fi`... unless the text already ends a line or with `&`. */
  private semi(s: string): string {
    return /[&\n]$/.test(s) ? s : s + ';';
  }

  list(stmts: Stmt[], indent: string): string {
    let s = '';
    stmts.forEach((st, k) => {
      s += this.cmd(st.cmd, indent);
      const last = k === stmts.length - 1;
      if (st.background) {
        s += ' &';
        if (!last) s += this.docs.length > 0 ? this.flush() + '  ' : ' ';
        return;
      }
      if (last) return;
      if (this.docs.length > 0) {
        s += this.flush();
        this.wasHeredoc = false;
      } else if (this.wasHeredoc) {
        this.wasHeredoc = false;
      } else {
        s += ';';
      }
      s += this.fnDepth > 0 ? '\n' + indent : ' ';
    });
    return s;
  }

  /** A `{ ... }` body: multi-line inside function definitions, one line elsewhere. */
  private group(stmts: Stmt[], indent: string, inner = indent + this.unit): string {
    if (this.fnDepth === 0) return '{ ' + this.semi(this.list(stmts, indent) + this.flush()) + ' }';
    return '{ \n' + inner + this.list(stmts, inner) + this.flush() + '\n' + indent + '}';
  }

  /** `do ... done` of the loops. */
  private loopBody(body: Stmt[], indent: string): string {
    const inner = indent + this.unit;
    return '\n' + inner + this.semi(this.list(body, inner) + this.flush()) + '\n' + indent + 'done';
  }

  private redirs(rs: Redirect[]): string {
    return rs.map((r) => ' ' + this.redir(r)).join('');
  }

  cmd(c: Command, indent: string): string {
    const inner = indent + this.unit;
    switch (c.type) {
      case 'SimpleCommand':
        return [...c.assigns.map((a) => this.assign(a)), ...c.words.map((w) => this.word(w)), ...c.redirs.map((r) => this.redir(r))].join(' ');
      case 'DeclCommand':
        return [
          ...c.assigns.map((a) => this.assign(a)),
          c.variant,
          ...c.args.map((a) => (a.type === 'Assign' ? this.assign(a) : this.word(a))),
          ...c.redirs.map((r) => this.redir(r)),
        ].join(' ');
      case 'Pipeline': {
        let s = c.time !== null ? c.time + ' ' : '';
        if (c.negated) s += '! ';
        c.cmds.forEach((x, k) => {
          if (k > 0) s += this.docs.length > 0 ? ' |' + this.flush() + '  ' : ' | ';
          s += this.cmd(x, indent);
          // `a |& b` is bash's shorthand for `a 2>&1 | b`, and it prints the long form.
          if (k < c.cmds.length - 1 && c.pipeAll[k]) s += ' 2>&1';
        });
        return s.trimEnd();
      }
      case 'AndOr': {
        const left = this.cmd(c.left, indent) + ' ' + c.op + ' ';
        return left + (this.docs.length > 0 ? this.flush() + ' ' : '') + this.cmd(c.right, indent);
      }
      case 'Group':
        return this.group(c.stmts, indent) + this.redirs(c.redirs);
      case 'Subshell':
        return '( ' + this.list(c.stmts, indent) + this.flush() + ' )' + this.redirs(c.redirs);
      case 'If': {
        // bash keeps `elif` as an `if` nested in the `else` branch, and prints it so.
        const [first, ...rest] = c.clauses;
        let s = 'if ' + this.semi(this.list(first.cond, indent) + this.flush()) + ' then\n' + inner + this.list(first.body, inner) + this.flush();
        if (rest.length > 0 || c.elseBody !== null) {
          const elseText = rest.length > 0
            ? this.cmd({ ...c, clauses: rest, redirs: [] }, inner)
            : this.list(c.elseBody ?? [], inner) + this.flush();
          s = this.semi(s) + '\n' + indent + 'else\n' + inner + elseText;
        }
        return this.semi(s) + '\n' + indent + 'fi' + this.redirs(c.redirs);
      }
      case 'While':
        return (c.until ? 'until ' : 'while ') + this.semi(this.list(c.cond, indent) + this.flush()) + ' do' +
          this.loopBody(c.body, indent) + this.redirs(c.redirs);
      case 'For': {
        const words = c.words === null ? ' "$@"' : c.words.map((w) => ' ' + this.word(w)).join('');
        return (c.select ? 'select ' : 'for ') + c.name + ' in' + words + ';\n' + indent + 'do' + this.loopBody(c.body, indent) + this.redirs(c.redirs);
      }
      case 'ArithFor': {
        // Each expression as written, leading blanks dropped; an empty one is `1`.
        const e = (a: typeof c.init): string => (a === null ? '1' : this.parts(a.word.parts, 'raw').replace(/^\s+/, '') || '1');
        return `for ((${e(c.init)}; ${e(c.cond)}; ${e(c.step)}))\n` + indent + 'do' + this.loopBody(c.body, indent) + this.redirs(c.redirs);
      }
      case 'Case': {
        const body = inner + this.unit;
        let s = 'case ' + this.word(c.word) + ' in ';
        for (const item of c.items) {
          s += '\n' + inner + item.patterns.map((p) => this.word(p)).join(' | ') + ')\n';
          if (item.body.length > 0) s += body + this.list(item.body, body) + this.flush();
          s += '\n' + inner + item.term;
        }
        return s + '\n' + indent + 'esac' + this.redirs(c.redirs);
      }
      case 'ArithCmd':
        return '((' + this.parts(c.expr.word.parts, 'raw') + '))' + this.redirs(c.redirs);
      case 'TestCmd':
        return '[[ ' + this.cond(c.expr) + ' ]]' + this.redirs(c.redirs);
      case 'FunctionDef':
        return 'function ' + this.fn(c, indent);
    }
  }

  /** `name () ` and the body, which bash always shows as a `{ }` group. */
  fn(def: FunctionDef, indent: string): string {
    return def.name + ' () \n' + indent + this.fnBody(def, indent);
  }

  fnBody(def: FunctionDef, indent: string, inner?: string): string {
    this.fnDepth++;
    const b = def.body;
    const body = b.type === 'Group'
      ? this.group(b.stmts, indent, inner) + this.redirs(b.redirs)
      : this.group([{ type: 'Stmt', cmd: b, background: false, line: b.line, col: b.col }], indent, inner);
    this.fnDepth--;
    return body;
  }

  /** bash's spacing: `> file`, `2> file`, `1>&2` (dup targets get their default fd), `0>&-`. */
  private redir(r: Redirect): string {
    const fd = r.fdVar !== null ? `{${r.fdVar}}` : r.fd !== null ? String(r.fd) : '';
    const target = this.word(r.target);
    if (r.op === '<<' || r.op === '<<-') {
      this.docs.push(r);
      // bash shows any quoted delimiter single-quoted (`<<\E`, `<<"E"` -> `<<'E'`).
      return fd + r.op + (r.quoted ? `'${heredocDelim(r.target)}'` : target);
    }
    if (r.op === '<&' || r.op === '>&') {
      const dflt = fd !== '' ? fd : r.op === '<&' ? '0' : '1';
      if (target === '-') return dflt + '>&-';
      if (/^\d+-?$/.test(target)) return dflt + r.op + target;
      return fd + r.op + target;
    }
    return fd + r.op + ' ' + target;
  }

  /** A command substitution's list, as bash re-prints it (on one line where it can). */
  private sublist(stmts: Stmt[]): string {
    const [depth, docs, was, unit] = [this.fnDepth, this.docs, this.wasHeredoc, this.unit];
    this.fnDepth = 0;
    this.docs = [];
    this.unit = INDENT;
    const s = this.list(stmts, '') + this.flush();
    [this.fnDepth, this.docs, this.wasHeredoc, this.unit] = [depth, docs, was, unit];
    return s;
  }

  protected override part(p: WordPart, ctx: Ctx, next: WordPart | undefined): string {
    switch (p.type) {
      // bash decodes `$'...'` when parsing and shows the result single-quoted.
      case 'AnsiQuoted': return `'${p.value.replace(/'/g, "'\\''")}'`;
      case 'DblQuoted': return '"' + this.parts(p.parts, 'dq') + '"';
      case 'CmdSubst': {
        if (p.backquote) return super.part(p, ctx, next);
        const body = this.sublist(p.stmts);
        return '$(' + (body.startsWith('(') ? ' ' : '') + body + ')';
      }
      case 'ProcSubst': return p.op + '(' + this.sublist(p.stmts) + ')';
      default: return super.part(p, ctx, next);
    }
  }
}

/** A function definition as `declare -f` and `type` show it (no trailing newline). */
export function printFunction(def: FunctionDef): string {
  return new BashPrinter().fn(def, '');
}

/**
 * The value of `BASH_FUNC_name%%` for an exported function, as bash writes it:
 * `() {  cmd;\n cmd\n}` (one-space indentation, the first command on the `{` line).
 */
export function printFunctionEnv(def: FunctionDef): string {
  return '() ' + new BashPrinter('').fnBody(def, '', ' ').replace(/^\{ \n/, '{ ');
}

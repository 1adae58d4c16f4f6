// AST back to shell source (for `type f`, `declare -f`, and round-trip tests).
// Output re-parses to the same tree. Here-doc bodies are emitted after the
// first newline that follows their redirection, as the grammar requires.
import type {
  Arith, Assign, Command, Cond, Redirect, Stmt, Word, WordPart, AnyNode, CaseItem,
} from './ast.js';

const INDENT = '    ';

/** Where a word is printed: decides which characters of literal text need escaping. */
export type Ctx = 'word' | 'dq' | 'heredoc' | 'raw' | 'paramDq';

/** The here-doc delimiter as the shell compares it (quotes removed). */
export function heredocDelim(w: Word): string {
  let s = '';
  for (const p of w.parts) {
    if (p.type === 'Lit' || p.type === 'Escaped' || p.type === 'SglQuoted') s += p.value;
    else if (p.type === 'DblQuoted') s += p.parts.map((q) => (q.type === 'Lit' ? q.value : '')).join('');
    else if (p.type === 'AnsiQuoted') s += p.value;
    else if (p.type === 'Tilde') s += '~' + p.user;
  }
  return s;
}

/** Exported so the bash-layout printer (bash-printer.ts) can reuse the word printing. */
export class Printer {
  private pending: Redirect[] = [];

  /** A newline, preceded by the bodies of pending here-docs (which go right after it). */
  private nl(indent: string): string {
    let s = '\n';
    for (const r of this.pending) s += this.heredocBody(r);
    this.pending = [];
    return s + indent;
  }

  protected heredocBody(r: Redirect): string {
    const body = r.unparsed !== undefined ? r.unparsed : r.heredoc === null ? '' : r.quoted ? r.heredoc.parts.map((p) => (p.type === 'Lit' ? p.value : '')).join('') : this.parts(r.heredoc.parts, 'heredoc');
    // A body not ending in a newline was delimited by end of file: keep it that way.
    if (body !== '' && !body.endsWith('\n')) return body;
    return body + heredocDelim(r.target) + '\n';
  }

  /** Statements one per line (for compound bodies). */
  block(stmts: Stmt[], indent: string): string {
    let s = '';
    stmts.forEach((st, k) => {
      if (k > 0) s += this.nl(indent);
      s += this.stmt(st, indent);
    });
    return s;
  }

  /** Statements on one line (`a; b & c`). */
  inline(stmts: Stmt[], indent: string): string {
    let s = '';
    stmts.forEach((st, k) => {
      if (k > 0) s += stmts[k - 1].background ? ' ' : '; ';
      s += this.stmt(st, indent);
    });
    return s;
  }

  stmt(st: Stmt, indent: string): string {
    return this.command(st.cmd, indent) + (st.background ? ' &' : '');
  }

  command(c: Command, indent: string): string {
    const inner = indent + INDENT;
    const redirs = (rs: Redirect[]): string => rs.map((r) => ' ' + this.redirect(r)).join('');
    switch (c.type) {
      case 'SimpleCommand': {
        const items = [...c.assigns.map((a) => this.assign(a)), ...c.words.map((w) => this.word(w))];
        const rs = c.redirs.map((r) => this.redirect(r));
        return [...items, ...rs].join(' ');
      }
      case 'DeclCommand': {
        const items = [
          ...c.assigns.map((a) => this.assign(a)),
          c.variant,
          ...c.args.map((a) => (a.type === 'Assign' ? this.assign(a) : this.word(a))),
        ];
        return [...items, ...c.redirs.map((r) => this.redirect(r))].join(' ');
      }
      case 'Pipeline': {
        // A bare `! !` (bash accepts it) has nothing else to print from.
        if (c.cmds.length === 0 && !c.negated && c.time === null) return '! !';
        let s = c.time !== null ? c.time + ' ' : '';
        if (c.negated) s += '! ';
        c.cmds.forEach((x, k) => {
          if (k > 0) s += c.pipeAll[k - 1] ? ' |& ' : ' | ';
          s += this.command(x, indent);
        });
        return s.trimEnd();
      }
      case 'AndOr':
        return `${this.command(c.left, indent)} ${c.op} ${this.command(c.right, indent)}`;
      case 'Group':
        return '{' + this.nl(inner) + this.block(c.stmts, inner) + this.nl(indent) + '}' + redirs(c.redirs);
      case 'Subshell':
        return '(' + this.nl(inner) + this.block(c.stmts, inner) + this.nl(indent) + ')' + redirs(c.redirs);
      case 'If': {
        let s = '';
        c.clauses.forEach((cl, k) => {
          s += (k === 0 ? 'if ' : this.nl(indent) + 'elif ') + this.inline(cl.cond, indent) + this.sep(cl.cond) + 'then';
          s += this.nl(inner) + this.block(cl.body, inner);
        });
        if (c.elseBody !== null) s += this.nl(indent) + 'else' + this.nl(inner) + this.block(c.elseBody, inner);
        return s + this.nl(indent) + 'fi' + redirs(c.redirs);
      }
      case 'While':
        return (c.until ? 'until ' : 'while ') + this.inline(c.cond, indent) + this.sep(c.cond) + 'do' +
          this.nl(inner) + this.block(c.body, inner) + this.nl(indent) + 'done' + redirs(c.redirs);
      case 'For': {
        let s = (c.select ? 'select ' : 'for ') + c.name;
        if (c.words !== null) s += ' in' + c.words.map((w) => ' ' + this.word(w)).join('');
        return s + ';' + ' do' + this.nl(inner) + this.block(c.body, inner) + this.nl(indent) + 'done' + redirs(c.redirs);
      }
      case 'ArithFor': {
        const e = (a: typeof c.init): string => (a === null ? '' : this.parts(a.word.parts, 'raw'));
        return `for ((${e(c.init)};${e(c.cond)};${e(c.step)})); do` + this.nl(inner) + this.block(c.body, inner) +
          this.nl(indent) + 'done' + redirs(c.redirs);
      }
      case 'Case': {
        let s = 'case ' + this.word(c.word) + ' in';
        for (const item of c.items) s += this.nl(inner) + this.caseItem(item, inner);
        return s + this.nl(indent) + 'esac' + redirs(c.redirs);
      }
      case 'ArithCmd':
        return '((' + this.parts(c.expr.word.parts, 'raw') + '))' + redirs(c.redirs);
      case 'TestCmd':
        return '[[ ' + this.cond(c.expr) + ' ]]' + redirs(c.redirs);
      case 'FunctionDef':
        return (c.keyword ? 'function ' + c.name + ' ' : c.name + '() ') + this.command(c.body, indent);
    }
  }

  /** `;` before `then`/`do`, unless the list already ends with `&`. */
  private sep(list: Stmt[]): string {
    return list.length > 0 && list[list.length - 1].background ? ' ' : '; ';
  }

  private caseItem(item: CaseItem, indent: string): string {
    const inner = indent + INDENT;
    let s = item.patterns.map((p) => this.word(p)).join(' | ') + ')';
    if (item.body.length > 0) s += this.nl(inner) + this.block(item.body, inner);
    return s + this.nl(inner) + item.term;
  }

  cond(c: Cond): string {
    switch (c.type) {
      case 'CondWord': return this.word(c.word);
      case 'CondUnary': return `${c.op} ${this.word(c.arg)}`;
      case 'CondBinary': return `${this.word(c.left)} ${c.op} ${this.word(c.right)}`;
      case 'CondNot': return '! ' + this.cond(c.arg);
      case 'CondParen': return '( ' + this.cond(c.arg) + ' )';
      case 'CondAndOr': return `${this.cond(c.left)} ${c.op} ${this.cond(c.right)}`;
    }
  }

  redirect(r: Redirect): string {
    const fd = r.fdVar !== null ? `{${r.fdVar}}` : r.fd !== null ? String(r.fd) : '';
    if (r.op === '<<' || r.op === '<<-') this.pending.push(r);
    // `< <(cmd)` must not print as `<<(cmd)`.
    const gap = r.target.parts[0]?.type === 'ProcSubst' ? ' ' : '';
    return fd + r.op + gap + this.word(r.target);
  }

  assign(a: Assign): string {
    let s = a.name;
    if (a.index !== null) s += '[' + this.parts(a.index.parts, 'raw') + ']';
    s += a.append ? '+=' : '=';
    if (a.array !== null) {
      return s + '(' + a.array.map((e) => (e.index !== null ? '[' + this.parts(e.index.parts, 'raw') + (e.append ? ']+=' : ']=') : '') + this.word(e.value)).join(' ') + ')';
    }
    return s + (a.value === null ? '' : this.word(a.value));
  }

  word(w: Word): string {
    return this.parts(w.parts, 'word');
  }

  parts(parts: WordPart[], ctx: Ctx): string {
    let s = '';
    parts.forEach((p, k) => {
      s += this.part(p, ctx, parts[k + 1]);
    });
    return s;
  }

  private lit(v: string, ctx: Ctx): string {
    if (ctx === 'word' || ctx === 'raw') return v;
    // Inside double quotes / here-docs only `$`, backquote, `"`, `\` (and `}` in a `${}` operand) are special.
    const specials = ctx === 'heredoc' ? '$`' : ctx === 'paramDq' ? '$`"}' : '$`"';
    let out = '';
    for (let k = 0; k < v.length; k++) {
      const c = v[k];
      if (c === '\\') {
        const n = v[k + 1];
        const escapes = n === undefined || n === '\\' || n === '\n' || specials.includes(n);
        out += escapes ? '\\\\' : '\\';
      } else if (specials.includes(c)) {
        out += '\\' + c;
      } else {
        out += c;
      }
    }
    return out;
  }

  protected part(p: WordPart, ctx: Ctx, next: WordPart | undefined): string {
    const inDq = ctx === 'dq' || ctx === 'heredoc' || ctx === 'paramDq';
    switch (p.type) {
      case 'Lit': return this.lit(p.value, ctx);
      case 'Escaped': return '\\' + p.value;
      case 'SglQuoted': return `'${p.value}'`;
      case 'AnsiQuoted': return `$'${p.raw}'`;
      case 'DblQuoted': return (p.locale ? '$"' : '"') + this.parts(p.parts, 'dq') + '"';
      case 'Tilde': return '~' + p.user;
      case 'ExtGlob': return `${p.op}(${p.pattern})`;
      case 'BadSubst': return p.text;
      case 'ProcSubst': return p.op + '(' + this.sub(p.stmts) + ')';
      case 'CmdSubst': {
        if (!p.backquote) {
          const body = this.sub(p.stmts);
          return '$(' + (body.startsWith('(') ? ' ' : '') + body + ')';
        }
        const body = p.unparsed ?? this.sub(p.stmts);
        let esc = '';
        for (const c of body) esc += c === '\\' || c === '`' || (c === '"' && inDq) ? '\\' + c : c;
        return '`' + esc + '`';
      }
      case 'ArithExp':
        return p.bracket ? '$[' + this.parts(p.word.parts, 'raw') + ']' : '$((' + this.parts(p.word.parts, 'raw') + '))';
      case 'ParamExp': {
        if (p.short) {
          const glue = next?.type === 'Lit' && /^[A-Za-z0-9_]/.test(next.value) && /^[A-Za-z_]/.test(p.name);
          if (!glue) return '$' + p.name;
        }
        const operandCtx: Ctx = inDq ? 'paramDq' : 'raw';
        let s = '${' + (p.length ? '#' : '') + (p.indirect ? '!' : '') + p.name;
        if (p.index !== null) s += '[' + this.parts(p.index.parts, 'raw') + ']';
        if (p.names !== null) s += p.names;
        const o = p.op;
        if (o !== null) {
          const w = (x: Word): string => this.parts(x.parts, operandCtx);
          switch (o.kind) {
            case 'default': s += (o.colon ? ':' : '') + o.op + w(o.word); break;
            case 'trim': s += o.op + w(o.pattern); break;
            case 'replace': s += o.op + w(o.pattern) + (o.with !== null ? '/' + w(o.with) : ''); break;
            case 'slice': s += ':' + w(o.offset) + (o.length !== null ? ':' + w(o.length) : ''); break;
            case 'case': s += o.op + (o.pattern !== null ? w(o.pattern) : ''); break;
            case 'transform': s += '@' + o.op; break;
          }
        }
        return s + '}';
      }
    }
  }

  /** A nested statement list (`$( )`, `<( )`), keeping outer pending here-docs for the outer line. */
  private sub(stmts: Stmt[]): string {
    const saved = this.pending;
    this.pending = [];
    let s = this.inline(stmts, '');
    if (this.pending.length > 0) s += this.nl('');
    this.pending = saved;
    return s;
  }

  arith(a: Arith): string {
    switch (a.type) {
      case 'ArithNum': return a.value;
      case 'ArithVar': return a.name + (a.index !== null ? '[' + this.arith(a.index) + ']' : '');
      case 'ArithWord': return this.word(a.word);
      case 'ArithUnary': {
        const x = this.arithOperand(a.arg);
        return a.postfix ? x + a.op : a.op + (a.arg.type === 'ArithUnary' && !a.arg.postfix ? ' ' : '') + x;
      }
      case 'ArithBinary': return `${this.arithOperand(a.left)} ${a.op} ${this.arithOperand(a.right)}`;
      case 'ArithAssign': return `${this.arith(a.target)} ${a.op} ${this.arithOperand(a.value)}`;
      case 'ArithCond': return `${this.arithOperand(a.test)} ? ${this.arithOperand(a.then)} : ${this.arithOperand(a.else)}`;
    }
  }

  /** Compound operands are parenthesised, so no precedence table is needed to print. */
  private arithOperand(a: Arith): string {
    const s = this.arith(a);
    return a.type === 'ArithBinary' || a.type === 'ArithAssign' || a.type === 'ArithCond' ? '(' + s + ')' : s;
  }

  /** Top-level entry: heredocs pending at the very end get their bodies too. */
  finish(s: string): string {
    if (this.pending.length > 0) s += this.nl('');
    return s;
  }
}

/** Shell source for a script, statement, command, word, or arithmetic/conditional node. */
export function print(node: AnyNode): string {
  const p = new Printer();
  switch (node.type) {
    case 'Script': {
      const body = p.block(node.stmts, '');
      const s = p.finish(body);
      // After here-doc bodies the text already ends as it must (an EOF-delimited body has no newline).
      return s !== body || node.stmts.length === 0 ? s : s + '\n';
    }
    case 'Stmt': return p.finish(p.stmt(node, ''));
    case 'Word': return p.word(node);
    case 'Redirect': return p.finish(p.redirect(node));
    case 'Assign': return p.assign(node);
    case 'ArrayElem': return (node.index !== null ? '[' + p.parts(node.index.parts, 'raw') + ']=' : '') + p.word(node.value);
    case 'CaseItem': return p.finish(node.patterns.map((w) => p.word(w)).join(' | ') + ') ' + p.inline(node.body, '') + ' ' + node.term);
    case 'IfClause': return p.finish(p.inline(node.cond, '') + '; then ' + p.inline(node.body, ''));
    case 'ArithNum': case 'ArithVar': case 'ArithWord': case 'ArithUnary': case 'ArithBinary': case 'ArithAssign': case 'ArithCond':
      return p.arith(node);
    case 'CondWord': case 'CondUnary': case 'CondBinary': case 'CondNot': case 'CondAndOr': case 'CondParen':
      return p.cond(node);
    case 'Lit': case 'Escaped': case 'SglQuoted': case 'AnsiQuoted': case 'DblQuoted': case 'Tilde': case 'ParamExp':
    case 'BadSubst': case 'CmdSubst': case 'ArithExp': case 'ProcSubst': case 'ExtGlob':
      return p.parts([node], 'word');
    default:
      return p.finish(p.command(node, ''));
  }
}

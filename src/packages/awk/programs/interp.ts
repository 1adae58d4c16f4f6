// The tree-walking interpreter: values, fields and records, statements and
// expressions. Builtins live in builtins.ts, streams in io.ts.

import { SysError, strerror } from '../../../abi/errno.js';
import type { Expr, Func, LValue, Program, Ref, Rule, Stmt } from './ast.js';
import { callBuiltin } from './builtins.js';
import { chars } from './chars.js';
import { AwkFatal, ExitSignal, NextFileSignal, NextSignal, ReturnSignal } from './errors.js';
import { fpatSplit, parseWidths, widthSplit, type Width } from './fields.js';
import { fmtNum, FormatError, sprintf } from './format.js';
import { Input } from './input.js';
import { RecordReader, Streams } from './io.js';
import { G, SPECIALS } from './parser.js';
import { compile, RegexError, test, type Rx } from './regex.js';
import { caseCompare, sortedKeys } from './sort.js';
import { input, isNumeric, numToStr, StrNum, toBool, toNum, UNASSIGNED, UNINIT, type AwkArray, type Cell, type Val } from './value.js';
import { latin1Bytes as strToBytes } from '../../../userland/lib/bytes.js';
import { BUILTINS } from './lexer.js';
import { UTC, type Zone } from '../../../userland/lib/tz.js';

const BREAK = 1;
const CONTINUE = 2;

/** How records split into fields: the last of FS, FPAT, FIELDWIDTHS assigned (gawk's PROCINFO["FS"]). */
export type FieldMode = 'FS' | 'FPAT' | 'FIELDWIDTHS';

export class Interp {
  readonly g: Cell[];
  frame: Cell[] = [];
  private depth = 0;
  record = '';
  fields: string[] = [''];
  private split = true;
  private ranges: boolean[];
  line = 0;
  readonly main: Input;
  readonly slots: Map<string, number>;
  seed = 0;
  prevSeed = 0;
  randState = 0;
  /** Report `warning: MSG` (set by the caller, who knows the program's name). */
  warn: (msg: string) => void = () => {};
  /** --sandbox: no system(), no redirections. */
  sandbox = false;
  /** IGNORECASE is on (gawk mode only). */
  icase = false;
  fieldMode: FieldMode = 'FS';
  /** The local time zone of strftime() and mktime() (TZ at start-up). */
  zone: Zone = UTC;
  private widths: Width[] = [];
  readonly hasBeginFile: boolean;
  readonly hasEndFile: boolean;

  constructor(
    readonly prog: Program,
    readonly io: Streams,
    mainInput: (it: Interp) => Input,
    /** gawk's extensions; off under --traditional and --posix. */
    readonly gawk = true,
  ) {
    this.hasBeginFile = prog.rules.some((r) => r.kind === 'beginfile');
    this.hasEndFile = prog.rules.some((r) => r.kind === 'endfile');
    this.g = prog.globals.map(() => UNINIT as Cell);
    this.slots = new Map(prog.globals.map((n, i) => [n, i]));
    this.ranges = prog.rules.map(() => false);
    this.g[G.NF] = 0;
    this.g[G.NR] = 0;
    this.g[G.FNR] = 0;
    this.g[G.FS] = ' ';
    this.g[G.OFS] = ' ';
    this.g[G.ORS] = '\n';
    this.g[G.RS] = '\n';
    this.g[G.FILENAME] = '';
    this.g[G.SUBSEP] = '\x1c';
    this.g[G.RSTART] = 0;
    this.g[G.RLENGTH] = -1;
    this.g[G.CONVFMT] = '%.6g';
    this.g[G.OFMT] = '%.6g';
    this.g[G.RT] = '';
    this.g[G.ERRNO] = '';
    this.g[G.ARGIND] = 0;
    this.g[G.IGNORECASE] = 0;
    this.g[G.BINMODE] = 0;
    this.g[G.FPAT] = '[^[:space:]]+';
    this.g[G.FIELDWIDTHS] = '';
    this.g[G.TEXTDOMAIN] = 'messages';
    this.g[G.LINT] = 0;
    this.g[G.PROCINFO] = new Map<string, Val>([['FS', 'FS']]);
    this.main = mainInput(this);
    this.srand(0);
  }

  fatal(msg: string): never {
    throw new AwkFatal(msg);
  }

  // ---------------------------------------------------------------- values

  str(v: Val): string {
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return numToStr(v, this.sval(G.CONVFMT), fmtNum);
    return v.s;
  }

  outStr(v: Val): string {
    if (typeof v === 'number') return numToStr(v, this.sval(G.OFMT), fmtNum);
    return this.str(v);
  }

  private sval(slot: number): string {
    const c = this.g[slot];
    return c instanceof Map ? '' : this.str(c);
  }

  /** Global slot by name, created for names the program never mentions (-v, operands). */
  slot(name: string): number {
    let s = this.slots.get(name);
    if (s === undefined) {
      s = this.g.length;
      this.g.push(UNINIT);
      this.slots.set(name, s);
    }
    return s;
  }

  compare(a: Val, b: Val): number {
    if (isNumeric(a) && isNumeric(b)) {
      const x = toNum(a);
      const y = toNum(b);
      return x < y ? -1 : x > y ? 1 : x === y ? 0 : Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
    }
    const x = this.str(a);
    const y = this.str(b);
    if (this.icase) return caseCompare(x, y);
    return x < y ? -1 : x > y ? 1 : 0;
  }

  regex(e: Expr): Rx {
    return this.compileRx(e.k === 're' ? e.src : this.str(this.eval(e)));
  }

  /** A dynamic regex under the current IGNORECASE; a bad one is fatal. */
  compileRx(src: string): Rx {
    try {
      return compile(src, this.icase);
    } catch (err) {
      if (err instanceof RegexError) this.fatal(`${err.message}: /${src}/`);
      throw err;
    }
  }

  // ---------------------------------------------------------------- records and fields

  setRecord(s: string): void {
    this.record = s;
    this.split = false;
  }

  private splitRecord(): void {
    if (this.split) return;
    this.split = true;
    const parts: string[] = [];
    if (this.fieldMode === 'FS') this.splitInto(this.record, this.sval(G.FS), parts, this.sval(G.RS) === '');
    else if (this.fieldMode === 'FPAT') fpatSplit(this.record, this.compileRx(this.sval(G.FPAT)), parts, null);
    else widthSplit(this.record, this.widths, parts);
    this.fields = ['', ...parts];
    this.g[G.NF] = parts.length;
  }

  /** Field splitting shared with split(): " " is runs of blanks, one char is literal, else a regex. */
  splitInto(s: string, fs: string, out: string[], para = false, rx?: Rx): void {
    if (s === '') return;
    if (!rx && fs === ' ') {
      for (const f of s.split(/[ \t\n]+/)) if (f !== '') out.push(f);
      return;
    }
    if (!rx && fs === '') {
      for (const c of chars(s)) out.push(c);
      return;
    }
    if (!rx && fs.length === 1 && fs !== '\\') {
      const parts = s.split(fs);
      if (para && fs !== '\n') for (const p of parts) out.push(...p.split('\n'));
      else out.push(...parts);
      return;
    }
    const r = rx ?? this.compileFs(fs);
    let pos = 0;
    let from = 0;
    const re = r.re;
    for (;;) {
      re.lastIndex = from;
      const m = re.exec(s);
      if (!m) break;
      if (m[0].length === 0) {
        // An empty match separates nothing: look further.
        if (m.index >= s.length) break;
        from = m.index + 1;
        continue;
      }
      // A leading match of the default-like regex is still a separator (gawk).
      out.push(s.slice(pos, m.index));
      pos = from = m.index + m[0].length;
    }
    out.push(s.slice(pos));
    if (para) {
      const flat = out.splice(0).flatMap((p) => p.split('\n'));
      out.push(...flat);
    }
  }

  private compileFs(fs: string): Rx {
    return this.compileRx(fs === '\t' ? '\\t' : fs);
  }

  getField(i: number): Val {
    if (i === 0) return input(this.record);
    this.splitRecord();
    const f = this.fields[i];
    return f === undefined ? UNASSIGNED : input(f);
  }

  setField(i: number, v: string): void {
    if (i === 0) {
      this.setRecord(v);
      return;
    }
    this.splitRecord();
    while (this.fields.length <= i) this.fields.push('');
    this.fields[i] = v;
    if (i > toNum(this.g[G.NF] as Val)) this.g[G.NF] = i;
    this.rebuild();
  }

  private rebuild(): void {
    const nf = toNum(this.g[G.NF] as Val);
    this.record = this.fields.slice(1, nf + 1).join(this.sval(G.OFS));
  }

  private setNF(): void {
    // The fields were split before the assignment (see assignGlobal).
    const nf = Math.trunc(toNum(this.g[G.NF] as Val));
    if (nf < 0) this.fatal(`NF set to negative value`);
    this.g[G.NF] = nf;
    while (this.fields.length <= nf) this.fields.push('');
    this.fields.length = nf + 1;
    this.rebuild();
  }

  fieldIndex(e: Expr): number {
    const n = toNum(this.eval(e));
    if (n < 0) this.fatal(`attempt to access field ${Math.trunc(n)}`);
    return Math.trunc(n);
  }

  // ---------------------------------------------------------------- variables

  private cellOf(ref: Ref): Cell {
    if (ref.scope === 'l') return this.frame[ref.slot];
    if (ref.slot === G.NF) this.splitRecord();
    return this.g[ref.slot];
  }

  scalar(ref: Ref): Val {
    const c = this.cellOf(ref);
    if (c instanceof Map) this.fatal(`attempt to use array \`${ref.name}' in a scalar context`);
    return c;
  }

  array(ref: Ref): AwkArray {
    const c = ref.scope === 'l' ? this.frame[ref.slot] : this.g[ref.slot];
    if (c instanceof Map) return c;
    if (c !== UNINIT) this.fatal(`attempt to use scalar \`${ref.name}' as an array`);
    const m: AwkArray = new Map();
    if (ref.scope === 'l') this.frame[ref.slot] = m;
    else this.g[ref.slot] = m;
    return m;
  }

  /** A variable's cell as it is (no array or scalar made of it). */
  cell(ref: Ref): Cell {
    return ref.scope === 'l' ? this.frame[ref.slot] : this.g[ref.slot];
  }

  isArray(ref: Ref): boolean {
    return (ref.scope === 'l' ? this.frame[ref.slot] : this.g[ref.slot]) instanceof Map;
  }

  setVar(ref: Ref, v: Val): void {
    if (ref.scope === 'l') {
      if (this.frame[ref.slot] instanceof Map) this.fatal(`attempt to use array \`${ref.name}' in a scalar context`);
      this.frame[ref.slot] = v;
      return;
    }
    this.assignGlobal(ref.slot, v, ref.name);
  }

  assignGlobal(slot: number, v: Val, name: string): void {
    if (this.g[slot] instanceof Map) this.fatal(`attempt to use array \`${name}' in a scalar context`);
    if (slot < SPECIALS.length) this.setSpecial(slot, v);
    else this.g[slot] = v;
  }

  private setSpecial(slot: number, v: Val): void {
    // The current record keeps the old way of splitting; NF changes need the fields first.
    if (slot === G.FS || slot === G.NF || (this.gawk && (slot === G.FPAT || slot === G.FIELDWIDTHS))) this.splitRecord();
    this.g[slot] = v;
    if (slot === G.NF) this.setNF();
    else if (slot === G.FS) this.setFieldMode('FS');
    else if (!this.gawk) return;
    else if (slot === G.IGNORECASE) this.icase = toBool(v);
    else if (slot === G.FPAT) this.setFieldMode('FPAT');
    else if (slot === G.FIELDWIDTHS) {
      const w = parseWidths(this.str(v));
      if (typeof w === 'string') this.fatal(w);
      this.widths = w;
      this.setFieldMode('FIELDWIDTHS');
    }
  }

  private setFieldMode(m: FieldMode): void {
    this.fieldMode = m;
    const p = this.g[G.PROCINFO];
    if (p instanceof Map) p.set('FS', m);
  }

  subscript(subs: Expr[]): string {
    if (subs.length === 1) return this.str(this.eval(subs[0]));
    return subs.map((s) => this.str(this.eval(s))).join(this.sval(G.SUBSEP));
  }

  assign(lv: LValue, v: Val): Val {
    switch (lv.k) {
      case 'var':
        this.setVar(lv.ref, v);
        break;
      case 'idx': {
        const key = this.subscript(lv.subs);
        this.array(lv.ref).set(key, v);
        break;
      }
      case 'field':
        this.setField(this.fieldIndex(lv.e), this.str(v));
        break;
    }
    return v;
  }

  // ---------------------------------------------------------------- expressions

  eval(e: Expr): Val {
    switch (e.k) {
      case 'num':
        return e.v;
      case 'str':
        return e.v;
      case 're':
        return test(this.regex(e), this.record) ? 1 : 0;
      case 'var':
        return this.scalar(e.ref);
      case 'idx': {
        const key = this.subscript(e.subs);
        const a = this.array(e.ref);
        const v = a.get(key);
        if (v !== undefined) return v;
        // A reference creates the element.
        a.set(key, UNINIT);
        return UNINIT;
      }
      case 'field':
        return this.getField(this.fieldIndex(e.e));
      case 'group':
        if (e.items.length !== 1) this.fatal('syntax error');
        return this.eval(e.items[0]);
      case 'assign': {
        if (e.op === '=') {
          let v = this.eval(e.e);
          // Assignment copies the value; a strnum stays a strnum.
          if (v === UNINIT) v = UNASSIGNED;
          return this.assign(e.lv, v);
        }
        const r = toNum(this.eval(e.e));
        const l = toNum(this.eval(e.lv));
        return this.assign(e.lv, this.arith(e.op[0], l, r));
      }
      case 'cond':
        return toBool(this.eval(e.c)) ? this.eval(e.a) : this.eval(e.b);
      case 'and':
        return toBool(this.eval(e.a)) && toBool(this.eval(e.b)) ? 1 : 0;
      case 'or':
        return toBool(this.eval(e.a)) || toBool(this.eval(e.b)) ? 1 : 0;
      case 'in':
        return this.array(e.ref).has(this.subscript(e.subs)) ? 1 : 0;
      case 'match': {
        const s = this.str(this.eval(e.a));
        const r = test(this.regex(e.re), s);
        return r !== e.neg ? 1 : 0;
      }
      case 'cmp': {
        const c = this.compare(this.eval(e.a), this.eval(e.b));
        switch (e.op) {
          case '<':
            return c < 0 ? 1 : 0;
          case '<=':
            return c <= 0 ? 1 : 0;
          case '>':
            return c > 0 ? 1 : 0;
          case '>=':
            return c >= 0 ? 1 : 0;
          case '==':
            return c === 0 ? 1 : 0;
          default:
            return c !== 0 ? 1 : 0;
        }
      }
      case 'cat': {
        const a = this.str(this.eval(e.a));
        return a + this.str(this.eval(e.b));
      }
      case 'bin': {
        const a = toNum(this.eval(e.a));
        return this.arith(e.op, a, toNum(this.eval(e.b)));
      }
      case 'not':
        return toBool(this.eval(e.e)) ? 0 : 1;
      case 'neg':
        return -toNum(this.eval(e.e));
      case 'plus':
        return toNum(this.eval(e.e));
      case 'incr': {
        const old = toNum(this.eval(e.lv));
        this.assign(e.lv, old + e.d);
        return e.pre ? old + e.d : old;
      }
      case 'call':
        return this.call(e.name, e.args);
      case 'icall':
        return this.indirectCall(e.ref, e.args);
      case 'builtin':
        return callBuiltin(this, e.name, e.args);
      case 'getline':
        return this.getline(e);
    }
  }

  arith(op: string, a: number, b: number): number {
    switch (op) {
      case '+':
        return a + b;
      case '-':
        return a - b;
      case '*':
        return a * b;
      case '/':
        if (b === 0) this.fatal('division by zero attempted');
        return a / b;
      case '%':
        if (b === 0) this.fatal("division by zero attempted in `%'");
        return a % b;
      default:
        return a ** b;
    }
  }

  /** `@v(args)`: a user function, or a built-in, named by v's value. */
  private indirectCall(ref: Ref, args: Expr[]): Val {
    const name = this.str(this.scalar(ref));
    if (this.prog.funcs.has(name)) return this.call(name, args);
    if (BUILTINS.has(name)) return callBuiltin(this, name, args);
    return this.fatal(`\`${name}' is not a function, so it cannot be called indirectly`);
  }

  /** Call a user function with values already computed (sort comparison functions). */
  callWith(name: string, vals: Val[]): Val {
    const f = this.prog.funcs.get(name);
    if (!f) return this.fatal(`function \`${name}' not defined`);
    if (vals.length > f.params.length) this.fatal(`function \`${name}' called with more arguments than declared`);
    const locals: Cell[] = [...vals];
    while (locals.length < f.nlocals) locals.push(UNINIT);
    return this.invoke(f, locals);
  }

  private call(name: string, args: Expr[]): Val {
    const f = this.prog.funcs.get(name) as Func;
    if (args.length > f.params.length) this.fatal(`function \`${name}' called with more arguments than declared`);
    const locals: Cell[] = [];
    // Untyped variables are passed so that the callee can make them arrays.
    const pending: { i: number; ref: Ref }[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a.k === 'var') {
        const c = a.ref.scope === 'l' ? this.frame[a.ref.slot] : this.g[a.ref.slot];
        if (c instanceof Map) {
          locals.push(c);
          continue;
        }
        if (c === UNINIT) {
          locals.push(UNINIT);
          pending.push({ i, ref: a.ref });
          continue;
        }
      }
      locals.push(this.eval(a));
    }
    while (locals.length < f.nlocals) locals.push(UNINIT);
    const result = this.invoke(f, locals);
    for (const p of pending) {
      const made = locals[p.i];
      if (made instanceof Map) {
        if (p.ref.scope === 'l') this.frame[p.ref.slot] = made;
        else this.g[p.ref.slot] = made;
      }
    }
    return result;
  }

  private invoke(f: Func, locals: Cell[]): Val {
    if (++this.depth > 10000) this.fatal('function call nesting too deep');
    const saved = this.frame;
    this.frame = locals;
    try {
      this.execBlock(f.body);
    } catch (e) {
      if (!(e instanceof ReturnSignal)) throw e;
      return e.value;
    } finally {
      this.frame = saved;
      this.depth--;
    }
    return UNINIT;
  }

  private getline(e: Extract<Expr, { k: 'getline' }>): Val {
    let rec: string | null;
    if (e.src === 'main') {
      const r = this.main.next();
      if (r === null) return 0;
      rec = r;
      this.incNR();
    } else {
      if (this.sandbox) this.fatal('redirection not allowed in sandbox mode');
      const name = this.str(this.eval(e.e!));
      let reader: RecordReader;
      try {
        reader = this.io.input(e.src, name);
      } catch (err) {
        if (err instanceof AwkFatal) throw err;
        this.g[G.ERRNO] = errText(err);
        return -1;
      }
      const r = reader.read(this.sval(G.RS), this.icase);
      if (r === null) return 0;
      this.g[G.RT] = r.rt;
      rec = r.rec;
    }
    if (e.lv) this.assign(e.lv, input(rec));
    else {
      this.setRecord(rec);
    }
    return 1;
  }

  incNR(): void {
    this.g[G.NR] = toNum(this.g[G.NR] as Val) + 1;
    this.g[G.FNR] = toNum(this.g[G.FNR] as Val) + 1;
  }

  // ---------------------------------------------------------------- statements

  execBlock(body: Stmt[]): number {
    for (const s of body) {
      const r = this.exec(s);
      if (r) return r;
    }
    return 0;
  }

  exec(s: Stmt): number {
    this.line = s.line;
    switch (s.k) {
      case 'expr':
        this.eval(s.e);
        return 0;
      case 'print':
      case 'printf':
        this.print(s);
        return 0;
      case 'if':
        if (toBool(this.eval(s.c))) return this.exec(s.a);
        return s.b ? this.exec(s.b) : 0;
      case 'while':
        while (toBool(this.eval(s.c))) {
          const r = this.exec(s.body);
          if (r === BREAK) break;
        }
        return 0;
      case 'do':
        do {
          const r = this.exec(s.body);
          if (r === BREAK) break;
        } while (toBool(this.eval(s.c)));
        return 0;
      case 'for':
        if (s.init) this.exec(s.init);
        while (!s.c || toBool(this.eval(s.c))) {
          const r = this.exec(s.body);
          if (r === BREAK) break;
          if (s.step) this.exec(s.step);
        }
        return 0;
      case 'forin': {
        const a = this.array(s.ref);
        for (const k of this.forinKeys(a)) {
          if (!a.has(k)) continue;
          this.assign(s.v, input(k));
          const r = this.exec(s.body);
          if (r === BREAK) break;
        }
        return 0;
      }
      case 'block':
        return this.execBlock(s.body);
      case 'break':
        return BREAK;
      case 'continue':
        return CONTINUE;
      case 'next':
        throw new NextSignal();
      case 'nextfile':
        throw new NextFileSignal();
      case 'exit':
        throw new ExitSignal(s.e ? Math.trunc(toNum(this.eval(s.e))) & 0xff : null);
      case 'return':
        throw new ReturnSignal(s.e ? this.eval(s.e) : UNINIT);
      case 'delete': {
        const a = this.array(s.ref);
        if (s.subs) a.delete(this.subscript(s.subs));
        else a.clear();
        return 0;
      }
      case 'switch': {
        const v = this.eval(s.e);
        let at = s.cases.findIndex((c) => c.v !== null && this.caseMatches(v, c.v));
        if (at < 0) at = s.cases.findIndex((c) => c.v === null);
        if (at < 0) return 0;
        // Cases fall through to the next until a break.
        for (let i = at; i < s.cases.length; i++) {
          const r = this.execBlock(s.cases[i].body);
          if (r === BREAK) return 0;
          if (r) return r;
        }
        return 0;
      }
    }
  }

  private caseMatches(v: Val, label: Expr): boolean {
    if (label.k === 're') return test(this.regex(label), this.str(v));
    return this.compare(v, this.eval(label)) === 0;
  }

  /** for-in order: PROCINFO["sorted_in"] when set, else insertion order (gawk's is its hash order). */
  private forinKeys(a: AwkArray): string[] {
    const p = this.g[G.PROCINFO];
    const how = this.gawk && a.size > 0 && p instanceof Map ? p.get('sorted_in') : undefined;
    if (how === undefined) return [...a.keys()];
    const h = this.str(how);
    return h === '' ? [...a.keys()] : sortedKeys(this, a, h);
  }

  private print(s: Extract<Stmt, { k: 'print' | 'printf' }>): void {
    let text: string;
    if (s.k === 'print') {
      text = s.args.length === 0 ? this.record : s.args.map((a) => this.outStr(this.eval(a))).join(this.sval(G.OFS));
      text += this.sval(G.ORS);
    } else {
      const vals = s.args.map((a) => this.eval(a));
      try {
        text = sprintf(this.str(vals[0]), vals.slice(1), (v) => this.str(v));
      } catch (e) {
        if (e instanceof FormatError) this.fatal(e.message);
        throw e;
      }
    }
    let w = this.io.stdout;
    if (s.out) {
      if (this.sandbox) this.fatal('redirection not allowed in sandbox mode');
      const name = this.str(this.eval(s.out.e));
      if (name === '') this.fatal(`expression for \`${s.out.op}' redirection has null string value`);
      try {
        w = this.io.output(s.out.op, name);
      } catch (e) {
        if (e instanceof AwkFatal) throw e;
        this.fatal(`can't redirect to \`${name}' (${errText(e)})`);
      }
    }
    w.write(strToBytes(text));
  }

  // ---------------------------------------------------------------- rules

  runBegin(): void {
    this.runRules('begin');
  }

  runEnd(): void {
    this.runRules('end');
  }

  /** BEGIN, END, BEGINFILE or ENDFILE rules, in program order. */
  runRules(kind: Rule['kind']): void {
    for (const r of this.prog.rules) if (r.kind === kind) this.execBlock(r.body!);
  }

  /** One record through the main rules; false after `nextfile`. */
  runMain(): void {
    const rules = this.prog.rules;
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      if (r.kind !== 'main' || !this.matches(r, i)) continue;
      if (r.body) this.execBlock(r.body);
      else this.io.stdout.write(strToBytes(this.record + this.sval(G.ORS)));
    }
  }

  private matches(r: Rule, i: number): boolean {
    if (!r.pattern) return true;
    if (!r.pattern2) return toBool(this.eval(r.pattern));
    if (!this.ranges[i]) {
      if (!toBool(this.eval(r.pattern))) return false;
      this.ranges[i] = !toBool(this.eval(r.pattern2));
      return true;
    }
    if (toBool(this.eval(r.pattern2))) this.ranges[i] = false;
    return true;
  }

  hasMainOrEnd(): boolean {
    return this.prog.rules.some((r) => r.kind !== 'begin');
  }

  // ---------------------------------------------------------------- rand

  srand(seed: number): number {
    const prev = this.seed;
    this.seed = seed;
    this.randState = (Math.trunc(seed) >>> 0) ^ 0x2545f491;
    return prev;
  }

  rand(): number {
    // xorshift32: deterministic per seed, like awk's rand().
    let x = this.randState || 1;
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    this.randState = x;
    return x / 4294967296;
  }
}

export function errText(e: unknown): string {
  return e instanceof SysError ? strerror(e.errno) : String(e);
}

export { StrNum };

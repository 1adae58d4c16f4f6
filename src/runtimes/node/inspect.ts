// util.inspect and util.format with Node's layout for the common values:
// quoting, `[Object]` past the depth, `<ref *1>`/`[Circular *1]`, Map/Set,
// typed arrays and Buffers, errors, class names, breaking at 80 columns and
// Node's column grouping of long arrays of short items.

export interface InspectOptions {
  depth?: number | null;
  colors?: boolean;
  showHidden?: boolean;
  breakLength?: number;
  compact?: number | boolean;
  maxArrayLength?: number;
  maxStringLength?: number;
  sorted?: boolean;
  getters?: boolean;
}

interface Ctx {
  depth: number;
  breakLength: number;
  compact: number;
  maxArrayLength: number;
  maxStringLength: number;
  sorted: boolean;
  showHidden: boolean;
  getters: boolean;
  indent: number;
  seen: object[];
  circular: Map<object, number>;
  currentDepth: number;
}

export const custom = Symbol.for('nodejs.util.inspect.custom');

export function inspect(value: unknown, opts: InspectOptions = {}): string {
  const ctx: Ctx = {
    depth: opts.depth === null ? Infinity : (opts.depth ?? 2),
    breakLength: opts.breakLength ?? 80,
    compact: opts.compact === false ? 0 : opts.compact === true ? 3 : (opts.compact ?? 3),
    maxArrayLength: opts.maxArrayLength ?? 100,
    maxStringLength: opts.maxStringLength ?? 10000,
    sorted: opts.sorted ?? false,
    showHidden: opts.showHidden ?? false,
    getters: opts.getters ?? false,
    indent: 0,
    seen: [],
    circular: new Map(),
    currentDepth: 0,
  };
  return formatValue(ctx, value, 0);
}
inspect.custom = custom;
inspect.defaultOptions = { depth: 2 };

/** Keys Node prints unquoted ('$' is quoted). */
const IDENT = /^[A-Za-z_][A-Za-z_0-9]*$/;

export function quote(s: string): string {
  let q = "'";
  if (s.includes("'")) q = !s.includes('"') ? '"' : !s.includes('`') && !s.includes('${') ? '`' : "'";
  // eslint-disable-next-line no-control-regex -- escaping control characters is the point
  const esc = s.replace(/[\\\n\t\r\b\f\v\x00-\x1f\x7f]/g, (c) => {
    const m: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f', '\v': '\\v' };
    return m[c] ?? `\\x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  });
  return q + (q === "'" ? esc.replace(/'/g, "\\'") : esc) + q;
}

function formatKey(k: string | symbol): string {
  if (typeof k === 'symbol') return `[${k.toString()}]`;
  return IDENT.test(k) ? k : quote(k);
}

function formatNumber(n: number): string {
  return Object.is(n, -0) ? '-0' : String(n);
}

function formatPrimitive(v: unknown, ctx: Ctx): string | undefined {
  switch (typeof v) {
    case 'string': {
      let s = v;
      let tail = '';
      if (s.length > ctx.maxStringLength) {
        tail = `... ${s.length - ctx.maxStringLength} more character${s.length - ctx.maxStringLength > 1 ? 's' : ''}`;
        s = s.slice(0, ctx.maxStringLength);
      }
      // Long strings are split after their newlines, as Node does.
      if (s.length > 16 && s.length > ctx.breakLength - ctx.indent - 4 && s.includes('\n')) {
        const parts = s.split(/(?<=\n)/).map(quote);
        return parts.join(` +\n${' '.repeat(ctx.indent + 2)}`) + tail;
      }
      return quote(s) + tail;
    }
    case 'number': return formatNumber(v);
    case 'bigint': return `${v}n`;
    case 'boolean': return String(v);
    case 'undefined': return 'undefined';
    case 'symbol': return v.toString();
  }
  if (v === null) return 'null';
  return undefined;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- any callable, as Node inspects it
function fnBase(f: Function): string {
  const src = Function.prototype.toString.call(f);
  if (src.startsWith('class') && /^class\b/.test(src)) {
    const ext = Object.getPrototypeOf(f) as { name?: string } | null;
    return `[class ${f.name || '(anonymous)'}${ext && ext.name ? ` extends ${ext.name}` : ''}]`;
  }
  const kind = f.constructor?.name === 'AsyncFunction' ? 'AsyncFunction'
    : f.constructor?.name === 'GeneratorFunction' ? 'GeneratorFunction'
      : f.constructor?.name === 'AsyncGeneratorFunction' ? 'AsyncGeneratorFunction' : 'Function';
  return `[${kind}${f.name ? `: ${f.name}` : ' (anonymous)'}]`;
}

function ctorName(o: object): string | null {
  let p: object | null = o;
  while (p) {
    const d = Object.getOwnPropertyDescriptor(p, 'constructor');
    if (d && typeof d.value === 'function' && d.value.name) return d.value.name as string;
    p = Object.getPrototypeOf(p) as object | null;
  }
  return null;
}

function prefix(name: string | null, tag: string, fallback: string, size = ''): string {
  if (name === null) return `[${fallback}${size}: null prototype] `;
  if (tag && tag !== name) return `${name}${size} [${tag}] `;
  return `${name}${size} `;
}

/** This bundle's own file: its frames (the runtime's) are dropped from guest stacks, with the host's internals. */
const SELF = /(?:at |\()((?:file|https?):\/\/[^:)]+|\/[^:)]+):\d+:\d+/.exec(new Error().stack?.split('\n')[1] ?? '')?.[1];

/** Frames of the runtime (its bundle, its eval wrappers named agentos:*) or of the host's internals. */
const hostFrame = (l: string) =>
  l.startsWith('    at ') && ((SELF !== undefined && l.includes(SELF)) || l.includes('node:internal/') || l.includes('agentos:'));

export function formatError(e: Error): string {
  const raw = typeof e.stack === 'string' && e.stack ? e.stack : Error.prototype.toString.call(e);
  // A module's top level runs in a wrapper compiled by eval: Node calls that frame Object.<anonymous>.
  let s = raw.split('\n').filter((l) => !hostFrame(l)).join('\n').replace(/^( {4}at )Object\.eval \(/gm, '$1Object.<anonymous> (');
  if (!raw.includes('\n    at') && !s.startsWith('[')) s = `[${s}]`;
  return s;
}

function formatValue(ctx: Ctx, v: unknown, depth: number): string {
  const prim = formatPrimitive(v, ctx);
  if (prim !== undefined) return prim;
  const o = v as object;
  const c = (o as Record<symbol, unknown>)[custom];
  if (typeof c === 'function' && c !== inspect) {
    const r = (c as (d: number, o: object, i: typeof inspect) => unknown).call(o, ctx.depth - depth, { depth: ctx.depth - depth }, inspect);
    if (r !== o) return typeof r === 'string' ? r : formatValue(ctx, r, depth);
  }
  if (ctx.seen.includes(o)) {
    let idx = ctx.circular.get(o);
    if (idx === undefined) ctx.circular.set(o, (idx = ctx.circular.size + 1));
    return `[Circular *${idx}]`;
  }
  return formatRaw(ctx, o, depth);
}

type Entry = [string | symbol, PropertyDescriptor];

function ownEntries(o: object, skipIndices: boolean, skip: Set<string> = new Set()): Entry[] {
  const keys: (string | symbol)[] = Object.keys(o);
  for (const s of Object.getOwnPropertySymbols(o)) if (Object.getOwnPropertyDescriptor(o, s)?.enumerable) keys.push(s);
  const out: Entry[] = [];
  for (const k of keys) {
    if (skipIndices && typeof k === 'string' && /^(0|[1-9]\d*)$/.test(k)) continue;
    if (typeof k === 'string' && skip.has(k)) continue;
    out.push([k, Object.getOwnPropertyDescriptor(o, k)!]);
  }
  return out;
}

function formatProp(ctx: Ctx, o: object, [k, d]: Entry, depth: number, arrayLike = false): string {
  let val: string;
  if (d.get && ctx.getters) {
    let v: string;
    try {
      v = formatValue(ctx, d.get.call(o), depth + 1);
    } catch (e) {
      v = `<Inspection threw (${(e as Error)?.message})>`;
    }
    val = `[${d.set ? 'Getter/Setter' : 'Getter'}: ${v}]`;
  } else if (d.get || d.set) val = d.get ? (d.set ? '[Getter/Setter]' : '[Getter]') : '[Setter]';
  else {
    ctx.indent += 2;
    val = formatValue(ctx, d.value, depth + 1);
    ctx.indent -= 2;
  }
  if (arrayLike && typeof k === 'string' && /^(0|[1-9]\d*)$/.test(k)) return val;
  return `${formatKey(k)}: ${val}`;
}

function formatRaw(ctx: Ctx, o: object, depth: number): string {
  const name = ctorName(o);
  const tag = (o as Record<symbol, unknown>)[Symbol.toStringTag];
  // An own enumerable tag is shown as a property, not as the tag (as Node).
  const tagStr = typeof tag === 'string' && !Object.prototype.propertyIsEnumerable.call(o, Symbol.toStringTag) ? tag : '';
  let braces: [string, string] = ['{', '}'];
  let base = '';
  let output: string[] = [];
  let entries: Entry[];
  let isArrayType = false;
  let extra = (): void => {};

  if (Array.isArray(o)) {
    const p = name !== 'Array' || tagStr ? prefix(name, tagStr, 'Array', `(${o.length})`) : '';
    braces = [`${p}[`, ']'];
    isArrayType = true;
    entries = ownEntries(o, true, new Set(['length']));
    if (o.length === 0 && entries.length === 0) return `${braces[0]}]`;
    extra = () => {
      output = formatArray(ctx, o, depth);
      if (ctx.showHidden) output.push(`[length]: ${o.length}`);
    };
  } else if (typeof o === 'function') {
    base = fnBase(o);
    entries = ownEntries(o, false, new Set(['prototype']));
    if (entries.length === 0) return base;
  } else if (o instanceof RegExp) {
    base = RegExp.prototype.toString.call(o);
    entries = ownEntries(o, false, new Set(['lastIndex']));
    if (entries.length === 0) return base;
  } else if (o instanceof Date) {
    base = Number.isNaN(o.getTime()) ? 'Invalid Date' : o.toISOString();
    entries = ownEntries(o, false);
    if (entries.length === 0) return base;
  } else if (o instanceof Error) {
    base = formatError(o);
    entries = ownEntries(o, false, new Set(['stack', 'message']));
    if (entries.length === 0) return base;
  } else if (o instanceof Map) {
    braces = [`${prefix(name, tagStr, 'Map', `(${o.size})`)}{`, '}'];
    entries = ownEntries(o, false);
    if (o.size === 0 && entries.length === 0) return `${braces[0]}}`;
    extra = () => {
      ctx.indent += 2;
      for (const [k, v] of o) output.push(`${formatValue(ctx, k, depth + 1)} => ${formatValue(ctx, v, depth + 1)}`);
      ctx.indent -= 2;
    };
  } else if (o instanceof Set) {
    braces = [`${prefix(name, tagStr, 'Set', `(${o.size})`)}{`, '}'];
    entries = ownEntries(o, false);
    if (o.size === 0 && entries.length === 0) return `${braces[0]}}`;
    extra = () => {
      ctx.indent += 2;
      for (const v of o) output.push(formatValue(ctx, v, depth + 1));
      ctx.indent -= 2;
    };
  } else if (ArrayBuffer.isView(o) && !(o instanceof DataView)) {
    const ta = o as unknown as ArrayLike<number | bigint> & { length: number };
    if (name === 'Buffer') {
      const bytes = Array.from(ta as ArrayLike<number>).slice(0, 50).map((b) => b.toString(16).padStart(2, '0'));
      return `<Buffer${bytes.length ? ' ' + bytes.join(' ') : ''}${ta.length > 50 ? ` ... ${ta.length - 50} more bytes` : ''}>`;
    }
    braces = [`${prefix(name, tagStr, 'TypedArray', `(${ta.length})`)}[`, ']'];
    isArrayType = true;
    entries = ownEntries(o, true);
    if (ta.length === 0 && entries.length === 0) return `${braces[0]}]`;
    extra = () => {
      const n = Math.min(ta.length, ctx.maxArrayLength);
      for (let i = 0; i < n; i++) output.push(typeof ta[i] === 'bigint' ? `${ta[i]}n` : formatNumber(ta[i] as number));
      if (ta.length > n) output.push(`... ${ta.length - n} more item${ta.length - n > 1 ? 's' : ''}`);
    };
  } else if (o instanceof ArrayBuffer) {
    const bytes = Array.from(new Uint8Array(o).subarray(0, 50)).map((b) => b.toString(16).padStart(2, '0'));
    braces = [`ArrayBuffer {`, '}'];
    entries = [];
    extra = () => { output.push(`[Uint8Contents]: <${bytes.join(' ')}${o.byteLength > 50 ? ` ... ${o.byteLength - 50} more bytes` : ''}>`, `byteLength: ${o.byteLength}`); };
  } else if (o instanceof Promise) {
    braces = ['Promise {', '}'];
    entries = ownEntries(o, false);
    extra = () => { output.push('<pending>'); };
  } else if (o instanceof WeakMap || o instanceof WeakSet) {
    return `${name ?? 'WeakMap'} { <items unknown> }`;
  } else if (o instanceof Number || o instanceof String || o instanceof Boolean) {
    const t = o instanceof Number ? 'Number' : o instanceof String ? 'String' : 'Boolean';
    base = `[${t}: ${formatPrimitive(o.valueOf(), ctx)}]`;
    entries = ownEntries(o, o instanceof String);
    if (entries.length === 0) return base;
  } else {
    const isArgs = tagStr === 'Arguments';
    if (isArgs) braces = ['[Arguments] [', ']'];
    else if (name === 'Object') { if (tagStr) braces = [`Object [${tagStr}] {`, '}']; }
    else if (name === null) braces = [`[Object: null prototype] {`, '}'];
    else braces = [`${prefix(name, tagStr, 'Object')}{`, '}'];
    entries = ownEntries(o, isArgs);
    if (isArgs) { isArrayType = true; extra = () => { output = formatArray(ctx, o as unknown as unknown[], depth); }; }
    if (entries.length === 0 && !isArgs) {
      return name === 'Object' && !tagStr ? '{}' : `${braces[0]}}`;
    }
  }

  if (depth > ctx.depth) {
    const n = Array.isArray(o) ? 'Array' : name ?? 'Object';
    return `[${n}]`;
  }
  ctx.seen.push(o);
  ctx.currentDepth = depth;
  extra();
  if (ctx.sorted) entries.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  for (const e of entries) output.push(formatProp(ctx, o, e, depth));
  ctx.seen.pop();
  const ref = ctx.circular.get(o);
  if (ref !== undefined) {
    const r = `<ref *${ref}>`;
    if (base) base = `${r} ${base}`;
    else braces[0] = `${r} ${braces[0]}`;
  }
  return reduce(ctx, output, base, braces, isArrayType, depth, o);
}

function formatArray(ctx: Ctx, a: ArrayLike<unknown>, depth: number): string[] {
  const out: string[] = [];
  const n = Math.min(a.length, ctx.maxArrayLength);
  let holes = 0;
  const flush = () => {
    if (holes) out.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`);
    holes = 0;
  };
  ctx.indent += 2;
  for (let i = 0; i < n; i++) {
    if (!Object.prototype.hasOwnProperty.call(a, i)) { holes++; continue; }
    flush();
    const d = Object.getOwnPropertyDescriptor(a, i)!;
    out.push(d.get || d.set ? (d.get ? (d.set ? '[Getter/Setter]' : '[Getter]') : '[Setter]') : formatValue(ctx, d.value, depth + 1));
  }
  flush();
  ctx.indent -= 2;
  if (a.length > n) out.push(`... ${a.length - n} more item${a.length - n > 1 ? 's' : ''}`);
  return out;
}

function reduce(ctx: Ctx, output: string[], base: string, braces: [string, string], isArray: boolean, depth: number, value: object): string {
  if (ctx.compact >= 1) {
    const entries = output.length;
    if (isArray && entries > 6) output = group(ctx, output, value as unknown[]);
    if (ctx.currentDepth - depth < ctx.compact && entries === output.length) {
      const start = output.length + ctx.indent + braces[0].length + base.length + 10;
      const total = output.reduce((s, x) => s + x.length, 0) + output.length;
      if (total + start <= ctx.breakLength && !base.includes('\n')) {
        const joined = output.join(', ');
        if (!joined.includes('\n')) return `${base ? `${base} ` : ''}${braces[0]} ${joined} ${braces[1]}`;
      }
    }
  }
  const ind = `\n${' '.repeat(ctx.indent)}`;
  return `${base ? `${base} ` : ''}${braces[0]}${ind}  ${output.join(`,${ind}  `)}${ind}${braces[1]}`;
}

/** Node's grouping of many short array items into aligned columns. */
function group(ctx: Ctx, output: string[], value: unknown[]): string[] {
  let total = 0;
  let max = 0;
  let len = output.length;
  if (ctx.maxArrayLength < value.length && len > 0 && output[len - 1].startsWith('... ')) len--;
  const sep = 2;
  const lens: number[] = [];
  for (let i = 0; i < len; i++) {
    lens.push(output[i].length);
    total += output[i].length + sep;
    if (max < output[i].length) max = output[i].length;
  }
  const actualMax = max + sep;
  if (actualMax * 3 + ctx.indent < ctx.breakLength && (total / actualMax > 5 || max <= 6)) {
    const bias = Math.sqrt(actualMax - total / output.length);
    const biasedMax = Math.max(actualMax - 3 - bias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(2.5 * biasedMax * len) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indent) / actualMax),
      ctx.compact * 4,
      15,
    );
    if (columns <= 1) return output;
    const widths: number[] = [];
    for (let i = 0; i < columns; i++) {
      let w = 0;
      for (let j = i; j < len; j += columns) if (lens[j] > w) w = lens[j];
      widths.push(w + sep);
    }
    const numeric = value.every((x) => typeof x === 'number' || typeof x === 'bigint');
    const out: string[] = [];
    for (let i = 0; i < len; i += columns) {
      const end = Math.min(i + columns, len);
      let line = '';
      let j = i;
      for (; j < end - 1; j++) line += numeric ? `${output[j]}, `.padStart(widths[j - i]) : `${output[j]}, `.padEnd(widths[j - i]);
      line += numeric ? output[j].padStart(widths[j - i] - sep) : output[j];
      out.push(line);
    }
    if (len < output.length) out.push(output[len]);
    return out;
  }
  return output;
}

/** util.format: printf-like %s %d %i %f %j %o %O %c %%, then the rest inspected. */
export function format(...args: unknown[]): string {
  return formatWith({}, args);
}

export function formatWith(opts: InspectOptions, args: unknown[]): string {
  const first = args[0];
  let out = '';
  let a = 0;
  if (typeof first === 'string') {
    a = 1;
    if (args.length === 1) return first;
    let last = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first[i] !== '%') continue;
      const c = first[i + 1];
      if (c === '%') { out += first.slice(last, i) + '%'; last = i + 2; i++; continue; }
      if (a >= args.length || !'sdifjoOc'.includes(c)) continue;
      const v = args[a++];
      let s: string;
      switch (c) {
        case 's':
          s = typeof v === 'string' ? v : typeof v === 'bigint' ? `${v}n` : typeof v === 'object' && v !== null
            ? inspect(v, { ...opts, depth: 0 }) : typeof v === 'symbol' ? v.toString() : formatNumber(v as number) === '-0' ? '-0' : String(v);
          break;
        case 'd': s = typeof v === 'bigint' ? `${v}n` : typeof v === 'symbol' ? 'NaN' : formatNumber(Number(v)); break;
        case 'i': s = typeof v === 'bigint' ? `${v}n` : typeof v === 'symbol' ? 'NaN' : String(parseInt(String(v), 10)); break;
        case 'f': s = typeof v === 'symbol' ? 'NaN' : String(parseFloat(String(v))); break;
        case 'j': try { s = JSON.stringify(v); } catch { s = '[Circular]'; } break;
        case 'o': s = inspect(v, { ...opts, showHidden: true, depth: 4 }); break;
        case 'O': s = inspect(v, opts); break;
        default: s = ''; // %c: CSS, ignored
      }
      out += first.slice(last, i) + s;
      last = i + 2;
      i++;
    }
    out += first.slice(last);
  }
  for (; a < args.length; a++) {
    const v = args[a];
    out += (out || a > 0 ? ' ' : '') + (typeof v === 'string' ? v : inspect(v, opts));
  }
  return out;
}

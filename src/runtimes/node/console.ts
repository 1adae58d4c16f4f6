// The guest's `console` (and the `console` module): util.format'd lines on
// process.stdout / process.stderr, with groups, counters, timers and table.

import { formatWith, inspect, type InspectOptions } from './inspect.js';

interface Out { write(s: string): unknown }
/** A stream, or (the runtime's own consoles) a function returning the current one. */
type Target = Out | (() => Out);

export class Console {
  private indent = '';
  private counts = new Map<string, number>();
  private times = new Map<string, number>();
  private out: () => Out;
  private err: () => Out;

  /** As Node's: `new Console(stdout, stderr?)` or `new Console({ stdout, stderr })`. */
  constructor(out: Target | { stdout: Target; stderr?: Target }, err?: Target) {
    if (typeof out === 'object' && 'stdout' in out) [out, err] = [out.stdout, out.stderr];
    const get = (t: Target) => (typeof t === 'function' ? t : () => t);
    this.out = get(out as Target);
    this.err = get(err ?? (out as Target));
    for (const k of Object.getOwnPropertyNames(Console.prototype)) {
      const v = (this as unknown as Record<string, unknown>)[k];
      if (k !== 'constructor' && typeof v === 'function') (this as unknown as Record<string, unknown>)[k] = v.bind(this);
    }
  }

  private print(to: Out, args: unknown[]): void {
    let s = formatWith({}, args);
    if (this.indent) s = this.indent + s.split('\n').join(`\n${this.indent}`);
    to.write(s + '\n');
  }

  log(...a: unknown[]): void { this.print(this.out(), a); }
  info(...a: unknown[]): void { this.print(this.out(), a); }
  debug(...a: unknown[]): void { this.print(this.out(), a); }
  error(...a: unknown[]): void { this.print(this.err(), a); }
  warn(...a: unknown[]): void { this.print(this.err(), a); }
  dir(v: unknown, opts?: InspectOptions): void { this.print(this.out(), [inspect(v, opts)]); }
  dirxml(...a: unknown[]): void { this.log(...a); }
  trace(...a: unknown[]): void {
    const e = { name: 'Trace', message: formatWith({}, a) } as Error;
    Error.captureStackTrace?.(e, this.trace);
    this.print(this.err(), [e.stack ?? `Trace: ${e.message}`]);
  }
  assert(ok: unknown, ...a: unknown[]): void {
    if (ok) return;
    a[0] = `Assertion failed${a.length === 0 ? '' : `: ${a[0]}`}`;
    this.warn(...(a.length ? a : ['Assertion failed']));
  }
  group(...a: unknown[]): void {
    if (a.length) this.log(...a);
    this.indent += '  ';
  }
  groupCollapsed(...a: unknown[]): void { this.group(...a); }
  groupEnd(): void { this.indent = this.indent.slice(2); }
  count(label = 'default'): void {
    const n = (this.counts.get(label) ?? 0) + 1;
    this.counts.set(label, n);
    this.log(`${label}: ${n}`);
  }
  countReset(label = 'default'): void { this.counts.delete(label); }
  time(label = 'default'): void { this.times.set(label, performance.now()); }
  private elapsed(label: string): string | undefined {
    const t = this.times.get(label);
    if (t === undefined) {
      this.err().write(`(node) Warning: No such label '${label}' for console.timeEnd()\n`);
      return undefined;
    }
    const ms = performance.now() - t;
    return ms >= 1000 ? `${(ms / 1000).toFixed(3)}s` : `${ms.toFixed(3)}ms`;
  }
  timeEnd(label = 'default'): void {
    const e = this.elapsed(label);
    if (e !== undefined) this.log(`${label}: ${e}`);
    this.times.delete(label);
  }
  timeLog(label = 'default', ...a: unknown[]): void {
    const e = this.elapsed(label);
    if (e !== undefined) this.log(`${label}: ${e}`, ...a);
  }
  table(data: unknown, columns?: string[]): void {
    if (typeof data !== 'object' || data === null) return this.log(data);
    const rows = Object.entries(data as Record<string, unknown>);
    const keys: string[] = [];
    let hasValues = false;
    for (const [, v] of rows) {
      if (typeof v === 'object' && v !== null) { for (const k of Object.keys(v)) if (!keys.includes(k)) keys.push(k); }
      else hasValues = true;
    }
    const cols = columns ?? keys;
    const head = ['(index)', ...cols, ...(hasValues ? ['Values'] : [])];
    const fmt = (v: unknown) => (v === undefined ? '' : inspect(v, { depth: 0, breakLength: Infinity }));
    const body = rows.map(([k, v]) => [k, ...cols.map((c) => (typeof v === 'object' && v !== null ? fmt((v as Record<string, unknown>)[c]) : '')),
      ...(hasValues ? [typeof v === 'object' && v !== null ? '' : fmt(v)] : [])]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)) + 2);
    const cell = (s: string, w: number) => ` ${s.padEnd(w - 2)} `;
    const line = (l: string, m: string, r: string) => l + widths.map((w) => '─'.repeat(w)).join(m) + r;
    const out = [line('┌', '┬', '┐'), '│' + head.map((h, i) => cell(h, widths[i])).join('│') + '│', line('├', '┼', '┤'),
      ...body.map((r) => '│' + r.map((c, i) => cell(c, widths[i])).join('│') + '│'), line('└', '┴', '┘')];
    this.log(out.join('\n'));
  }
}

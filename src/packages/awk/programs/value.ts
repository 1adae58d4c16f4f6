// awk values: numbers, strings, and "strnums" (input that looks numeric,
// which compares as a number but prints as typed). The uninitialized value
// is a strnum that is both "" and 0.

export class StrNum {
  constructor(
    readonly s: string,
    readonly n: number,
  ) {}
}

export const UNINIT = new StrNum('', 0);

/** The uninitialized value once assigned to a variable (gawk's typeof says "unassigned"; it can no longer become an array). */
export const UNASSIGNED = new StrNum('', 0);

export type Val = number | string | StrNum;

export type AwkArray = Map<string, Val>;

export type Cell = Val | AwkArray;

const NUMERIC = /^[ \t\n\r\f\v]*[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|inf(?:inity)?|nan)[ \t\n\r\f\v]*$/i;
const PREFIX = /^[ \t\n\r\f\v]*([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?))/;
const SPECIAL = /^[ \t\n\r\f\v]*([-+])(inf|nan)/i;

/** Input text (fields, getline vars, ARGV...): a strnum if it looks like a number. */
export function input(s: string): Val {
  if (!NUMERIC.test(s)) return s;
  // gawk accepts inf/nan only with a sign.
  if (/[in]/i.test(s) && !SPECIAL.test(s)) return s;
  return new StrNum(s, strToNum(s));
}

export function strToNum(s: string): number {
  const m = PREFIX.exec(s);
  if (m) return Number(m[1]);
  const sp = SPECIAL.exec(s);
  if (sp) return sp[2].toLowerCase() === 'inf' ? (sp[1] === '-' ? -Infinity : Infinity) : NaN;
  return 0;
}

export function toNum(v: Val): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return strToNum(v);
  return v.n;
}

export function toBool(v: Val): boolean {
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v !== '';
  return v === UNINIT || v === UNASSIGNED ? false : v.n !== 0;
}

/** Integral values print as integers whatever the format, as gawk does. */
export function numToStr(n: number, fmt: string, format: (f: string, n: number) => string): string {
  if (Number.isInteger(n)) {
    if (Math.abs(n) < 1e16) return String(n === 0 ? 0 : n);
    return BigInt(n).toString();
  }
  if (Number.isNaN(n)) return '-nan';
  if (n === Infinity) return '+inf';
  if (n === -Infinity) return '-inf';
  return format(fmt, n);
}

export const isNumeric = (v: Val): boolean => typeof v === 'number' || v instanceof StrNum;

// GNU getopt_long-style option parsing: short clusters (-abc, -n5, -n 5),
// --long, --long=value, unique-prefix abbreviations, `--`, and operands mixed
// with options (GNU permutes unless POSIXLY_CORRECT). Errors are worded like
// glibc's getopt so diagnostics match the GNU tools byte for byte.

export type ArgKind = 'none' | 'required' | 'optional';

export interface OptSpec {
  /** Short option letters; a letter followed by ':' takes an argument, by '::' an optional one (attached only). */
  short?: string;
  /** Long option name → [key, kind]; the key is what `opts` records (often the short letter). */
  long?: Record<string, [string, ArgKind]>;
  /** Stop at the first operand (e.g. echo-like or command-running tools). */
  stopAtOperand?: boolean;
  /** Treat a lone negative number (-5) as an operand, not options. */
  numericOperands?: boolean;
  /** Operands go into `list` in their place among the options, under the key '' (argp's ARGP_IN_ORDER: tar's -C). */
  operandsInOrder?: boolean;
  /** A run of digits in a cluster is an option with this key and the digits as value (grep's -NUM). */
  digits?: string;
}

export interface Parsed {
  /** Options in the order given: key and value (undefined for flags). */
  list: [string, string | undefined][];
  operands: string[];
}

export class UsageError extends Error {}

interface ShortInfo {
  kind: ArgKind;
}

function parseShort(spec: string): Map<string, ShortInfo> {
  const m = new Map<string, ShortInfo>();
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i];
    if (spec[i + 1] === ':' && spec[i + 2] === ':') {
      m.set(c, { kind: 'optional' });
      i += 2;
    } else if (spec[i + 1] === ':') {
      m.set(c, { kind: 'required' });
      i += 1;
    } else m.set(c, { kind: 'none' });
  }
  return m;
}

/** Find a long option by exact name or unique prefix (GNU abbreviations). */
function findLong(long: Record<string, [string, ArgKind]>, name: string, shown: string): string {
  if (name in long) return name;
  const hits = Object.keys(long).filter((k) => k.startsWith(name));
  if (hits.length === 1) return hits[0];
  // Prefixes naming the same option (same key and kind) are not ambiguous.
  const distinct = new Set(hits.map((h) => long[h].join('/')));
  if (hits.length > 1 && distinct.size === 1) return hits[0];
  // glibc names the argument as given, `=value` included.
  if (hits.length === 0) throw new UsageError(`unrecognized option '${shown}'`);
  throw new UsageError(`option '${shown}' is ambiguous; possibilities:${hits.map((h) => ` '--${h}'`).join('')}`);
}

export function parseArgs(args: string[], spec: OptSpec, posixlyCorrect = false): Parsed {
  const shorts = parseShort(spec.short ?? '');
  const long = spec.long ?? {};
  const list: [string, string | undefined][] = [];
  const operands: string[] = [];
  const inOrder = posixlyCorrect || spec.stopAtOperand;
  const addOperand = (o: string) => (spec.operandsInOrder ? list.push(['', o]) : operands.push(o));
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      for (const o of args.slice(i + 1)) addOperand(o);
      break;
    }
    const isNumber = spec.numericOperands && /^-\d/.test(a) && !shorts.has(a[1]);
    if (a.length < 2 || a[0] !== '-' || isNumber) {
      if (inOrder) {
        for (const o of args.slice(i)) addOperand(o);
        break;
      }
      addOperand(a);
      continue;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const full = findLong(long, name, a);
      const [key, kind] = long[full];
      if (eq >= 0) {
        if (kind === 'none') throw new UsageError(`option '--${full}' doesn't allow an argument`);
        list.push([key, a.slice(eq + 1)]);
      } else if (kind === 'required') {
        if (i + 1 >= args.length) throw new UsageError(`option '--${full}' requires an argument`);
        list.push([key, args[++i]]);
      } else list.push([key, undefined]);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      if (spec.digits && c >= '0' && c <= '9') {
        let k = j;
        while (k < a.length && a[k] >= '0' && a[k] <= '9') k++;
        list.push([spec.digits, a.slice(j, k)]);
        j = k - 1;
        continue;
      }
      const info = shorts.get(c);
      if (!info) throw new UsageError(`invalid option -- '${c}'`);
      if (info.kind === 'none') {
        list.push([c, undefined]);
        continue;
      }
      const rest = a.slice(j + 1);
      if (rest) list.push([c, rest]);
      else if (info.kind === 'optional') list.push([c, undefined]);
      else if (i + 1 < args.length) list.push([c, args[++i]]);
      else throw new UsageError(`option requires an argument -- '${c}'`);
      break;
    }
  }
  return { list, operands };
}

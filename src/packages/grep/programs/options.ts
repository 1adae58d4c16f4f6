// getopt_long as GNU grep uses it: bundled short options, attached or separate
// arguments, `-NUM` for context, long options by unique prefix with `=ARG`,
// operands anywhere (permutation) until `--`.

export type ArgKind = 'none' | 'required' | 'optional';

export interface OptSpec {
  key: string;
  short?: string;
  long?: string[];
  arg: ArgKind;
}

export interface Parsed {
  /** Options in command-line order: [key, argument]. */
  opts: [string, string][];
  operands: string[];
}

/** A usage error: printed as `grep: MSG` plus the "Try --help" lines, status 2. */
export class UsageError extends Error {}

export function parseArgs(args: string[], specs: OptSpec[]): Parsed {
  const opts: [string, string][] = [];
  const operands: string[] = [];
  const byShort = new Map<string, OptSpec>();
  for (const s of specs) if (s.short) byShort.set(s.short, s);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      const spec = findLong(name, specs, a);
      const fullName = spec.long!.find((l) => l.startsWith(name))!;
      if (eq >= 0) {
        if (spec.arg === 'none') throw new UsageError(`option '--${fullName}' doesn't allow an argument`);
        opts.push([spec.key, a.slice(eq + 1)]);
      } else if (spec.arg === 'required') {
        if (i + 1 >= args.length) throw new UsageError(`option '--${fullName}' requires an argument`);
        opts.push([spec.key, args[++i]]);
      } else opts.push([spec.key, '']);
      continue;
    }
    if (a.length < 2 || a[0] !== '-') {
      operands.push(a);
      continue;
    }
    // A cluster of short options; a run of digits is -NUM (context).
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      if (c >= '0' && c <= '9') {
        let k = j;
        while (k < a.length && a[k] >= '0' && a[k] <= '9') k++;
        opts.push(['context-num', a.slice(j, k)]);
        j = k - 1;
        continue;
      }
      const spec = byShort.get(c);
      if (!spec) throw new UsageError(`invalid option -- '${c}'`);
      if (spec.arg === 'none') {
        opts.push([spec.key, '']);
        continue;
      }
      if (j + 1 < a.length) opts.push([spec.key, a.slice(j + 1)]);
      else if (i + 1 < args.length) opts.push([spec.key, args[++i]]);
      else throw new UsageError(`option requires an argument -- '${c}'`);
      break;
    }
  }
  return { opts, operands };
}

function findLong(name: string, specs: OptSpec[], arg: string): OptSpec {
  const exact = specs.find((s) => s.long?.includes(name));
  if (exact) return exact;
  const hits = specs.filter((s) => s.long?.some((l) => l.startsWith(name)));
  if (hits.length === 1) return hits[0];
  if (hits.length === 0) throw new UsageError(`unrecognized option '${arg}'`);
  const names = hits.flatMap((s) => s.long!.filter((l) => l.startsWith(name)).map((l) => `'--${l}'`));
  throw new UsageError(`option '${arg.split('=')[0]}' is ambiguous; possibilities: ${names.join(' ')}`);
}

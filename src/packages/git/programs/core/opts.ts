// Option parsing in the manner of git's parse-options: short clusters and
// attached values (-am msg, -mmsg), --long[=value], unique prefixes,
// --no-<flag>, options anywhere before `--`, and its error wording followed
// by the command's usage (status 129).

import { Fatal } from './errors.js';

/** 'bool' flags (negatable), 'str' required values, 'opt' optional attached values, 'count' repeatable flags. */
export type Kind = 'bool' | 'str' | 'opt' | 'count';

/** `'m|message': 'str'`: short letter and long name (either may be missing: `'|amend'`, `'q'`). */
export type Spec = Record<string, Kind>;

export class Options {
  /** Every option in order: [key, value]; value null for flags, 'false' for --no-flag. */
  readonly list: [string, string | null][] = [];
  operands: string[] = [];
  /** Index into operands where `--` stood; -1 when absent. */
  dashdash = -1;

  has(key: string): boolean {
    for (let i = this.list.length - 1; i >= 0; i--) if (this.list[i][0] === key) return this.list[i][1] !== 'false';
    return false;
  }

  /** Was the option given at all (even as --no-x)? */
  given(key: string): boolean {
    return this.list.some(([k]) => k === key);
  }

  get(key: string): string | undefined {
    for (let i = this.list.length - 1; i >= 0; i--) if (this.list[i][0] === key) return this.list[i][1] ?? undefined;
    return undefined;
  }

  all(key: string): string[] {
    return this.list.filter(([k, v]) => k === key && v !== null).map(([, v]) => v as string);
  }

  count(key: string): number {
    return this.list.filter(([k]) => k === key).length;
  }

  /** Operands before `--` (all of them when there was none). */
  get beforeDashdash(): string[] {
    return this.dashdash < 0 ? this.operands : this.operands.slice(0, this.dashdash);
  }

  get afterDashdash(): string[] {
    return this.dashdash < 0 ? [] : this.operands.slice(this.dashdash);
  }
}

interface Def {
  key: string;
  kind: Kind;
}

/** A usage error: git prints `error: <msg>` then the usage text, status 129. */
export class UsageFail extends Fatal {}

/** `-h` (status 129, as git) or `--help` (0; git would open the manual): the usage on stdout. */
export class UsageHelp extends Fatal {}

function usageError(msg: string, usage: string): never {
  throw new UsageFail(`${msg ? `error: ${msg}\n` : ''}${usage}`, 129);
}

export function parseOptions(args: string[], spec: Spec, usage: string, opts: { stopAtOperand?: boolean; numbers?: string } = {}): Options {
  const shorts = new Map<string, Def>();
  const longs = new Map<string, Def>();
  for (const [names, kind] of Object.entries(spec)) {
    const [s, l] = names.includes('|') ? names.split('|') : names.length === 1 ? [names, ''] : ['', names];
    const key = l || s;
    if (s) shorts.set(s, { key, kind });
    if (l) longs.set(l, { key, kind });
  }
  const o = new Options();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      o.dashdash = o.operands.length;
      o.operands.push(...args.slice(i + 1));
      break;
    }
    if (a === '-h' && !shorts.has('h')) throw new UsageHelp(usage, 129);
    if (a === '--help') throw new UsageHelp(usage, 0);
    if (opts.numbers && /^-\d+$/.test(a)) {
      o.list.push([opts.numbers, a.slice(1)]);
      continue;
    }
    if (a.length < 2 || a[0] !== '-') {
      if (opts.stopAtOperand) {
        o.operands.push(...args.slice(i));
        break;
      }
      o.operands.push(a);
      continue;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      let name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      let negated = false;
      let def = longs.get(name);
      if (!def && name.startsWith('no-') && longs.get(name.slice(3))) {
        def = longs.get(name.slice(3));
        negated = true;
        name = name.slice(3);
      }
      if (!def) {
        const hits = [...longs.keys()].filter((k) => k.startsWith(name));
        const negHits = name.startsWith('no-') ? [...longs.keys()].filter((k) => k.startsWith(name.slice(3))) : [];
        if (hits.length === 1) {
          name = hits[0];
          def = longs.get(name);
        } else if (hits.length === 0 && negHits.length === 1) {
          name = negHits[0];
          def = longs.get(name);
          negated = true;
        } else if (hits.length > 1) usageError(`ambiguous option: ${name} (could be --${hits[0]} or --${hits[1]})`, usage);
      }
      if (!def) usageError(`unknown option \`${eq < 0 ? a.slice(2) : a.slice(2, eq)}'`, usage);
      if (negated) {
        if (eq >= 0) usageError(`option \`no-${name}' takes no value`, usage);
        o.list.push([def.key, 'false']);
        continue;
      }
      if (def.kind === 'bool' || def.kind === 'count') {
        if (eq >= 0) usageError(`option \`${name}' takes no value`, usage);
        o.list.push([def.key, null]);
      } else if (eq >= 0) o.list.push([def.key, a.slice(eq + 1)]);
      else if (def.kind === 'opt') o.list.push([def.key, null]);
      else if (i + 1 < args.length) o.list.push([def.key, args[++i]]);
      else usageError(`option \`${name}' requires a value`, usage);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      const def = shorts.get(c);
      if (!def) usageError(`unknown switch \`${c}'`, usage);
      if (def.kind === 'bool' || def.kind === 'count') {
        o.list.push([def.key, null]);
        continue;
      }
      const rest = a.slice(j + 1);
      if (rest) o.list.push([def.key, rest]);
      else if (def.kind === 'opt') o.list.push([def.key, null]);
      else if (i + 1 < args.length) o.list.push([def.key, args[++i]]);
      else usageError(`switch \`${c}' requires a value`, usage);
      break;
    }
  }
  return o;
}

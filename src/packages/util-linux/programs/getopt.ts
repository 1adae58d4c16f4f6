// getopt optstring parameters
// getopt [options] [--] optstring parameters
// getopt [options] -o|--options optstring [options] [--] parameters
// Parse command options for shell scripts (util-linux 2.38): options
// normalized, arguments quoted for the shell (-s sh|bash|csh|tcsh), `--`
// before the remaining parameters. Parsing follows glibc's getopt_long:
// permutation unless the optstring starts with `+` (or POSIXLY_CORRECT),
// `-` to keep non-options in place, `::` optional arguments, unique prefixes
// of long options, -a for long options with one dash.

import type { AgentosApi } from '../../../runtimes/js/api.js';

const USAGE = `
Usage:
 getopt <optstring> <parameters>
 getopt [options] [--] <optstring> <parameters>
 getopt [options] -o|--options <optstring> [options] [--] <parameters>

Parse command options.

Options:
 -a, --alternative             allow long options starting with single -
 -l, --longoptions <longopts>  the long options to be recognized
 -n, --name <progname>         the name under which errors are reported
 -o, --options <optstring>     the short options to be recognized
 -q, --quiet                   disable error reporting by getopt(3)
 -Q, --quiet-output            no normal output
 -s, --shell <shell>           set quoting conventions to those of <shell>
 -T, --test                    test for getopt(1) version
 -u, --unquoted                do not quote the output

 -h, --help                    display this help
 -V, --version                 display version
`;

type Kind = 0 | 1 | 2; // no argument, required, optional

interface Spec {
  short: Map<string, Kind>;
  long: Map<string, Kind>;
  /** '+': stop at the first non-option; '-': return non-options in place. */
  mode: '' | '+' | '-';
}

interface Out {
  quote: (s: string) => string;
  items: string[];
}

class Usage extends Error {}

function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function cshQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`).replace(/!/g, `'\\!'`).replace(/\n/g, '\\\n')}'`;
}

function parseShort(opt: string, spec: Spec): void {
  let s = opt;
  if (s[0] === '+' || s[0] === '-') {
    spec.mode = s[0] as '+' | '-';
    s = s.slice(1);
  }
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    let kind: Kind = 0;
    if (s[i + 1] === ':') {
      kind = s[i + 2] === ':' ? 2 : 1;
      i += kind;
    }
    spec.short.set(ch, kind);
  }
}

function parseLong(list: string, spec: Spec): void {
  for (const item of list.split(/[,\s]+/)) {
    if (item === '') continue;
    const m = /^(.*?)(:{0,2})$/.exec(item)!;
    spec.long.set(m[1], m[2].length as Kind);
  }
}

/** glibc getopt_long over `args`; errors reported as `name: …` unless quiet. Returns false if any. */
function parse(args: string[], spec: Spec, alternative: boolean, report: (m: string) => void, out: Out): boolean {
  let ok = true;
  const rest: string[] = [];
  let i = 0;
  const findLong = (name: string, shown: string): string | null => {
    if (spec.long.has(name)) return name;
    const hits = [...spec.long.keys()].filter((k) => k.startsWith(name));
    if (hits.length === 1) return hits[0];
    if (hits.length === 0) return null;
    report(`option '${shown}' is ambiguous; possibilities:${hits.map((h) => ` '${shown.startsWith('--') ? '--' : '-'}${h}'`).join('')}`);
    return '';
  };
  const longOpt = (body: string, dashes: string): void => {
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const found = findLong(name, dashes + name);
    if (found === '') {
      ok = false;
      return;
    }
    if (found === null) {
      report(`unrecognized option '${dashes}${body}'`);
      ok = false;
      return;
    }
    const kind = spec.long.get(found)!;
    if (kind === 0) {
      if (eq >= 0) {
        report(`option '${dashes}${found}' doesn't allow an argument`);
        ok = false;
        return;
      }
      out.items.push(`--${found}`);
    } else if (eq >= 0) out.items.push(`--${found}`, out.quote(body.slice(eq + 1)));
    else if (kind === 2) out.items.push(`--${found}`, out.quote(''));
    else if (i < args.length) out.items.push(`--${found}`, out.quote(args[i++]));
    else {
      report(`option '${dashes}${found}' requires an argument`);
      ok = false;
    }
  };
  while (i < args.length) {
    const a = args[i++];
    if (a === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if (a.startsWith('--') ) {
      longOpt(a.slice(2), '--');
      continue;
    }
    if (!a.startsWith('-') || a === '-') {
      if (spec.mode === '+') {
        rest.push(a, ...args.slice(i));
        break;
      }
      if (spec.mode === '-') out.items.push(out.quote(a));
      else rest.push(a);
      continue;
    }
    // -a: a long option with one dash, if it names one (else short options).
    if (alternative) {
      const body = a.slice(1);
      const name = body.split('=')[0];
      if (name.length > 1 || !spec.short.has(name[0])) {
        const exists = spec.long.has(name) || [...spec.long.keys()].some((k) => k.startsWith(name));
        if (exists || !spec.short.has(body[0])) {
          longOpt(body, '-');
          continue;
        }
      }
    }
    for (let k = 1; k < a.length; k++) {
      const ch = a[k];
      const kind = spec.short.get(ch);
      if (kind === undefined || ch === ':') {
        report(`invalid option -- '${ch}'`);
        ok = false;
        continue;
      }
      if (kind === 0) {
        out.items.push(`-${ch}`);
        continue;
      }
      const attached = a.slice(k + 1);
      if (attached !== '') out.items.push(`-${ch}`, out.quote(attached));
      else if (kind === 2) out.items.push(`-${ch}`, out.quote(''));
      else if (i < args.length) out.items.push(`-${ch}`, out.quote(args[i++]));
      else {
        report(`option requires an argument -- '${ch}'`);
        ok = false;
      }
      break;
    }
  }
  out.items.push('--', ...rest.map(out.quote));
  return ok;
}

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const args = os.argv.slice(1);
  const spec: Spec = { short: new Map(), long: new Map(), mode: '' };
  let name = 'getopt';
  let quiet = false;
  let quietOut = false;
  let unquoted = false;
  let alternative = false;
  let shell = 'sh';
  let optstring: string | null = null;
  let params: string[];
  const fail = (msg: string): number => {
    os.eprint(`getopt: ${msg}\nTry 'getopt --help' for more information.\n`);
    return 2;
  };
  try {
    if (args.length && !args[0].startsWith('-')) {
      // Traditional mode: getopt optstring parameters, unquoted.
      optstring = args[0];
      params = args.slice(1);
      unquoted = true;
    } else {
      let i = 0;
      const value = (opt: string, inline: string | null): string => {
        if (inline !== null) return inline;
        if (i >= args.length) throw new Usage(opt.startsWith('--') ? `option '${opt}' requires an argument` : `option requires an argument -- '${opt.slice(1)}'`);
        return args[i++];
      };
      const LONG: Record<string, string> = {
        options: 'o', longoptions: 'l', name: 'n', quiet: 'q', 'quiet-output': 'Q', shell: 's', test: 'T', unquoted: 'u',
        alternative: 'a', help: 'h', version: 'V',
      };
      for (; i < args.length;) {
        const a = args[i++];
        if (a === '--') break;
        if (!a.startsWith('-') || a === '-') {
          i--;
          break;
        }
        const opts: [string, string | null][] = [];
        if (a.startsWith('--')) {
          const eq = a.indexOf('=');
          const n = a.slice(2, eq < 0 ? undefined : eq);
          const hits = Object.keys(LONG).filter((k) => k.startsWith(n));
          const hit = n in LONG ? n : hits.length === 1 ? hits[0] : null;
          if (!hit) throw new Usage(hits.length ? `option '${a}' is ambiguous` : `unrecognized option '${a}'`);
          opts.push([LONG[hit], eq >= 0 ? a.slice(eq + 1) : null]);
        } else {
          for (let k = 1; k < a.length; k++) {
            const ch = a[k];
            if ('olns'.includes(ch)) {
              opts.push([ch, a.length > k + 1 ? a.slice(k + 1) : null]);
              break;
            }
            if (!'qQTuahV'.includes(ch)) throw new Usage(`invalid option -- '${ch}'`);
            opts.push([ch, null]);
          }
        }
        for (const [k, inline] of opts) {
          switch (k) {
            case 'o': optstring = value('-o', inline); break;
            case 'l': parseLong(value('-l', inline), spec); break;
            case 'n': name = value('-n', inline); break;
            case 'q': quiet = true; break;
            case 'Q': quietOut = true; break;
            case 's': {
              shell = value('-s', inline);
              if (!['sh', 'bash', 'csh', 'tcsh'].includes(shell)) return fail('unknown shell after -s or --shell argument');
              break;
            }
            case 'T': return 4;
            case 'u': unquoted = true; break;
            case 'a': alternative = true; break;
            case 'h': os.print(USAGE); return 0;
            case 'V': os.print('getopt from agentOS util-linux 2.38.1\n'); return 0;
          }
        }
      }
      if (optstring === null) {
        if (i >= args.length) return fail('missing optstring argument');
        optstring = args[i++];
      }
      params = args.slice(i);
    }
  } catch (e) {
    if (e instanceof Usage) return fail(e.message);
    throw e;
  }
  parseShort(optstring, spec);
  if ('POSIXLY_CORRECT' in os.env && spec.mode === '') spec.mode = '+';
  const quote = unquoted ? (s: string) => s : shell === 'csh' || shell === 'tcsh' ? cshQuote : shQuote;
  const out: Out = { quote, items: [] };
  const ok = parse(params, spec, alternative, (m) => {
    if (!quiet) os.eprint(`${name}: ${m}\n`);
  }, out);
  if (!quietOut) os.print(`${out.items.map((x) => ` ${x}`).join('')}\n`);
  return ok ? 0 : 1;
}

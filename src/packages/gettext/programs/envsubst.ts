// envsubst [OPTION] [SHELL-FORMAT]   Substitute environment variables (GNU gettext 0.21).
// Copies stdin to stdout replacing $NAME and ${NAME} with the variable's value
// (empty when unset); with SHELL-FORMAT only the variables it names; with -v
// prints the names SHELL-FORMAT references, one per line.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { parseArgs, UsageError } from '../../../userland/lib/args.js';
import { latin1, latin1Bytes } from '../../../userland/lib/bytes.js';
import { chunks } from '../../../userland/lib/reader.js';
import { Writer } from '../../../userland/lib/writer.js';

const USAGE = `Usage: envsubst [OPTION] [SHELL-FORMAT]

Substitutes the values of environment variables.

Operation mode:
  -v, --variables             output the variables occurring in SHELL-FORMAT

Informative output:
  -h, --help                  display this help and exit
  -V, --version               output version information and exit

In normal operation mode, standard input is copied to standard output,
with references to environment variables of the form $VARIABLE or \${VARIABLE}
being replaced with the corresponding values.  If a SHELL-FORMAT is given,
only those environment variables that are referenced in SHELL-FORMAT are
substituted; otherwise all environment variables references occurring in
standard input are substituted.

When --variables is used, standard input is ignored, and the output consists
of the environment variables that are referenced in SHELL-FORMAT, one per line.
`;

const VERSION = 'envsubst (agentOS gettext-runtime) 0.21\n';

/** $NAME or ${NAME}: the forms envsubst knows (no ${NAME-default}). */
const REF = /\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})/g;

function names(format: string): string[] {
  return [...format.matchAll(REF)].map((m) => m[1] ?? m[2]);
}

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  let parsed;
  try {
    parsed = parseArgs(os.argv.slice(1), { short: 'hvV', long: { help: ['h', 'none'], variables: ['v', 'none'], version: ['V', 'none'] } });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    os.eprint(`envsubst: ${e.message}\nTry 'envsubst --help' for more information.\n`);
    return 1;
  }
  const flags = new Set(parsed.list.map(([k]) => k));
  if (flags.has('h')) {
    os.print(USAGE);
    return 0;
  }
  if (flags.has('V')) {
    os.print(VERSION);
    return 0;
  }
  const ops = parsed.operands;
  if (ops.length > 1) {
    os.eprint('envsubst: too many arguments\n');
    return 1;
  }
  const out = new Writer(os.sys, 1);
  if (flags.has('v')) {
    if (ops.length === 0) {
      os.eprint('envsubst: missing arguments\n');
      return 1;
    }
    for (const n of names(ops[0])) out.write(`${n}\n`);
    out.flush();
    return 0;
  }
  const only = ops.length ? new Set(names(ops[0])) : null;
  // Variable names are ASCII: as a one-char-per-byte string, every other byte stays as it was.
  let text = '';
  for (const b of chunks(os.sys, 0)) text += latin1(b);
  const replaced = text.replace(REF, (whole, a?: string, b?: string) => {
    const name = a ?? b!;
    if (only && !only.has(name)) return whole;
    return latin1(new TextEncoder().encode(os.env[name] ?? ''));
  });
  out.write(latin1Bytes(replaced));
  out.flush();
  return 0;
}

// The runner for procps tools: their option syntax (-SIGNAL, BSD letters)
// is parsed by each tool, so the shared runner only handles --help/--version.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, type Cmd } from '../../../userland/lib/index.js';

export const PROCPS_VERSION = 'procps-ng 4.0.2 (agentOS)';

export function simpleCommand(os: AgentosApi, name: string, usage: string, body: (c: Cmd) => number | void): number {
  const applet = command({ name, usage, rawArgs: true }, (c) => {
    if (c.operands[0] === '--help' || c.operands[0] === '-h') {
      c.out.write(usage);
      return 0;
    }
    if (c.operands[0] === '--version' || c.operands[0] === '-V') {
      c.out.write(`${name} from ${PROCPS_VERSION}\n`);
      return 0;
    }
    return body(c);
  });
  return applet(os, os.argv.slice(1));
}

/** procps style usage error: the message, then the usage text on stderr. */
export function usageError(c: Cmd, msg: string, usage: string, status = 1): never {
  c.out.flush();
  c.sys.writeAll(2, msg ? `${c.name}: ${msg}\n${usage}` : usage);
  return c.exit(status);
}

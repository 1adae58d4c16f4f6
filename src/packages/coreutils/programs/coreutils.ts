// coreutils: a multicall program. The applet is basename(argv[0]) — the name
// the command was invoked by (seed 000, "Multicall") — never the blob's own name.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { env } from './env.js';
import { printenv } from './printenv.js';

type Applet = (os: AgentosApi, args: string[]) => number;

const APPLETS: Record<string, Applet> = {
  env,
  printenv,
  true: () => 0,
  false: () => 1,
};

export default function main(os: AgentosApi): void {
  const invoked = os.argv[0] ?? '';
  const name = invoked.slice(invoked.lastIndexOf('/') + 1);
  const applet = APPLETS[name];
  if (!applet) {
    os.eprint(`coreutils: '${name}': applet not found; run it through one of its links: ${Object.keys(APPLETS).join(', ')}\n`);
    os.exit(127);
  }
  os.exit(applet(os, os.argv.slice(1)));
}

// printenv [NAME]...: print all or part of the environment.

import type { AgentosApi } from '../../../runtimes/js/api.js';

export function printenv(os: AgentosApi, args: string[]): number {
  const names = args.filter((a) => a !== '--');
  if (names.length === 0) {
    os.print(Object.entries(os.env).map(([k, v]) => `${k}=${v}\n`).join(''));
    return 0;
  }
  let status = 0;
  for (const n of names) {
    if (n in os.env) os.print(`${os.env[n]}\n`);
    else status = 1;
  }
  return status;
}

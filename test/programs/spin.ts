// spin: burn CPU forever without a single syscall (only SIGKILL-style termination can stop it).
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  os.print('spinning\n');
  let x = 0;
  for (;;) x = (x + 1) | 0;
}

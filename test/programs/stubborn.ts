// stubborn: call exit(5), swallow the unwinding, and spin — the kernel must still reap it
// and destroy its worker.
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  try {
    os.exit(5);
  } catch {
    // ignore the unwind
  }
  let x = 0;
  for (;;) x = (x + 1) | 0;
}

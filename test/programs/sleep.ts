// sleep MS: sleep in the kernel (interruptible by signals).
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  os.sys.sleep(Number(os.argv[1] ?? 1000));
}

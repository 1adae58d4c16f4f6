// exit [CODE]: exit with CODE (default 0). Also the `true` of the benchmarks.
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  os.exit(Number(os.argv[1] ?? 0));
}

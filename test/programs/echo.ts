// echo ARGS...: print the arguments.
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  os.print(os.argv.slice(1).join(' ') + '\n');
}

// ticker: print an increasing counter every 20 ms, forever (for stop/continue tests).
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  for (let i = 0; ; i++) {
    os.print(`${i}\n`);
    os.sys.sleep(20);
  }
}

// statloop N [PATH]: N stat() round trips; prints the mean microseconds per call (benchmark).
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  const n = Number(os.argv[1] ?? 10000);
  const path = os.argv[2] ?? '/tmp';
  for (let i = 0; i < 200; i++) os.sys.stat(path); // warm up
  const t0 = performance.now();
  for (let i = 0; i < n; i++) os.sys.stat(path);
  const us = ((performance.now() - t0) * 1000) / n;
  os.print(`${us}\n`);
}

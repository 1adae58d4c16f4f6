// yes [TEXT]: write TEXT lines forever (until the reader goes away: EPIPE/SIGPIPE).
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  const line = (os.argv.slice(1).join(' ') || 'y') + '\n';
  const block = new TextEncoder().encode(line.repeat(Math.max(1, Math.floor(8192 / line.length))));
  for (;;) os.sys.writeAll(1, block);
}

import type { AgentosApi } from '../../../runtimes/js/api.js';
export default function main(os: AgentosApi): void {
  os.exit(1);
}

// The agentos-shell program (see src/shell/main.ts).

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { shellMain } from '../../../shell/main.js';

export default function main(os: AgentosApi): void {
  shellMain(os);
}

import type { Machine } from '../../src/host/api/machine.js';

export interface SuiteCase {
  name: string;
  run(m: Machine): Promise<void>;
}

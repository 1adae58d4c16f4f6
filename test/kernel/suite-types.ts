import type { Machine } from '../../src/host/machine.js';

export interface SuiteCase {
  name: string;
  run(m: Machine): Promise<void>;
}

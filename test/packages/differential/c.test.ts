// The userland differential suite under LC_ALL=C (bytes): suite.ts.

import { LOCALES } from './run.js';
import { differentialSuite } from './suite.js';

differentialSuite(LOCALES[0]);

// The userland differential suite under LANG=C.UTF-8 (characters): suite.ts.

import { LOCALES } from './run.js';
import { differentialSuite } from './suite.js';

differentialSuite(LOCALES[1]);

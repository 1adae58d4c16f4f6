// The git differential cases under LANG=C.UTF-8 (differential.ts); git.test.ts runs them under LC_ALL=C.

import { gitDifferential } from './differential.js';

gitDifferential('C.UTF-8');

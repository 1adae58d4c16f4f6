// Info-ZIP's wildcards for member names: '*' and '?' match any character,
// '/' included; '[...]' is a set. Names without wildcards match exactly.

import { globRegExp } from '../../../userland/lib/glob.js';

export const globMatch = (pattern: string, name: string, fold = false): boolean => globRegExp(pattern, fold).test(name);

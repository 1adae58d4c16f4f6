// File times as make compares them: the modification time in milliseconds
// (fractions kept), NONEXISTENT for a missing file.

import type { Make } from './context.js';
import { NONEXISTENT } from './rules.js';

export function statMtime(mk: Make, name: string): number {
  try {
    return mk.sys.stat(name).mtimeMs;
  } catch {
    return NONEXISTENT;
  }
}

export function fileExists(mk: Make, name: string): boolean {
  return statMtime(mk, name) !== NONEXISTENT;
}

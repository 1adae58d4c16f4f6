// Small helpers shared by the VFS unit tests.

import type { SysError } from '../../../src/abi/errno.js';

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
export const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

/** Run `fn`; 'ok' or the errno name it threw. */
export const code = (fn: () => unknown): string => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return (e as SysError).code;
  }
};

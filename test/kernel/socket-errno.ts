// Shared by the socket syscall tests: the errno a call fails with (a call that succeeds fails the test).

import assert from 'node:assert/strict';
import { SysError } from '../../src/abi/errno.js';

export async function errno(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SysError) return e.errno;
    throw e;
  }
  assert.fail('expected an error');
}

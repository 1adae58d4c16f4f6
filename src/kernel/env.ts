// Environment sanitising for privileged execs: what crosses from the trusted
// host into the guest, like glibc under AT_SECURE.

import { DEFAULT_PATH, getenv } from '../abi/env.js';

const UNSAFE = [/^LD_/, /^DYLD_/, /PRELOAD$/, /^NODE_OPTIONS$/, /^PATH$/, /^BASH_ENV$/];

/** Drop loader/interpreter hooks and PATH, then give the guest the default PATH. */
export function sanitizeEnv(env: readonly string[]): string[] {
  const kept = env.filter((kv) => {
    const eq = kv.indexOf('=');
    const name = eq < 0 ? kv : kv.slice(0, eq);
    return eq > 0 && !UNSAFE.some((re) => re.test(name));
  });
  if (getenv(kept, 'PATH') === undefined) kept.push(`PATH=${DEFAULT_PATH}`);
  return kept;
}

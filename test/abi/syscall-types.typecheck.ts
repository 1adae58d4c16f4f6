// Type-level tests of the syscall signature table (src/abi/syscall-types.ts).
// Never run: tsc checks this file in `npm test`'s typecheck stage (tsconfig.json
// includes test/). Each `@ts-expect-error` marks a call that must not compile;
// if the table stopped rejecting it, the unused directive would itself fail
// the typecheck. One error per marked line, so no other mistake can stand in.

import type { Machine } from '../../src/host/api/machine.js';
import { bytes, int, msOrNow, str } from '../../src/kernel/sys/args.js';
import type { Handler } from '../../src/kernel/syscall.js';
import type { Sys } from '../../src/libc/sys.js';
import type { SyscallClient } from '../../src/libc/syscall-client.js';
import type { Stat } from '../../src/abi/stat.js';

declare function number(n: number): void;
declare function stat(s: Stat): void;

/** A process's calls (user/syscall-client.ts, under user/sys.ts). */
export function processSide(c: SyscallClient, sys: Sys): void {
  number(c.call('open', '/etc/passwd', 0));
  stat(c.call('stat', '/'));
  number(sys.spawn({ path: '/bin/true', argv: ['true'] }));
  // @ts-expect-error a path is a string
  c.call('open', 1, 'x');
  // @ts-expect-error write takes bytes, not a string
  c.call('write', 1, 'text');
  // @ts-expect-error kill takes a pid and a signal
  c.call('kill', 1);
  // @ts-expect-error getpid takes nothing
  c.call('getpid', 1);
  // @ts-expect-error stat answers a Stat
  number(c.call('stat', '/'));
  // @ts-expect-error there is no fork: processes begin with spawn
  c.call('fork');
  // @ts-expect-error a spawn request names the program's argv
  c.call('spawn', { path: '/bin/true' });
  // @ts-expect-error argv is a list of strings
  sys.spawn({ path: '/bin/true', argv: 'true' });
  // @ts-expect-error snapshot create takes a name
  sys.snapshot('create');
  // @ts-expect-error software list answers links, not a number
  number(sys.software('list'));
}

/** The host's calls (host/machine.ts; host/user-files.ts has the same signature). */
export async function hostSide(m: Machine): Promise<void> {
  number(await m.syscall('open', '/etc/passwd', 0));
  stat(await m.syscall('stat', '/'));
  // @ts-expect-error a path is a string
  await m.syscall('stat', 1);
  // @ts-expect-error waitpid answers [pid, status]
  number(await m.syscall('waitpid', 1, 0));
  // @ts-expect-error a spawn request's fds are [childFd, parentFd] pairs
  await m.syscall('spawn', { path: '/bin/true', argv: ['true'], fds: [0, 1] });
}

/** The kernel's handlers (kernel/sys/*.ts): argument readers and results. */
export const open: Handler<'open'> = (_k, _p, a) => (str(a, 0), int(a, 1), int(a, 2), int(a, 3));
export const utimes: Handler<'utimes'> = (_k, _p, a) => (msOrNow(a, 1), msOrNow(a, 2), 0);
// @ts-expect-error open's argument 0 is a path, not a number
export const wrongType: Handler<'open'> = (_k, _p, a) => int(a, 0);
// @ts-expect-error open has four arguments
export const wrongCount: Handler<'open'> = (_k, _p, a) => int(a, 4);
// @ts-expect-error write's data is bytes, not a string
export const wrongReader: Handler<'write'> = (_k, _p, a) => (str(a, 1), 0);
// @ts-expect-error utimes's times may be null ("now"): read with msOrNow
export const nullable: Handler<'utimes'> = (_k, _p, a) => (int(a, 1), 0);
// @ts-expect-error stat answers a Stat
export const wrongResult: Handler<'stat'> = () => 0;
// @ts-expect-error pread's argument 1 is a length, not bytes
export const wrongBytes: Handler<'pread'> = (_k, _p, a) => bytes(a, 1);

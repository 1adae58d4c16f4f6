// The syscall table: name → handler. Numbers come from abi/syscalls.ts.
// Each module's handlers are typed by their signatures (abi/syscall-types.ts);
// the mapped type makes every syscall have a handler of its own name's type.

import type { SyscallName } from '../../abi/syscalls.js';
import type { AnyHandler, Handler } from '../syscall.js';
import * as file from './file.js';
import * as path from './path.js';
import * as proc from './proc.js';
import * as snapshot from './snapshot.js';
import * as software from './software.js';
import * as net from '../net/sys.js';
import * as agent from '../agent/sys.js';
import * as socket from '../socket/sys.js';
import * as aos from '../agent/aosctl.js';

const typed: { [N in SyscallName]: Handler<N> } = { ...file, ...path, ...proc, ...software, ...snapshot, ...net, ...agent, ...socket, ...aos };

/** The same, as dispatch calls them: the kernel checks the values it is sent (sys/args.ts). */
export const handlers = typed as unknown as Record<SyscallName, AnyHandler>;

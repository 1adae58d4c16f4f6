// The syscall table: name → handler. Numbers come from abi/syscalls.ts.

import type { SyscallName } from '../../abi/syscalls.js';
import type { Handler } from '../syscall.js';
import * as file from './file.js';
import * as path from './path.js';
import * as proc from './proc.js';
import * as snapshot from './snapshot.js';
import * as software from './software.js';
import * as net from '../net/sys.js';

export const handlers: Record<SyscallName, Handler> = { ...file, ...path, ...proc, ...software, ...snapshot, ...net };

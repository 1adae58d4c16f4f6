// The CLI's --isolation option: where a Node-host VM runs. By default the CLI
// and `agentos mcp` run it in a child Node process under Node's permission
// model (isolation 'process', src/host/node/isolation.ts); `--isolation none`
// runs it in agentos's own process. The browser host (--browser) is isolated
// by Chromium instead and takes no --isolation.

import type { Isolation } from '../host/node/index.js';

export const ISOLATION_USAGE = `Isolation (Node host: exec, shell, run, snapshot, status, mcp):
  --isolation process     the default: the VM runs in a child Node process under Node's permission
                          model (reads of its own files, --state and --mount only; writes of --state
                          and read-write mounts only; no child processes, addons or inspector; JS heaps
                          capped) — defense in depth should a guest escape its confinement
  --isolation none        the VM runs in agentos's own process (boots faster; symlinks in --mount
                          directories work, which the permission model refuses)`;

export interface IsolationFlag {
  isolation: Isolation;
  /** Given on the command line (an error with --browser). */
  given: boolean;
}

export function newIsolationFlag(): IsolationFlag {
  return { isolation: 'process', given: false };
}

/** If args[i] is --isolation, apply it and return 2 (the arguments it took); 0 if it is not. Throws on a bad value. */
export function takeIsolationFlag(args: string[], i: number, f: IsolationFlag): number {
  if (args[i] !== '--isolation') return 0;
  const value = args[i + 1];
  if (value !== 'process' && value !== 'none') throw new Error(`--isolation needs process or none, got '${value ?? ''}'`);
  f.isolation = value;
  f.given = true;
  return 2;
}

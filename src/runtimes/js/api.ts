// The `agentos` object a JavaScript program receives.

import { SysError } from '../../abi/errno.js';
import type { Sys } from '../../libc/sys.js';
import type { ProcessContext, SignalHandler } from '../context.js';
import { hostRepository, type Repository } from './repository.js';

export interface AgentosApi {
  /** argv[0] is the script path as invoked (so multicall scripts see their link name). */
  argv: string[];
  env: Record<string, string>;
  pid: number;
  sys: Sys;
  exit(code?: number): never;
  /** Install a signal handler, or 0 (default) / 1 (ignore). */
  signal(sig: number, handler: SignalHandler | 0 | 1): void;
  print(text: string): void;
  eprint(text: string): void;
  SysError: typeof SysError;
  /** The host's package repository (read-only; agentos-software installs from it). */
  repository: Repository;
  /**
   * Keep `main` to run the later processes of this same program file in this
   * worker without evaluating the program's top level again (the bundle
   * footer calls it for a program that exports `reentrant`). Only for a
   * program whose module state carries nothing from one run to the next:
   * the coreutils bundle (decision 0088). A no-op outside the js runtime.
   */
  reuse(main: (agentos: AgentosApi) => unknown): void;
}

let repository: Repository | null = null;

/** `argv`: the program's view; scripts drop the interpreter (default), native images keep all. */
export function makeApi(ctx: ProcessContext, argv = ctx.argv.slice(1)): AgentosApi {
  const env: Record<string, string> = {};
  for (const kv of ctx.env) {
    const i = kv.indexOf('=');
    if (i > 0) env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return {
    argv,
    env,
    pid: ctx.pid,
    sys: ctx.sys,
    exit: (code = 0) => ctx.exit(code),
    signal: (sig, handler) => ctx.signal(sig, handler as SignalHandler),
    print: (text) => ctx.sys.writeAll(1, text),
    eprint: (text) => ctx.sys.writeAll(2, text),
    SysError,
    reuse: () => {},
    get repository() {
      return (repository ??= hostRepository());
    },
  };
}

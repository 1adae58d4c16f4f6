// The JavaScript runtime (minimal, pre-node): `js SCRIPT [ARGS...]`.
//
// The script is a function body run with one parameter, `agentos` (see
// api.ts). Node compatibility (process, require('fs'), the event loop rules)
// arrives with the runtimes issue and builds on the same ProcessContext.

import { Errno, SysError } from '../../abi/errno.js';
import { programKey } from '../../abi/runtime.js';
import type { ProcessContext } from '../context.js';
import { makeApi } from './api.js';
import { compile, type Program } from './compile.js';

/** Compiled scripts by file identity, so re-running a program skips parsing. */
const cache = new Map<string, Program>();
/**
 * The mains of reentrant programs (api.ts `reuse`) by the same identity: a
 * later process of that file runs its main without evaluating the top level
 * again. The key is the kernel's (or this runtime's own open), never the
 * program's: a program can keep a main only for itself.
 */
const kept = new Map<string, Program>();
const utf8 = new TextDecoder();

export async function runJs(ctx: ProcessContext): Promise<void> {
  const script = ctx.argv[1];
  if (script === undefined) {
    ctx.sys.writeAll(2, 'js: no script given (usage: js SCRIPT [ARG...])\n');
    ctx.exit(2);
  }
  const { key, program } = load(ctx, script);
  const api = makeApi(ctx);
  const main = kept.get(key);
  if (main) {
    await main(api);
    return;
  }
  api.reuse = (m) => void kept.set(key, m as Program);
  await program(api);
}

function load(ctx: ProcessContext, path: string): { key: string; program: Program } {
  // The kernel opened the script for this process already (kernel/script-key.ts): no syscall to find a compiled one.
  const known = ctx.script === undefined ? undefined : cache.get(ctx.script);
  if (known) return { key: ctx.script!, program: known };
  const fd = ctx.sys.open(path);
  try {
    const key = programKey(ctx.sys.fstat(fd));
    const hit = cache.get(key);
    if (hit) return { key, program: hit };
    let src = utf8.decode(ctx.sys.readAll(fd));
    if (src.startsWith('#!')) src = '//' + src.slice(2); // keep line numbers
    let fn: Program;
    try {
      fn = compile(src, path);
    } catch (e) {
      throw new SysError(Errno.ENOEXEC, `${path}: ${(e as Error).message}`);
    }
    cache.set(key, fn);
    return { key, program: fn };
  } finally {
    ctx.sys.close(fd);
  }
}

// Everything one WASI process's calls share: the kernel, the guest's memory,
// the descriptor table, argv/env as bytes, and helpers common to fd_* and path_*.

import type { Stat } from '../../abi/stat.js';
import type { Sys } from '../../libc/sys.js';
import type { ProcessContext } from '../context.js';
import { FST_ATIM, FST_ATIM_NOW, FST_MTIM, FST_MTIM_NOW, WasiErrno } from './abi.js';
import { WasiError } from './errno.js';
import { FdTable, filetypeOf } from './fds.js';
import { Memory } from './memory.js';

export class WasiState {
  readonly sys: Sys;
  readonly mem = new Memory();
  readonly fds: FdTable;
  readonly args: Uint8Array[];
  readonly env: Uint8Array[];
  /** performance.now() at start, the zero of the CPU-time clocks. */
  readonly startMs = performance.now();

  constructor(
    readonly ctx: ProcessContext,
    argv: string[],
    env: string[],
  ) {
    this.sys = ctx.sys;
    this.fds = new FdTable(ctx.sys);
    this.args = argv.map(Memory.encode);
    this.env = env.map(Memory.encode);
  }

  /** filestat record (64 bytes) from a kernel stat. */
  writeFilestat(ptr: number, st: Stat): void {
    const m = this.mem;
    m.setU64(ptr, st.dev);
    m.setU64(ptr + 8, st.ino);
    m.setU8(ptr + 16, filetypeOf(st.mode));
    for (let i = 17; i < 24; i++) m.setU8(ptr + i, 0);
    m.setU64(ptr + 24, st.nlink);
    m.setU64(ptr + 32, st.size);
    m.setU64(ptr + 40, msToNs(st.atimeMs));
    m.setU64(ptr + 48, msToNs(st.mtimeMs));
    m.setU64(ptr + 56, msToNs(st.ctimeMs));
  }
}

export function msToNs(ms: number): bigint {
  const whole = Math.floor(ms);
  return BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * 1e6));
}

export function nsToMs(ns: bigint): number {
  return Number(ns / 1_000_000n) + Number(ns % 1_000_000n) / 1e6;
}

/**
 * The [atime, mtime] pair for the kernel's utimes from WASI fstflags: a number
 * sets, null means "now", and an untouched time keeps its current value
 * (read through `current` only when needed).
 */
export function timesFor(fst: number, atim: bigint, mtim: bigint, current: () => Stat): [number | null, number | null] {
  if ((fst & FST_ATIM && fst & FST_ATIM_NOW) || (fst & FST_MTIM && fst & FST_MTIM_NOW) || fst & ~15) {
    throw new WasiError(WasiErrno.INVAL);
  }
  let st: Stat | undefined;
  const keep = (pick: (s: Stat) => number) => pick((st ??= current()));
  const a = fst & FST_ATIM ? nsToMs(atim) : fst & FST_ATIM_NOW ? null : keep((s) => s.atimeMs);
  const m = fst & FST_MTIM ? nsToMs(mtim) : fst & FST_MTIM_NOW ? null : keep((s) => s.mtimeMs);
  return [a, m];
}

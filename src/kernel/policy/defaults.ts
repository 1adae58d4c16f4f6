// The limits a VM has when its policy does not set them (decision 0031):
// sized for the host's memory, each overridable. A policy value is a number
// (a limit; 0 is a limit of zero) or 'none' (no limit; Infinity means the
// same from JavaScript). Absent: the default below.

import { OPEN_MAX } from '../../abi/fcntl.js';

const MiB = 2 ** 20;
const GiB = 2 ** 30;

/** What the host reports when it cannot tell its memory (a browser without navigator.deviceMemory). */
export const UNKNOWN_HOST_MEMORY = 4 * GiB;

/** The numeric limits of policy.processes. */
export const LIMIT_KEYS = ['maxProcesses', 'cpuTimeMs', 'wallTimeMs', 'maxOpenFiles', 'maxFileSize', 'maxLayerBytes', 'maxExecOutput', 'maxMemoryBytes'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** The limits in force: a number, or undefined for none. */
export type ResolvedLimits = { [K in LimitKey]?: number };

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const wholeMiB = (n: number) => Math.floor(n / MiB) * MiB;

/**
 * The defaults for a host with `memory` bytes. A process is a worker, about
 * 14 MB at rest on Node, so `maxProcesses` keeps a VM's resting processes
 * under 4% of the host's memory; a guest's own allocations are capped per
 * process (`maxMemoryBytes`), its files per writable layer (`maxLayerBytes`,
 * held in memory), and what one exec returns per stream (`maxExecOutput`).
 */
export function defaultLimits(memory: number): ResolvedLimits {
  const m = Number.isFinite(memory) && memory > 0 ? memory : UNKNOWN_HOST_MEMORY;
  return {
    maxProcesses: clamp(Math.round(m / (384 * MiB)), 16, 256),
    maxOpenFiles: OPEN_MAX,
    maxLayerBytes: wholeMiB(clamp(m / 32, 64 * MiB, GiB)),
    maxExecOutput: 16 * MiB,
    maxMemoryBytes: wholeMiB(clamp(m / 16, 256 * MiB, GiB)),
  };
}

/** The policy's limits over the host's defaults: 'none' and Infinity become no limit (undefined). */
export function resolveLimits(rules: { [K in LimitKey]?: number | 'none' } | undefined, memory: number): ResolvedLimits {
  const out = defaultLimits(memory);
  for (const k of LIMIT_KEYS) {
    const v = rules?.[k];
    if (v === undefined) continue;
    if (v === 'none' || v === Infinity) delete out[k];
    else out[k] = v;
  }
  return out;
}

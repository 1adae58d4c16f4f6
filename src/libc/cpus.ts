// The number of CPUs, as glibc's get_nprocs counts them: the `cpuN` lines of
// /proc/stat (the kernel fills them from the host's core count).

import type { Sys } from './sys.js';

export function onlineCpus(sys: Sys): number {
  try {
    const text = new TextDecoder().decode(sys.readFile('/proc/stat'));
    return Math.max(1, (text.match(/^cpu\d+ /gm) ?? []).length);
  } catch {
    return 1;
  }
}

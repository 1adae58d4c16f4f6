// One VM at a time per state directory: a lock file holding the owner's pid.
// A lock left by a process that no longer exists (a crash) is taken over.

import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Directories locked by VMs of this process (the pid alone cannot tell them apart). */
const held = new Set<string>();

/** Lock `dir` (created if missing); returns the unlock function. */
export function lockStateDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const real = realpathSync(dir);
  const file = join(real, 'lock');
  if (held.has(real)) throw new Error(`agentOS: state directory ${dir} is in use by another VM of this process`);
  for (;;) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = Number(readFileSync(file, 'utf8').trim());
    if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
      throw new Error(`agentOS: state directory ${dir} is in use by process ${owner}`);
    }
    rmSync(file, { force: true }); // stale: its owner is gone
  }
  held.add(real);
  return () => {
    if (!held.delete(real)) return;
    rmSync(file, { force: true });
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

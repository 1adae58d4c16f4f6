// One VM at a time per state directory (decision 0033).
//
// Node has no flock(), so the lock is a generation number: DIR/lock.d/<n>
// holds the identity of the process that took generation n — its pid, the
// kernel's start time of that pid and the boot it ran in (Linux /proc), and
// the host name. The highest generation is the lock. Taking it, free or from
// a dead holder, is creating <n+1> with link(2), which fails if it exists, so
// of two processes that both saw <n> free or stale exactly one wins (no
// check-then-remove race). The highest file is never deleted, only marked
// free on release, so n never goes back. A holder is dead when its pid is
// gone or now names another process (another start time or boot): a reused
// pid does not keep the lock, and a SIGKILLed holder's lock is free at once.

import { linkSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Directories locked by VMs of this process (the pid alone cannot tell them apart). */
const held = new Set<string>();

interface Holder {
  pid: number;
  /** Linux: field 22 of /proc/<pid>/stat (clock ticks after boot); null elsewhere. */
  start: string | null;
  boot: string | null;
  host: string;
}

const FREE = 'free\n';

/** Lock `dir` (created if missing); returns the unlock function. */
export function lockStateDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const real = realpathSync(dir);
  if (held.has(real)) throw new Error(`agentOS: state directory ${dir} is in use by another VM of this process`);
  const locks = join(real, 'lock.d');
  mkdirSync(locks, { recursive: true });
  checkLegacyLock(real, dir);
  const me = self();
  for (;;) {
    const top = highest(locks);
    if (top > 0) {
      const text = readOrNull(join(locks, String(top)));
      if (text === null) continue; // replaced by a higher generation meanwhile
      const owner = parse(text);
      if (owner && alive(owner)) {
        const where = owner.host === me.host ? '' : ` on host ${owner.host}`;
        throw new Error(`agentOS: state directory ${dir} is in use by process ${owner.pid}${where}`);
      }
    }
    const gen = top + 1;
    if (!claim(locks, gen, me)) continue; // another process took <gen> first: look again
    if (highest(locks) !== gen) {
      // We were slow: a later generation exists, so <gen> was not the next one.
      rmSync(join(locks, String(gen)), { force: true });
      continue;
    }
    for (const n of generations(locks)) if (n < gen) rmSync(join(locks, String(n)), { force: true });
    held.add(real);
    return () => {
      if (!held.delete(real)) return;
      replace(join(locks, String(gen)), FREE);
    };
  }
}

/** Create <gen> holding `me`, atomically and only if it does not exist. */
function claim(locks: string, gen: number, me: Holder): boolean {
  const tmp = join(locks, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  writeFileSync(tmp, JSON.stringify(me) + '\n', { mode: 0o600 });
  try {
    linkSync(tmp, join(locks, String(gen)));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
}

function replace(file: string, text: string): void {
  const tmp = `${file}.tmp-${randomBytes(6).toString('hex')}`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

function generations(locks: string): number[] {
  return readdirSync(locks).filter((n) => /^[1-9]\d*$/.test(n)).map(Number);
}

function highest(locks: string): number {
  return Math.max(0, ...generations(locks));
}

function parse(text: string): Holder | null {
  if (text === FREE) return null;
  try {
    const h = JSON.parse(text) as Holder;
    return Number.isSafeInteger(h.pid) && h.pid > 0 ? h : null;
  } catch {
    return null; // unreadable: no process can be shown to hold it
  }
}

function self(): Holder {
  return { pid: process.pid, start: startTime(process.pid), boot: bootId(), host: hostname() };
}

/** Whether the process that wrote `h` still runs. Another host's process cannot be checked: it counts as alive. */
function alive(h: Holder): boolean {
  if (h.host !== hostname()) return true;
  if (h.pid === process.pid) return false; // ours, but not in `held`: a VM of this process that was never stopped
  if (h.boot !== null && bootId() !== null && h.boot !== bootId()) return false;
  // Gone, or the pid now names a younger process (reused). Without /proc: the pid alone.
  const start = h.start === null ? null : startTime(h.pid);
  return start !== null ? start === h.start : pidExists(h.pid);
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Linux: when process `pid` started, in clock ticks after boot (null without /proc or without the process). */
function startTime(pid: number): string | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  if (stat === null) return null;
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
}

let boot: string | null | undefined;
function bootId(): string | null {
  boot ??= readOrNull('/proc/sys/kernel/random/boot_id')?.trim() ?? null;
  return boot;
}

/**
 * Earlier versions locked with DIR/lock holding a bare pid. Such a lock
 * still counts while its pid runs and (where /proc tells) started before the
 * lock was written; otherwise it is stale and goes.
 */
function checkLegacyLock(real: string, dir: string): void {
  const file = join(real, 'lock');
  const text = readOrNull(file);
  if (text === null) return;
  const pid = Number(text.trim());
  if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && pidExists(pid)) {
    const started = startedAtMs(pid);
    if (started === null || started <= statSync(file).mtimeMs) {
      throw new Error(`agentOS: state directory ${dir} is in use by process ${pid}`);
    }
  }
  rmSync(file, { force: true });
}

function startedAtMs(pid: number): number | null {
  const ticks = startTime(pid);
  const btime = /^btime (\d+)$/m.exec(readOrNull('/proc/stat') ?? '')?.[1];
  // USER_HZ is 100 on every Linux architecture Node runs on.
  return ticks === null || btime === undefined ? null : Number(btime) * 1000 + Number(ticks) * 10;
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

// User and group names from /etc/passwd and /etc/group (read once per process:
// kept by the process's Sys, so a program whose modules outlive the process,
// the reentrant coreutils bundle, reads them again in the next one).

import type { Sys } from '../../libc/sys.js';

export interface Entry {
  name: string;
  id: number;
  /** passwd: the primary gid; group: unused. */
  gid: number;
  /** group: member user names. */
  members: string[];
}

const caches = new WeakMap<Sys, Map<string, Entry[]>>();
const utf8 = new TextDecoder();

function load(sys: Sys, file: string): Entry[] {
  let cache = caches.get(sys);
  if (!cache) caches.set(sys, (cache = new Map()));
  const hit = cache.get(file);
  if (hit) return hit;
  let text = '';
  try {
    text = utf8.decode(sys.readFile(file));
  } catch {
    // No database: numeric ids everywhere, as with an empty file.
  }
  const out: Entry[] = [];
  for (const line of text.split('\n')) {
    const f = line.split(':');
    if (f.length < 3 || line.startsWith('#')) continue;
    const isGroup = file.endsWith('group');
    out.push({
      name: f[0],
      id: Number(f[2]),
      gid: isGroup ? Number(f[2]) : Number(f[3]),
      members: isGroup && f[3] ? f[3].split(',') : [],
    });
  }
  cache.set(file, out);
  return out;
}

export const users = (sys: Sys): Entry[] => load(sys, '/etc/passwd');
export const groups = (sys: Sys): Entry[] => load(sys, '/etc/group');

export function userName(sys: Sys, uid: number): string | undefined {
  return users(sys).find((u) => u.id === uid)?.name;
}

export function groupName(sys: Sys, gid: number): string | undefined {
  return groups(sys).find((g) => g.id === gid)?.name;
}

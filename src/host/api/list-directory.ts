// A directory listing for agents (AgentVM.listDirectory, so the MCP server's
// list_directory): name, type, size and mode of each entry, sorted.

import type { UserFiles } from './user-files.js';

export interface DirEntry {
  name: string;
  type: string;
  size: number | null;
  mode: string | null;
}

const TYPE: Record<number, string> = { 1: 'fifo', 2: 'char', 4: 'dir', 8: 'file', 10: 'symlink', 12: 'socket' };

export async function listDirectory(m: Pick<UserFiles, 'readdir' | 'syscall'>, path: string): Promise<DirEntry[]> {
  const entries = await m.readdir(path);
  const rows = await Promise.all(entries.filter((e) => e.name !== '.' && e.name !== '..').map(async (e) => {
    const full = `${path.replace(/\/+$/, '')}/${e.name}`;
    const st = await m.syscall('lstat', full).catch(() => null) as { size: number; mode: number } | null;
    return { name: e.name, type: TYPE[e.type] ?? 'unknown', size: st?.size ?? null, mode: st ? (st.mode & 0o7777).toString(8) : null };
  }));
  return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

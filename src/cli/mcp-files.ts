// The file tools of `agentos mcp` (read_file, write_file, list_directory) act
// for the agent, so they must meet the VM's policy like its commands do. The
// host's own syscalls are exempt from the rules (pid 1, decision 0019), so
// each tool runs a small guest program instead (as root, the tools' old
// reach): a read-only path refuses the write, a hidden one is not there, an
// `ask` path asks. The host's spawns skip the command allowlist, so these
// work under --allow-cmd too.

import { decodeBytes } from '../abi/bytestr.js';
import type { DirEntry } from '../host/list-directory.js';

/** Runs a program as root from / (the Node or the browser host's way). */
export type RootRunner = (argv: string[], stdin?: Uint8Array | string) => Promise<{ stdout: Uint8Array; stderr: Uint8Array; exitCode: number }>;

const dec = new TextDecoder();

/** A failed program's message (its stderr), as the tool's error. */
async function run(root: RootRunner, argv: string[], stdin?: Uint8Array | string): Promise<Uint8Array> {
  const r = await root(argv, stdin);
  if (r.exitCode !== 0) throw new Error(dec.decode(r.stderr).trim() || `${argv[0]} failed (exit ${r.exitCode})`);
  return r.stdout;
}

export function readGuestFile(root: RootRunner, path: string): Promise<Uint8Array> {
  return run(root, ['/opt/agentos/bin/cat', '--', path]);
}

/** Create or replace `path` with `data`, mode `mode`, owned by the VM user (as the tool always did). */
export async function writeGuestFile(root: RootRunner, path: string, data: Uint8Array | string, mode: number): Promise<void> {
  await run(root, ['/opt/agentos/bin/dd', `of=${path}`, 'status=none'], data);
  await run(root, ['/opt/agentos/bin/chmod', (mode & 0o7777).toString(8), '--', path]);
  await run(root, ['/opt/agentos/bin/chown', '1000:1000', '--', path]);
}

const TYPE: Record<string, string> = { p: 'fifo', c: 'char', d: 'dir', f: 'file', l: 'symlink', s: 'socket', b: 'block' };

/** The entries of directory `path` (hidden ones are not listed: the guest's view). */
export async function listGuestDirectory(root: RootRunner, path: string): Promise<DirEntry[]> {
  // Names are bytes: one that is not UTF-8 keeps them as escapes (abi/bytestr.ts), and names the same file when passed back.
  const out = decodeBytes(await run(root, ['/opt/agentos/bin/find', path, '-mindepth', '1', '-maxdepth', '1', '-printf', '%f\\0%y\\0%s\\0%m\\0']));
  const f = out.split('\0');
  const rows: DirEntry[] = [];
  for (let i = 0; i + 3 < f.length; i += 4) rows.push({ name: f[i], type: TYPE[f[i + 1]] ?? 'unknown', size: Number(f[i + 2]), mode: f[i + 3] });
  return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

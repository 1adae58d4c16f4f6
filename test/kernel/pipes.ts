// Talking to a process through pipes the test holds: shared by the kernel,
// WebAssembly and Python suites (Node and Chromium).

import type { Machine } from '../../src/host/api/machine.js';

const dec = new TextDecoder();

/** Read from a host fd until `needle` shows up (or EOF). */
export async function readUntil(m: Machine, fd: number, needle: string): Promise<string> {
  let acc = '';
  while (!acc.includes(needle)) {
    const b = (await m.syscall('read', fd, 4096)) as Uint8Array;
    if (!b.byteLength) break;
    acc += dec.decode(b);
  }
  return acc;
}

/** Start `argv` (in `cwd`) with stdin and stdout+stderr on pipes the test holds: [pid, stdin writer, output reader]. */
export async function spawnPiped(m: Machine, argv: string[], cwd?: string): Promise<[number, number, number]> {
  const [inR, inW] = (await m.syscall('pipe')) as [number, number];
  const [outR, outW] = (await m.syscall('pipe')) as [number, number];
  const pid = await m.spawn(argv, { fds: [[0, inR], [1, outW], [2, outW]], cwd });
  await m.syscall('close', inR);
  await m.syscall('close', outW);
  return [pid, inW, outR];
}

// Terminal figures (decision 0017): keystroke to echo through
// AgentVM.openTerminal on the Node host — at the shell's prompt (the line
// editor in the shell's worker echoes) and in cooked mode (the kernel's line
// discipline echoes) — beside real bash's readline on a pty of this machine.

import { spawnSync } from 'node:child_process';
import { AgentVM } from '../src/host/node/index.js';
import type { Terminal } from '../src/host/api/terminal.js';
import type { Figure } from './run.js';

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** Type `n` letters one at a time; each time, the ms until its echo arrives. */
export async function echoLatencies(term: Terminal, n: number): Promise<number[]> {
  let waiting: ((s: string) => void) | null = null;
  const off = term.onData((b) => waiting?.(new TextDecoder().decode(b)));
  const out: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const ch = String.fromCharCode(0x61 + (i % 26));
      const seen = new Promise<void>((resolve) => (waiting = (s) => s.includes(ch) && resolve()));
      const t0 = performance.now();
      term.write(ch);
      await seen;
      out.push(performance.now() - t0);
    }
  } finally {
    waiting = null;
    off();
  }
  return out;
}

/** Real bash's readline echo on a pty (python3 times it), p95 in ms; null without python3. */
function nativeEchoP95(n: number): number | null {
  const script = String.raw`
import os, pty, time, select
pid, fd = pty.fork()
if pid == 0:
    os.execvp('bash', ['bash', '--norc', '--noprofile', '-i'])
def drain(t):
    end = time.time() + t
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.02)
        if r: os.read(fd, 65536)
drain(0.5)
xs = []
for i in range(${n}):
    ch = chr(97 + i % 26).encode()
    t0 = time.perf_counter()
    os.write(fd, ch)
    got = b''
    while ch not in got:
        got += os.read(fd, 65536)
    xs.append((time.perf_counter() - t0) * 1000)
os.write(fd, b'\x15exit\r')
xs.sort()
print(xs[min(len(xs) - 1, int(0.95 * len(xs)))])
`;
  const r = spawnSync('python3', ['-c', script], { encoding: 'utf8', env: { ...process.env, PS1: '$ ', HISTFILE: '/dev/null' }, timeout: 60_000 });
  return r.status === 0 ? Number(r.stdout.trim()) : null;
}

export async function runTtyBenches(): Promise<Figure[]> {
  const vm = new AgentVM();
  await vm.start();
  let prompt: number[];
  let cooked: number[];
  try {
    const term = await vm.openTerminal({ env: { PS1: '$ ' } });
    await new Promise((r) => setTimeout(r, 300));
    await echoLatencies(term, 20);
    prompt = await echoLatencies(term, 300);
    term.write('\x15cat >/dev/null\r');
    await new Promise((r) => setTimeout(r, 300));
    cooked = await echoLatencies(term, 300);
    term.write('\x04');
    await term.close();
  } finally {
    await vm.stop();
  }
  const native = nativeEchoP95(300);
  const baseline = native === null ? null : { name: 'bash readline on a Linux pty', value: native, unit: 'ms' };
  const p95 = quantile(prompt, 0.95);
  const c95 = quantile(cooked, 0.95);
  return [
    { name: 'keystroke to echo at the shell prompt, p95 (openTerminal)', host: 'node', value: p95, unit: 'ms', goal: '≤ 16 ms', met: p95 <= 16, baseline },
    { name: 'keystroke to echo in cooked mode (kernel line discipline), p95', host: 'node', value: c95, unit: 'ms', goal: '≤ 16 ms', met: c95 <= 16, baseline },
  ];
}

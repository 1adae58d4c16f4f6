// Node host, isolation 'process': the host's end of the VM's process
// (isolation.ts starts it with the permission flags). The control channel is
// vm-channel.ts's, on the child's fd 3; the child relays the sealed Comlink
// messages to its kernel worker unread (workers/vm.node.ts). A child that
// dies, or that breaks the channel, settles every call with why. Its stderr
// reaches the host's as the kernel's diagnostics do: by the line, escaped,
// at a bounded rate (code there may have escaped the guest's confinement).

import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { LineLimiter, needsQuoting, quoteLine } from '../../kernel/diag.js';
import { nodeEndpoint } from './endpoint.js';
import type { KernelLink, KernelThreadInit } from './kernel-thread.js';
import { readFrames, sendFrame } from './vm-channel.js';

/** Messages of the VM's process itself (the kernel's own are sealed: sealed-endpoint.ts). */
export type VmProcessMessage = { vm: 'booted'; pid: number } | { vm: 'error'; message: string } | { vm: 'died'; message: string };

const isVmMessage = (m: unknown): m is VmProcessMessage => typeof m === 'object' && m !== null && Object.hasOwn(m, 'vm');

/** Why the VM's process ended, for the calls it leaves unanswered. */
function deathMessage(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  const how = signal ? `killed by ${signal}` : `exit status ${code}`;
  if (/heap limit|out of memory/i.test(stderr)) return `agentOS: the VM's process ran out of memory (${how})`;
  return `agentOS: the VM's process died (${how})`;
}

/** Start `script` (the VM process's bundle) with Node flags `execArgv` and environment `env`. */
export function spawnVmProcess(script: string, execArgv: string[], env: NodeJS.ProcessEnv): ChildProcess {
  // fd 3 (CHANNEL_FD) is a socket pair: the control channel.
  return spawn(process.execPath, [...execArgv, script], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], env });
}

/** A line of the VM process's stderr longer than this is cut. */
const MAX_LINE = 1000;

/** Relay `stream`'s lines to the host's stderr, each after a prefix; returns its last 4 KiB, read when the process dies. */
function relayStderr(stream: NodeJS.ReadableStream): () => string {
  const lines = new LineLimiter((line) => process.stderr.write(`${line}\n`), 'agentos vm process: ', 20);
  const relay = (line: string) => lines.line(() => (needsQuoting(line) ? quoteLine(line) : line));
  let tail = '';
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => {
    tail = (tail + text).slice(-4096);
    const parts = (partial + text).split('\n');
    partial = parts.pop()!;
    for (const line of parts) relay(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}...` : line);
    if (partial.length > MAX_LINE) {
      relay(`${partial.slice(0, MAX_LINE)}...`);
      partial = '';
    }
  });
  stream.on('end', () => partial && relay(partial));
  return () => tail;
}

/** Boot the kernel in the VM's process `child`; resolves once it has booted. */
export async function linkVmProcess(child: ChildProcess, init: KernelThreadInit): Promise<KernelLink> {
  const stderr = relayStderr(child.stderr!);
  const channel = child.stdio[3] as Socket;
  const listeners = new Set<(data: unknown) => void>();
  let stopping = false;
  let reported: string | null = null;
  const exited = new Promise<void>((ok) => {
    child.once('exit', (code, signal) => {
      reported ??= stopping ? 'agentOS: the VM has stopped' : deathMessage(code, signal, stderr());
      ok();
    });
    child.once('error', (e) => {
      reported ??= `agentOS: cannot start the VM's process: ${e.message}`;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      ok();
    });
  });
  // Its channel broken, the VM is beyond saving: it ends now, and its calls fail with why.
  channel.on('error', () => {});
  const booted = new Promise<number>((ok, fail) => {
    readFrames(channel, (m) => {
      if (!isVmMessage(m)) return listeners.forEach((l) => l(m));
      if (m.vm === 'booted') ok(m.pid);
      else if (m.vm === 'error') fail(new Error(String(m.message).slice(0, MAX_LINE)));
      else reported ??= String(m.message).slice(0, MAX_LINE);
    }, (why) => {
      reported ??= `agentOS: the VM's process broke its control channel: ${why}`;
      child.kill('SIGKILL');
    });
    void exited.then(() => fail(new Error(reported!)));
  });
  const terminate = async () => {
    stopping = true;
    channel.end(); // the process ends its kernel and exits
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(kill);
  };
  try {
    sendFrame(channel, init);
    const pid = await booted;
    const port = {
      // A message to a process that is gone is dropped: `died` settles the call.
      postMessage: (msg: unknown) => sendFrame(channel, msg),
      on: (_: 'message', fn: (data: unknown) => void) => void listeners.add(fn),
      off: (_: 'message', fn: (data: unknown) => void) => void listeners.delete(fn),
    };
    const died = exited.then((): never => {
      throw new Error(reported!);
    });
    return { endpoint: nodeEndpoint(port), died, host: { isolation: 'process', pid }, terminate };
  } catch (e) {
    await terminate();
    throw e;
  }
}

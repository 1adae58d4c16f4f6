// One Linux guest: v86 resumed from the package's saved state, driven over three serial ports
// by the guest's agent (wasm/linux/agent.c, its PID 1): ttyS0 carries control lines both ways,
// ttyS1 and ttyS2 the job's stdout and stderr as raw bytes. Its 9p device is answered by a P9Server.

import { V86 } from 'v86';
import { GuestNet, NET_DEVICE } from './net.js';
import { P9Server } from './p9.js';

/** What a resume needs, from the package's share/linux/ (files.ts). */
export interface GuestFiles {
  bios: Uint8Array;
  vgaBios: Uint8Array;
  wasm: WebAssembly.Module;
  /** The saved state (v86 copies out of it; the buffer is left as it was, for the next resume). */
  state: ArrayBuffer;
}

/** The hardware the state was saved with (scripts/build-linux.mjs): a resume must match it. */
export const GUEST_MEMORY_BYTES = 80 * 2 ** 20;
/** Stdin bytes per control line: escaped, at most 4 characters each. */
export const STDIN_CHUNK = 512;

export interface JobIO {
  stdout(bytes: Uint8Array): void;
  stderr(bytes: Uint8Array): void;
}

/** A control line longer than this is nobody's (the agent's are short; a kernel message fits): the rest is dropped. */
const CONTROL_MAX = 1024;
/** Sent when a job ends: SIGKILL to every guest process but the agent, so nothing a job started outlives it. */
const KILL_LEFTOVERS = 'K9\n';

/** What the kernel says last (printed at any loglevel: they are emergencies). */
const STOPPED = /Kernel panic|reboot: (Power down|Restarting system|System halted)/;

const ascii = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

export class Guest {
  /** Set while a job runs; a guest whose job never reported back is not reused. */
  busy = false;
  /** No job has run since the resume: the guest's clock is still the build's. */
  resumed = true;
  /** The kernel's last words once the guest has stopped (a job is root there: it can crash or power off the guest). */
  stopped: string | null = null;
  private control = '';
  private out: number[] = [];
  private err: number[] = [];
  private ended: ((status: number | null) => void) | null = null;
  /** The running job's tag: its status line is `\x02X<tag> <status>`. */
  private tag = '';

  private constructor(private readonly emulator: V86, readonly server: P9Server, readonly net: GuestNet) {
    // Output counts only while a job runs: a guest process left writing to ttyS1 or ttyS2 between
    // jobs (it is root there) would otherwise grow these without end in the host.
    emulator.add_listener('serial0-output-byte', (b: number) => this.onControl(b));
    emulator.add_listener('serial1-output-byte', (b: number) => void (this.ended && this.out.push(b)));
    emulator.add_listener('serial2-output-byte', (b: number) => void (this.ended && this.err.push(b)));
  }

  /** Resume the saved state: the guest is where the build left it, waiting for a job. */
  static async resume(files: GuestFiles, server: P9Server): Promise<Guest> {
    const emulator = new V86({
      wasm_fn: async (imports: WebAssembly.Imports) => (await WebAssembly.instantiate(files.wasm, imports)).exports,
      bios: { buffer: ascii(files.bios) },
      vga_bios: { buffer: ascii(files.vgaBios) },
      initial_state: { buffer: files.state },
      memory_size: GUEST_MEMORY_BYTES,
      vga_memory_size: 2 * 2 ** 20,
      uart1: true,
      uart2: true,
      filesystem: {
        // The Debian root answers asynchronously (a body is fetched on first read); v86 matches replies by tag.
        handle9p: (req: Uint8Array, reply: (r: Uint8Array) => void) => {
          const r = server.handle(req);
          if (r instanceof Uint8Array) reply(r);
          else void r.then(reply);
        },
      },
      // The NIC's every request is the caller's `http` syscall (net.ts).
      net_device: NET_DEVICE,
      // The guest's driver set the NIC's address at boot: the card keeps it (not a fresh random one).
      preserve_mac_from_state_image: true,
      disable_keyboard: true,
      disable_mouse: true,
      disable_speaker: true,
      autostart: false,
    } as ConstructorParameters<typeof V86>[0]);
    await new Promise<void>((ok) => emulator.add_listener('emulator-loaded', () => ok()));
    // v86 makes its adapter once loaded; the guest does not run before this.
    const net = new GuestNet();
    net.attach((emulator as unknown as { network_adapter?: unknown }).network_adapter);
    runFlatOut(emulator);
    void emulator.run();
    return new Guest(emulator, server, net);
  }

  /** Start a job (its control lines: job.ts); resolves with its exit status, or null if the guest died. */
  run(lines: string): Promise<number | null> {
    this.busy = true;
    this.resumed = false;
    this.control = '';
    // A tag no guest process can know before the agent reads this line, which is after it killed
    // everything of the job before: a status line forged by a job can end only that job.
    this.tag = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
    this.emulator.serial0_send(`${lines}G${this.tag}\n`);
    return new Promise((ok) => (this.ended = ok));
  }

  /** The job's stdin: bytes as one escaped line (at most STDIN_CHUNK of them), or its end. */
  stdin(bytes: Uint8Array | null): void {
    this.emulator.serial0_send(bytes ? `I${escapeField(bytes)}\n` : 'E\n');
  }

  /** The terminal's new size, for a job on the guest's ttyS1: its foreground group gets SIGWINCH. */
  resize(rows: number, cols: number): void {
    this.emulator.serial0_send(`Z${rows} ${cols}\n`);
  }

  /** Keys for a job on the guest's terminal (ttyS1): raw bytes, to its line discipline. */
  ttyInput(bytes: Uint8Array): void {
    this.emulator.serial_send_bytes(1, bytes);
  }

  /** A signal (Linux's number, which is agentOS's) to every guest process but the agent. */
  signal(sig: number): void {
    this.emulator.serial0_send(`K${sig}\n`);
  }

  /** Hand over what the job wrote since the last call. */
  drain(io: JobIO): void {
    if (this.out.length) io.stdout(Uint8Array.from(this.out.splice(0)));
    if (this.err.length) io.stderr(Uint8Array.from(this.err.splice(0)));
  }

  async destroy(): Promise<void> {
    await this.emulator.destroy();
  }

  private onControl(b: number): void {
    if (b !== 0x0a) {
      if (this.control.length < CONTROL_MAX) this.control += String.fromCharCode(b);
      return;
    }
    // Lines the agent writes start with \x02; anything else is a kernel message, of which only the last
    // words of a panic, power-off, halt or reboot matter: the guest is gone (nothing boots it again:
    // panic=0, no disk), so the job ends and the guest is not reused.
    const line = this.control;
    this.control = '';
    // Only the running job's status line counts: one with another tag is an earlier job's, or forged.
    const status = line.startsWith(`\x02X${this.tag} `) ? Number(line.slice(3 + this.tag.length)) : NaN;
    if (Number.isInteger(status)) this.end(status);
    else if (STOPPED.test(line)) {
      this.stopped = line.trim();
      this.end(null);
    }
  }

  private end(status: number | null): void {
    const done = this.ended;
    if (!done) return;
    this.ended = null;
    this.busy = this.stopped !== null;
    // A job's background processes would live on into the next caller's job, its 9p share served
    // with that caller's rights, and write into its output.
    if (!this.stopped) this.emulator.serial0_send(KILL_LEFTOVERS);
    done(status);
  }
}

/** Bytes as one field of a control line: '!'..'~' as they are, all else (space, the backslash) \ooo. */
export function escapeField(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b > 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\${b.toString(8).padStart(3, '0')}`;
  return s;
}

interface V86Core {
  yield(t: number, tick: number): void;
  yield_callback(tick: number): void;
}

/**
 * v86 runs in slices of about a millisecond, then yields to the event loop: at once when it has
 * work, after `t` ms when the guest halted until a timer (an interrupt wakes it sooner). Its own
 * yield is setImmediate on Node, but in a worker without `Worker` (a confined process worker) a
 * plain setTimeout, which browsers clamp to 4 ms: the guest ran a fifth of the time. Here a
 * MessageChannel (never clamped) yields at once where there is no setImmediate.
 */
function runFlatOut(emulator: V86): void {
  const core = (emulator as unknown as { v86: V86Core }).v86;
  let now: (f: () => void) => void;
  if (typeof setImmediate === 'function') now = (f) => setImmediate(f);
  else {
    const queue: (() => void)[] = [];
    const channel = new MessageChannel();
    channel.port1.onmessage = () => queue.shift()?.();
    now = (f) => {
      queue.push(f);
      channel.port2.postMessage(null);
    };
  }
  core.yield = (t, tick) => {
    if (t < 1) now(() => core.yield_callback(tick));
    else setTimeout(() => core.yield_callback(tick), t);
  };
}

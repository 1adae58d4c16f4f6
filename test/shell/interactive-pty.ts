// Run a program on a real pseudo-terminal of this machine (python3's pty
// module) and type into it step by step, each step once the output has gone
// quiet: how the CLI's raw mode is tested, and how real bash serves as the
// oracle for interactive behaviour.

import { spawnSync } from 'node:child_process';

export interface Step {
  /** Bytes to type. */
  send?: string;
  /** A new window size [rows, cols] (the program gets SIGWINCH). */
  resize?: [number, number];
  /** Seconds without output that end the step (default 0.4). */
  quiet?: number;
  /** Seconds to wait before typing (default 0). */
  delay?: number;
  /** Text the step's output must contain before the quiet period counts (a loaded machine can be slower than any quiet period). */
  until?: string;
}

const DRIVER = String.raw`
import json, os, pty, select, struct, sys, time, fcntl, termios
spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.environ.clear()
    os.environ.update(spec['env'])
    os.execvp(spec['argv'][0], spec['argv'])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', spec['rows'], spec['cols'], 0, 0))
out = bytearray()
def pump(quiet, limit, first=False, until=None):
    end = time.time() + limit
    last = time.time()
    start = len(out)
    waiting = lambda: (first and not out) or (until is not None and until.encode() not in out[start:])
    while time.time() < end and (time.time() - last < quiet or waiting()):
        r, _, _ = select.select([fd], [], [], 0.02)
        if r:
            try:
                b = os.read(fd, 65536)
            except OSError:
                return False
            if not b:
                return False
            out.extend(b)
            last = time.time()
    return True
alive = pump(spec['startQuiet'], 30, True)
for step in spec['steps']:
    if not alive:
        break
    time.sleep(step.get('delay', 0))
    if 'resize' in step:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', step['resize'][0], step['resize'][1], 0, 0))
    if 'send' in step:
        os.write(fd, step['send'].encode())
    alive = pump(step.get('quiet', 0.4), 15, until=step.get('until'))
if alive:
    pump(1.0, 5)
status = None
for _ in range(100):
    p, st = os.waitpid(pid, os.WNOHANG)
    if p:
        status = os.waitstatus_to_exitcode(st)
        break
    time.sleep(0.05)
if status is None:
    os.kill(pid, 9)
sys.stdout.write(json.dumps({'out': out.decode('utf-8', 'replace'), 'status': status}))
`;

export interface PtyRun {
  out: string;
  status: number | null;
}

export function hasPython(): boolean {
  return spawnSync('python3', ['-c', 'import pty'], { encoding: 'utf8' }).status === 0;
}

export function runOnPty(argv: string[], steps: Step[], opts: { env?: Record<string, string>; cols?: number; rows?: number; startQuiet?: number } = {}): PtyRun {
  const spec = {
    argv,
    steps,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8', ...opts.env },
    cols: opts.cols ?? 80,
    rows: opts.rows ?? 24,
    startQuiet: opts.startQuiet ?? 1.0,
  };
  const r = spawnSync('python3', ['-c', DRIVER, JSON.stringify(spec)], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`pty driver failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as PtyRun;
}

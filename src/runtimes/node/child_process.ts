// The `child_process` module: real agentOS processes through the kernel's
// spawn/waitpid and pipes. Async children are watched by the event loop
// (their pipes as readable fds, their exit through waitpid); the Sync forms
// pump the pipes with poll(2) until the child exits.

import { Buffer } from 'buffer';
import { Errno, SysError } from '../../abi/errno.js';
import { O_CLOEXEC, O_RDONLY, O_WRONLY } from '../../abi/fcntl.js';
import { signalFromName, signalName } from '../../abi/signal.js';
import { WEXITSTATUS, WIFEXITED, WTERMSIG } from '../../abi/wait.js';
import { walkPath } from '../../libc/execvp.js';
import { EventEmitter } from './events.js';
import { nodeError, uvError } from './errors.js';
import { fdReader } from './process.js';
import type { Rt } from './rt.js';
import { Writable, type Readable } from './stream.js';

type Opts = Record<string, unknown>;
type StdioSpec = 'pipe' | 'inherit' | 'ignore' | number | null | undefined;

interface Prepared {
  file: string;
  argv: string[];
  env: string[];
  cwd?: string;
  stdio: StdioSpec[];
}

function prepare(rt: Rt, cmd: string, args: unknown, o: Opts): Prepared {
  if (typeof cmd !== 'string' || cmd === '') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "file" argument must be of type string. Received ${cmd === '' ? "''" : typeof cmd}`);
  let argv = Array.isArray(args) ? args.map(String) : [];
  let file = cmd;
  if (o.shell) {
    const sh = typeof o.shell === 'string' ? o.shell : '/bin/sh';
    const line = [cmd, ...argv].join(' ');
    file = sh;
    argv = ['-c', line];
  }
  const envObj = (o.env as Record<string, unknown> | undefined) ?? rt.process.env;
  const env = Object.entries(envObj).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${String(v)}`);
  let stdio = o.stdio as StdioSpec | StdioSpec[] | undefined;
  if (stdio === undefined || typeof stdio === 'string') stdio = [stdio, stdio, stdio] as StdioSpec[];
  return { file, argv: [typeof o.argv0 === 'string' ? o.argv0 : file, ...argv], env, cwd: o.cwd === undefined ? undefined : String(o.cwd), stdio: stdio as StdioSpec[] };
}

interface Launched {
  pid: number;
  /** Parent ends: [stdin write end, stdout read end, stderr read end] or -1. */
  ends: number[];
}

/** Create the pipes, spawn (walking PATH), close the child's ends in the parent. */
function launch(rt: Rt, p: Prepared): Launched {
  const sys = rt.sys;
  rt.stdio.flush(); // the child's output must come after ours

  const ends = [-1, -1, -1];
  const childFds: [number, number][] = [];
  const toClose: number[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const s = p.stdio[i] ?? 'pipe';
      if (s === 'pipe') {
        const [r, w] = sys.pipe(O_CLOEXEC);
        const [mine, theirs] = i === 0 ? [w, r] : [r, w];
        ends[i] = mine;
        childFds.push([i, theirs]);
        toClose.push(theirs);
      } else if (s === 'inherit') childFds.push([i, i]);
      else if (typeof s === 'number') childFds.push([i, s]);
      else {
        const fd = sys.open('/dev/null', i === 0 ? O_RDONLY : O_WRONLY);
        childFds.push([i, fd]);
        toClose.push(fd);
      }
    }
    const pid = walkPath(p.file, p.env, (path) => sys.spawn({ path, argv: p.argv, env: p.env, cwd: p.cwd, fds: childFds }));
    return { pid, ends };
  } catch (e) {
    for (const fd of ends) if (fd >= 0) sys.close(fd);
    throw e;
  } finally {
    for (const fd of toClose) sys.close(fd);
  }
}

const decode = (status: number): [number | null, string | null] =>
  WIFEXITED(status) ? [WEXITSTATUS(status), null] : [null, signalName(WTERMSIG(status))];

function spawnError(e: unknown, p: Prepared, syscall = 'spawn'): Error {
  if (!(e instanceof SysError)) return e as Error;
  const err = uvError(e.errno, `${syscall} ${p.file}`, p.file) as unknown as Error & Opts;
  err.message = `${syscall} ${p.file} ${err.code}`;
  err.spawnargs = p.argv.slice(1);
  return err;
}

export class ChildProcess extends EventEmitter {
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: string | null = null;
  killed = false;
  connected = false;
  stdin: Writable | null = null;
  stdout: Readable | null = null;
  stderr: Readable | null = null;
  stdio: unknown[] = [];
  spawnfile = '';
  spawnargs: string[] = [];

  constructor(private rt: Rt) {
    super();
  }

  kill(sig: string | number = 'SIGTERM'): boolean {
    if (this.pid === undefined || this.exitCode !== null || this.signalCode !== null) return false;
    const n = typeof sig === 'number' ? sig : signalFromName(sig);
    if (n === undefined) throw nodeError(TypeError, 'ERR_UNKNOWN_SIGNAL', `Unknown signal: ${sig}`);
    try {
      this.rt.sys.kill(this.pid, n);
    } catch (e) {
      if (e instanceof SysError && e.errno === Errno.ESRCH) return false;
      throw e;
    }
    this.killed = true;
    return true;
  }
  /** unref(): the parent may exit without waiting for this child (or its pipes). */
  ref(): void { this.setRef(true); }
  unref(): void { this.setRef(false); }
  private setRef(on: boolean): void {
    if (this.pid === undefined) return;
    if (on) this.rt.loop.unrefChildren.delete(this.pid);
    else this.rt.loop.unrefChildren.add(this.pid);
    for (const s of [this.stdout, this.stderr]) (s as unknown as { ref(): void; unref(): void } | null)?.[on ? 'ref' : 'unref']();
  }
  disconnect(): void {}
}

function pipeWriter(rt: Rt, fd: number): Writable {
  let open = true;
  const close = () => { if (open) { open = false; try { rt.sys.close(fd); } catch { /* gone */ } } };
  return Object.assign(new Writable({
    write(chunk, _e, cb) {
      try {
        rt.sys.writeAll(fd, chunk as Uint8Array);
        cb();
      } catch (e) {
        cb(e instanceof SysError ? uvError(e.errno, 'write') : (e as Error));
      }
    },
    final(cb) { close(); cb(); },
    destroy(err, cb) { close(); cb(err); },
  }), { fd });
}

export function makeChildProcess(rt: Rt) {
  const spawn = (cmd: string, args?: unknown, o?: Opts): ChildProcess => {
    if (!Array.isArray(args)) { o = args as Opts; args = []; }
    o ??= {};
    const p = prepare(rt, cmd, args, o);
    const cp = new ChildProcess(rt);
    cp.spawnfile = p.file;
    cp.spawnargs = p.argv;
    let launched: Launched;
    try {
      launched = launch(rt, p);
    } catch (e) {
      const err = spawnError(e, p);
      rt.loop.nextTick(() => { cp.emit('error', err); cp.emit('close', -2, null); }, []);
      return cp;
    }
    cp.pid = launched.pid;
    const [inW, outR, errR] = launched.ends;
    if (inW >= 0) cp.stdin = pipeWriter(rt, inW);
    if (outR >= 0) cp.stdout = fdReader(rt.ctx, rt.loop, outR, true);
    if (errR >= 0) cp.stderr = fdReader(rt.ctx, rt.loop, errR, true);
    cp.stdio = [cp.stdin, cp.stdout, cp.stderr];
    if (typeof o.encoding === 'string') { cp.stdout?.setEncoding(o.encoding); cp.stderr?.setEncoding(o.encoding); }
    let open = [cp.stdout, cp.stderr].filter(Boolean).length + 1;
    const closeOne = () => { if (--open === 0) cp.emit('close', cp.exitCode, cp.signalCode); };
    // 'close' waits for the streams to end; an unread stream is drained so the child can finish.
    for (const s of [cp.stdout, cp.stderr]) {
      if (!s) continue;
      s.once('close', closeOne);
      rt.loop.setImmediate(() => { if (s.readableFlowing === null && s.listenerCount('readable') === 0) s.resume(); }, []);
    }
    rt.loop.children.set(cp.pid, (status) => {
      [cp.exitCode, cp.signalCode] = decode(status);
      cp.emit('exit', cp.exitCode, cp.signalCode);
      closeOne();
    });
    rt.loop.nextTick(() => cp.emit('spawn'), []);
    return cp;
  };

  const execFile = (file: string, args?: unknown, o?: unknown, cb?: unknown): ChildProcess => {
    if (typeof args === 'function') { cb = args; args = []; o = {}; }
    else if (!Array.isArray(args)) { cb = o; o = args; args = []; }
    if (typeof o === 'function') { cb = o; o = {}; }
    const opts = (o ?? {}) as Opts;
    const enc = (opts.encoding as string | undefined) ?? 'utf8';
    const cp = spawn(file, args, { ...opts, encoding: undefined });
    const out: Uint8Array[] = [];
    const err: Uint8Array[] = [];
    cp.stdout?.on('data', (c: unknown) => out.push(c as Uint8Array));
    cp.stderr?.on('data', (c: unknown) => err.push(c as Uint8Array));
    const conv = (b: Uint8Array[]) => (enc === 'buffer' || enc === null ? Buffer.concat(b) : Buffer.concat(b).toString(enc as BufferEncoding));
    let failed: Error | null = null;
    cp.on('error', (e: unknown) => { failed = e as Error; });
    cp.on('close', (code: unknown, signal: unknown) => {
      if (typeof cb !== 'function') return;
      const stdout = conv(out);
      const stderr = conv(err);
      const cmd = [file, ...(args as string[])].join(' ');
      if (failed) return void (cb as (...a: unknown[]) => void)(failed, stdout, stderr);
      if (code !== 0) {
        const e = new Error(`Command failed: ${cmd}\n${stderr}`) as Error & Opts;
        Object.assign(e, { code, killed: cp.killed, signal, cmd });
        return void (cb as (...a: unknown[]) => void)(e, stdout, stderr);
      }
      (cb as (...a: unknown[]) => void)(null, stdout, stderr);
    });
    return cp;
  };

  const exec = (cmd: string, o?: unknown, cb?: unknown): ChildProcess => {
    if (typeof o === 'function') { cb = o; o = {}; }
    const opts = (o ?? {}) as Opts;
    const cp = execFile(typeof opts.shell === 'string' ? opts.shell : '/bin/sh', ['-c', cmd], { ...opts, shell: undefined }, cb && ((e: Error & Opts | null, so: unknown, se: unknown) => {
      if (e && e.cmd) { e.cmd = cmd; e.message = `Command failed: ${cmd}\n${String(se)}`; }
      (cb as (...a: unknown[]) => void)(e, so, se);
    }));
    return cp;
  };

  const spawnSync = (cmd: string, args?: unknown, o?: Opts) => {
    if (!Array.isArray(args)) { o = args as Opts; args = []; }
    o ??= {};
    const p = prepare(rt, cmd, args, o);
    let launched: Launched;
    try {
      launched = launch(rt, p);
    } catch (e) {
      return { pid: 0, output: [null, null, null], stdout: null, stderr: null, status: null, signal: null, error: spawnError(e, p, 'spawnSync') };
    }
    const [inW, outR, errR] = launched.ends;
    const input = o.input === undefined ? new Uint8Array(0) : typeof o.input === 'string' ? Buffer.from(o.input) : (o.input as Uint8Array);
    let inOff = 0;
    const bufs: Record<number, Uint8Array[]> = { [outR]: [], [errR]: [] };
    const open = new Set([inW, outR, errR].filter((fd) => fd >= 0));
    if (inW >= 0 && input.byteLength === 0) { rt.sys.close(inW); open.delete(inW); }
    while (open.size) {
      const want: [number, number][] = [...open].map((fd) => [fd, fd === inW ? 4 : 1]);
      let ready: [number, number][];
      try {
        ready = rt.sys.poll(want, -1);
      } catch (e) {
        if (e instanceof SysError && e.errno === Errno.EINTR) continue;
        throw e;
      }
      for (const [fd, rev] of ready) {
        if (fd === inW) {
          try {
            inOff += rt.sys.write(inW, input.subarray(inOff, inOff + 4096));
          } catch (e) {
            if (!(e instanceof SysError && e.errno === Errno.EPIPE)) throw e;
            inOff = input.byteLength;
          }
          if (inOff >= input.byteLength) { rt.sys.close(inW); open.delete(inW); }
        } else if (rev) {
          const d = rt.sys.read(fd);
          if (d.byteLength === 0) { rt.sys.close(fd); open.delete(fd); }
          else bufs[fd].push(d);
        }
      }
    }
    const [, status] = rt.sys.waitpid(launched.pid, 0);
    const [code, signal] = decode(status);
    const enc = o.encoding as string | undefined;
    const conv = (fd: number) => {
      if (fd < 0) return null;
      const b = Buffer.concat(bufs[fd]);
      return enc && enc !== 'buffer' ? b.toString(enc as BufferEncoding) : b;
    };
    const stdout = conv(outR);
    const stderr = conv(errR);
    return { pid: launched.pid, output: [null, stdout, stderr], stdout, stderr, status: code, signal };
  };

  const checkSync = (cmdText: string, r: ReturnType<typeof spawnSync>, o: Opts) => {
    if (r.error) throw r.error;
    // Like Node: stderr of a piped child goes to ours unless the caller chose stdio.
    if (o.stdio === undefined && r.stderr && r.stderr.length) rt.process.stderr.write(r.stderr);
    if (r.status !== 0) {
      const e = new Error(`Command failed: ${cmdText}${r.stderr && r.stderr.length ? `\n${r.stderr.toString()}` : ''}`) as Error & Opts;
      Object.assign(e, { status: r.status, signal: r.signal, output: r.output, pid: r.pid, stdout: r.stdout, stderr: r.stderr });
      throw e;
    }
    return r.stdout;
  };

  const execSync = (cmd: string, o: Opts = {}) => {
    const sh = typeof o.shell === 'string' ? o.shell : '/bin/sh';
    return checkSync(cmd, spawnSync(sh, ['-c', cmd], { ...o, shell: undefined }), o);
  };
  const execFileSync = (file: string, args?: unknown, o?: Opts) => {
    if (!Array.isArray(args)) { o = args as Opts; args = []; }
    o ??= {};
    return checkSync([file, ...(args as string[])].join(' '), spawnSync(file, args, o), o);
  };
  const fork = () => { throw nodeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', 'child_process.fork is not supported by agentOS'); };
  return { spawn, exec, execFile, spawnSync, execSync, execFileSync, fork, ChildProcess };
}

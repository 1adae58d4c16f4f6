// awk's I/O: streaming record readers (RS as newline, one char, paragraph
// mode, or a regex), and the named streams of redirections and getline —
// files and `/bin/sh -c` pipes — that close() ends.

import { O_APPEND, O_CLOEXEC, O_CREAT, O_RDONLY, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { WEXITSTATUS, WIFEXITED, WTERMSIG } from '../../../abi/wait.js';
import { IO_CHUNK } from '../../../abi/channel.js';
import type { Sys } from '../../../libc/sys.js';
import { Writer } from '../../../userland/lib/writer.js';
import { latin1 as bytesToStr, latin1Bytes as strToBytes } from '../../../userland/lib/bytes.js';
import { compile, exec } from './regex.js';

const dec = new TextDecoder();

/** A byte-string name (file or command) as the Unicode string the kernel wants. */
export const sysName = (s: string): string => dec.decode(strToBytes(s));

export class RecordReader {
  private buf = '';
  private eof = false;
  /** Paragraph mode: leading newlines of the next record still to skip. */

  constructor(
    private readonly sys: Sys,
    readonly fd: number,
  ) {}

  private fill(): boolean {
    if (this.eof) return false;
    const b = this.sys.read(this.fd, IO_CHUNK); // a syscall's worth: each read is a round trip
    if (b.byteLength === 0) {
      this.eof = true;
      return false;
    }
    this.buf += bytesToStr(b);
    return true;
  }

  /** The next record for this RS, or null at end of input. The terminator goes to `rt`. */
  /** `icase`: IGNORECASE, which a regex RS honours (a one-character RS does not). */
  read(rs: string, icase = false): { rec: string; rt: string } | null {
    if (rs.length === 1) return this.readChar(rs);
    if (rs === '') return this.readPara();
    return this.readRegex(rs, icase);
  }

  private take(end: number, skip: number): { rec: string; rt: string } {
    const rec = this.buf.slice(0, end);
    const rt = this.buf.slice(end, end + skip);
    this.buf = this.buf.slice(end + skip);
    return { rec, rt };
  }

  private readChar(rs: string): { rec: string; rt: string } | null {
    let from = 0;
    for (;;) {
      const i = this.buf.indexOf(rs, from);
      if (i >= 0) return this.take(i, 1);
      from = this.buf.length;
      if (!this.fill()) break;
    }
    if (this.buf === '') return null;
    return this.take(this.buf.length, 0);
  }

  private readPara(): { rec: string; rt: string } | null {
    // Skip leading newlines, then end at a run of two or more newlines.
    for (;;) {
      const m = /^\n*/.exec(this.buf)!;
      this.buf = this.buf.slice(m[0].length);
      if (this.buf !== '' || !this.fill()) break;
    }
    if (this.buf === '') return null;
    let from = 0;
    for (;;) {
      const re = /\n\n+/g;
      re.lastIndex = from;
      const m = re.exec(this.buf);
      // The run must be complete: more newlines may follow in the next chunk.
      if (m && (m.index + m[0].length < this.buf.length || this.eof)) return this.take(m.index, m[0].length);
      from = Math.max(0, this.buf.length - 1);
      if (m) from = m.index;
      if (!this.fill()) break;
    }
    const m = /\n+$/.exec(this.buf);
    return m ? this.take(m.index, m[0].length) : this.take(this.buf.length, 0);
  }

  private readRegex(rs: string, icase: boolean): { rec: string; rt: string } | null {
    const rx = compile(rs, icase);
    for (;;) {
      const m = exec(rx, this.buf, 0);
      // A match touching the end might grow with more input.
      if (m && m[1] > 0 && (m[0] + m[1] < this.buf.length || this.eof)) return this.take(m[0], m[1]);
      if (!this.fill()) break;
    }
    if (this.buf === '') return null;
    const m = exec(rx, this.buf, 0);
    if (m && m[1] > 0) return this.take(m[0], m[1]);
    return this.take(this.buf.length, 0);
  }
}

function waitStatus(s: number): number {
  return WIFEXITED(s) ? WEXITSTATUS(s) : 256 + WTERMSIG(s);
}

interface OutStream {
  w: Writer;
  fd: number;
  pid: number;
}

interface InStream {
  r: RecordReader;
  pid: number;
}

export class Streams {
  private outs = new Map<string, OutStream>();
  private ins = new Map<string, InStream>();

  constructor(
    private readonly sys: Sys,
    readonly stdout: Writer,
    /** The environment for commands, read at each spawn (gawk passes ENVIRON's changes on). */
    private readonly env: () => string[],
  ) {}

  private spawnSh(cmd: string, fds: [number, number][]): number {
    return this.sys.spawn({ path: '/bin/sh', argv: ['sh', '-c', sysName(cmd)], env: this.env(), fds });
  }

  /** Flush everything before a child may write to the same places. */
  flushAll(): void {
    this.stdout.flush();
    for (const o of this.outs.values()) o.w.flush();
  }

  output(op: '>' | '>>' | '|', name: string): Writer {
    const have = this.outs.get(name);
    if (have) return have.w;
    if (op !== '|') {
      if (name === '/dev/stdout' || name === '-') return this.stdout;
      if (name === '/dev/stderr') {
        const w = new Writer(this.sys, 2, true);
        this.outs.set(name, { w, fd: -1, pid: 0 });
        return w;
      }
      const fd = this.sys.open(sysName(name), O_WRONLY | O_CREAT | O_CLOEXEC | (op === '>>' ? O_APPEND : O_TRUNC), 0o666);
      const w = new Writer(this.sys, fd);
      this.outs.set(name, { w, fd, pid: 0 });
      return w;
    }
    this.flushAll();
    const [r, wfd] = this.sys.pipe(O_CLOEXEC);
    let pid: number;
    try {
      pid = this.spawnSh(name, [[0, r], [1, 1], [2, 2]]);
    } finally {
      this.sys.close(r);
    }
    const w = new Writer(this.sys, wfd);
    this.outs.set(name, { w, fd: wfd, pid });
    return w;
  }

  /** A getline source: a file ("-" and /dev/stdin are stdin) or a command's output. */
  input(kind: 'file' | 'cmd', name: string): RecordReader {
    const key = name;
    const have = this.ins.get(key);
    if (have) return have.r;
    if (kind === 'file') {
      const fd = name === '-' || name === '/dev/stdin' ? 0 : this.sys.open(sysName(name), O_RDONLY | O_CLOEXEC);
      const r = new RecordReader(this.sys, fd);
      this.ins.set(key, { r, pid: 0 });
      return r;
    }
    this.flushAll();
    const [rfd, w] = this.sys.pipe(O_CLOEXEC);
    let pid: number;
    try {
      pid = this.spawnSh(name, [[0, 0], [1, w], [2, 2]]);
    } finally {
      this.sys.close(w);
    }
    const r = new RecordReader(this.sys, rfd);
    this.ins.set(key, { r, pid });
    return r;
  }

  /** close(): -1 if nothing of that name is open; a command's exit status; else 0. */
  close(name: string): number {
    let status = -1;
    const o = this.outs.get(name);
    if (o) {
      this.outs.delete(name);
      o.w.flush();
      status = 0;
      if (o.fd >= 0) this.sys.close(o.fd);
      if (o.pid) status = waitStatus(this.sys.waitpid(o.pid)[1]);
    }
    const i = this.ins.get(name);
    if (i) {
      this.ins.delete(name);
      status = 0;
      if (i.r.fd !== 0) this.sys.close(i.r.fd);
      if (i.pid) status = waitStatus(this.sys.waitpid(i.pid)[1]);
    }
    return status;
  }

  flush(name?: string): number {
    if (name === undefined) {
      this.flushAll();
      return 0;
    }
    const o = this.outs.get(name);
    if (o) o.w.flush();
    else if (name === '/dev/stdout') this.stdout.flush();
    else return -1;
    return 0;
  }

  closeAll(): void {
    this.stdout.flush();
    for (const name of [...this.outs.keys()]) this.close(name);
    for (const name of [...this.ins.keys()]) this.close(name);
  }

  /** system(): run and wait, output flushed first. */
  system(cmd: string): number {
    this.flushAll();
    const pid = this.spawnSh(cmd, [[0, 0], [1, 1], [2, 2]]);
    return waitStatus(this.sys.waitpid(pid)[1]);
  }
}

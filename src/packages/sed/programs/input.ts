// Streaming input for sed: one record at a time, with a one-record lookahead
// so `$` knows the last line without reading a whole file. Records keep
// whether they ended with the delimiter (GNU keeps a missing final newline).

import { Errno, SysError, strerror } from '../../../abi/errno.js';
import { O_RDONLY } from '../../../abi/fcntl.js';
import { IO_CHUNK } from '../../../abi/channel.js';
import type { Sys } from '../../../libc/sys.js';
import { bytesToStr } from './text.js';


export interface Rec {
  text: string;
  nl: boolean;
}

/** Records of one fd. */
export class RecordReader {
  private carry = '';
  private eof = false;
  private queue: Rec[] = [];
  private at = 0;

  constructor(
    private readonly sys: Sys,
    readonly fd: number,
    private readonly delim: string,
  ) {}

  read(): Rec | null {
    while (this.at >= this.queue.length) {
      if (this.eof) return null;
      this.fill();
    }
    return this.queue[this.at++];
  }

  private fill(): void {
    this.queue = [];
    this.at = 0;
    const b = this.sys.read(this.fd, IO_CHUNK); // a syscall's worth: each read is a round trip
    if (b.length === 0) {
      this.eof = true;
      if (this.carry !== '') this.queue.push({ text: this.carry, nl: false });
      this.carry = '';
      return;
    }
    const s = this.carry + bytesToStr(b);
    let start = 0;
    for (let k = s.indexOf(this.delim); k >= 0; k = s.indexOf(this.delim, start)) {
      this.queue.push({ text: s.slice(start, k), nl: true });
      start = k + 1;
    }
    this.carry = s.slice(start);
  }
}

/** Reports problems opening/reading an input (GNU wording) and records exit status 2. */
export type Complain = (msg: string, fatal?: boolean) => void;

/** The input files in turn: `separate` makes `$` and line flow per file (-s, -i). */
export class Input {
  private k = -1;
  private cur: RecordReader | null = null;
  private ahead: Rec | null | undefined = undefined;
  /** Name of the file the current record came from (`-` for stdin). */
  name = '-';
  /** Files opened so far (a change tells the machine a new file began). */
  opened = 0;
  private nextName = '-';
  /** Called when a new file starts (for -i: the previous file is finished then, not at its lookahead EOF). */
  onFile: ((name: string) => void) | null = null;

  constructor(
    private readonly sys: Sys,
    private readonly files: string[],
    private readonly delim: string,
    private readonly separate: boolean,
    private readonly complain: Complain,
  ) {}

  /** Next record of the stream (crossing files). */
  next(): Rec | null {
    if (this.ahead !== undefined) {
      const r = this.ahead;
      this.ahead = undefined;
      // With -s/-i the lookahead stops at the file's end; the stream goes on.
      if (r !== null || !this.separate) {
        this.name = this.nextName;
        return r;
      }
    }
    const r = this.pull(true);
    this.name = this.nextName;
    return r;
  }

  /** Is there no record after the current one (in this file, when separate)? */
  isLast(): boolean {
    if (this.ahead === undefined) this.ahead = this.pull(!this.separate);
    return this.ahead === null;
  }

  private pull(cross: boolean): Rec | null {
    for (;;) {
      if (this.cur) {
        const r = this.readCur();
        if (r) return r;
        this.closeCur();
        if (!cross) return null;
      }
      if (!this.open()) return null;
    }
  }

  private readCur(): Rec | null {
    try {
      return this.cur!.read();
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      this.complain(`read error on ${this.nextName === '-' ? 'stdin' : this.nextName}: ${strerror(e.errno)}`, true);
      return null;
    }
  }

  private closeCur(): void {
    const fd = this.cur!.fd;
    if (fd !== 0) this.sys.close(fd);
    this.cur = null;
  }

  /** Open the next file that can be opened; false when none are left. */
  private open(): boolean {
    const list = this.files.length ? this.files : ['-'];
    while (++this.k < list.length) {
      const f = list[this.k];
      let fd = 0;
      if (f !== '-') {
        try {
          fd = this.sys.open(f, O_RDONLY);
        } catch (e) {
          if (!(e instanceof SysError)) throw e;
          this.complain(`can't read ${f}: ${strerror(e.errno)}`);
          continue;
        }
      }
      if (this.onFile && !this.onFileOk(f, fd)) continue;
      this.cur = new RecordReader(this.sys, fd, this.delim);
      this.opened++;
      this.nextName = f;
      return true;
    }
    return false;
  }

  private onFileOk(f: string, fd: number): boolean {
    try {
      this.onFile!(f);
      return true;
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      if (fd !== 0) this.sys.close(fd);
      this.complain(e.errno === Errno.EISDIR ? `couldn't edit ${f}: not a regular file` : `couldn't open temporary file ${f}: ${strerror(e.errno)}`, true);
      return false;
    }
  }
}

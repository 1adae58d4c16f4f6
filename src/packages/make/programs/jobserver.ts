// Job slots shared by a make and its sub-makes: GNU make's jobserver, a pipe
// holding one byte per free slot beyond each make's own. The top make of a
// `-jN` run creates it with N-1 bytes and names it in MAKEFLAGS
// (--jobserver-auth=R,W); recipes inherit the descriptors, so a recursive
// make takes a byte before starting a second job and puts it back when the
// job ends. The whole tree so runs at most N jobs.

import type { Sys } from '../../../libc/sys.js';

const POLLIN = 1;
const TOKEN = new Uint8Array([43]);

export class JobServer {
  private constructor(
    private readonly sys: Sys,
    readonly r: number,
    readonly w: number,
  ) {}

  static create(sys: Sys, slots: number): JobServer {
    const [r, w] = sys.pipe();
    for (let i = 1; i < slots; i++) sys.write(w, TOKEN);
    return new JobServer(sys, r, w);
  }

  /** The jobserver named by MAKEFLAGS, if its descriptors are open here. */
  static attach(sys: Sys, auth: string): JobServer | null {
    const m = /^(\d+),(\d+)$/.exec(auth);
    if (!m) return null;
    const [r, w] = [Number(m[1]), Number(m[2])];
    try {
      sys.fstat(r);
      sys.fstat(w);
    } catch {
      return null;
    }
    return new JobServer(sys, r, w);
  }

  /** Take a slot if one is free now. */
  tryTake(): boolean {
    if (!this.sys.poll([[this.r, POLLIN]], 0).some(([, ev]) => ev & POLLIN)) return false;
    return this.sys.read(this.r, 1).length === 1;
  }

  give(): void {
    this.sys.write(this.w, TOKEN);
  }

  get auth(): string {
    return `${this.r},${this.w}`;
  }
}

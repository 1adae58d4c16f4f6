// The progress meter, on stderr: only when stderr is a terminal (or with -#),
// redrawn at most every half second, so logs and pipes never see it.

import type { Sys } from '../../../libc/sys.js';

export class Progress {
  private last = 0;
  private readonly start = Date.now();
  private bytes = 0;

  constructor(
    private readonly sys: Sys,
    private readonly total: number,
    private readonly bar: boolean,
  ) {}

  update(bytes: number): void {
    this.bytes = bytes;
    const now = Date.now();
    if (now - this.last < 500) return;
    this.last = now;
    this.draw();
  }

  private draw(): void {
    const known = Number.isFinite(this.total) && this.total > 0;
    const pct = known ? Math.min(100, (this.bytes / this.total) * 100) : 0;
    const secs = Math.max((Date.now() - this.start) / 1000, 0.001);
    const rate = `${human(this.bytes / secs)}/s`;
    const line = this.bar
      ? `${'#'.repeat(Math.round(pct / 2.5)).padEnd(40)} ${pct.toFixed(1)}%`
      : `${known ? `${pct.toFixed(0).padStart(3)}%` : '   '} ${human(this.bytes).padStart(6)}${known ? ` of ${human(this.total)}` : ''}  ${rate}`;
    this.sys.writeAll(2, `\r${line.padEnd(60)}`);
  }

  done(): void {
    if (this.last === 0) return;
    this.draw();
    this.sys.writeAll(2, '\n');
  }
}

function human(n: number): string {
  const units = ['', 'k', 'M', 'G', 'T'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return i === 0 ? String(Math.round(n)) : `${n.toFixed(n < 10 ? 1 : 0)}${units[i]}`;
}

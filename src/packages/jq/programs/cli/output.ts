// Writing jq's results: raw strings (-r -j --raw-output0), JSON with the
// chosen layout and colours, --seq record separators; buffered into large
// writes (--unbuffered flushes after each result).

import type { Sys } from '../../../../libc/sys.js';
import { Writer } from '../../../../userland/lib/writer.js';
import { DEFAULT_COLORS, Printer, quoteString } from '../engine/json-print.js';
import { err, type Json } from '../engine/value.js';
import type { JqOptions } from './options.js';

const LIMIT = 64 * 1024;

export class Output {
  private readonly w: Writer;
  private readonly printer: Printer;
  private buf = '';
  /** A terminal sees each result as it comes. */
  private readonly tty: boolean;

  constructor(
    sys: Sys,
    private readonly o: JqOptions,
    env: Record<string, string>,
    tty: boolean,
  ) {
    this.tty = tty;
    this.w = new Writer(sys, 1);
    let colors: string[] | null = null;
    if (o.color && !(env.NO_COLOR && !o.colorForced)) {
      colors = DEFAULT_COLORS.slice();
      const spec = env.JQ_COLORS;
      if (spec !== undefined) {
        const parts = spec.split(':');
        if (parts.length <= 8 && parts.every((p) => /^[0-9;]*$/.test(p))) parts.forEach((p, i) => (colors![i] = p));
        else sys.writeAll(2, 'Failed to set $JQ_COLORS\n');
      }
    }
    this.printer = new Printer({ indent: o.tab ? 1 : o.indent, tab: o.tab, sortKeys: o.sortKeys, ascii: o.ascii, colors });
  }

  /** Print one result; returns jq's per-result status (0 truthy, -1 null/false). */
  result(v: Json): number {
    const o = this.o;
    let status = v === null || v === false ? -1 : 0;
    if (o.rawOutput && typeof v === 'string') {
      if (o.ascii) this.buf += quoteString(v, true);
      else {
        if (o.rawOutput0 && v.includes('\0')) throw err('Cannot dump a string containing NUL with --raw-output0 option');
        this.buf += v;
      }
      status = 0;
    } else {
      if (o.seq) this.buf += '\x1e';
      this.buf += this.printer.format(v);
    }
    if (!o.joinOutput) this.buf += '\n';
    if (o.rawOutput0) this.buf += '\0';
    if (o.unbuffered || this.tty || this.buf.length >= LIMIT) this.flush();
    return status;
  }

  flush(): void {
    if (this.buf === '') return;
    const s = this.buf;
    this.buf = '';
    this.w.write(s);
    this.w.flush();
  }
}

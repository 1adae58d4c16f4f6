// The sed machine: pattern and hold space, the cycle, addresses and every
// command. Output goes through Out, which restores a newline that the
// previous record lacked before anything else is written (as GNU does).

import { IO_CHUNK } from '../../../abi/channel.js';
import { O_CREAT, O_RDONLY, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { SysError, strerror } from '../../../abi/errno.js';
import type { Sys } from '../../../libc/sys.js';
import { splitChars } from '../../../userland/lib/utf8.js';
import { Writer } from '../../../userland/lib/writer.js';
import type { Input } from './input.js';
import { RecordReader } from './input.js';
import type { Addr, Command } from './script.js';
import { bytesToStr, expand, listing, strToBytes, type Rx } from './text.js';

const dec = new TextDecoder();
/** A byte-string file name as the path string the VFS takes. */
export const pathOf = (s: string): string => dec.decode(strToBytes(s));

/** A byte-exact output stream. */
export class Out {
  private missing = false;

  constructor(
    readonly w: Writer,
    private readonly unbuffered: boolean,
  ) {}

  /** Write text; `end` is the record terminator if the record had one. */
  put(text: string, end: string | null): void {
    if (this.missing) this.w.write(strToBytes('\n'));
    this.w.write(strToBytes(end === null ? text : text + end));
    this.missing = end === null;
    if (this.unbuffered) this.w.flush();
  }

  flush(): void {
    this.w.flush();
  }
}

/** Thrown to end the run with a status (q, Q, fatal errors). */
export class Quit {
  constructor(readonly status: number) {}
}

export interface Options {
  quiet: boolean;
  delim: string;
  lineWrap: number;
  posix: boolean;
  unbuffered: boolean;
  separate: boolean;
  /** A UTF-8 locale: case conversions map characters. */
  utf8: boolean;
}

type Queued = { text: string } | { file: string } | { rfile: string };

export class Machine {
  ps = '';
  hs = '';
  lineno = 0;
  /** The current record had its terminator. */
  nl = true;
  out: Out;
  private tflag = false;
  private queue: Queued[] = [];
  private lastRx: Rx | null = null;
  private readers = new Map<string, RecordReader | null>();
  private wouts = new Map<string, Out>();

  constructor(
    private readonly sys: Sys,
    private readonly cmds: Command[],
    private readonly input: Input,
    private readonly o: Options,
    stdout: Out,
    private readonly fail: (msg: string, status: number) => never,
  ) {
    this.out = stdout;
    this.wouts.set('/dev/stdout', stdout);
  }

  /** Open (truncate) the script's w files before reading input, as GNU does. */
  openWFiles(names: Set<string>): void {
    for (const n of names) {
      if (this.wouts.has(n)) continue;
      if (n === '/dev/stderr') {
        this.wouts.set(n, new Out(new Writer(this.sys, 2), true));
        continue;
      }
      try {
        const fd = this.sys.open(pathOf(n), O_WRONLY | O_CREAT | O_TRUNC, 0o666);
        this.wouts.set(n, new Out(new Writer(this.sys, fd), this.o.unbuffered));
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
        this.fail(`couldn't open file ${n}: ${strerror(e.errno)}`, 4);
      }
    }
  }

  flushAll(): void {
    for (const w of this.wouts.values()) w.flush();
  }

  /** Run every cycle; returns the exit status from q/Q or 0. */
  run(): number {
    let keep = false; // D with a newline: next cycle without reading
    for (;;) {
      if (!keep) {
        const r = this.input.next();
        if (!r) break;
        this.ps = r.text;
        this.nl = r.nl;
        this.countLine();
      }
      keep = false;
      this.tflag = false;
      const end = this.cycle();
      if (end === 'quit') return this.quitStatus;
      if (end === 'D') keep = true;
      if (end === 'stop') break;
    }
    return 0;
  }

  private quitStatus = 0;
  private file = 0;

  /** Line numbers restart with each file under -s/-i. */
  private countLine(): void {
    if (this.o.separate && this.input.opened !== this.file) this.lineno = 0;
    this.file = this.input.opened;
    this.lineno++;
  }

  private isLast(): boolean {
    return this.input.isLast();
  }

  /** End of cycle: autoprint and the append queue. */
  private endCycle(print: boolean): void {
    if (print && !this.o.quiet) this.emit();
    this.flushQueue();
  }

  private emit(text = this.ps): void {
    this.out.put(text, this.nl ? this.o.delim : null);
  }

  private flushQueue(): void {
    for (const q of this.queue) {
      if ('text' in q) this.out.put(q.text, '');
      else if ('file' in q) this.catFile(q.file);
      else this.out.put(q.rfile, this.o.delim);
    }
    this.queue = [];
  }

  private catFile(name: string): void {
    let fd: number;
    try {
      fd = name === '/dev/stdin' ? 0 : this.sys.open(pathOf(name), O_RDONLY);
    } catch {
      return; // GNU silently ignores a missing r file
    }
    try {
      for (;;) {
        const b = this.sys.read(fd, IO_CHUNK);
        if (b.length === 0) break;
        this.out.put(bytesToStr(b), '');
      }
    } catch {
      // unreadable (a directory): nothing
    } finally {
      if (fd !== 0) this.sys.close(fd);
    }
  }

  /** One R line from a file kept open across cycles. */
  private rline(name: string): void {
    if (!this.readers.has(name)) {
      let r: RecordReader | null = null;
      try {
        r = new RecordReader(this.sys, name === '/dev/stdin' ? 0 : this.sys.open(pathOf(name), O_RDONLY), '\n');
      } catch {
        r = null;
      }
      this.readers.set(name, r);
    }
    let rec = null;
    try {
      rec = this.readers.get(name)?.read() ?? null;
    } catch {
      rec = null;
    }
    if (rec) this.queue.push({ rfile: rec.text });
  }

  private matchRx(rx: Rx | null, s: string): RegExpExecArray | null {
    const r = rx ?? this.lastRx;
    if (!r) this.fail('-e expression #1, char 0: no previous regular expression', 1);
    this.lastRx = r;
    r.re.lastIndex = 0;
    return r.re.exec(s);
  }

  private one(a: Addr): boolean {
    switch (a.t) {
      case 'line':
        return this.lineno === a.n;
      case 'last':
        return this.isLast();
      case 're':
        return this.matchRx(a.re, this.ps) !== null;
      case 'step':
        return a.step <= 0 ? this.lineno === a.first : this.lineno >= a.first && (this.lineno - a.first) % a.step === 0;
      default:
        return false;
    }
  }

  private selected(c: Command): boolean {
    if (!c.a1) return true;
    if (!c.a2) return this.one(c.a1) !== c.neg;
    return this.range(c) !== c.neg;
  }

  private range(c: Command): boolean {
    const a2 = c.a2!;
    if (c.active) {
      switch (a2.t) {
        case 're':
          if (this.matchRx(a2.re, this.ps)) c.active = false;
          return true;
        case 'last':
          if (this.isLast()) c.active = false;
          return true;
        default:
          // numeric ends (N, +N, ~N) were turned into a line when the range opened
          if (this.lineno >= c.endLine) {
            c.active = false;
            return this.lineno === c.endLine || !this.o.posix;
          }
          return true;
      }
    }
    const start = c.a1!.t === 'zero' ? this.lineno === 1 && !c.endLine : this.one(c.a1!);
    if (!start) return false;
    if (c.a1!.t === 'zero') {
      c.endLine = -1; // 0,/re/ opens once, before line 1
      if (a2.t === 're' && this.matchRx(a2.re, this.ps)) return true;
      c.active = true;
      return true;
    }
    switch (a2.t) {
      case 'line':
        c.endLine = a2.n;
        break;
      case 'plus':
        c.endLine = this.lineno + a2.n;
        break;
      case 'mult':
        // the range runs to the next multiple after this line (GNU)
        c.endLine = a2.n <= 0 ? this.lineno : (Math.floor(this.lineno / a2.n) + 1) * a2.n;
        break;
      case 'last':
        if (this.isLast()) return true;
        c.active = true;
        return true;
      default:
        c.active = true;
        return true;
    }
    c.active = this.lineno < c.endLine;
    return true;
  }

  /** Read the next record into the pattern space for n/N; false at the end of input. */
  private readNext(append: boolean): boolean {
    if (this.isLast()) return false;
    const r = this.input.next();
    if (!r) return false;
    this.ps = append ? `${this.ps}${this.o.delim === '\0' ? '\0' : '\n'}${r.text}` : r.text;
    this.nl = r.nl;
    this.countLine();
    return true;
  }

  /** Execute the script over the pattern space; how the cycle ended. */
  private cycle(): 'next' | 'D' | 'quit' | 'stop' {
    const cmds = this.cmds;
    const nlc = this.o.delim === '\0' ? '\0' : '\n';
    for (let pc = 0; pc < cmds.length; pc++) {
      const c = cmds[pc];
      if (!this.selected(c)) {
        if (c.name === '{') pc = c.jump;
        continue;
      }
      switch (c.name) {
        case '{':
        case '}':
        case ':':
          break;
        case '=':
          this.out.put(`${this.lineno}`, this.o.delim);
          break;
        case 'a':
          this.queue.push({ text: c.text });
          break;
        case 'i':
          this.out.put(c.text, '');
          break;
        case 'c':
          // in a range, the text goes out once, at its end
          if (!c.a2 || c.neg || !c.active) this.out.put(c.text, '');
          this.endCycle(false);
          return 'next';
        case 'b':
          pc = c.jump - 1;
          break;
        case 't':
        case 'T':
          if (this.tflag === (c.name === 't')) pc = c.jump - 1;
          this.tflag = false;
          break;
        case 'd':
          this.endCycle(false);
          return 'next';
        case 'D': {
          const k = this.ps.indexOf(nlc);
          if (k < 0) {
            this.endCycle(false);
            return 'next';
          }
          this.ps = this.ps.slice(k + 1);
          this.endCycle(false);
          return 'D';
        }
        case 'p':
          this.emit();
          break;
        case 'P': {
          const k = this.ps.indexOf(nlc);
          this.out.put(k < 0 ? this.ps : this.ps.slice(0, k), this.o.delim);
          break;
        }
        case 'l':
          this.out.put(listing(this.ps, c.num >= 0 ? c.num : this.o.lineWrap), '');
          break;
        case 'n':
          if (this.isLast() && this.o.posix) {
            this.endCycle(false);
            return 'stop';
          }
          if (!this.o.quiet) this.emit();
          this.flushQueue();
          if (!this.readNext(false)) {
            this.flushQueue();
            return 'stop';
          }
          break;
        case 'N':
          this.flushQueue();
          if (!this.readNext(true)) {
            this.endCycle(!this.o.posix);
            return 'stop';
          }
          break;
        case 'g':
          this.ps = this.hs;
          break;
        case 'G':
          this.ps += nlc + this.hs;
          break;
        case 'h':
          this.hs = this.ps;
          break;
        case 'H':
          this.hs += nlc + this.ps;
          break;
        case 'x':
          [this.ps, this.hs] = [this.hs, this.ps];
          break;
        case 'z':
          this.ps = '';
          break;
        case 'F':
          this.out.put(this.input.name, '\n');
          break;
        case 'q':
          this.endCycle(true);
          this.quitStatus = Math.max(0, c.num) & 255;
          return 'quit';
        case 'Q':
          this.quitStatus = Math.max(0, c.num) & 255;
          return 'quit';
        case 'r':
          this.queue.push({ file: c.file });
          break;
        case 'R':
          this.rline(c.file);
          break;
        case 'w':
          this.wouts.get(c.file)!.put(this.ps, this.o.delim);
          break;
        case 'W': {
          const k = this.ps.indexOf(nlc);
          this.wouts.get(c.file)!.put(k < 0 ? this.ps : this.ps.slice(0, k), this.o.delim);
          break;
        }
        case 's':
          this.subst(c);
          break;
        case 'y': {
          let t = '';
          for (const ch of c.mapChars ? splitChars(this.ps) : this.ps) t += c.map!.get(ch) ?? ch;
          this.ps = t;
          break;
        }
      }
    }
    this.endCycle(true);
    return 'next';
  }

  private subst(c: Command): void {
    const rx = c.re ?? this.lastRx;
    if (!rx) this.fail('-e expression #1, char 0: no previous regular expression', 1);
    this.lastRx = rx;
    const re = rx.re;
    const s = this.ps;
    let out = '';
    let copied = 0;
    let count = 0;
    let prevEnd = -1;
    let did = false;
    for (let pos = 0; pos <= s.length; ) {
      re.lastIndex = pos;
      const m = re.exec(s);
      if (!m) break;
      const st = m.index;
      const en = st + m[0].length;
      if (st === en && st === prevEnd) {
        // an empty match right after the previous match does not count
        pos = st + 1;
        continue;
      }
      count++;
      if (count >= c.nth) {
        out += s.slice(copied, st) + expand(c.parts, m, this.o.utf8);
        copied = en;
        did = true;
        if (!c.global) break;
      }
      prevEnd = en;
      pos = st === en ? st + 1 : en;
    }
    if (!did) return;
    this.ps = out + s.slice(copied);
    this.tflag = true;
    if (c.print) this.emit();
    if (c.file) this.wouts.get(c.file)!.put(this.ps, this.o.delim);
  }
}

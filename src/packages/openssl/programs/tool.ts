// What every openssl command shares: buffered output (-out or stdout),
// reading inputs (-in or stdin), and OpenSSL's error style.

import { O_CREAT, O_RDONLY, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { strerror } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { Writer } from '../../../userland/lib/writer.js';

export class Usage extends Error {}

export class Tool {
  out: Writer;
  private outFd = 1;

  constructor(
    readonly os: AgentosApi,
    readonly cmd: string,
  ) {
    this.out = new Writer(os.sys, 1);
  }

  get sys() {
    return this.os.sys;
  }

  err(text: string): void {
    this.out.flush();
    this.os.eprint(text);
  }

  /** `cmd: Unknown option or …` plus the "Use -help" line, status 1. */
  usage(msg: string): number {
    this.err(`${this.cmd}: ${msg}\n${this.cmd}: Use -help for summary.\n`);
    return 1;
  }

  /** Open -out FILE (or stay on stdout); null after reporting a failure. */
  openOut(path: string | null): boolean {
    if (path === null) return true;
    try {
      this.outFd = this.sys.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666);
      this.out = new Writer(this.sys, this.outFd);
      return true;
    } catch (e) {
      if (!(e instanceof this.os.SysError)) throw e;
      this.err(`${path}: ${strerror(e.errno)}\n`);
      return false;
    }
  }

  /** The whole of a file (or stdin for null); null after reporting a failure. */
  readInput(path: string | null): Uint8Array | null {
    if (path === null) return this.sys.readAll(0);
    try {
      const fd = this.sys.open(path, O_RDONLY);
      try {
        return this.sys.readAll(fd);
      } finally {
        this.sys.close(fd);
      }
    } catch (e) {
      if (!(e instanceof this.os.SysError)) throw e;
      this.err(`${path}: ${strerror(e.errno)}\n`);
      return null;
    }
  }

  random(n: number): Uint8Array {
    const fd = this.sys.open('/dev/urandom', O_RDONLY);
    try {
      const out = new Uint8Array(n);
      for (let o = 0; o < n; ) {
        const b = this.sys.read(fd, n - o);
        out.set(b, o);
        o += b.length;
      }
      return out;
    } finally {
      this.sys.close(fd);
    }
  }

  flush(): void {
    this.out.flush();
    if (this.outFd !== 1) {
      this.sys.close(this.outFd);
      this.outFd = 1;
    }
  }
}

/** Options as OpenSSL parses them: `-name` or `-name value`, in any order before the files. */
export function parseOpts(
  t: Tool,
  args: string[],
  withValue: Set<string>,
  flags: Set<string>,
  unknown = (name: string) => `Unknown option or message digest: ${name}`,
): { opts: Map<string, string[]>; files: string[] } | null {
  const opts = new Map<string, string[]>();
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    const name = a.replace(/^--?/, '');
    if (withValue.has(name)) {
      if (i + 1 >= args.length) {
        t.usage(`Option -${name} needs a value`);
        return null;
      }
      opts.set(name, [...(opts.get(name) ?? []), args[++i]]);
    } else if (flags.has(name)) opts.set(name, [...(opts.get(name) ?? []), '']);
    else {
      t.usage(unknown(name));
      return null;
    }
  }
  return { opts, files: args.slice(i) };
}

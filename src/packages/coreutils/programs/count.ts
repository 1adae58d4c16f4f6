// Shared by head and tail: GNU count arguments (-n 5, -n -5, -n +5, 2K, 1b, ...)
// and the obsolete `-5` form, which becomes `-n 5`; plus the options, headers
// and file loop the two commands have in common.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, forEachInput, quote, type ArgKind, type Cmd } from '../../../userland/lib/index.js';

const MULT: Record<string, number> = {
  '': 1, b: 512, k: 1024, K: 1024, kB: 1000, KB: 1000, KiB: 1024, M: 1024 ** 2, MB: 1000 ** 2, MiB: 1024 ** 2,
  G: 1024 ** 3, GB: 1000 ** 3, GiB: 1024 ** 3, T: 1024 ** 4, TB: 1000 ** 4, TiB: 1024 ** 4,
};

export interface Count {
  n: number;
  /** Leading '-' (head: all but the last N) or '+' (tail: from the Nth). */
  sign: '' | '-' | '+';
}

export function parseCount(s: string): Count | null {
  const m = /^([-+]?)(\d+)([A-Za-z]*)$/.exec(s.trim());
  if (!m || !(m[3] in MULT)) return null;
  return { n: Number(m[2]) * MULT[m[3]], sign: m[1] as Count['sign'] };
}

/** `head -5 f` / `tail -5c f`: rewrite a leading obsolete count to -n/-c. */
export function obsolete(args: string[]): string[] {
  const m = args.length ? /^-(\d+)([cbkmlq]*)$/.exec(args[0]) : null;
  if (!m) return args;
  const unit = m[2].includes('c') ? '-c' : '-n';
  return [unit, m[1], ...args.slice(1)];
}

/** The ==> name <== header printed between files. */
export const header = (name: string, first: boolean): string => `${first ? '' : '\n'}==> ${name === '-' ? 'standard input' : name} <==\n`;

/** Print one file's part: bytes or delimiter-separated lines. */
export type Part = (c: Cmd, fd: number, count: Count, delim: number) => void;

/** Options one of the two adds (tail's following), and the file loop they may take over. */
export interface Extra {
  short: string;
  long: Record<string, [string, ArgKind]>;
  /** Returns true when it printed the files itself; `print` writes one file's header and part. */
  loop(c: Cmd, files: string[], print: (fd: number, name: string) => void, headers: boolean): boolean;
}

/** head and tail differ only in which signs a count may carry and the part they print. */
export function countCommand(
  name: string,
  usage: string,
  plusAllowed: boolean,
  bytesPart: Part,
  linesPart: Part,
  extra?: Extra,
): (os: AgentosApi, args: string[]) => number {
  const run = command(
    {
      name,
      usage,
      short: `c:n:qvz${extra?.short ?? ''}`,
      long: {
        bytes: ['c', 'required'], lines: ['n', 'required'], quiet: ['q', 'none'], silent: ['q', 'none'],
        verbose: ['v', 'none'], 'zero-terminated': ['z', 'none'], ...extra?.long,
      },
    },
    (c) => {
      let bytes = false;
      let count: Count = { n: 10, sign: '' };
      let headers: boolean | null = null;
      for (const [k, v] of c.all) {
        if (k === 'c' || k === 'n') {
          const p = parseCount(v!);
          if (!p || (p.sign === '+' && !plusAllowed)) return c.fail(`invalid number of ${k === 'c' ? 'bytes' : 'lines'}: ${quote(v!)}`);
          count = p;
          bytes = k === 'c';
        } else if (k === 'q') headers = false;
        else if (k === 'v') headers = true;
      }
      const files = c.operands.length ? c.operands : ['-'];
      const show = headers ?? files.length > 1;
      const delim = c.has('z') ? 0 : 10;
      const part = bytes ? bytesPart : linesPart;
      let first = true;
      const print = (fd: number, file: string) => {
        if (show) c.out.write(header(file, first));
        first = false;
        part(c, fd, count, delim);
      };
      if (extra?.loop(c, files, print, show)) return;
      forEachInput(c, files, print, 'for-reading');
    },
  );
  return (os, args) => run(os, obsolete(args));
}

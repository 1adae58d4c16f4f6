// Shared by head and tail: GNU count arguments (-n 5, -n -5, -n +5, 2K, 1b, ...)
// and the obsolete `-5` form, which becomes `-n 5`.

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

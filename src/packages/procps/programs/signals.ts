// Signal names as procps-ng lists them (Linux numbering, 1..31).

const NAMES = [
  'HUP', 'INT', 'QUIT', 'ILL', 'TRAP', 'ABRT', 'BUS', 'FPE', 'KILL', 'USR1', 'SEGV', 'USR2', 'PIPE', 'ALRM',
  'TERM', 'STKFLT', 'CHLD', 'CONT', 'STOP', 'TSTP', 'TTIN', 'TTOU', 'URG', 'XCPU', 'XFSZ', 'VTALRM', 'PROF',
  'WINCH', 'POLL', 'PWR', 'SYS',
];
const ALIASES: Record<string, number> = { IOT: 6, CLD: 17, IO: 29, POLL: 29, UNUSED: 31 };

export const sigName = (n: number): string | undefined => NAMES[n - 1];

/** A signal from a name (with or without SIG, any case) or a number; undefined if unknown. */
export function parseSignal(s: string): number | undefined {
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    return n >= 0 && n <= 64 ? n : undefined;
  }
  const bare = s.toUpperCase().replace(/^SIG/, '');
  const i = NAMES.indexOf(bare);
  if (i >= 0) return i + 1;
  return ALIASES[bare];
}

/** kill -l: the names on two lines, as procps prints them. */
export const listText = (): string => `${NAMES.slice(0, 16).join(' ')}\n${NAMES.slice(16).join(' ')}\n`;

/** kill -L: "NN NAME" cells, seven to a line, the last of each line unpadded. */
export function tableText(): string {
  let out = '';
  NAMES.forEach((n, i) => {
    const end = (i + 1) % 7 === 0;
    out += `${String(i + 1).padStart(2)} ${end ? `${n}\n` : n.padEnd(8)}`;
  });
  return NAMES.length % 7 ? `${out}\n` : out;
}

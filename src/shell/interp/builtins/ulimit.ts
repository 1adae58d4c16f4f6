// ulimit: bash's resource limits, held by the shell. The kernel has no
// per-process rlimits, so the limits are the shell's own: subshells inherit
// them (shell.ts `rlimits`, isolate.ts, subshell.ts), the soft and hard values
// follow setrlimit's rules (a soft limit above the hard one is EINVAL, raising
// a hard limit needs root), and the shell enforces what it does itself: `-n`
// on the files its redirections open (redirect.ts). Programs it starts are
// bound by the VM's policy limits instead (docs/decisions/0034).

import { OPEN_MAX, PIPE_BUF } from '../../../abi/fcntl.js';
import { Errno, strerror } from '../../../abi/errno.js';
import type { Shell } from '../shell.js';
import type { Builtin } from './types.js';

/** RLIM_INFINITY: no limit. */
const INF = 2n ** 64n - 1n;

interface Resource {
  /** How `ulimit -a` describes it. */
  desc: string;
  /** The unit `-a` names, if any. */
  unit?: string;
  /** Bytes (or other raw units) per unit shown; -f and -c count 1024-byte blocks (512 in POSIX mode). */
  factor: bigint | 'block';
  /** The VM's starting soft and hard values. */
  init: [bigint, bigint];
  readOnly?: boolean;
}

/** In the order `ulimit -a` lists them (bash on Linux). */
const RESOURCES: Record<string, Resource> = {
  R: { desc: 'real-time non-blocking time', unit: 'microseconds', factor: 1n, init: [INF, INF] },
  // No core files are written in the VM.
  c: { desc: 'core file size', unit: 'blocks', factor: 'block', init: [0n, INF] },
  d: { desc: 'data seg size', unit: 'kbytes', factor: 1024n, init: [INF, INF] },
  e: { desc: 'scheduling priority', factor: 1n, init: [0n, 0n] },
  f: { desc: 'file size', unit: 'blocks', factor: 'block', init: [INF, INF] },
  i: { desc: 'pending signals', factor: 1n, init: [INF, INF] },
  l: { desc: 'max locked memory', unit: 'kbytes', factor: 1024n, init: [INF, INF] },
  m: { desc: 'max memory size', unit: 'kbytes', factor: 1024n, init: [INF, INF] },
  n: { desc: 'open files', factor: 1n, init: [BigInt(OPEN_MAX), BigInt(OPEN_MAX)] },
  p: { desc: 'pipe size', unit: '512 bytes', factor: 512n, init: [BigInt(PIPE_BUF), BigInt(PIPE_BUF)], readOnly: true },
  q: { desc: 'POSIX message queues', unit: 'bytes', factor: 1n, init: [INF, INF] },
  r: { desc: 'real-time priority', factor: 1n, init: [0n, 0n] },
  s: { desc: 'stack size', unit: 'kbytes', factor: 1024n, init: [INF, INF] },
  t: { desc: 'cpu time', unit: 'seconds', factor: 1n, init: [INF, INF] },
  u: { desc: 'max user processes', factor: 1n, init: [INF, INF] },
  v: { desc: 'virtual memory', unit: 'kbytes', factor: 1024n, init: [INF, INF] },
  x: { desc: 'file locks', factor: 1n, init: [INF, INF] },
};

function limits(sh: Shell, letter: string): [bigint, bigint] {
  const set = sh.rlimits.get(letter);
  return set ? [BigInt(set[0]), BigInt(set[1])] : RESOURCES[letter].init;
}

/** The soft `ulimit -n`: descriptors the shell may open are below it. */
export function openFilesLimit(sh: Shell): number {
  const soft = limits(sh, 'n')[0];
  return soft >= BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(soft);
}

function factorOf(sh: Shell, r: Resource): bigint {
  return r.factor === 'block' ? (sh.opts.on('posix') ? 512n : 1024n) : r.factor;
}

function show(sh: Shell, letter: string, hard: boolean, long: boolean): string {
  const r = RESOURCES[letter];
  const v = limits(sh, letter)[hard ? 1 : 0];
  const value = v === INF ? 'unlimited' : String(v / factorOf(sh, r));
  if (!long) return `${value}\n`;
  const unit = r.unit ? `(${r.unit}, -${letter}) ` : `(-${letter}) `;
  return `${r.desc.padEnd(20)} ${unit.padStart(20)}${value}\n`;
}

export const ulimit: Builtin = (sh, argv) => {
  const args = argv.slice(1);
  let soft = false;
  let hard = false;
  let all = false;
  const cmds: { letter: string; arg: string | null }[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      if (c === 'S') soft = true;
      else if (c === 'H') hard = true;
      else if (c === 'a') all = true;
      else if (RESOURCES[c]) {
        // An optional argument: the rest of this word, else the next word unless it is an option.
        let arg: string | null = a.slice(j + 1) || null;
        if (arg === null && i + 1 < args.length && !args[i + 1].startsWith('-')) arg = args[++i];
        cmds.push({ letter: c, arg });
        break;
      } else {
        sh.error(`ulimit: -${c}: invalid option`);
        sh.write(2, 'ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n');
        return 2;
      }
    }
  }
  const rest = args.slice(i);
  if (all) {
    for (const letter of Object.keys(RESOURCES)) sh.out(show(sh, letter, hard && !soft, true));
    return 0;
  }
  // `ulimit N` is `ulimit -f N`; a word after the options is the last option's limit.
  if (cmds.length === 0) cmds.push({ letter: 'f', arg: null });
  const last = cmds[cmds.length - 1];
  if (last.arg === null && rest.length) last.arg = rest[0];
  let status = 0;
  for (const { letter, arg } of cmds) {
    if (arg === null) {
      sh.out(show(sh, letter, hard && !soft, cmds.length > 1));
      continue;
    }
    if (!setLimit(sh, letter, arg, soft || !hard, hard || !soft)) status = 1;
  }
  return status;
};

function setLimit(sh: Shell, letter: string, arg: string, setSoft: boolean, setHard: boolean): boolean {
  const r = RESOURCES[letter];
  const [curSoft, curHard] = limits(sh, letter);
  let value: bigint;
  if (arg === 'unlimited') value = INF;
  else if (arg === 'hard') value = curHard;
  else if (arg === 'soft') value = curSoft;
  else if (/^\d+$/.test(arg)) {
    value = BigInt(arg) * factorOf(sh, r);
    if (value >= INF) {
      sh.error(`ulimit: ${arg}: limit out of range`);
      return false;
    }
  } else {
    sh.error(`ulimit: ${arg}: invalid number`);
    return false;
  }
  const newSoft = setSoft ? value : curSoft;
  const newHard = setHard ? value : curHard;
  // setrlimit's rules: soft within hard (EINVAL), a hard limit raised only by root (EPERM).
  let errno: number | null = null;
  if (r.readOnly || newSoft > newHard) errno = Errno.EINVAL;
  else if (newHard > curHard && sh.sys.geteuid() !== 0) errno = Errno.EPERM;
  if (errno !== null) {
    sh.error(`ulimit: ${r.desc}: cannot modify limit: ${strerror(errno)}`);
    return false;
  }
  sh.rlimits.set(letter, [String(newSoft), String(newHard)]);
  return true;
}

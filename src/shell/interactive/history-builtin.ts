// The `history` builtin: list (all, or the last N), -c clear, -d N delete,
// -a append new lines to the file, -w write it, -r read it, -s add a line.

import type { Shell } from '../interp/shell.js';
import type { History } from './history.js';

export function historyBuiltin(sh: Shell, h: History, argv: string[]): number {
  const args = argv.slice(1);
  const opt = args[0];
  if (opt === '-c') {
    h.clear();
    return 0;
  }
  if (opt === '-d') {
    const n = Number(args[1]);
    const i = n < 0 ? h.entries.length + n : n - h.base;
    if (!Number.isInteger(n) || i < 0 || i >= h.entries.length) {
      sh.error(`history: ${args[1] ?? ''}: history position out of range`);
      return 1;
    }
    h.entries.splice(i, 1);
    return 0;
  }
  if (opt === '-a') {
    h.append();
    return 0;
  }
  if (opt === '-w') {
    h.save();
    return 0;
  }
  if (opt === '-r') {
    h.load();
    return 0;
  }
  if (opt === '-s') {
    h.add(args.slice(1).join(' '));
    return 0;
  }
  if (opt !== undefined && !/^\d+$/.test(opt)) {
    sh.error(`history: ${opt}: invalid option`);
    sh.error('history: usage: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]');
    return 2;
  }
  const count = opt === undefined ? h.entries.length : Math.min(Number(opt), h.entries.length);
  const start = h.entries.length - count;
  let out = '';
  for (let i = start; i < h.entries.length; i++) out += `${String(h.base + i).padStart(5)}  ${h.entries[i]}\n`;
  sh.out(out);
  return 0;
}

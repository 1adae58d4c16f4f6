// echo [-neE] [STRING]...: GNU /bin/echo (options only while every letter is one of n, e, E).

import { command } from '../../../userland/lib/index.js';

const USAGE = `Usage: echo [SHORT-OPTION]... [STRING]...
  or:  echo LONG-OPTION
Echo the STRING(s) to standard output.

  -n             do not output the trailing newline
  -e             enable interpretation of backslash escapes
  -E             disable interpretation of backslash escapes (default)
      --help     display this help and exit
      --version  output version information and exit
`;

export const echo = command({ name: 'echo', usage: USAGE, rawArgs: true }, (c) => {
  let args = c.operands;
  // --help/--version only as the sole argument (and not under POSIXLY_CORRECT).
  if (args.length === 1 && !('POSIXLY_CORRECT' in c.os.env)) {
    if (args[0] === '--help') return c.out.write(USAGE);
    if (args[0] === '--version') return c.out.write('echo (agentOS coreutils 0.1.0)\n');
  }
  let newline = true;
  let escapes = false;
  while (args.length && /^-[neE]+$/.test(args[0])) {
    for (const ch of args[0].slice(1)) {
      if (ch === 'n') newline = false;
      else escapes = ch === 'e';
    }
    args = args.slice(1);
  }
  let text = args.join(' ');
  // Private-use markers for bytes made by escapes, so they are not UTF-8 encoded: this run's only (the bundle's modules outlive it).
  const escaped = new Set<string>();
  if (escapes) {
    const r = interpret(text, escaped);
    text = r.text;
    if (r.stop) newline = false;
  }
  c.out.write(latin(text + (newline ? '\n' : ''), escaped));
});

/** Strings carry bytes as UTF-16 code units < 256 after \\x/\\0 escapes; encode those as bytes. */
function latin(s: string, escapedBytes: Set<string>): Uint8Array {
  if (!/[\u0080-\u00ff]/.test(s)) return new TextEncoder().encode(s);
  const parts: number[] = [];
  const enc = new TextEncoder();
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x80 && cp <= 0xff && ch.length === 1 && escapedBytes.has(ch)) parts.push(cp);
    else parts.push(...enc.encode(ch));
  }
  return Uint8Array.from(parts);
}

const SIMPLE: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

function interpret(s: string, escaped: Set<string>): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\' || i + 1 >= s.length) {
      out += s[i];
      continue;
    }
    const n = s[++i];
    if (n in SIMPLE) out += SIMPLE[n];
    else if (n === 'c') return { text: out, stop: true };
    else if (n === 'x' && /[0-9a-fA-F]/.test(s[i + 1] ?? '')) {
      const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1))![0];
      out += byte(parseInt(m, 16), escaped);
      i += m.length;
    } else if (n === '0') {
      const m = /^[0-7]{0,3}/.exec(s.slice(i + 1))![0];
      out += byte(parseInt(m || '0', 8) & 0xff, escaped);
      i += m.length;
    } else out += '\\' + n;
  }
  return { text: out, stop: false };
}

function byte(n: number, escaped: Set<string>): string {
  const ch = String.fromCharCode(n);
  if (n >= 0x80) escaped.add(ch);
  return ch;
}

// sleep NUMBER[SUFFIX]...: pause for the sum of the given times (s, m, h, d).

import { command, quote } from '../../../userland/lib/index.js';

const USAGE = `Usage: sleep NUMBER[SUFFIX]...
  or:  sleep OPTION
Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),
'm' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an
integer.  Given two or more arguments, pause for the amount of time
specified by the sum of their values.

      --help     display this help and exit
      --version  output version information and exit
`;

const UNIT: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

export const sleep = command({ name: 'sleep', usage: USAGE, numericOperands: true }, (c) => {
  if (c.operands.length === 0) c.usage('missing operand');
  let secs = 0;
  let bad = false;
  for (const a of c.operands) {
    // As GNU's strtod: decimals with an exponent (1e10), or inf/infinity.
    const m = /^\+?(\d+\.?\d*(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?|inf(?:inity)?)([smhd]?)$/i.exec(a);
    if (!m) {
      c.warn(`invalid time interval ${quote(a)}`);
      bad = true;
      continue;
    }
    secs += (/^inf/i.test(m[1]) ? Infinity : Number(m[1])) * UNIT[m[2]];
  }
  if (bad) c.tryHelp();
  // The kernel's timer takes milliseconds; sleep in bounded steps so huge values work.
  let ms = secs * 1000;
  while (ms > 0) {
    const step = Math.min(ms, 2 ** 30);
    c.sys.sleep(step);
    ms -= step;
  }
});

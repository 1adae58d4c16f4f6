// echo [-neE] [ARG...] — bash's builtin echo.

import type { Builtin } from './types.js';
import { decodeEscapes } from '../../syntax/ansi.js';
import { ShellError } from '../../errors.js';

export const echo: Builtin = (sh, argv) => {
  let i = 1;
  let newline = true;
  let escapes = sh.opts.shoptOn('xpg_echo');
  for (; i < argv.length && /^-[neE]+$/.test(argv[i]); i++) {
    for (const c of argv[i].slice(1)) {
      if (c === 'n') newline = false;
      else if (c === 'e') escapes = true;
      else escapes = false;
    }
  }
  let text = argv.slice(i).join(' ');
  if (escapes) {
    const r = decodeEscapes(text, 'echo');
    text = r.text;
    if (r.stop) newline = false;
  }
  try {
    sh.out(newline ? `${text}\n` : text);
  } catch (e) {
    // bash names the builtin: `echo: write error: ...`.
    if (e instanceof ShellError) throw new ShellError(`echo: ${e.message}`, e.status);
    throw e;
  }
  return 0;
};

// Opening input operands the GNU way: "-" is stdin; failures are reported as
// "cmd: NAME: strerror" and yield null so the command goes on with the rest.

import { O_RDONLY } from '../../abi/fcntl.js';
import type { Cmd } from './cmd.js';
import { quoteaf, quotef } from './quote.js';

/** How open failures read: cat/wc say "cat: x: ...", head/tail "head: cannot open 'x' for reading: ...", tac "failed to open 'x' for reading". */
export type OpenStyle = 'plain' | 'for-reading' | 'failed-to-open';

export function openInput(c: Cmd, name: string, style: OpenStyle = 'plain'): number | null {
  if (name === '-') return 0;
  try {
    return c.sys.open(name, O_RDONLY);
  } catch (e) {
    const what = { plain: quotef(name), 'for-reading': `cannot open ${quoteaf(name)} for reading`, 'failed-to-open': `failed to open ${quoteaf(name)} for reading` };
    c.sysError(what[style], e);
    return null;
  }
}

export function closeInput(c: Cmd, fd: number): void {
  if (fd !== 0) c.sys.close(fd);
}

/** Run `each` over every operand (or stdin), opening and closing; read errors are reported per file. */
export function forEachInput(c: Cmd, names: string[], each: (fd: number, name: string) => void, style: OpenStyle = 'plain'): void {
  for (const name of names.length ? names : ['-']) {
    const fd = openInput(c, name, style);
    if (fd === null) continue;
    try {
      each(fd, name);
    } catch (e) {
      if (!(e instanceof c.os.SysError)) throw e;
      c.sysError(quotef(name), e);
    } finally {
      closeInput(c, fd);
    }
  }
}

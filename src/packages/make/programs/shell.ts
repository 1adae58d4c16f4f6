// Running /bin/sh for $(shell …) and `!=`: output captured through a pipe,
// newlines turned into spaces (trailing ones dropped), .SHELLSTATUS set.

import { shellStatus } from '../../../abi/wait.js';
import type { Make } from './context.js';

const dec = new TextDecoder();

export function shellOutput(mk: Make, cmd: string): string {
  const [r, w] = mk.sys.pipe();
  let pid: number;
  try {
    pid = mk.sys.spawn({
      path: shellPath(mk),
      argv: [shellPath(mk), ...shellFlags(mk), cmd],
      env: mk.childEnv(mk.globals, false),
      fds: [[0, 0], [1, w], [2, 2]],
    });
  } catch (e) {
    mk.sys.close(r);
    mk.sys.close(w);
    if (e instanceof mk.os.SysError) {
      mk.setSimple(mk.globals, '.SHELLSTATUS', '127', 'override');
      return '';
    }
    throw e;
  }
  mk.sys.close(w);
  let text: string;
  try {
    text = dec.decode(mk.sys.readAll(r));
  } finally {
    mk.sys.close(r);
  }
  const [, status] = mk.sys.waitpid(pid);
  mk.setSimple(mk.globals, '.SHELLSTATUS', String(shellStatus(status)), 'override');
  return text.replace(/\r?\n+$/, '').replace(/\r?\n/g, ' ');
}

/** $(SHELL) as make sees it (the environment's SHELL is not used). */
export function shellPath(mk: Make): string {
  return mk.value('SHELL').trim() || '/bin/sh';
}

export function shellFlags(mk: Make): string[] {
  return (mk.value('.SHELLFLAGS').trim() || '-c').split(/\s+/);
}

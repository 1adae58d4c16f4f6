// which [-a] NAME...: print where each NAME would be found in $PATH (debianutils).
// Exit 0 if every NAME was found, 1 if any was not (or none given), 2 for a bad option.

import { X_OK } from '../../../abi/fcntl.js';
import { isReg } from '../../../abi/stat.js';
import { command, tryStat, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: which [-a] args
Print the full path of each executable that would run for the given names.

  -a    print all matching pathnames of each argument
`;

function runnable(c: Cmd, p: string): boolean {
  const st = tryStat(c.sys, p);
  if (!st || !isReg(st.mode)) return false;
  try {
    c.sys.access(p, X_OK);
    return true;
  } catch {
    return false;
  }
}

export const which = command({ name: 'which', usage: USAGE, noStandardOptions: true, rawArgs: true }, (c) => {
  let i = 0;
  let all = false;
  for (; i < c.operands.length; i++) {
    const a = c.operands[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!/^-./.test(a)) break;
    for (const ch of a.slice(1)) {
      if (ch === 'a') all = true;
      else {
        c.sys.writeAll(2, `Illegal option -${ch}\n`);
        const self = c.os.argv[0]?.includes('/') ? c.os.argv[0] : '/usr/bin/which';
        c.out.write(`Usage: ${self} [-a] args\n`);
        return 2;
      }
    }
  }
  const names = c.operands.slice(i);
  let status = names.length ? 0 : 1;
  // A trailing ':' means the current directory, as does an empty element.
  const path = c.os.env.PATH ?? '';
  const dirs = path === '' ? [] : path.split(':');
  if (dirs.length > 1 && dirs[dirs.length - 1] === '' && path.endsWith('::')) dirs.pop();
  for (const name of names) {
    let found = false;
    if (name.includes('/')) found = runnable(c, name) && (c.out.write(`${name}\n`), true);
    else {
      for (const d of dirs) {
        const p = `${d || '.'}/${name}`;
        if (!runnable(c, p)) continue;
        c.out.write(`${p}\n`);
        found = true;
        if (!all) break;
      }
    }
    if (!found) status = 1;
  }
  return status;
});

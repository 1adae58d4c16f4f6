// alias and unalias.

import { noOptions } from './options.js';
import type { Builtin } from './types.js';

export const alias: Builtin = (sh, argv) => {
  const args = argv.slice(1).filter((a) => a !== '-p');
  if (args[0] === '--') args.shift();
  if (!args.length) {
    for (const [k, v] of [...sh.aliases].sort()) sh.out(`alias ${k}='${v.replace(/'/g, "'\\''")}'\n`);
    return 0;
  }
  let status = 0;
  for (const a of args) {
    const eq = a.indexOf('=');
    if (eq > 0) sh.aliases.set(a.slice(0, eq), a.slice(eq + 1));
    else if (sh.aliases.has(a)) sh.out(`alias ${a}='${sh.aliases.get(a)!.replace(/'/g, "'\\''")}'\n`);
    else {
      sh.error(`alias: ${a}: not found`);
      status = 1;
    }
  }
  return status;
};

export const unalias: Builtin = (sh, argv) => {
  if (argv[1] === '-a') {
    sh.aliases.clear();
    return 0;
  }
  const names = noOptions(sh, argv, 'unalias [-a] name [name ...]');
  if (typeof names === 'number') return names;
  if (!names.length) {
    sh.write(2, 'unalias: usage: unalias [-a] name [name ...]\n');
    return 2;
  }
  let status = 0;
  for (const a of names) {
    if (!sh.aliases.delete(a)) {
      sh.error(`unalias: ${a}: not found`);
      status = 1;
    }
  }
  return status;
};

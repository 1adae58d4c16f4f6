// What a command name resolves to: type, command and hash (alias, keyword,
// function, builtin, or a file on $PATH).

import { DEFAULT_PATH } from '../../../abi/env.js';
import { candidates } from '../../../user/execvp.js';
import { printFunction } from '../../syntax/index.js';
import { invoke } from '../exec.js';
import type { Shell } from '../shell.js';
import type { Builtin } from './types.js';
import { BUILTINS, SPECIAL_BUILTINS } from './index.js';

const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc']);

/** The executable file a name resolves to, if any (first executable regular file on $PATH). */
export function findFile(sh: Shell, name: string): string | null {
  const env = [`PATH=${sh.vars.get('PATH') ?? ''}`];
  for (const path of candidates(name, env)) {
    try {
      const st = sh.sys.stat(path);
      if ((st.mode & 0o170000) !== 0o100000) continue;
      sh.sys.access(path, 1);
      return path;
    } catch {
      /* next */
    }
  }
  return null;
}

type Kind = 'alias' | 'keyword' | 'function' | 'builtin' | 'file';

function kinds(sh: Shell, name: string): [Kind, string][] {
  const out: [Kind, string][] = [];
  if (sh.aliases.has(name)) out.push(['alias', sh.aliases.get(name)!]);
  if (KEYWORDS.has(name)) out.push(['keyword', name]);
  if (sh.functions.has(name)) out.push(['function', printFunction(sh.functions.get(name)!)]);
  if (BUILTINS[name] || SPECIAL_BUILTINS.has(name)) out.push(['builtin', name]);
  const f = findFile(sh, name);
  if (f) out.push(['file', f]);
  return out;
}

export const type: Builtin = (sh, argv) => {
  let flag = '';
  let all = false;
  let noFunctions = false;
  const names: string[] = [];
  for (const a of argv.slice(1)) {
    if (/^-[aftpP]+$/.test(a)) {
      if (a.includes('a')) all = true;
      if (a.includes('f')) noFunctions = true;
      flag = a.replace(/[af]/g, '').slice(1) || flag;
    } else names.push(a);
  }
  let status = 0;
  for (const n of names) {
    let ks = kinds(sh, n);
    // -f skips functions; -P searches PATH whatever else the name is.
    if (noFunctions) ks = ks.filter(([k]) => k !== 'function');
    if (flag === 'P') ks = ks.filter(([k]) => k === 'file');
    if (!ks.length) {
      if (!flag) sh.error(`type: ${n}: not found`);
      status = 1;
      continue;
    }
    for (const [k, v] of all ? ks : ks.slice(0, 1)) {
      if (flag === 't') sh.out(`${k}\n`);
      else if (flag === 'p' || flag === 'P') {
        if (k === 'file') sh.out(`${v}\n`);
      } else if (k === 'alias') sh.out(`${n} is aliased to \`${v}'\n`);
      else if (k === 'keyword') sh.out(`${n} is a shell keyword\n`);
      else if (k === 'function') sh.out(`${n} is a function\n${v}\n`);
      else if (k === 'builtin') sh.out(`${n} is a shell builtin\n`);
      else sh.out(`${n} is ${v}\n`);
    }
  }
  return status;
};

export const command: Builtin = (sh, argv) => {
  let i = 1;
  let mode = '';
  for (; i < argv.length && /^-[pvV]+$/.test(argv[i]); i++) mode += argv[i].slice(1);
  if (argv[i] === '--') i++;
  const args = argv.slice(i);
  if (!args.length) return 0;
  if (mode.includes('v') || mode.includes('V')) {
    // Success when any name is found (bash).
    let found = false;
    for (const n of args) {
      const [k] = kinds(sh, n);
      if (!k) {
        if (mode.includes('V')) sh.error(`command: ${n}: not found`);
        continue;
      }
      found = true;
      if (mode.includes('V')) {
        const fn = sh.functions.get(n);
        sh.out(k[0] === 'file' ? `${n} is ${k[1]}\n` : k[0] === 'builtin' ? `${n} is a shell builtin\n` : k[0] === 'keyword' ? `${n} is a shell keyword\n` : k[0] === 'alias' ? `${n} is aliased to \`${k[1]}'\n` : `${n} is a function\n${fn ? `${printFunction(fn)}\n` : ''}`);
      } else sh.out(k[0] === 'file' ? `${k[1]}\n` : k[0] === 'alias' ? `alias ${n}='${k[1]}'\n` : `${n}\n`);
    }
    return found ? 0 : 1;
  }
  // Not a function: a builtin, else a program — found on the default PATH under -p.
  if (!mode.includes('p')) return invoke(sh, args, [], [], false, false);
  sh.vars.pushScope();
  try {
    sh.vars.set('PATH', DEFAULT_PATH, { local: true });
    sh.vars.lookup('PATH')!.exported = true;
    return invoke(sh, args, [], [], false, false);
  } finally {
    sh.vars.popScope();
  }
};

export const hash: Builtin = (sh, argv) => {
  // No cache to manage (every lookup asks the filesystem); -r is accepted.
  for (const n of argv.slice(1).filter((a) => !a.startsWith('-'))) {
    if (!findFile(sh, n)) {
      sh.error(`hash: ${n}: not found`);
      return 1;
    }
  }
  if (argv.length === 1) sh.out('hash: hash table empty\n');
  return 0;
};

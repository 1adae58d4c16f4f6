// What a command name resolves to: type, command and hash (alias, keyword,
// function, builtin, or a file on $PATH).

import { DEFAULT_PATH } from '../../../abi/env.js';
import { candidates } from '../../../libc/execvp.js';
import { printFunction } from '../../syntax/index.js';
import { invoke } from '../exec.js';
import type { Shell } from '../shell.js';
import type { Builtin } from './types.js';
import { BUILTINS, SPECIAL_BUILTINS } from './index.js';

const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc']);

/** The file a name resolves to on $PATH, if any: the first executable regular file (any regular file when not `executable`). */
export function findFile(sh: Shell, name: string, executable = true): string | null {
  const env = [`PATH=${sh.vars.get('PATH') ?? ''}`];
  for (const path of candidates(name, env)) {
    try {
      const st = sh.sys.stat(path);
      if ((st.mode & 0o170000) !== 0o100000) continue;
      if (executable) sh.sys.access(path, 1);
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
  // bash's type and command -v fall back to a file that is not executable.
  const f = findFile(sh, name) ?? (name.includes('/') ? null : findFile(sh, name, false));
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

/** bash's table of the programs run (exec.ts keeps it): -r empties it, names add to it, -d drops, -t shows, -p sets. */
export const hash: Builtin = (sh, argv) => {
  const args = argv.slice(1);
  let flags = '';
  let setPath: string | undefined;
  while (args.length && /^-[rdtlp]+$/.test(args[0])) {
    const f = args.shift()!;
    flags += f.slice(1);
    if (f.includes('p')) setPath = args.shift();
  }
  if (args[0] === '--') args.shift();
  // The table belongs to the current PATH.
  const path = sh.vars.get('PATH') ?? '';
  if (sh.hashPath !== path) {
    sh.hashed.clear();
    sh.hashPath = path;
  }
  if (flags.includes('r')) sh.hashed.clear();
  if (args.length === 0) {
    if (flags.includes('r')) return 0;
    if (!sh.hashed.size) {
      if (flags.includes('l')) return 0;
      sh.out('hash: hash table empty\n');
      return 0;
    }
    if (flags.includes('l')) for (const [n, e] of sh.hashed) sh.out(`builtin hash -p ${e.path} ${n}\n`);
    else sh.out(`hits\tcommand\n${[...sh.hashed.values()].map((e) => `${String(e.hits).padStart(4)}\t${e.path}\n`).join('')}`);
    return 0;
  }
  let status = 0;
  for (const n of args) {
    if (flags.includes('d')) sh.hashed.delete(n);
    else if (flags.includes('t')) {
      const e = sh.hashed.get(n);
      if (e) sh.out(args.length > 1 ? `${n}\t${e.path}\n` : `${e.path}\n`);
      else {
        sh.error(`hash: ${n}: not found`);
        status = 1;
      }
    } else if (setPath !== undefined) {
      sh.hashed.set(n, { path: setPath, hits: 0 });
    } else if (!BUILTINS[n] && !SPECIAL_BUILTINS.has(n) && !sh.functions.has(n)) {
      const f = findFile(sh, n);
      if (f) sh.hashed.set(n, { path: f, hits: 0 });
      else {
        sh.error(`hash: ${n}: not found`);
        status = 1;
      }
    }
  }
  return status;
};

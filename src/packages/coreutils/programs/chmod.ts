// chmod [-Rcfv] MODE[,MODE]... FILE...: change file mode bits (octal or symbolic).

import { isDir, isLnk } from '../../../abi/stat.js';
import { applyMode, command, joinPath, modeString as modeStr, quote, quoteaf, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: chmod [OPTION]... MODE[,MODE]... FILE...
  or:  chmod [OPTION]... OCTAL-MODE FILE...
Change the mode of each FILE to MODE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
  -R, --recursive        change files and directories recursively
      --help     display this help and exit
      --version  output version information and exit

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'.
`;

export const chmod = command(
  {
    name: 'chmod',
    usage: USAGE,
    short: 'cfvRrwxXstugoa',
    long: { changes: ['c', 'none'], silent: ['f', 'none'], quiet: ['f', 'none'], verbose: ['v', 'none'], recursive: ['R', 'none'] },
  },
  (c) => {
    // A mode like -w or -x looks like options; GNU takes it as the MODE operand.
    const letters = c.all.filter(([k]) => 'rwxXstugoa'.includes(k) && k.length === 1).map(([k]) => k);
    let ops = c.operands;
    if (letters.length) ops = [`-${letters.join('')}`, ...ops];
    if (ops.length === 0) c.usage('missing operand');
    if (ops.length === 1) c.usage(`missing operand after ${quote(ops[0])}`);
    const [spec, ...files] = ops;
    const umask = c.sys.umask(0);
    c.sys.umask(umask);
    if (applyMode(spec, 0, false, umask) === null) c.usage(`invalid mode: ${quote(spec)}`);
    for (const f of files) change(c, f, spec, umask, true);
  },
);

function change(c: Cmd, path: string, spec: string, umask: number, top: boolean): void {
  let st;
  try {
    st = top ? c.sys.stat(path) : c.sys.lstat(path);
  } catch (e) {
    if (!c.has('f')) c.cannot('access', path, e);
    else c.status = 1;
    return;
  }
  if (isLnk(st.mode)) return; // symlinks met while recursing are not followed
  const old = st.mode & 0o7777;
  const mode = applyMode(spec, old, isDir(st.mode), umask)!;
  try {
    c.sys.chmod(path, mode);
    const o = `${old.toString(8).padStart(4, '0')} (${modeStr(st.mode).slice(1)})`;
    const n = `${mode.toString(8).padStart(4, '0')} (${modeStr((st.mode & ~0o7777) | mode).slice(1)})`;
    if (c.has('v') || (c.has('c') && old !== mode)) {
      c.out.write(old === mode ? `mode of ${quoteaf(path)} retained as ${o}\n` : `mode of ${quoteaf(path)} changed from ${o} to ${n}\n`);
    }
  } catch (e) {
    if (!c.has('f')) c.sysError(`changing permissions of ${quoteaf(path)}`, e);
    else c.status = 1;
  }
  if (c.has('R') && isDir(st.mode)) {
    for (const e of c.sys.readdir(path)) if (e.name !== '.' && e.name !== '..') change(c, joinPath(path, e.name), spec, umask, false);
  }
}
